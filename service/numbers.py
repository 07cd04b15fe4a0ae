"""Numbers stated in Turkish text, read exactly: digits and number words.

What it does: finds the numbers a text states ("12", "12+", "2,0", "30'u", "on iki", "üç",
and folded "uc"/"dort" typed without Turkish letters) with their character spans, and the
sentences that state one. What it does not do: fuzzy matching of any kind ("12" never
matches "2"), or deciding what a number counts (see ``factsearch``).
"""

from __future__ import annotations

import re

from .chunks import is_junk
from .text import LEADING_MARK, LETTERS, casefold_tr, fold, sentence_spans

# Cardinals by casefolded word. "bir" (1) is left out on purpose: it is far more often the
# indefinite article ("bir kart") than the number, so counting it would make nearly every
# sentence "numeric"; a rule's 1 is written as the digit in these texts, and facts may still
# carry value 1 where the text says "bir kez". "yüz" (100, also "face") and "bin" (1000, also
# "get on") are left out for the same reason; the texts write those numbers in digits.
_UNITS = {"sıfır": 0, "iki": 2, "üç": 3, "dört": 4, "beş": 5, "altı": 6, "yedi": 7,
          "sekiz": 8, "dokuz": 9}
_TENS = {"on": 10, "yirmi": 20, "otuz": 30, "kırk": 40, "elli": 50, "altmış": 60,
         "yetmiş": 70, "seksen": 80, "doksan": 90}
_CARDINALS = {**_UNITS, **_TENS}
# Inflected forms: consonant softening stems ("dördü", "dördüncü") and the endings a number
# word takes (possessive, case, "-li" adjective, distributive "-er", ordinal; "ikisinde", "in
# two of them"). A closed list, so "altına" (under it) or "ona" (to him) never read as 6 or 10.
_STEMS = {**{w: w for w in _CARDINALS}, "dörd": "dört"}
_ENDINGS = ("", "ü", "u", "ı", "i", "sı", "si", "yı", "yi", "ye", "ya", "e", "a", "de", "da",
            "te", "ta", "den", "dan", "ten", "tan", "li", "lı", "lu", "lü", "er", "ar", "şer",
            "şar", "inci", "ıncı", "uncu", "üncü", "nci", "ncı", "ncu", "ncü", "sini", "sını",
            "sine", "sına", "yü", "yu", "sinde", "sında", "ünde", "unde", "inde", "ında")
_FRONT, _BACK = set("eiöü"), set("aıou")


def _harmonic(stem_word: str, ending: str) -> bool:
    # Turkish vowel harmony (front/back): "üçe" is a form of üç, "üça" is not a word.
    last = [c for c in stem_word if c in _FRONT | _BACK][-1]
    group = _FRONT if last in _FRONT else _BACK
    return all(c in group for c in ending if c in _FRONT | _BACK)


_WORD_NUMBERS: dict[str, int] = {
    stem_word + end: _CARDINALS[base]
    for stem_word, base in _STEMS.items() for end in _ENDINGS if _harmonic(stem_word, end)
}
# "birinci" (first) is the ordinal of "bir" and, unlike it, never an article.
_WORD_NUMBERS.update({"birinci" + end: 1 for end in ("", "si", "yi", "ye", "de", "den", "ydi",
                                                       "lik")})
# An ordinal said of oneself: "birinciyim", "ikinciyim", "üçüncüydüm", "onuncuyuz".
_WORD_NUMBERS.update({
    w + ending.replace("V", w[-1]): n
    for w, n in list(_WORD_NUMBERS.items()) if w.endswith(("nci", "ncı", "ncu", "ncü"))
    for ending in ("yVm", "ydVm", "yVz", "ydVk")})
# Forms that are also everyday words: the pronoun "o" (ona, onu, onda, ondan).
for _w in ("ona", "onu", "onda", "ondan", "ondaki", "onunda"):
    _WORD_NUMBERS.pop(_w, None)
# Typed without diacritics ("uc", "dort", "bes"): only a token with no Turkish letter may match
# a folded form, so "uç" (tip) or "ön" (front) never read as 3 or 10; "ucu" (its tip) is out.
_FOLDED_NUMBERS = {fold(w): n for w, n in _WORD_NUMBERS.items()}
for _w in ("ucu", "ucunu", "onde", "onden"):
    _FOLDED_NUMBERS.pop(_w, None)
_ASCII = re.compile(r"^[a-z]+$")
# Digits not glued to a letter before them (labels like "A7", "d20", "pic123" are names),
# a sign only when it starts the token ("-1 puan", "+2"), decimals with "," or ".". A lone
# "x" right before digits is the times sign as typed on a keyboard, read like "×": "x4
# kademesinde", "puan x2", also "3x4" (3 and 4); a sign after it is not read ("x-1": 1).
_DIGITS = re.compile(r"(?:(?<![^\W\d_])(?<![\d.,])([+-]?)|(?<=(?<![^\W\d_])[xX]))"
                     r"(\d+(?:[.,]\d+)?)(?![.,]?\d)")
# "3,3,3,5,5": values listed with commas and no spaces. Two or more commas make no decimal,
# so each is a number of its own ("3,5" alone stays the decimal 3.5).
_COMMA_LIST = re.compile(r"(?<![^\W\d_])(?<![\d.,])\d{1,2}(?:,\d{1,2}){2,}(?![.,]?\d)")
WORD = LETTERS  # a word of letters, as text.py reads one
# No rule states a number this long; a longer run of digits is an id or noise, not a count,
# and read as a float it would be inf (or lose its digits), which no arithmetic survives.
MAX_DIGITS = 12
_ENGLISH_AFTER_ON = frozenset(["the", "a", "an", "my", "your", "his", "her", "their", "our",
                               "this", "that", "each", "every", "it", "its", "top", "board",
                               "turn", "hand"])


def word_number(token: str) -> int | None:
    low = casefold_tr(token)
    if low in _WORD_NUMBERS:
        return _WORD_NUMBERS[low]
    if _ASCII.match(low):
        return _FOLDED_NUMBERS.get(low)
    return None


def number_spans(text: str) -> list[tuple[int, int, float]]:
    """(start, end, value) of every number stated in ``text``, in order."""
    found: list[tuple[int, int, float]] = []
    for m in _DIGITS.finditer(text):
        raw = m.group(2).replace(",", ".")
        if len(m.group(2).split(",")[0].split(".")[0]) > MAX_DIGITS:
            continue
        value = float(m.group(1) + raw) if m.group(1) == "-" else float(raw)
        found.append((m.start(), m.end(), value))
    for m in _COMMA_LIST.finditer(text):
        pos = m.start()
        for part in m.group().split(","):
            found.append((pos, pos + len(part), float(part)))
            pos += len(part) + 1
    tokens = list(WORD.finditer(text))
    i = 0
    while i < len(tokens):
        n = word_number(tokens[i].group())
        if n is None:
            i += 1
            continue
        nxt = casefold_tr(tokens[i + 1].group()) if i + 1 < len(tokens) else ""
        # Folded: "On The" casefolds the Turkish way to "on the", but "IN"/"IT" to "ın"/"ıt".
        if casefold_tr(tokens[i].group()) == "on" and (not nxt or fold(nxt) in _ENGLISH_AFTER_ON):
            i += 1  # English "on the ..." in mixed questions is not ten
            continue
        prev = fold(tokens[i - 1].group()) if i else ""
        if fold(tokens[i].group()) == "alti" and prev in ("ve", "veya"):
            i += 1  # "3 ve altı" is "3 and below", not six
            continue
        # "on iki" is twelve, "on, iki" or "on. üç" two numbers
        joined = i + 1 < len(tokens) and not text[tokens[i].end() : tokens[i + 1].start()].strip()
        unit = word_number(nxt) if nxt and joined else None
        if n >= 10 and n % 10 == 0 and unit is not None and 0 < unit < 10:
            found.append((tokens[i].start(), tokens[i + 1].end(), float(n + unit)))  # "on iki"
            i += 2
            continue
        found.append((tokens[i].start(), tokens[i].end(), float(n)))
        i += 1
    return sorted(found)


def numbers_in(text: str) -> list[float]:
    """Exact numbers stated in ``text``: digits ("12", "12+", "2,0", "30'u", "-1") and
    Turkish number words ("iki", "on iki", folded "uc"), in order of appearance."""
    return [value for _, _, value in number_spans(text)]


# A rank, not a count: "ikinci", "üçüncü" (folded endings), "8. teknoloji", "1. sıra".
_RANK = re.compile(r"(?:nci|ncu)(?:y(?:d?[iu][mz]|d[iu]k))?$")
_RANK_DIGIT = re.compile(r"\.\s+[a-zçğıöşü]")


def is_rank(word: str) -> bool:
    """A number word that is an ordinal: "ikinci", "üçüncü", "dördüncü", also said of
    oneself ("ikinciydim")."""
    return bool(_RANK.search(fold(word)))


def is_digit_rank(text: str, start: int, end: int) -> bool:
    """The digits at ``text[start:end]`` are an ordinal: "8. teknoloji", "2. türbinim" (a
    sentence's last number, "… 2. Kaç", is not)."""
    return text[start:end].isdigit() and bool(_RANK_DIGIT.match(text, end))


def counts_in(text: str) -> list[float]:
    """The numbers ``text`` states as counts or amounts: ``numbers_in`` without ranks
    ("ikinci olan", "8. teknoloji", "1. sıra")."""
    return [value for start, end, value in number_spans(text)
            if not is_rank(text[start:end]) and not is_digit_rank(text, start, end)]


def fmt_number(x: float) -> str:
    """12.0 → "12", 0.1 → "0,1" (Turkish decimal comma)."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}".replace(".", ",")


def numeric_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text`` that state a number (junk lines skipped)."""
    out, pos = [], 0
    for raw in text.splitlines(keepends=True):
        line = raw.rstrip("\r\n")
        if line.strip() and not is_junk(line.strip()):
            for span in sentence_spans(line, offset=pos):
                sentence = text[span.start : span.end]
                # An item's list marker ("2. Herhangi bir …") numbers the list, not the rule.
                if numbers_in(LEADING_MARK.sub("", sentence)):
                    out.append((span.start, span.end))
        pos += len(raw)
    return out
