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
from .bind_words import CLAUSE_ENDS, SENTENCE_ENDS
from .formulas import Formula, Quantity
from .mentions import Mention, Token, mentions, tokens, word_matches
from .text import fold

Span = tuple[int, int]  # where the question states a value

# Who holds an item, by the nearest such word before it in its sentence (folded); "kendi"
# (own) right after a rival's word is the rival's own ("rakip kendi d20'siyle").
_RIVAL = re.compile(r"(?:rakib|rakip|onun|onda|opponent)\w*|karsi")
_MINE = re.compile(r"(?:benim|bende|kendi|alanim|my)\w*")
# The value said with an item: "d6=5", "d4 (3)", "d10'u '0' gösteriyo", "d20'si 17'de"; or
# before it: "rakibin 5 gösteren d6'sıyla".
_SHOWS = re.compile(r"goster\w*")
_END = re.compile(r"[.!?;]+(?:\s|$)")
_SIGN = re.compile(r"\s*[=:(]\s*$")
_SUFFIX = re.compile(r"'\w*\s+'?$")  # "d10'u '0' gösteriyo": then what it shows
# Or where it stands: "rakibin d20'si 17'de", "d12 8'de" (the number's locative ending).
_JUST_SPACE = re.compile(r"(?:['’]\w*)?\s+$")
_AT = re.compile(r"['’]?[dt][ae](?:y?d[iı]|d[iı]r)?(?!\w)")
# The first person's ending on the die itself (folded): "d4'ümü", "d6'mı", "d20'm",
# "d10'umla" say the die is the player's whoever is named before it in the sentence
# ("rakibin d6'sı ile d4'ümü takas ettim").
# (after an apostrophe only: "d6 mı", "d4mü" ask which die)
_MY_ENDING = re.compile(r"['’`][iu]?m(?:[iu]|[iu]n|[iu]?yl[ae]|l[ae]|d[ae]n?)?(?![a-z0-9])")


def exchanged(question: str, formula: Formula) -> Binding | None:
    """The binding of an exchange formula's items, given and taken, or None when the
    question does not say one swap of one die of each side, both values, and the player's
    own dice (each named once: "d6=3, d6=5" is two dice no name tells apart)."""
    if len(formula.exchange) != 3:
        return None
    quantities = {q.name: q for q in formula.quantities}
    items, given, taken = formula.exchange
    item = quantities[items]
    toks = tokens(question)
    # Where sentences end, by the question's text: "d20=14. benim d6 …" (a full stop after
    # a number is no token of its own).
    ends = [i for i, t in enumerate(toks)
            if _END.match(question, t.end) or t.text in SENTENCE_ENDS]
    # (a die said where it does not count, "fixer'da d20=11", is no die of either side)
    named = [m for m in mentions(toks, [(a, a) for a in item.aliases])
             if not _said_where(toks, ends, m.first, item.not_where)]
    # (a sentence that says the swap but names no die, "Takastan sonra kaç olur", asks)
    swaps = [(a, b) for a, b in _swap_sentences(toks, ends, formula)
             if any(a <= m.first < b for m in named)]
    held: dict[tuple[str, str], tuple[float, Span]] = {}  # (side, item) -> value, as stated
    moved: dict[str, set[str]] = {"mine": set(), "rival": set()}  # side -> dice swapped
    inline: dict[tuple[str, str], tuple[float, Span]] = {}  # a value said in the swap
    for m in named:
        side = _side(question, toks, ends, m)
        value = _value(question, toks, m, item)
        if any(a <= m.first < b for a, b in swaps):
            moved[side].add(m.alias)
            if value is not None:
                inline.setdefault((side, m.alias), value)
        elif value is not None:
            if (side, m.alias) in held:
                return None
            held[(side, m.alias)] = value
    if len(swaps) != 1 or len(moved["mine"]) != 1 or len(moved["rival"]) != 1 \
            or _asks_rivals(toks, formula):
        return None
    mine_die, rival_die = moved["mine"].pop(), moved["rival"].pop()
    out = held.get(("mine", mine_die))
    got = held.get(("rival", rival_die)) or inline.get(("rival", rival_die))
    if out is None or got is None:
        return None
    mine = [v for (side, _), v in held.items() if side == "mine"]
    # The rival's other dice are read too: they are not the player's, not left out of the
    # working (their spans go with the one taken).
    theirs = [sp for (side, _), (_, sp) in held.items() if side == "rival"]
    return Binding({items: tuple(v for v, _ in mine), given: (out[0],), taken: (got[0],)},
                   {items: tuple(sp for _, sp in mine), given: (out[1],),
                    taken: tuple(dict.fromkeys((got[1], *theirs)))})


def _swap_sentences(toks: list[Token], ends: list[int], formula: Formula
                    ) -> list[tuple[int, int]]:
    """The token ranges of the sentences that say a swap (one of the formula's needs)."""
    out: list[tuple[int, int]] = []
    for i, t in enumerate(toks):
        if any(fold(t.text).startswith(fold(w)) for need in formula.needs
               for w in need.split("|")):
            start = max((e + 1 for e in ends if e < i), default=0)
            end = min((e + 1 for e in ends if e >= i), default=len(toks))
            if (start, end) not in out:
                out.append((start, end))
    return out


def _asks_rivals(toks: list[Token], formula: Formula) -> bool:
    """What is asked is the rival's ("rakibin Street Cred'i kaç olur"), not the player's."""
    for m in mentions(toks, [(a, a) for a in formula.asks]):
        if m.first and _RIVAL.fullmatch(fold(toks[m.first - 1].text)):
            return True
    return False


def _said_where(toks: list[Token], ends: list[int], i: int, places: tuple[str, ...]) -> bool:
    """A word of ``places`` in the clause of the token at ``i``."""
    cuts = set(ends) | {j for j, t in enumerate(toks) if t.text in CLAUSE_ENDS}
    start = max((e + 1 for e in cuts if e < i), default=0)
    end = min((e + 1 for e in cuts if e >= i), default=len(toks))
    return any(word_matches(t.text, p) for t in toks[start:end] for p in places)


def _side(question: str, toks: list[Token], ends: list[int], m: Mention) -> str:
    """Whose die ``m`` is: the player's when it carries their ending ("d4'ümü"); else the
    rival's when the nearest side word before it in its sentence is theirs (or "kendi"
    right after theirs), else the player's."""
    if _MY_ENDING.match(fold(question[toks[m.last].end : toks[m.last].end + 8])):
        return "mine"
    start = max((e + 1 for e in ends if e < m.first), default=0)
    before = [fold(t.text) for t in toks[start : m.first]]
    for i in range(len(before) - 1, -1, -1):
        if _RIVAL.fullmatch(before[i]):
            return "rival"
        if _MINE.fullmatch(before[i]):
            rivals_own = before[i].startswith("kendi") and i and _RIVAL.fullmatch(before[i - 1])
            return "rival" if rivals_own else "mine"
    return "mine"


def _value(question: str, toks: list[Token], m: Mention, item: Quantity
           ) -> tuple[float, Span] | None:
    """The value said with the item and where: right after it with a sign ("d6=5", "d4
    (3)"), where it stands ("d20'si 17'de"), or as what it shows ("d10'u '0' gösteriyo",
    "5 gösteren d6")."""
    at = None
    after, between = m.last + 1, ""
    if after < len(toks):
        between = question[toks[m.last].end : toks[after].start]
    if after < len(toks) and toks[after].number is not None and (
            _SIGN.match(between) or (_SUFFIX.match(between) and after + 1 < len(toks)
                                     and _SHOWS.fullmatch(fold(toks[after + 1].text)))
            or (_JUST_SPACE.fullmatch(between) and _AT.match(question, toks[after].end))):
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
