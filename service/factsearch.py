"""Rank the facts table for a question: shared words, and numbers matched exactly.

What it does: scores each fact of a game by the question's words found in the fact's fields
(subject, keywords, effect, unit, quote; folded words, Turkish stems and 5-letter prefixes,
weighted by rarity), with a small general glossary for English board-game words, then lifts
facts whose range holds a number the question states about the same thing and pushes down
those whose range excludes it. What it does not do: decide whether to abstain (an empty
list means nothing overlaps), or know any particular game.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .facts import Fact, FactHit, apply_rate
from .lexical import Glossary
from .mentions import word_matches
from .numbers import WORD, is_rank, number_spans, numbers_in, word_number
from .text import STOPWORDS, fold, prefix, stem, without_question_phrases, words

# Where a question word matches counts by how much that field says what the fact is about.
_FIELD_WEIGHTS = (("subject", 3.0), ("keywords", 3.0), ("effect", 2.0), ("unit", 1.5),
                  ("quote", 1.0), ("game", 1.5))
# A folded word match is worth more than a shared stem, which is worth more than a prefix.
_KIND_WEIGHTS = {"w": 1.0, "s": 0.85, "p": 0.6}
MIN_OVERLAP = 2.0  # below this lexical score a fact shares no meaningful word with the question
IN_RANGE_BOOST = 1.6
OUT_OF_RANGE = 0.5
NUMBER_MENTIONED = 1.3
ASKED_BOOST = 1.3  # the fact gives the very thing asked for ("kaç zombi" → a count of zombi)
DENSE_WEIGHT = 1.0  # meaning counts as much as shared words, as in passage retrieval
DENSE_CANDIDATES = 3  # facts closest in meaning are candidates even with no shared word


def word_features(token: str) -> dict[str, str]:
    """How a word is matched against facts: folded ("w"), and, from 4 letters, its Turkish
    stem ("s") and 5-letter prefix ("p")."""
    folded = fold(token)
    out = {"w": folded}
    if len(folded) >= 4:
        out["s"] = fold(stem(token))
        out["p"] = prefix(folded)
    return out


# Every fact answers "how many", so question words (and "olan", "tane") carry no signal
# here; they stay content words for passage retrieval (see text.STOPWORDS).
_QUESTION_WORDS = frozenset(fold(w) for w in re.findall(r"\S+", """
kaç kaçı kaça kaçta kaçtır kaçar kaçıncı nedir ne neler nasıl hangi hangisi hangileri mı mi
mu mü mıdır midir acaba how many much what which does
olan olarak var olur olursa olunca oluyor tane adet kadar"""))


def _content_tokens(text: str) -> list[str]:
    """Words that say what a text is about: no stopwords, question words or numbers (numbers
    are matched exactly, by value, never as words)."""
    return [t for t in without_question_phrases(words(text)) if not t[:1].isdigit()
            and (word_number(t) is None or is_rank(t))  # "ikinci" is a rank
            and fold(t) not in STOPWORDS and fold(t) not in _QUESTION_WORDS]


def _expand(tokens: list[str], english: str) -> list[tuple[str, float]]:
    """The question's words (weight 1) and the Turkish terms its English ones translate to
    (0.8), as the corpus's own glossary gives them ("Temperature Band" → Sıcaklık Bandı)."""
    out = [(t, 1.0) for t in tokens]
    out.extend((t, 0.8) for t in dict.fromkeys(_content_tokens(english)) if t not in tokens)
    return out


def _fact_fields(fact: Fact) -> dict[str, str]:
    return {"subject": fact.subject, "keywords": " ".join(fact.keywords), "effect": fact.effect,
            "unit": f"{fact.unit} {fact.value_unit}", "quote": fact.quote,
            "game": fact.game.replace("-", " ")}


_ORDINAL_WORDS = ("", "birinci", "ikinci", "üçüncü", "dördüncü", "beşinci", "altıncı",
                  "yedinci", "sekizinci", "dokuzuncu")
# "2. sıra", "6. raunt": a digit ordinal, read as its word so "ikinci olan" meets "2. sıra".
_DIGIT_ORDINAL = re.compile(r"(?<![\d.,])([1-9])\.(?=\s+[a-zçğıöşü])")


@lru_cache(maxsize=4096)  # facts are frozen: their features are computed once
def _fact_index(fact: Fact) -> dict[tuple[str, str], float]:
    """Feature → best field weight for one fact."""
    out: dict[tuple[str, str], float] = {}
    for field, weight in _FIELD_WEIGHTS:
        text = _fact_fields(fact)[field]
        text += " " + " ".join(_ORDINAL_WORDS[int(d)] for d in _DIGIT_ORDINAL.findall(text))
        for tok in _content_tokens(text):
            for kind, feat in word_features(tok).items():
                key = (kind, feat)
                out[key] = max(out.get(key, 0.0), weight)
    return out


def search_facts(facts: tuple[Fact, ...] | list[Fact], question: str, game: str | None,
                 limit: int = 5, glossary: Glossary | None = None,
                 query_vector: np.ndarray | None = None,
                 fact_vectors: np.ndarray | None = None) -> list[FactHit]:
    """Facts ranked for ``question`` (restricted to ``game`` when given); [] if none matches.

    ``glossary`` translates the English game terms of mixed questions ("kaç Communities in
    Crisis jetonu") into the texts' Turkish ones. With ``query_vector`` and ``fact_vectors``
    (one row per fact of ``facts``), facts are also matched by meaning: each signal is scaled
    to [0, 1] within the game and the two are added, so a question in English that shares
    no word with a fact still finds it."""
    ids = [i for i, f in enumerate(facts) if game is None or f.game == game]
    if not ids:
        return []
    pool = [facts[i] for i in ids]
    indexes = [_fact_index(f) for f in pool]
    df = Counter(key for idx in indexes for key in idx)
    n = len(pool)
    q_tokens = _expand(list(dict.fromkeys(_content_tokens(question))),
                       glossary.expand(question) if glossary else "")
    lexical = np.array([
        sum(weight * max((_KIND_WEIGHTS[kind] * idx[key] * math.log((n + 1) / (df[key] + 0.5))
                          for kind, key in ((k, (k, f)) for k, f in word_features(tok).items())
                          if key in idx), default=0.0)
            for tok, weight in q_tokens)
        for idx in indexes])
    base, keep = lexical, lexical >= MIN_OVERLAP
    if query_vector is not None and fact_vectors is not None and len(fact_vectors):
        dense = fact_vectors[ids] @ query_vector
        base = _unit(lexical) + DENSE_WEIGHT * _unit(dense)
        keep = keep | (dense >= np.sort(dense)[-DENSE_CANDIDATES:][0])
    q_numbers = _numbers_in_context(question)
    asked = _asked_nouns(question)
    hits = []
    for fact, score, kept in zip(pool, base, keep, strict=True):
        if not kept:
            continue
        factor, in_range = _number_factor(fact, q_numbers)
        if asked and _counts_same_thing(asked, _words(f"{fact.unit} {fact.value_unit}")):
            factor *= ASKED_BOOST
        hits.append(FactHit(fact, round(float(score) * factor, 4), in_range,
                            _applied(fact, q_numbers)))
    hits.sort(key=lambda h: (-h.score, h.fact.game, h.fact.start))
    return hits[:limit]


def _unit(scores: np.ndarray) -> np.ndarray:
    """Scores scaled to [0, 1] (all zero when they do not differ)."""
    span = float(scores.max() - scores.min())
    return (scores - scores.min()) / span if span > 1e-9 else np.zeros_like(scores)


class Stated(NamedTuple):
    """A number the question states, the folded words around it, and the word right after
    it: in Turkish the noun a number counts follows it ("9 tane", "25 kart")."""

    value: float
    context: list[str]
    noun: str


def _numbers_in_context(question: str) -> list[Stated]:
    """Each number of the question with the folded words around it ("9 tane krizde
    topluluk jetonum" → 9 with tane, krizde, topluluk), to tell what it counts. Word
    ordinals ("ikinci olan") are ranks, not counts, and are left to the words."""
    out = []
    for start, end, value in number_spans(question):
        if is_rank(question[start:end]):
            continue
        before = [fold(w) for w in WORD.findall(question[:start])][-2:]
        after = [fold(w) for w in WORD.findall(question[end:])][:4]
        out.append(Stated(value, before + after, after[0] if after else ""))
    return out


# Words too general to say what a number counts ("2 oyuncu olan", "9 tane"). "Oyun" (the
# game itself) is one of them, and would otherwise pass for the start of "oyuncu".
_WEAK = frozenset(fold(w) for w in re.findall(r"\S+", """
olan olarak daha fazla başına sonra önce kadar tane adet için her veya ile oyun oyunu oyunun
oyunda oyundan"""))


def _counts_same_thing(context: list[str], fact_words: set[str]) -> bool:
    # "jetonum" ~ "jeton", "oyunculu" ~ "oyuncu", "kişilik" ~ "kişi": one is a prefix of the
    # other, and the shared part is a real word (4+ letters), not a syllable; a 3-letter word
    # only with a short ending ("zarla" ~ "zar", not "canavar" ~ "can").
    return any(_same_word(c, w) for c in context for w in fact_words)


def _same_word(a: str, b: str) -> bool:
    short, long_ = sorted((a, b), key=len)
    if len(short) < 3 or not long_.startswith(short):
        return False
    return len(short) >= 4 or len(long_) - len(short) <= 3


def _number_factor(fact: Fact, q_numbers: list[Stated]) -> tuple[float, bool | None]:
    """Exact number matching. A question's number that counts what a fact's range counts
    (its context shares a word with the fact's unit, subject or keywords) lifts the fact when
    inside the range and pushes it down when outside; an unrelated number ("moral sıfıra
    iner") leaves the range alone. A number the fact's text states lifts it a little."""
    if not q_numbers:
        return 1.0, None
    if fact.per is not None and _rate_count(fact, q_numbers) is not None:
        return IN_RANGE_BOOST, None  # a rate answers any count of what it counts
    if fact.min is not None or fact.max is not None:
        lo = -math.inf if fact.min is None else fact.min
        hi = math.inf if fact.max is None else fact.max
        related = _related(fact, q_numbers)
        if not related and any(_gives(fact, n) and n.value == fact.value for n in q_numbers):
            return NUMBER_MENTIONED, None  # the band asked for by its effect
        if related:
            inside = any(lo <= x <= hi for x in related)
            return (IN_RANGE_BOOST if inside else OUT_OF_RANGE), inside
        return (NUMBER_MENTIONED if any(lo <= n.value <= hi for n in q_numbers) else 1.0), None
    stated = set(numbers_in(f"{fact.subject} {fact.quote}"))
    return (NUMBER_MENTIONED if {n.value for n in q_numbers} & stated else 1.0), None


def _related(fact: Fact, q_numbers: list[Stated]) -> list[float]:
    """The question's numbers that count what the fact counts (its unit, subject, keywords);
    not one whose own noun is what the fact gives ("kaç jetonda 2 kart eksik çekeriz": the 2
    is the band's effect, not a count of tokens)."""
    words_ = {fold(w) for w in WORD.findall(f"{fact.unit} {fact.subject} "
                                              f"{' '.join(fact.keywords)}")} - _WEAK
    return [n.value for n in q_numbers if not _gives(fact, n)
            and _counts_same_thing([_PEOPLE.sub("oyuncu", c) for c in n.context], words_)]


def _gives(fact: Fact, n: Stated) -> bool:
    """The number is said of what the fact gives, not of what its range counts."""
    # ("Sıcaklık Bandı" given by a fact of "bant": the same thing, not what it gives; the
    # unit alone says what the range counts, the subject names both: "Solo kurulumda Ağaç")
    unit = _words(fact.unit)
    given = [fold(w) for w in WORD.findall(fact.value_unit)]
    if not given or any(word_matches(given[-1], u) or _same_word(given[-1], u) for u in unit):
        return False
    result = {w for w in _words(fact.value_unit)
              if not any(word_matches(w, u) or _same_word(w, u) for u in unit)}
    return bool(n.noun) and bool(result) and _counts_same_thing([n.noun], result)


# "3 kişilik", "4 kişiyiz": at a game table the people counted are the players.
_PEOPLE = re.compile(r"^kisi(?!sel)\w*")  # not "kişisel" (personal)


_HOW_MANY = ("kac", "kaci", "kaca", "kacar")


def _asked_nouns(question: str) -> list[str]:
    """The words after "kaç": what the question asks a number of ("kaç zombi gelir", "kaç
    Krizde Topluluk jetonunda")."""
    tokens = [fold(w) for w in WORD.findall(question)]
    return [w for i, t in enumerate(tokens) if t in _HOW_MANY for w in tokens[i + 1 : i + 4]]


def _words(text: str) -> set[str]:
    return {fold(w) for w in WORD.findall(text)} - _WEAK


def nouns_after_kac(question: str) -> tuple[str, ...]:
    """The noun right after each "kaç" ("kaç karo var" → karo); none where no noun follows
    ("kaç tane olunca", "kaç olur": what is counted was named before, or is the state)."""
    tokens = [fold(w) for w in WORD.findall(question)]
    return tuple(nxt for t, nxt in itertools.pairwise(tokens) if t in _HOW_MANY
                 and nxt not in _GENERIC_COUNTS and nxt not in _NOT_NOUNS)


def counts_asked(asked: tuple[str, ...], fact: Fact) -> bool:
    """The fact counts one of the nouns a question asks a number of (``nouns_after_kac``)."""
    return _counts_same_thing(list(asked), _words(f"{fact.unit} {fact.value_unit}"))


# Words right after "kaç" that name no thing counted (besides the generic counts below).
_NOT_NOUNS = frozenset(("olur", "olunca", "oluyor", "oluyo", "olmali", "olmasi", "olursa",
                        "kez", "kere", "defa", "ve", "veya", "mi", "da", "de"))


# Nouns that count people or things in general: "5 kişi var", "3 tane".
_GENERIC_COUNTS = ("kisi", "tane", "adet")


def _rate_count(fact: Fact, q_numbers: list[Stated]) -> float | None:
    """The count of the rate's unit the question states: "25 kart", "7 hayatta kalan", or a
    generic "5 kişi" about the same thing. A number that counts the rate's result ("moral 1
    düşer") is not a count of its unit."""
    unit_words = {fold(w) for w in WORD.findall(f"{fact.unit} {fact.subject}")} - _WEAK
    result_words = {fold(w) for w in WORD.findall(fact.value_unit)} - _WEAK
    for n in q_numbers:
        if not n.noun or _counts_same_thing([n.noun], result_words):
            continue
        if _counts_same_thing([n.noun], unit_words - result_words):
            return n.value
        if n.noun.startswith(_GENERIC_COUNTS) and _related(fact, [n]):
            return n.value
    return None


def _applied(fact: Fact, q_numbers: list[Stated]) -> tuple[float, float] | None:
    """A rate worked out for the count the question states ("5 kişi" → 3 yiyecek)."""
    if fact.per is None:
        return None
    count = _rate_count(fact, q_numbers)
    result = apply_rate(fact, count) if count is not None else None
    return (count, result) if count is not None and result is not None else None
