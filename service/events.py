"""Several events on one running total: "moral 6; açlıkta 1 jeton, krizde +1: moral kaç olur".

What it does: when the question states a running total (the morale, the score) and asks what
it becomes, and more than one rule that changes that total is fully worked out from numbers
of its own in the question (hunger from "5 hayatta kalan, 2 yiyecek", the crisis from "6
eşleşen 1 eşleşmeyen, 3 kişiyiz"), every one of those changes is applied in turn: "6 moral:
6 moral − 1 + 1 = 6", each change's working and rule shown. A rule counts only if it speaks
to its own topic in the question and reads numbers no other counted rule reads.

What it does not do: choose or score rules (``calc``) or work one out (``working``); it only
joins the changes already worked out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from .formulas import Citation, Formula
from .numbers import fmt_number
from .working import passed_marks

if TYPE_CHECKING:  # calc imports this module; the type is only named here
    from .working import Calculation


@dataclass(frozen=True)
class Candidate:
    formula: Formula
    calc: Calculation  # as offered: for a stated total, what the total becomes
    topic: float  # how much of the formula's own topic the question names


def combine(candidates: list[Candidate], spans: dict[str, tuple[tuple[int, int], ...]],
            change: Callable[[Formula], Calculation]) -> Calculation | None:
    """The first candidate's total with every other fitting change applied too, or None
    when no second change fits. ``spans``: where the question states each quantity;
    ``change``: a formula's change alone (not added to the total)."""
    first = candidates[0]
    kept = first.formula.kept
    before = dict(first.calc.inputs).get(kept)
    if not kept or before is None or first.calc.value is None:
        return None
    own = set(spans.get(kept, ()))
    taken = set(first.calc.read) - own
    chosen = [first]
    for c in candidates[1:]:
        reads = set(c.calc.read) - own
        if c.formula.kept != kept or c.formula.unit != first.formula.unit or not c.topic \
                or c.calc.value is None or dict(c.calc.inputs).get(kept) != before \
                or not reads or reads & taken or any(c.formula.id == x.formula.id
                                                     for x in chosen):
            continue
        chosen.append(c)
        taken |= reads
    if len(chosen) < 2:
        return None
    total, terms, shown = before, [], []
    cites: tuple[Citation, ...] = ()
    for c in chosen:
        step = change(c.formula)
        if step.value is None:
            return None
        down = bool(c.formula.lowers)
        total = max(0.0, total - step.value) if down else total + step.value
        terms.append(f"{'−' if down else '+'} {fmt_number(step.value)}")
        shown.append(step.result)
        cites += tuple(x for x in c.calc.citations if x not in cites)
    label = dict(first.formula.labels)[kept]
    unit = first.formula.unit
    # The marks the whole change passes, not those one event's change passed alone.
    marks = {m for c in chosen for q in c.formula.quantities for m in q.marks}
    passed = passed_marks(first.formula, before, total)
    said, marked = "".join(t for t, _ in passed), [m for _, m in passed]
    cites = tuple(x for x in cites if x not in {m.citation for m in marks}) \
        + tuple(m.citation for m in marked)
    result = (f"{fmt_number(total)} {unit}: {fmt_number(before)} {label} {' '.join(terms)} = "
              f"{fmt_number(total)} (" + "; ".join(shown) + ")" + said)
    inputs = tuple(dict(x for c in chosen for x in c.calc.inputs).items())
    read = tuple(sorted({sp for c in chosen for sp in c.calc.read}))
    rulings = tuple(dict.fromkeys(
        [r for c in chosen for r in c.calc.rulings if r not in {m.say for m in marks}]
        + [m.say for m in marked]))
    working = " ".join(c.calc.working for c in chosen)
    return replace(first.calc, value=total, result=result, working=working,
                   citations=cites, inputs=inputs, read=read, rulings=rulings)
