"""A rule sentence saying the count asked about does not exist: the answer to "Nucleum kaç
raunt sürüyor" is "Nucleum'da belirlenmiş tur sayısı, tur sınırı veya faz yoktur".

What it does: when no fact of the game gives the number a question asks for (``asked``'s
counted thing), ``absent_count`` looks in the first passage for a sentence that denies that
thing's count, limit or reckoning: the counted word, or one the glossary gives for the same
English term ("raunt" and "tur" both translate "round"), right before a word of "sayı",
"sınır", "limit" or "hesap", with "yok", "yoktur", "bulunmuyor" or "bulunmaz" a few words
on ("tur sayısı … yoktur", "puan hesaplaması yoktur"). What it does not do: decide
answerability otherwise (``answerability``), or answer from a sentence that denies the count
of something else ("RAM limiti kaç" is not answered by "kart sayısında üst sınır yok").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .lexical import BOARD_GAME_TERMS
from .retrieve import Hit
from .text import Span, fold, sentence_spans, stem, words

_COUNT = re.compile(r"(?:sayi|sinir|limit|hesap)\w*")
_DENIED = frozenset(("yok", "yoktur", "bulunmuyor", "bulunmaz", "bulunmamaktadir"))
_REACH = 6  # words from the count to its denial, within its clause


def _key(word: str) -> str:
    """A word's stem as compared here: stemmed with its Turkish letters, then folded."""
    return fold(stem(word))


def _spelt(word: str) -> str:
    """A word folded, a final d read as t: "raund" is the texts' "raunt"."""
    folded = fold(word)
    return folded[:-1] + "t" if folded.endswith("d") else folded


def same_thing(counted: Iterable[str]) -> set[str]:
    """The stems of the counted words (not "sayısı", "limiti": the count itself), and of the
    words the glossary lists beside one of them, said exactly, as the same English term
    ("raunt" and "tur" for "round"; "puan" is not listed with "zafer puanı")."""
    typed = {_spelt(w) for w in counted if not _COUNT.fullmatch(fold(w))}
    out = {_key(w) for w in typed}
    for turkish in BOARD_GAME_TERMS.values():
        listed = turkish.split()
        if len(listed) > 1 and typed & {_spelt(w) for w in listed}:
            out |= {_key(w) for w in listed}
    return out


def _one_of(key: str, things: set[str]) -> bool:
    """The stem is one of ``things``, or shares its first four letters with one (the stemmer
    leaves "raundu" of "raund")."""
    return key in things or (len(key) >= 4 and any(len(t) >= 4 and t[:4] == key[:4]
                                                   for t in things))


def absent_count(hits: tuple[Hit, ...], game_text: str, counted: Iterable[str]) -> Span | None:
    """The first sentence of the first passage that denies a count of the counted thing."""
    things = same_thing(counted)
    if not hits or not things:
        return None
    chunk = hits[0].chunk
    for sp in sentence_spans(game_text[chunk.start : chunk.end], offset=chunk.start):
        # (a clause break or a number between the count and the denial: another clause's)
        for clause in re.split(r"[;:]|\d", game_text[sp.start : sp.end]):
            said = words(clause)
            folded = [fold(w) for w in said]
            for i, w in enumerate(folded):
                if i and _COUNT.fullmatch(w) and _one_of(_key(said[i - 1]), things) \
                        and _DENIED & set(folded[i + 1 : i + 1 + _REACH]):
                    return sp
    return None
