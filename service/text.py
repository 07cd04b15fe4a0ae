"""Turkish-aware text primitives: casefolding, diacritic folding, tokens, stems, sentences.

What it does: the small, pure string functions every other stage shares, so that a query
typed as "KAÇ ZAR ATIYORUZ", "kac zar atiyoruz" or "Kaç zar atıyoruz?" meets the corpus on
the same tokens; and ``is_turkish`` / ``is_english``, which ask simplemma's dictionaries
(loaded once, on first use: about 1 s and 100 MB) whether a word is Turkish or English.
What it does not do: any other I/O, any ranking, anything game-specific.

Why not ``str.lower()``: Python lowercases "I" to "i" and "İ" to "i̇" (i + combining dot);
Turkish wants "I"→"ı" and "İ"→"i". ``casefold_tr`` handles that first, then lowercases.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

import simplemma  # its Turkish dictionary of word forms tells Turkish words from names
import Stemmer  # PyStemmer: the Snowball stemmers, Turkish among them

_FOLD = str.maketrans({"ç": "c", "ğ": "g", "ı": "i", "ö": "o", "ş": "s", "ü": "u",
                       "â": "a", "î": "i", "û": "u"})
APOSTROPHES = "'’‘`´"
# A word: letters/digits, allowing inner decimal commas/points ("2,0") so numbers stay whole.
_TOKEN = re.compile(r"\d+(?:[.,]\d+)?|[^\W\d_]+", re.UNICODE)
_SUFFIX_AFTER_APOSTROPHE = re.compile(rf"(\w)[{APOSTROPHES}]\w+")
LETTERS = re.compile(r"[^\W\d_]+")  # a run of letters: a word without its digits
TURKISH_LETTERS = frozenset("çğıöşüÇĞİÖŞÜ")


def casefold_tr(text: str) -> str:
    """Lowercase with Turkish dotted/dotless i rules ("IŞIK"→"ışık", "İZMİR"→"izmir")."""
    return text.replace("I", "ı").replace("İ", "i").lower()


@lru_cache(maxsize=1 << 16)  # the same words are folded again and again: corpus and queries
def fold(text: str) -> str:
    """Turkish casefold, then strip diacritics ("Çoğunluk"→"cogunluk", "ısırık"→"isirik")."""
    lowered = casefold_tr(text).translate(_FOLD)
    decomposed = unicodedata.normalize("NFKD", lowered)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def drop_apostrophe_suffixes(text: str) -> str:
    """"Daybreak'te"→"Daybreak", "30'u"→"30": Turkish case endings on proper nouns and numbers."""
    return _SUFFIX_AFTER_APOSTROPHE.sub(r"\1", text)


# A loanword with a Turkish ending typed straight on, no apostrophe ("legendlar",
# "stackleri", "deckte", "decke"): plural, case and possessive endings, folded.
_RUN_ON_ENDING = re.compile(
    r"(?:l[ae]r)?(?:[iu]|[iu]n|[iu]m|[iu]m[iu]z|[ae]|y[ae]|n[iu]n|[dt][ae]|[dt][ae]n|"
    r"[dt][ae]ki|n[ae]|[iu]n[ae])?|l[ae]")


def run_on_bases(word: str) -> tuple[str, ...]:
    """Each word of four or more letters a Turkish ending may have been typed onto without
    an apostrophe, longest first ("tokenin" → "tokeni", "token", "toke"), folded; () when
    no ending fits. The caller knows which of them is a word."""
    folded = fold(word)
    return tuple(folded[:i] for i in range(len(folded) - 1, 3, -1)
                 if _RUN_ON_ENDING.fullmatch(folded[i:]))


def words(text: str) -> list[str]:
    """Casefolded (not diacritic-folded) word tokens, apostrophe suffixes removed."""
    return _TOKEN.findall(casefold_tr(drop_apostrophe_suffixes(text)))


# The present tense as said and typed ("atıyom", "çekiyoz", "oluyo"), folded, and its
# written ending: "-iyom" → "-iyorum", "-iyoz" → "-iyoruz", "-iyo" → "-iyor".
_SAID_PRESENT = re.compile(r"(\w+[iu])yo(m|z|n|sun|sunuz|lar)?")
_WRITTEN_PERSON = {None: "", "m": "um", "z": "uz", "n": "sun", "sun": "sun", "sunuz": "sunuz",
                   "lar": "lar"}


def written_present(word: str) -> str:
    """A folded present-tense verb as it is written ("atiyom" → "atiyorum", "koyuyoz" →
    "koyuyoruz"); any other word unchanged. A rule's "atıyorum" then matches the player's
    "atıyom"."""
    m = _SAID_PRESENT.fullmatch(word)
    return f"{m.group(1)}yor{_WRITTEN_PERSON[m.group(2)]}" if m else word


_LOCAL = threading.local()


def _stemmer() -> Stemmer.Stemmer:
    # A PyStemmer instance must not be shared between threads (its documentation says so),
    # and the API answers from a thread pool: one stemmer per thread.
    stemmer = getattr(_LOCAL, "stemmer", None)
    if stemmer is None:
        stemmer = _LOCAL.stemmer = Stemmer.Stemmer("turkish")
    return stemmer


@lru_cache(maxsize=1 << 16)
def stem(word: str) -> str:
    """Snowball Turkish stem of one casefolded word; numbers are returned unchanged."""
    if word[:1].isdigit():
        return word
    return str(_stemmer().stemWord(word))


# Each letter a Turkish letter may have been typed as: "cok" for "çok", and "SIMDI", which
# casefolds to "sımdı", for "şimdi".
_UNFOLD = MappingProxyType({"c": "cç", "g": "gğ", "i": "iı", "ı": "ıi", "o": "oö", "s": "sş",
                            "u": "uü"})


@lru_cache(maxsize=1 << 14)
def is_turkish(word: str) -> bool:
    """The word is a Turkish word form (simplemma's dictionary), also when typed without
    Turkish letters ("bugun" → "bugün"): every spelling with the letters restored is tried."""
    word = casefold_tr(word)
    if not word.isalpha():  # "", digits, punctuation: not a word of any language
        return False
    slots = [i for i, c in enumerate(word) if c in _UNFOLD]
    if len(slots) > 8:  # 256 spellings at most; a longer word is judged as typed
        slots = []
    for choice in range(1 << len(slots)):
        letters = list(word)
        for bit, i in enumerate(slots):
            letters[i] = _UNFOLD[word[i]][(choice >> bit) & 1]
        if simplemma.is_known("".join(letters), lang="tr"):
            return True
    return False


@lru_cache(maxsize=1 << 14)
def is_english(word: str) -> bool:
    """The word is an English word form (simplemma's English dictionary): "deck", "phase",
    "opponent". Folded first, since the Turkish casefold makes "Is" "ıs"."""
    word = fold(word)
    return word.isalpha() and simplemma.is_known(word, lang="en")


def prefix(word: str, n: int = 5) -> str:
    """The first ``n`` letters of a folded word: a cheap stem that survives typos at the end."""
    return word if word[:1].isdigit() else word[:n]


# Very frequent function words that carry no rule content. Kept short on purpose: question
# words like "kaç", "ne zaman" and negations matter to players and stay in.
STOPWORDS = frozenset(fold(w) for w in (
    "ve", "veya", "ile", "bir", "bu", "şu", "o", "da", "de", "ki", "mi", "mı", "mu", "mü",
    "için", "gibi", "ama", "ancak", "yani", "ya", "her", "the", "a", "an", "of", "in", "on",
    "to", "is", "are", "do", "does", "i", "my", "we", "our", "you", "your", "abi", "kanka",
    "lan", "be", "yaa",
    # question words: they say what kind of answer is wanted, not what the rule is about
    "ne", "neden", "niye", "nasıl", "hangi", "hangisi", "nedir", "neler", "kim", "nerede",
    "demek",
))


# "ne zaman" (when), as typed ("ne zmn", "ne zamn"), folded: a question word of two words.
# Its "zaman" is no content word: it would match a rule's "Zaman:" (time runs out).
_WHEN_TIME = frozenset(("zaman", "zamn", "zman", "zmn"))


def without_question_phrases(tokens: list[str]) -> list[str]:
    """The tokens without the second word of a two-word question word ("ne zaman")."""
    return [t for i, t in enumerate(tokens)
            if not (i and fold(t) in _WHEN_TIME and fold(tokens[i - 1]) == "ne")]


# Sentence ends: . ! ? followed by space and a capital, digit, quote or dash; a " - " list
# bullet; or a line break (a heading line never runs on into its paragraph). "2,0°C" and
# "vb." inside a sentence do not end it because no capital follows.
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"”’')]*\s+(?=[\"“‘(]*[A-ZÇĞİÖŞÜ0-9-])|\s+(?=- \S)"
                           r"|\s*\n\s*")


@dataclass(frozen=True)
class Span:
    """A half-open character range ``[start, end)`` into some text."""

    start: int
    end: int


# A numbered list written inline: "Kaybetme Koşulları: 1. Termometre … 2. Herhangi bir
# oyuncu …". A marker is a one- or two-digit number and a full stop, after a space, a colon
# or the start, before a capital; it counts only beside its neighbour in the same text (a 1
# next to a 2), so a lone "en fazla 6. Sonra" is left to the ordinary rules.
_LIST_MARK = re.compile(r"(?<![^\s:])(\d{1,2})\.(?=\s+[\"“‘(]*[A-ZÇĞİÖŞÜ0-9])")


# The marker a list item opens with, once the item is a sentence of its own.
LEADING_MARK = re.compile(r"^\d{1,2}\.\s+(?=[\"“‘(]*[A-ZÇĞİÖŞÜ0-9])")


def list_marks(text: str) -> list[Span]:
    """The spans of the inline list markers ("2.") of ``text``."""
    found = [(m.start(), m.end(), int(m.group(1))) for m in _LIST_MARK.finditer(text)]
    numbers = {n for _, _, n in found}
    return [Span(a, b) for a, b, n in found if n - 1 in numbers or n + 1 in numbers]


def sentence_spans(text: str, offset: int = 0) -> list[Span]:
    """Split ``text`` into sentence spans (offsets shifted by ``offset``), whitespace trimmed.

    An inline list item is a sentence of its own, marker first ("2. Herhangi bir oyuncu 12
    veya daha fazla … biriktirirse"), never a marker cut off or run on into the next item."""
    marks = list_marks(text)
    cuts = [(m.start(), m.end()) for m in _SENTENCE_END.finditer(text)
            if not any(mk.start <= m.start() <= mk.end for mk in marks)]
    cuts += [(mk.start, mk.start) for mk in marks]
    spans: list[Span] = []
    pos = 0
    for start, end in sorted(cuts):
        if start < pos:
            continue
        spans.extend(_trimmed(text, pos, start, offset))
        pos = end
    spans.extend(_trimmed(text, pos, len(text), offset))
    return spans


def _trimmed(text: str, start: int, end: int, offset: int) -> list[Span]:
    piece = text[start:end]
    stripped = piece.strip()
    if not stripped:
        return []
    lead = len(piece) - len(piece.lstrip())
    return [Span(offset + start + lead, offset + start + lead + len(stripped))]
