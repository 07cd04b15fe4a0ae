"""Multi-step calculations: a quantity the question does not state, worked out first by the
formula whose result it is.

What it does: a formula may say which quantity its result is (``gives = "deficit"``: the
Krizde Topluluk jetonları taken for an unmet Energy Demand are the energy deficit). When a
formula needs such a quantity and the question states instead what that quantity is worked
out from ("talebim 15, toplam enerjim 12, 6 jetonum var: kaç kart çekerim?"), the producing
formula is worked out first and its result bound in, so the player gets the final number with
every step shown and cited. One step deep: a producer's own missing quantities are not
chained further. A running quantity stated now and asked about at a later round ("talebim şu
an 11 … sonraki raundun emisyonunda kaç jeton") is first updated by the rule that renews it
each round (``updates``: the Energy Demand after each Growth, the rate of the region the
question names), over the rounds that pass. What it does not do: choose the formula that
answers the question (``calc``), or bind numbers to quantities (``bind``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from .bind import Binding, bind
from .formulas import Formula
from .mentions import Token, all_said, mentions, tokens
from .numbers import is_rank, number_spans
from .text import fold

if TYPE_CHECKING:  # calc imports this module; the type is only named here
    from .working import Calculation


def chain(formula: Formula, question: str, binding: Binding, formulas: Iterable[Formula],
          work: Callable[[Formula, str, Binding], Calculation]
          ) -> tuple[Binding, tuple[Calculation, ...], int]:
    """``binding`` with each unstated quantity of ``formula`` that another formula gives
    (and can work out from the question's numbers) bound to that result; the producing
    calculations, in order; and how many of the question's numbers they read."""
    formulas = tuple(formulas)
    toks = tokens(question)
    binding, steps = _updated(formula, question, binding, formulas, work)
    values = dict(binding.values)
    spans = dict(binding.spans)
    read = 0
    for q in formula.quantities:
        if any(values.get(q.name, ())):
            continue
        for producer in formulas:
            if producer.gives != q.name or producer.id == formula.id \
                    or any(p.name == q.name for p in producer.quantities) \
                    or not all_said(toks, producer.needs):
                continue  # (a rule for 4 players is no step of a 2-player question)
            own = bind(question, producer.quantities)
            stated = sum(1 for p in producer.quantities if any(own.values.get(p.name, ())))
            own, renewed = _updated(producer, question, own, formulas, work)
            done = work(producer, question, own)
            if stated and done.value is not None:
                values[q.name] = (done.value,)
                spans[q.name] = ()
                steps.extend((*renewed, done))
                read += stated
                break
    return replace(binding, values=values, spans=spans), tuple(steps), read


# The stated numbers are now ("şu an", "henüz"), the asked moment a later round.
_NOW = re.compile(r"\b(?:su ?an(?:da)?|simdi|henuz|now|currently)\b")
_ROUND = r"(?:raun[dt]|round|tur)\w*"
_NEXT = re.compile(rf"\b(?:sonraki|gelecek|next) {_ROUND}")
_ORDINAL = re.compile(rf"\b(\d+)\. ?{_ROUND}")
# "iki Büyüme Aşaması sonraki emisyonda", "3 raunt sonra", "2 Büyüme Aşaması'ndan
# sonra", "iki Büyüme Aşaması daha geçince": rounds counted from now (the count is the
# number said right before).
_COUNT_AFTER = re.compile(rf"(?:{_ROUND}|buyume\s+asamas\w*|growth(?:\s+phase)?\w*)"
                          r"(?:['’]\w*)?\s+(?:daha\s+)?(?:sonra(?:ki|s\w*)?|gec(?:ince|tikten"
                          r"|erse|ip))\b")
_ONE = re.compile(r"\b(?:bir|bi)\s*$")  # "bir raunt sonra": one, said as a word
_USED_WITHIN = 40  # characters after the later round that say what happens in it
MAX_AHEAD = 10  # more rounds than any game here has is no question about play


def rounds_ahead(question: str, used_in: tuple[str, ...]) -> int:
    """How many rounds pass between now and the later round in which the renewed quantity
    is used (a ``used_in`` phrase right after the round: "sonraki raundun emisyonunda"):
    the gap from the round said to be now to that one ("şu an 3. roundun … 5. roundun
    emisyonunda": 2), the rounds counted from now ("iki Büyüme Aşaması sonraki Emisyon
    Aşamasında": 2), or 1 for the next round. 0 without a "now", without such a later
    round, or when the later round is not after now."""
    folded = fold(question)
    now = _NOW.search(folded)
    if now is None:
        return 0
    def used(end: int) -> bool:
        after = folded[end : end + _USED_WITHIN]
        return any(re.search(rf"\b{re.escape(fold(p))}", after) for p in used_in)
    ordinals = [(int(m.group(1)), m) for m in _ORDINAL.finditer(folded)]
    if len(ordinals) >= 2:
        current = min(ordinals, key=lambda om: abs(om[1].start() - now.end()))[0]
        later = [n for n, m in ordinals if used(m.end()) and n > current]
        ahead = min(later) - current if later else 0
        return ahead if ahead <= MAX_AHEAD else 0
    for m in _COUNT_AFTER.finditer(folded):
        count = _count_before(folded[: m.start()])
        if count and count <= MAX_AHEAD and used(m.end()):
            return count
    return 1 if any(used(m.end()) for m in _NEXT.finditer(folded)) else 0


def _count_before(head: str) -> int:
    """The whole count said right at the end of ``head`` ("… iki ", "… 3 ", "… on iki "); 0
    for none, a rank ("üçüncü raunt sonra"), a decimal, a range ("2-3 raunt") or less than
    one."""
    said = head.rstrip()
    if _ONE.search(said):
        return 1
    spans = number_spans(said)
    if not spans or spans[-1][1] != len(said):
        return 0
    start, _, value = spans[-1]
    if is_rank(said[start:]) or said[start - 1 : start] in ("-", "–") \
            or value != int(value) or value < 1:
        return 0
    return int(value)


def _renewer(toks: list[Token], renewers: list[Formula]) -> Formula | None:
    """The one renewing rule whose own topic the question names (the region: "Çin",
    "majority world"; words every such rule shares, "büyüme", say none); None when none or
    several are named."""
    shared = set.intersection(*(set(f.keywords) for f in renewers))
    named = [f for f in renewers
             if any(mentions(toks, [(k, k)]) for k in f.keywords if k not in shared)]
    return named[0] if len(named) == 1 else None


def _updated(formula: Formula, question: str, binding: Binding, formulas: tuple[Formula, ...],
             work: Callable[[Formula, str, Binding], Calculation]
             ) -> tuple[Binding, list[Calculation]]:
    """``binding`` with each stated running quantity renewed over the rounds that pass
    before the round it is used in, by the renewing rule of the region the question names;
    the renewing calculations."""
    values, steps = dict(binding.values), []
    for q in formula.quantities:
        stated = values.get(q.name, ())
        renewers = [f for f in formulas if f.updates == q.name and f.id != formula.id]
        if len(stated) != 1 or not renewers or formula.updates == q.name:
            continue
        renewer = _renewer(tokens(question), renewers)
        ahead = rounds_ahead(question, renewer.used_in) if renewer is not None else 0
        if renewer is None or not ahead:
            continue
        own = bind(question, renewer.quantities)
        given = dict(own.values)
        given[q.name], given[renewer.over] = stated, (float(ahead),)
        done = work(renewer, question, replace(own, values=given))
        if done.value is not None:
            values[q.name] = (done.value,)
            steps.append(done)
    return replace(binding, values=values), steps
