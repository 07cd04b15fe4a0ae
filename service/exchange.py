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
    held: dict[tuple[str, str], float] = {}  # (side, item) -> value, as stated
    spans: dict[tuple[str, str], tuple[int, int]] = {}
    moved: dict[str, tuple[str, float | None]] = {}  # side -> (item, value said in the swap)
    for m in named:
        side = _side(toks, ends, m)
        value = _value(question, toks, m, item)
        if swap[0] <= m.first < swap[1]:
            moved.setdefault(side, (m.alias, value))
        elif value is not None:
            held.setdefault((side, m.alias), value)
            spans[(side, m.alias)] = (toks[m.first].start, toks[m.last].end)
    if set(moved) != {"mine", "rival"}:
        return None
    out_name, out_value = moved["mine"]
    in_name, in_value = moved["rival"]
    out_value = held.get(("mine", out_name)) if out_value is None else out_value
    in_value = held.get(("rival", in_name)) if in_value is None else in_value
    mine = [v for (side, _), v in held.items() if side == "mine"]
    if out_value is None or in_value is None or ("mine", out_name) not in held:
        return None
    own = [sp for (side, _), sp in spans.items() if side == "mine"]
    return Binding({items: tuple(mine), given: (out_value,), taken: (in_value,)},
                   {items: tuple(own)})


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


def _value(question: str, toks: list[Token], m: Mention, item: Quantity) -> float | None:
    """The value said with the item, right after it ("d6=5", "d10'u '0' gösteriyo") or as
    what it shows right before it ("5 gösteren d6")."""
    value = None
    after = m.last + 1
    if after < len(toks) and toks[after].number is not None \
            and _BETWEEN.match(question[toks[m.last].end : toks[after].start]):
        value = toks[after].number
    elif m.first >= 2 and toks[m.first - 2].number is not None \
            and _SHOWS.fullmatch(fold(toks[m.first - 1].text)):
        value = toks[m.first - 2].number
    if value == 0:
        value = dict(item.zero_counts).get(fold(m.alias), value)
    return value

