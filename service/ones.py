"""Counts of one that a question states without a number.

What it does: "bir bitiş koşulu sağlandı", "koşullarından biri", "5 puanlık görev kartım var",
"en ileri belirteç benim", "ikinciydim" each count one of the thing named, where the rule
would otherwise assume its default. What it does not do: bind numbers (``bind``); "bir"
before a name with no default is the article and counts nothing.
"""

from __future__ import annotations

import re

from .bind_words import (
    ABLATIVE,
    CLAUSE_ENDS,
    FILLER,
    MEASURE,
    MINE,
    ONE,
    PLURAL,
    SENTENCE_ENDS,
    WINDOW,
)
from .formulas import Quantity
from .mentions import Mention, Token

# "ikinciydim", "ikinciyim": the speaker was it (a copula ending after a vowel takes "y"; a
# possessive does not); "benim", "bende" after the name are ``MINE``
_COPULA = re.compile(r"y(?:d[iu][mk]|[iu][mz])$")
_HERE_I_AM = re.compile(r"[dt][ae]y(?:d[iu][mk]|[iu][mz])$")  # folded: "-dayım", "-teydik"
SELF_GAP = 6  # words between a name and "benim" in one clause ("en öndeki de ikinci de benim")


def _said_of_self(toks: list[Token], m: Mention) -> bool:
    if _COPULA.match(m.tail):
        return True
    for j in range(m.last + 1, min(len(toks), m.last + 1 + SELF_GAP)):
        t = toks[j]
        if t.number is not None or t.text in SENTENCE_ENDS or t.text in CLAUSE_ENDS:
            return False
        if t.text in MINE:
            return not (j + 1 < len(toks) and toks[j + 1].text.startswith("degil"))
    return False


_MEASURE_WORD = re.compile(r"\w+l[iu]k$")  # folded: "puanlık", "katlık"


def _measured(question: str, toks: list[Token], first: int) -> bool:
    """What one thing named at ``first`` measures is said right before it: "5 €$'lik kart",
    "5 puanlık görev kartı"."""
    at = first - 1
    if at >= 0 and toks[at].number is not None:
        return bool(MEASURE.match(question, toks[at].end))
    return at >= 1 and bool(_MEASURE_WORD.match(toks[at].text)) and toks[at - 1].number is not None


def bind_ones(question: str, toks: list[Token], found: list[Mention],
               qs: dict[str, Quantity], owner: dict[int, str], used: set[int]) -> None:
    """"bir"/"biri" as 1 for a name no number counts, when the rule would otherwise assume
    its default: right before it ("bir bitiş koşulu"), or right after it in the ablative
    ("koşullarından biri"); so is a name in the singular after what one of it measures
    ("5 puanlık görev kartım var": one card), or said of oneself ("en ileri belirteç
    benim", "ikinciydim")."""
    counted = set(owner.values())
    for k, m in enumerate(found):
        if k in used or m.quantity in counted or qs[m.quantity].default is None:
            continue  # without a default, "bir" is the article ("bir destede", "bir d10")
        before = m.first - 1
        while before >= 0 and toks[before].text in FILLER and m.first - before <= WINDOW:
            before -= 1
        after = m.last + 1
        while after < len(toks) and toks[after].text in FILLER and after - m.last <= WINDOW:
            after += 1
        # "bir kalelerim" is no count of one: a plural ending after the name ("en ileri"
        # itself is no plural)
        plural = bool(PLURAL.search(m.tail))
        if before >= 0 and toks[before].text in ONE and toks[before].text != "biri" \
                and not plural:
            owner[before] = m.quantity
        elif not plural and _measured(question, toks, m.first):
            owner[m.first] = m.quantity  # the name itself stands for the one
        elif not plural and _said_of_self(toks, m):
            owner[m.first] = m.quantity  # "en ileri belirteç benim": one, the speaker's
        elif (after < len(toks) and toks[after].text in ONE
              and ABLATIVE.search(toks[m.last].text)):
            owner[after] = m.quantity
        else:
            continue
        counted.add(m.quantity)


# A question about it, or its denial, right after "bende": "çoğunluk bende mi", "… değil".
_NOT_SAID = frozenset(("mi", "mu", "degil", "degilim", "degildi"))


def first_said(toks: list[Token], found: list[Mention], qs: dict[str, Quantity],
               owner: dict[int, str]) -> None:
    """A rank's name for its first place said of oneself right before "bende"/"benim"
    ("çoğunluk bende": the majority is the first place) is the rank 1, when no number
    states the rank; not asked ("çoğunluk bende mi") or denied. So is the name with a
    locative and the speaker's copula ("ilk sıradayım")."""
    for m in found:
        q = qs[m.quantity]
        if not q.first or m.alias not in q.first or m.quantity in owner.values():
            continue
        after = [t.text for t in toks[m.last + 1 : m.last + 3]]
        if _HERE_I_AM.match(m.tail):
            if not after or after[0] not in _NOT_SAID:
                owner[m.first] = m.quantity
        elif after and after[0] in MINE and not (len(after) > 1 and after[1] in _NOT_SAID):
            owner[m.first] = m.quantity
