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
from typing import TYPE_CHECKING

from .bind import Binding, bind
from .formulas import Formula
from .mentions import mentions, tokens
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
    binding, steps = _updated(formula, question, binding, formulas, work)
    values = dict(binding.values)
    spans = dict(binding.spans)
    read = 0
    for q in formula.quantities:
        if any(values.get(q.name, ())):
            continue
        for producer in formulas:
            if producer.gives != q.name or producer.id == formula.id \
                    or any(p.name == q.name for p in producer.quantities):
                continue
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
    return Binding(values, spans), tuple(steps), read


# The stated numbers are now ("şu an", "henüz"), the asked moment a later round.
_NOW = re.compile(r"\b(?:su ?an|simdi|henuz|now|currently)\b")
_ROUND = r"(?:raun[dt]|round|tur)\w*"
_NEXT = re.compile(rf"\b(?:sonraki|gelecek|next) {_ROUND}")
_ORDINAL = re.compile(rf"\b(\d+)\. ?{_ROUND}")


def rounds_ahead(question: str) -> int:
    """How many rounds pass between now and the round the question asks about: the gap
    between two round ordinals ("şu an 3. roundun … 5. roundun emisyonunda": 2), or 1 for
    the next round ("sonraki raundun"); 0 when the question says no now and no later round."""
    folded = fold(question)
    if not _NOW.search(folded):
        return 0
    ordinals = {int(m.group(1)) for m in _ORDINAL.finditer(folded)}
    if len(ordinals) >= 2:
        return max(ordinals) - min(ordinals)
    return 1 if _NEXT.search(folded) else 0


def _updated(formula: Formula, question: str, binding: Binding, formulas: tuple[Formula, ...],
             work: Callable[[Formula, str, Binding], Calculation]
             ) -> tuple[Binding, list[Calculation]]:
    """``binding`` with each stated running quantity renewed over the rounds that pass
    before the asked round, by the one renewing rule whose topic the question names more
    than the others' (the region: "Çin", "majority world"); the renewing calculations."""
    ahead = rounds_ahead(question)
    if not ahead:
        return binding, []
    toks = tokens(question)
    values, steps = dict(binding.values), []
    for q in formula.quantities:
        stated = values.get(q.name, ())
        renewers = [f for f in formulas if f.updates == q.name and f.id != formula.id]
        if len(stated) != 1 or not renewers or formula.updates == q.name:
            continue
        said = sorted(((sum(1 for k in f.keywords if mentions(toks, [(k, k)])), f)
                       for f in renewers), key=lambda kf: -kf[0])
        if said[0][0] == 0 or (len(said) > 1 and said[1][0] == said[0][0]):
            continue  # which rule renews it (the region) is not said
        renewer = said[0][1]
        own = bind(question, renewer.quantities)
        given = dict(own.values)
        given[q.name], given[renewer.over] = stated, (float(ahead),)
        done = work(renewer, question, Binding(given, own.spans))
        if done.value is not None:
            values[q.name] = (done.value,)
            steps.append(done)
    return Binding(values, binding.spans), steps
