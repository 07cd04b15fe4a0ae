"""Multi-step calculations: a quantity the question does not state, worked out first by the
formula whose result it is.

What it does: a formula may say which quantity its result is (``gives = "deficit"``: the
Krizde Topluluk jetonları taken for an unmet Energy Demand are the energy deficit). When a
formula needs such a quantity and the question states instead what that quantity is worked
out from ("talebim 15, toplam enerjim 12, 6 jetonum var: kaç kart çekerim?"), the producing
formula is worked out first and its result bound in, so the player gets the final number with
every step shown and cited. One step deep: a producer's own missing quantities are not
chained further. What it does not do: choose the formula that answers the question
(``calc``), or bind numbers to quantities (``bind``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from .bind import Binding, bind
from .formulas import Formula

if TYPE_CHECKING:  # calc imports this module; the type is only named here
    from .working import Calculation


def chain(formula: Formula, question: str, binding: Binding, formulas: Iterable[Formula],
          work: Callable[[Formula, str, Binding], Calculation]
          ) -> tuple[Binding, tuple[Calculation, ...], int]:
    """``binding`` with each unstated quantity of ``formula`` that another formula gives
    (and can work out from the question's numbers) bound to that result; the producing
    calculations, in order; and how many of the question's numbers they read."""
    values = dict(binding.values)
    spans = dict(binding.spans)
    steps: list[Calculation] = []
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
            done = work(producer, question, own)
            if stated and done.value is not None:
                values[q.name] = (done.value,)
                spans[q.name] = ()
                steps.append(done)
                read += stated
                break
    return Binding(values, spans), tuple(steps), read
