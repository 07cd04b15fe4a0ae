"""A swap of one item each between the player and a rival, read from the question: what
the player holds after it.

What it does: a formula may say it works out an exchange (``exchange = ["gig", "given",
"taken"]``: the items each side holds, the one the player gives and the one they take).
The question states the items of both sides with their values ("gig alanımda d6=5 ve
d12=9 var, rakipte d8=7 ve d20=14") and which two are swapped ("benim d6'mı rakibin
d20'siyle takas ediyorum"); ``exchanged`` binds the player's items (before the swap), the
one given and the one taken, each by its value as stated, so the formula ("gig - given +
taken") gives the player's total after it: "23 Street Cred: (5 + 9) − 5 + 14". An item is
the rival's when the sentence names the rival ("rakip", "rakibin", "onun") after any word of
the player's own ("benim", "kendi") before it. What it does not do: choose the formula
(``calc``), evaluate it (``working``), or read items stated without their names ("benim
giglerim 4 ve 8"): no number is guessed.
"""

from __future__ import annotations

import re

from .bind import Binding
from .bind_words import SENTENCE_ENDS
from .formulas import Formula, Quantity
from .mentions import Mention, Token, mentions, tokens
from .text import fold

Span = tuple[int, int]  # where the question states a value

# Who holds an item, by the nearest such word before it in its sentence (folded).
_RIVAL = re.compile(r"(?:rakib|rakip|onun|opponent|karsi taraf)\w*")
_MINE = re.compile(r"(?:benim|bende|kendi|gig alanim|alanim|my)\w*")
# The value said with an item: "d6=5", "d4 (3)", "d10'u '0' gösteriyo"; or before it:
# "rakibin 5 gösteren d6'sıyla".
_SHOWS = re.compile(r"goster\w*")
_END = re.compile(r"[.!?;]+(?:\s|$)")
_BETWEEN = re.compile(r"\s*(?:=|:|\(|'?[a-zığüşöç]*\s+'?)\s*$")


def exchanged(question: str, formula: Formula) -> Binding | None:
    """The binding of an exchange formula's items, given and taken, or None when the
    question does not state both swapped items' values and some of the player's own."""
    if len(formula.exchange) != 3:
        return None
    quantities = {q.name: q for q in formula.quantities}
    items, given, taken = formula.exchange
    item = quantities[items]
    toks = tokens(question)
    named = mentions(toks, [(a, a) for a in item.aliases])
    # Where sentences end, by the question's text: "d20=14. benim d6 …" (a full stop after
    # a number is no token of its own).
    ends = [i for i, t in enumerate(toks)
            if _END.match(question, t.end) or t.text in SENTENCE_ENDS]
    swap = _swap_sentence(toks, ends, formula)
    if swap is None:
        return None
    held: dict[tuple[str, str], tuple[float, Span]] = {}  # (side, item) -> value, as stated
    moved: dict[str, tuple[str, tuple[float, Span] | None]] = {}  # side -> item swapped
    for m in named:
        side = _side(toks, ends, m)
        value = _value(question, toks, m, item)
        if swap[0] <= m.first < swap[1]:
            moved.setdefault(side, (m.alias, value))
        elif value is not None:
            held.setdefault((side, m.alias), value)
    if set(moved) != {"mine", "rival"}:
        return None
    out = moved["mine"][1] or held.get(("mine", moved["mine"][0]))
    got = moved["rival"][1] or held.get(("rival", moved["rival"][0]))
    if out is None or got is None or ("mine", moved["mine"][0]) not in held:
        return None
    mine = [v for (side, _), v in held.items() if side == "mine"]
    # The rival's other dice are read too: they are not the player's, not left out.
    theirs = [sp for (side, _), (_, sp) in held.items() if side == "rival"]
    return Binding({items: tuple(v for v, _ in mine), given: (out[0],), taken: (got[0],)},
                   {items: tuple(sp for _, sp in mine), given: (out[1],),
                    taken: tuple(dict.fromkeys((got[1], *theirs)))})


def _swap_sentence(toks: list[Token], ends: list[int], formula: Formula
                   ) -> tuple[int, int] | None:
    """The token range of the sentence that says the swap (one of the formula's needs)."""
    said = [i for i, t in enumerate(toks)
            if any(fold(t.text).startswith(fold(w)) for need in formula.needs
                   for w in need.split("|"))]
    if not said:
        return None
    start = max((e + 1 for e in ends if e < said[0]), default=0)
    end = min((e + 1 for e in ends if e >= said[0]), default=len(toks))
    return start, end


def _side(toks: list[Token], ends: list[int], m: Mention) -> str:
    start = max((e + 1 for e in ends if e < m.first), default=0)
    for t in reversed(toks[start : m.first]):
        word = fold(t.text)
        if _RIVAL.fullmatch(word):
            return "rival"
        if _MINE.fullmatch(word):
            return "mine"
    return "mine"


def _value(question: str, toks: list[Token], m: Mention, item: Quantity
           ) -> tuple[float, Span] | None:
    """The value said with the item and where, right after it ("d6=5", "d10'u '0'
    gösteriyo") or as what it shows right before it ("5 gösteren d6")."""
    at = None
    after = m.last + 1
    if after < len(toks) and toks[after].number is not None \
            and _BETWEEN.match(question[toks[m.last].end : toks[after].start]):
        at = after
    elif m.first >= 2 and toks[m.first - 2].number is not None \
            and _SHOWS.fullmatch(fold(toks[m.first - 1].text)):
        at = m.first - 2
    if at is None:
        return None
    value = toks[at].number or 0.0
    if value == 0:
        value = dict(item.zero_counts).get(fold(m.alias), value)
    return value, (toks[at].start, toks[at].end)
