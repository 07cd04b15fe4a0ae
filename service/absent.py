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
_DENIED = re.compile(r"(?:yok|yoktur|bulunmuyor|bulunmaz|bulunmamaktadir)\w*")
_REACH = 6  # words from the count to its denial


def same_thing(counted: Iterable[str]) -> set[str]:
    """The folded stems of the counted words and of the words the glossary lists beside them
    for one English term ("raunt" → "raunt", "tur")."""
    out = {fold(stem(w)) for w in counted}
    for turkish in BOARD_GAME_TERMS.values():
        listed = {fold(stem(w)) for w in turkish.split()}
        if listed & out:
            out |= listed
    return out


def absent_count(hits: tuple[Hit, ...], game_text: str, counted: Iterable[str]) -> Span | None:
    """The first sentence of the first passage that denies a count of the counted thing."""
    things = same_thing(counted)
    if not hits or not things:
        return None
    chunk = hits[0].chunk
    for sp in sentence_spans(game_text[chunk.start : chunk.end], offset=chunk.start):
        said = [fold(w) for w in words(game_text[sp.start : sp.end])]
        for i, w in enumerate(said):
            if i and _COUNT.fullmatch(w) and fold(stem(said[i - 1])) in things and any(
                    _DENIED.fullmatch(x) for x in said[i + 1 : i + 1 + _REACH]):
                return sp
    return None
