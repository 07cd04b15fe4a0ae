"""Turkish-aware lexical retrieval: BM25 over several token fields of each passage.

What it does: analyses passages and queries into three fields — Snowball Turkish stems
(folded), 5-letter folded prefixes (robust to suffixes and end-of-word typos), and whole
folded words — and scores them with BM25 (``bm25s``). Queries are normalised against the
corpus's own vocabulary first: a word typed without Turkish letters gets its diacritics back
("atiyoruz"→"atıyoruz"), so it stems like the texts, and a word no dictionary knows that
is one letter off a corpus word is read as that word ("frosbite"); English terms are
translated with a glossary learned from the texts' own parentheses. What it does not do:
dense scoring or fusion (see ``retrieve``), or anything game-specific.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

import bm25s
import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from .text import (
    LETTERS,
    STOPWORDS,
    TURKISH_LETTERS,
    fold,
    is_english,
    is_turkish,
    prefix,
    stem,
    without_question_phrases,
    words,
)

FIELDS = ("stem", "prefix", "word")


# Words players type for one the texts use: "kaç kere", "iki defa" are the rules' "kez"
# (the five texts say "kez" 20 times, "kere" and "defa" never; 225 read questions say them).
SAME_WORD = {"kere": "kez", "defa": "kez"}


def analyse(tokens: list[str]) -> dict[str, list[str]]:
    """Field tokens for casefolded words (diacritics intact)."""
    kept = [SAME_WORD.get(fold(w), w) for w in without_question_phrases(tokens)
            if fold(w) not in STOPWORDS]
    return {
        "stem": [fold(stem(w)) for w in kept],
        "prefix": [prefix(fold(w)) for w in kept],
        "word": [fold(w) for w in kept],
    }


@dataclass(frozen=True)
class Vocabulary:
    """The corpus's words: folded form → most frequent spelling with Turkish letters."""

    restore: dict[str, str]
    folded: tuple[str, ...] = field(default=())

    @classmethod
    def from_texts(cls, texts: list[str]) -> Vocabulary:
        counts: Counter[str] = Counter(w for t in texts for w in words(t))
        restore: dict[str, str] = {}
        for word, _ in counts.most_common():
            restore.setdefault(fold(word), word)
        return cls(restore=restore, folded=tuple(sorted(restore)))

    def restore_text(self, text: str) -> str:
        """The text with each word typed without Turkish letters spelled as the corpus spells
        it ("acilis eli kac kart" → "açılış eli kaç kart"); other words kept as typed. The
        dense model reads "acilis" as another word than "açılış" (measured: its similarity to
        the passage that answers drops from 0.87 to 0.80), so it is given the restored query."""
        def restored(m: re.Match[str]) -> str:
            word = m.group()
            key = fold(word)
            spelt = self.restore.get(key, key)
            if TURKISH_LETTERS.intersection(word) or spelt == key:
                return word  # typed with Turkish letters, or spelt alike: as typed
            return spelt[:1].upper() + spelt[1:] if word[:1].isupper() else spelt
        return LETTERS.sub(restored, text)

    def normalise(self, word: str) -> str:
        """The corpus's spelling of a word typed without Turkish letters ("atiyoruz" →
        "atıyoruz"), so it stems like the texts; unknown words are returned unchanged."""
        return self.restore.get(fold(word), word)

    def repair(self, word: str) -> str:
        """``normalise``, and a word no dictionary knows mistyped by one letter from a corpus
        word ("frosbite" → "frostbite"). Dictionary words stay: "kale" is no typo of "kule"."""
        key = fold(word)
        if key in self.restore or is_turkish(word) or is_english(word):
            return self.normalise(word)
        return self.correct(word)

    def correct(self, word: str) -> str:
        """``normalise``, or else the nearest corpus word one edit away ("toplm" → "toplam").

        Ranking uses it only through ``repair``: correcting every word before BM25 cost
        more (colloquial endings "corrected" into other words) than it gained; words no
        dictionary knows, corrected, changed 19 of 6,468 read answers, mostly for the better
        (session 24). It also tells a mistyped rules word from the name of a game Hakem
        does not know.
        """
        key = fold(word)
        if key in self.restore:
            return self.restore[key]
        if len(key) >= 5 and not key[:1].isdigit():
            # Only near-certain corrections: one edit, and the same first letter.
            hit = process.extractOne(key, self.folded, scorer=Levenshtein.distance,
                                     score_cutoff=1)
            if hit is not None and hit[0][:1] == key[:1]:
                return self.restore[hit[0]]
        return word


# "Geri Çekilme (Drawdown)", "Krizde Topluluk (Communities in Crisis)": the texts give the
# English term the group may use in parentheses after the Turkish one.
_GLOSS = re.compile(r"((?:[^\W\d_][\w'’/-]*[ \t]+){0,4}[^\W\d_][\w'’/-]*)[ \t]*"
                    r"\(([A-Za-z][A-Za-z'’ -]{2,60})\)")
_PARENS = re.compile(r"\([^)]*\)")
_ASCII_WORD = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class Glossary:
    """English term → Turkish words: learned from the corpus's own parentheses, plus the
    common vocabulary every board-game rulebook shares (``BOARD_GAME_TERMS``)."""

    entries: tuple[tuple[tuple[str, ...], str], ...]  # (English word prefixes, Turkish term)

    @classmethod
    def from_texts(cls, texts: list[str]) -> Glossary:
        found: dict[tuple[str, ...], str] = {}
        # Words the texts use outside parentheses: a parenthesis made of them is a Turkish
        # aside ("(kim ne koydu bilinmez)"), not an English term.
        turkish_words = {fold(w) for t in texts for w in words(_PARENS.sub(" ", t))}
        for text in texts:
            for match in _GLOSS.finditer(text):
                raw = [fold(w) for w in _ASCII_WORD.findall(match.group(2))]
                if sum(w in turkish_words for w in raw) * 2 >= len(raw):
                    continue
                english = [_key(w) for w in raw if w not in STOPWORDS]
                turkish = _turkish_term(match.group(1).split(), len(english))
                if english and turkish:
                    found.setdefault(tuple(english), turkish)
        for english_word, turkish in BOARD_GAME_TERMS.items():
            found.setdefault((_key(english_word),), turkish)
        return cls(entries=tuple(sorted(found.items(), key=lambda e: -len(e[0]))))

    def word(self, english: str) -> str | None:
        """The Turkish word the texts give for one English word, at its place in the term
        glossed: "Growth" → "Büyüme" ("Büyüme (Growth)"), "Colony" → "Koloni" ("Koloni
        Tahtası (Colony Board)"); a one-word gloss first. None when none gives it."""
        key = _key(fold(english))
        for english_keys, turkish in reversed(self.entries):  # shortest terms first
            said = turkish.split()
            if key in english_keys and len(said) == len(english_keys):
                return said[english_keys.index(key)]
        return None

    def expand(self, query: str) -> str:
        """The Turkish terms for every English term the query contains (may be empty).

        Ranking, fact search, coverage and the number check each ask for the same query's
        terms; the answer is cached (the glossary is frozen, so the cache never goes stale)."""
        return _expand(self.entries, query)


@lru_cache(maxsize=4096)
def _expand(entries: tuple[tuple[tuple[str, ...], str], ...], query: str) -> str:
    typed = [_key(fold(w)) for w in words(query) if fold(w) not in STOPWORDS]
    out = []
    for english, turkish in entries:
        n = len(english)
        if any(tuple(typed[i : i + n]) == english for i in range(len(typed) - n + 1)):
            out.append(turkish)
    return " ".join(out)


def _key(english: str) -> str:
    """How an English word is looked up: its 5-letter prefix, singular ("tiles" → "tile",
    which "tile" alone would miss: "tiles"[:5] is not "tile")."""
    if len(english) > 3 and english.endswith("s") and not english.endswith("ss"):
        english = english[:-1]
    return prefix(english)


# The words of any board game's rules, English → Turkish, for players who mix the two. Kept
# to the generic vocabulary of the hobby on purpose: a game's own terms ("Drawdown", "Gig")
# come from its text's parentheses above, never from a list written here.
BOARD_GAME_TERMS = {
    "card": "kart", "deck": "deste", "hand": "el", "draw": "çek", "discard": "at",
    "shuffle": "karıştır", "die": "zar", "dice": "zar", "roll": "at", "round": "raunt tur",
    "turn": "tur sıra", "player": "oyuncu", "players": "oyuncu", "token": "jeton",
    "tile": "karo", "board": "tahta", "piece": "parça", "point": "puan", "points": "puan",
    "vp": "zafer puanı", "score": "puan skor", "win": "kazan", "winner": "kazanan",
    "lose": "kaybet", "tie": "beraberlik", "setup": "kurulum hazırlık", "start": "başlangıç",
    "first": "ilk", "end": "son bitiş", "action": "aksiyon", "move": "hareket",
    "cost": "maliyet", "limit": "sınır", "maximum": "en fazla", "minimum": "en az",
    "total": "toplam", "each": "her", "game": "oyun", "rule": "kural", "rules": "kural",
    "variant": "varyant", "solo": "solo", "penalty": "ceza", "bonus": "bonus",
    "phase": "aşama faz", "step": "adım", "area": "alan", "zone": "alan", "space": "alan",
    "play": "oyna", "opponent": "rakip", "attack": "saldırı saldır", "defend": "savun",
    "damage": "hasar", "trash": "çöp", "sell": "satış", "buy": "satın al", "pay": "öde",
    "spend": "harca", "gain": "kazan", "stack": "yığın", "pile": "yığın", "supply": "stok",
    "place": "yerleştir koy", "remove": "kaldır", "return": "geri", "reveal": "aç",
    "hidden": "gizli", "secret": "gizli", "face": "yüz", "down": "kapalı", "up": "açık",
    "worker": "işçi", "build": "inşa", "building": "bina", "city": "şehir", "map": "harita",
    "mission": "görev", "objective": "hedef", "goal": "hedef", "condition": "koşul",
    "trigger": "tetikle", "effect": "etki", "ability": "yetenek", "level": "seviye",
    "track": "iz", "marker": "işaretçi belirteç", "cube": "küp", "hex": "altıgen",
    "neighbor": "komşu", "adjacent": "bitişik", "resource": "kaynak", "money": "para",
    "exile": "sürgün", "vote": "oy", "starting": "başlangıç", "next": "sonraki",
    "settlement": "yerleşim", "port": "liman", "harbor": "liman", "field": "tarla",
    "forest": "orman", "plant": "santral", "technology": "teknoloji", "tech": "teknoloji",
    "morale": "moral", "milestone": "kilometre taşı", "segment": "bölüm",
    "delay": "gecikme", "spent": "harcanmış", "exhausted": "harcanmış", "ready": "hazır",
    "steal": "çal", "swap": "takas", "trade": "takas",
    "chart": "çizelge", "recharge": "yeniden şarj", "mode": "mod", "match": "eşleş",
    "rail": "demiryolu", "railway": "demiryolu", "railroad": "demiryolu", "coal": "kömür",
    "uranium": "uranyum", "electricity": "elektrik", "turbine": "türbin",
    "experiment": "deney", "income": "gelir", "expansion": "genişleme", "medium": "orta",
    "small": "küçük", "large": "büyük", "opening": "açılış", "value": "değer",
    # Place names players type in English ("Scotland'da", "Ireland side'ında"): general
    # words, not a game's terms, though only one text uses them today.
    "scotland": "İskoçya", "ireland": "İrlanda",
}


def _turkish_term(before: list[str], n_english: int) -> str:
    # The Turkish term is the run of capitalised words just before the parenthesis
    # ("... biriktirirse Krizde Topluluk"); when nothing is capitalised, as many words as the
    # English term has.
    caps: list[str] = []
    for word in reversed(before):
        if not word[:1].isupper() or len(caps) >= 4:
            break
        caps.insert(0, word)
    return " ".join(caps or before[-max(1, n_english):])


# Enough of these in a question and it is English ("how many ... does ... the ...").
_ENGLISH_FUNCTION_WORDS = frozenset("""the a an of in on to is are do does did how many much
what which who when where why if my i you your we our for with and or can could should
would will it its this that there their""".split())


class LexicalIndex:
    """BM25 per field over a fixed list of passages; scores for all passages at once."""

    def __init__(self, texts: list[str], weights: dict[str, float] | None = None) -> None:
        self.vocab = Vocabulary.from_texts(texts)
        self.glossary = Glossary.from_texts(texts)
        self.weights = weights or {"stem": 1.0, "prefix": 0.6, "word": 0.4}
        analysed = [analyse(words(t)) for t in texts]
        df: Counter[str] = Counter(t for a in analysed for t in set(a["stem"]) | set(a["prefix"]))
        n = max(len(texts), 1)
        # Inverse document frequency of stems and prefixes, for weighting terms in sentences.
        self._idf = {t: math.log(1 + (n - c + 0.5) / (c + 0.5)) for t, c in df.items()}
        self._idf_unseen = math.log(1 + (n + 0.5) / 0.5)
        self._bm25: dict[str, bm25s.BM25] = {}
        for name in FIELDS:
            model = bm25s.BM25()
            model.index([a[name] or ["∅"] for a in analysed], show_progress=False)
            self._bm25[name] = model
        self.size = len(texts)

    def query_fields(self, query: str, expand: bool = True,
                     normalise: bool = True) -> dict[str, list[str]]:
        if expand:
            query = f"{query} {self.glossary.expand(query)}"
        typed = words(query)
        return analyse([self.vocab.repair(w) for w in typed] if normalise else typed)

    def content_terms(self, query: str) -> set[str] | None:
        """Stems and prefixes of the query's words as the corpus knows them (diacritics
        restored, typos repaired, English terms translated by the glossary); ``None`` for a
        question mostly in English, whose words a Turkish passage cannot be expected to
        share, so that word overlap says nothing either way."""
        # Folded, so that "If"/"Is" (casefolded the Turkish way to "ıf"/"ıs") still count.
        if sum(fold(w) in _ENGLISH_FUNCTION_WORDS for w in words(query)) >= 2:
            return None
        fields = analyse([self.vocab.normalise(w)
                          for w in words(f"{query} {self.glossary.expand(query)}")])
        return set(fields["stem"]) | set(fields["prefix"])

    def knows(self, word: str) -> bool:
        """The word, or its stem, occurs in the texts: a word the rules talk about. (Not an
        English word the glossary merely matches by prefix: "contract" and "contribution"
        share one.)"""
        return (fold(word) in self.vocab.restore
                or fold(stem(self.vocab.normalise(word))) in self._idf)

    def known_share(self, query: str) -> float:
        """The share of the query's words (3+ letters, no stopwords or numbers) that the texts
        use or the glossary translates: low for a question about something else entirely
        ("en iyi pizza nerede yenir"); 1.0 when there is no such word."""
        typed = [w for w in words(query)
                 if len(w) > 2 and not w[:1].isdigit() and fold(w) not in STOPWORDS]
        if not typed:
            return 1.0
        return sum(self.knows(w) or bool(self.glossary.expand(w)) for w in typed) / len(typed)

    def missing_rarity(self, query: str, texts: list[str]) -> float:
        """How rare (IDF, scaled to [0, 1]) the rarest of the query's words is among those
        that none of ``texts`` carries (by stem or 5-letter prefix; an English word counts
        as carried when its glossary translation is): a question whose most specific word
        is absent from the passages is likely about something they do not say. 0 when
        every word is carried."""
        carried: set[str] = set()
        for text in texts:
            fields = analyse(words(text))
            carried |= set(fields["stem"]) | set(fields["prefix"])
        worst = 0.0
        for word in words(query):
            if len(word) < 3 or word[:1].isdigit() or fold(word) in STOPWORDS:
                continue
            forms = [self.vocab.normalise(word), *words(self.glossary.expand(word))]
            fields = analyse(forms)
            if set(fields["stem"]) & carried or set(fields["prefix"]) & carried:
                continue
            rarity = max((self.idf(t) for t in fields["stem"]), default=0.0)
            worst = max(worst, rarity / self._idf_unseen)
        return worst

    def idf(self, term: str) -> float:
        return self._idf.get(term, self._idf_unseen)

    def scores(self, query: str, fields: tuple[str, ...] = FIELDS,
               expand: bool = True, normalise: bool = True) -> np.ndarray:
        """Weighted sum of per-field BM25 scores, one per passage (0 where nothing matches)."""
        total = np.zeros(self.size, dtype=np.float32)
        analysed = self.query_fields(query, expand, normalise)
        for name in fields:
            tokens = analysed[name]
            if tokens:
                total += self.weights[name] * self._bm25[name].get_scores(tokens)
        return total
