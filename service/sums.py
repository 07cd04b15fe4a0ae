"""A total over several parts of the player's situation, each worked out by its own rule.

What it does: "3 altıgenli büyük yerleşimde birinciyim, bir de orta yerleşimde ikinci oldum:
toplam kaç puan?" asks for the sum of two rules' results. When the question asks for a total
("toplam", "ikisinden", "in total") and at least two of its clauses each state a situation
that a different formula works out completely, in the unit asked, the answer is their sum,
each part shown and cited: "11 puan: 8 + 3 = 11 (…; …)". Each clause is worked out on its own
numbers only, so no number of the question is counted twice. What it does not do: pick or
evaluate a formula (``calc``), or answer when fewer than two parts are worked out (the whole
question then goes to ``calc`` as one). Also several numbers asked at once ("kaç jetonum olur,
sonraki raunt kaç kart çekerim"): each worked out by its own rule, in the order asked.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from .asks import asked_nouns, asked_parts, asked_window
from .calc import Calculation, Calculator
from .numbers import fmt_number, numbers_in

# What asks for the total of several things, folded.
_TOTAL = re.compile(r"\b(?:toplam\w*|ikisinden|ucunden|hepsinden|bunlardan|total|altogether"
                    r"|together|combined)\b")
# Where one part of the situation ends and the next begins.
# ("ve" and "and" join numbers too: "etkisi 2 ve 3 olan karolar".)
_CLAUSE = re.compile(r"[,;.!?]+\s*|\s(?:bir de|bi de|ayrıca|ayrica|plus)\s", re.IGNORECASE)


def sum_of_parts(calculator: Calculator, question: str, game: str) -> Calculation | None:
    """The total of the parts a question states, or None (not a total, or fewer than two
    parts worked out)."""
    question = unicodedata.normalize("NFC", question)
    toks, asks = asked_window(question)
    if not asks or not _TOTAL.search(" ".join(t.text for t in toks)):
        return None
    asked = asked_nouns(toks)
    parts: list[Calculation] = []
    cuts = list(_CLAUSE.finditer(question))
    starts = [0, *(m.end() for m in cuts)]
    ends = [*(m.start() for m in cuts), len(question)]
    for start, end in zip(starts, ends, strict=True):
        clause = question[start:end]
        if not numbers_in(clause):
            continue
        calc = calculator.calculate(clause, game, asked)
        if calc is not None and calc.value is not None and not calc.missing:
            # (a clause's numbers are read where the whole question states them)
            parts.append(replace(calc, read=tuple((a + start, b + start) for a, b in calc.read)))
    units = {p.unit for p in parts}
    # Two clauses of one formula are one quantity told in two places ("3 askerim var, bir de 2
    # askerim"): worked out apart, a base or a rounding would count twice.
    if len(parts) < 2 or len(units) != 1 or len({p.formula for p in parts}) < len(parts):
        return None
    unit = units.pop()
    total = sum(p.value or 0.0 for p in parts)
    shown = " + ".join(fmt_number(p.value or 0.0) for p in parts)
    why = "; ".join(p.result for p in parts)
    cites = tuple(dict.fromkeys(c for p in parts for c in p.citations))
    return Calculation(
        formula="+".join(p.formula for p in parts), game=game, value=total,
        result=f"{fmt_number(total)} {unit}: {shown} = {fmt_number(total)} ({why})",
        working=" ".join(p.working for p in parts), missing=(), citations=cites,
        inputs=tuple(i for p in parts for i in p.inputs), unit=unit,
        read=tuple(sp for p in parts for sp in p.read),
        listed=tuple(n for p in parts for n in p.listed))


# A worked step in a result: " (3 Krizde Topluluk jetonu: 14 Enerji Talebi − (5 + 6) = 3)".
_STEP = re.compile(r" \((?:[^()]|\([^()]*\))*\)")


def each_asked(calculator: Calculator, question: str, game: str) -> Calculation | None:
    """"kaç jetonum olur, sonraki raunt kaç kart çekerim": a question asking two or more
    numbers, each worked out by its own rule on the question's numbers, the results in the
    order asked; None unless at least two asks are worked out fully by different rules."""
    question = unicodedata.normalize("NFC", question)
    toks = asked_window(question)[0]
    asks = asked_parts(toks)
    if len(asks) < 2:
        return None
    parts: list[Calculation] = []
    # Each ask's topic is its own clause and the clauses that ask nothing (the situation):
    # "5 kişiyiz, krizi durdurmak için kaç puan, moral kazanmak için kaç" asks the
    # prevention's total first, then the morale's.
    clause, clauses = 0, []
    for t in toks:
        clauses.append(clause)
        clause += not any(ch.isalnum() for ch in t.text) and t.number is None
    asking = {clauses[toks.index(a[-1])] for a in asks if a}
    for asked in asks:
        own = {clauses[toks.index(asked[-1])]} if asked else set()
        about = [t for t, c in zip(toks, clauses, strict=True)
                 if c in own or c not in asking]
        calc = calculator.calculate(question, game, asked, about or None)
        if calc is not None and calc.value is not None and not calc.missing \
                and calc.formula not in {p.formula for p in parts}:
            parts.append(calc)
    if len(parts) < 2:
        return None
    first = parts[0]
    results = [parts[0].result]
    for p in parts[1:]:  # a step both parts rest on is shown once, in the first
        results.append(_STEP.sub(lambda m: "" if m.group(0)[1:] in " ".join(results)
                                 else m.group(0), p.result))
    return Calculation(
        formula="&".join(p.formula for p in parts), game=game, value=first.value,
        result=". ".join(results),
        working=" ".join(p.working for p in parts), missing=(),
        citations=tuple(dict.fromkeys(c for p in parts for c in p.citations)),
        inputs=tuple(dict.fromkeys(i for p in parts for i in p.inputs)), unit=first.unit,
        rulings=tuple(r for p in parts for r in p.rulings),
        read=tuple(dict.fromkeys(sp for p in parts for sp in p.read)),
        listed=tuple(n for p in parts for n in p.listed))


def work_out(calculator: Calculator, question: str, game: str) -> Calculation | None:
    """What the engine and ``hakem calc`` show: each number the question asks worked out
    (``each_asked``), or the question worked out as one formula, or as the total of its
    parts when the parts read more of the numbers the player stated."""
    several = each_asked(calculator, question, game)
    if several is not None:
        return several
    whole = calculator.calculate(question, game)
    total = sum_of_parts(calculator, question, game)
    if total is not None and (whole is None or whole.value is None
                              or len(total.inputs) > len(whole.inputs)):
        return total
    return whole
