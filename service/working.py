"""One formula worked out for the player's numbers, with its working shown and cited.

What it does: given a formula and the numbers bound from the question (``bind``, and the
quantities ``chain`` worked out first), evaluates it and writes the result first with its
working ("6 zar: 1 temel + 5 hayatta kalan × 1 = 6"), the rule's verdicts that hold for it,
and, when the question asks what a stated total becomes ("moral 7, … moral kaç olur"), the
total after the gain or loss and the marks it passes (``passed_marks``). When a quantity
is missing it says which one and gives the formula instead of a number. Every number of a
result is one the question states, one the cited rule states, or the result itself.

What it does not do: choose the formula for a question (``calc``), bind numbers
(``bind``), or the arithmetic itself (``expr``).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Any

from .bind import Binding
from .expr import Missing, evaluate, one_reading, parse_expr
from .formulas import Citation, Formula, Quantity
from .mentions import Token, all_said, mentions, tokens
from .numbers import fmt_number, numbers_in
from .players import stated_players_at
from .quantities import Mark
from .text import fold

MOMENT_WORDS = {"setup": "kurulumda", "start": "oyun başında", "each-round": "her raunt/tur",
                "each-turn": "her oyuncu turunda", "on-event": "olay olduğunda",
                "end": "oyun sonunda", "any": "her an"}


@dataclass(frozen=True)
class Calculation:
    formula: str
    game: str
    value: float | None  # None when a quantity the formula needs is not in the question
    result: str  # the leading sentence: "6 zar: 1 temel + 5 hayatta kalan × 1 = 6"
    working: str  # the rule, its moment, and what was read from the question
    missing: tuple[str, ...]  # labels of the quantities the question does not state
    citations: tuple[Citation, ...]
    inputs: tuple[tuple[str, float], ...] = ()
    unit: str = ""  # the result's unit: "zar"
    # the formula's verdicts that hold for the result, and the marks a total passed
    rulings: tuple[str, ...] = ()
    # where the question states the numbers the result was worked from (character spans)
    read: tuple[tuple[int, int], ...] = ()
    listed: tuple[int, ...] = ()  # how many numbers the question lists for a quantity (2+)


def calculation_json(calc: Calculation | None) -> dict[str, Any] | None:
    """The calculation as the API and ``hakem calc --json`` print it."""
    if calc is None:
        return None
    return {"value": calc.value, "result": calc.result, "working": calc.working,
            "missing": list(calc.missing), "unit": calc.unit, "rulings": list(calc.rulings),
            "citations": [{"game": c.game, "start": c.start, "end": c.end}
                          for c in calc.citations]}


def _restated(question: str, spans: tuple[tuple[int, int], ...],
              stated: tuple[float, ...]) -> bool:
    """One number said twice in one breath ("2 zar harcayıp iki kere clean the waste"): the
    same value each time, with no clause break between (a comma or full stop would make
    "4 kolonide, 4 hastanede" two counts)."""
    if len(set(stated)) != 1 or len(spans) != len(stated):
        return False
    between = question[min(a for a, _ in spans):max(b for _, b in spans)]
    return not any(c in between for c in ",;.!?")


def _at_setup(q: Quantity, question: str) -> tuple[float, tuple[tuple[int, int], ...]] | None:
    """The quantity's standard-setup count and where the question says how many play, when
    every ``setup_when`` phrase is said, the last ("hiç değişmedi") in a clause that names
    the quantity itself ("ağaç okyanus hiç değişmedi"), and how many play is said
    (``players.stated_players_at``)."""
    if not q.setup:
        return None
    if not all_said(tokens(question), q.setup_when):
        return None
    last = [(alt, alt) for alt in q.setup_when[-1].split("|")]
    named = [(q.name, a) for a in q.aliases]
    if not any(mentions(clause, last) and mentions(clause, named)
               for clause in _clauses(question)):
        return None
    players = stated_players_at(question)
    count = None if players is None else dict(q.setup).get(float(players[0]))
    return None if count is None or players is None else (
        count, () if players[1] is None else (players[1],))


def _clauses(question: str) -> list[list[Token]]:
    return [tokens(c) for c in re.split(r"[,.;!?]", question) if c.strip()]


def _setup_cites(q: Quantity, value: float) -> tuple[Citation, ...]:
    """The setup quotes that state this count: the player count's own line."""
    return tuple(c for c in q.setup_cites if value in numbers_in(c.quote))


def _unread_digits(question: str, read: set[tuple[int, int]]) -> bool:
    """A number typed in digits that no quantity was read from."""
    return any(t.number and not t.text and (t.start, t.end) not in read
               for t in tokens(question))


def _labels(formula: Formula) -> dict[str, str]:
    return dict(formula.labels)


def calculate(formula: Formula, question: str, binding: Binding,
              steps: tuple[Calculation, ...] = (), as_step: bool = False) -> Calculation:
    """The formula worked out for the numbers bound from the question (and for the
    quantities ``steps`` worked out first, see ``chain``). As a ``step`` of another
    formula (``as_step``), its result is the amount itself, never what the question asks
    it becomes."""
    env = dict(formula.given)
    inputs = []
    unclear: dict[str, tuple[float, ...]] = {}
    one_each: set[str] = set()  # named more often than the question gives it a number
    not_all: set[str] = set()  # said to include some the rule does not count
    from_setup: list[Quantity] = []  # read from the standard setup the question says
    setup_read: set[tuple[int, int]] = set()  # where it says how many play
    for q in formula.quantities:
        stated = binding.values.get(q.name)
        if q.name == formula.kept:
            continue  # what the result is taken from or added to, not an input of the rule
        if stated and len(stated) > 1 and not q.summed and _restated(
                question, binding.spans.get(q.name, ()), stated):
            stated = stated[:1]
        if stated and q.name in binding.unclear:
            # What the rule does not count is said, but of none of these numbers ("3
            # legend'ım var, açık olanların etiketi yok"): counting all of them would be a
            # confident wrong total.
            unclear[q.name] = tuple(stated)
            not_all.add(q.name)
        elif stated and len(stated) > 1 and not q.summed:
            # Several numbers for one quantity the rule does not add up ("2 karakterle
            # başladım, iki survivor daha kazandım", "4 karakter kolonide, 2 hastanede"):
            # which one counts, or whether they add, is the player's to say; picking one
            # gave a confident wrong total.
            unclear[q.name] = tuple(stated)
        elif stated and f"pairs({q.name})" in formula.expr.replace(" ", "") and len(
                mentions(tokens(question), [(q.name, a) for a in q.aliases])) > len(stated):
            # "d4, d6, d8 hepsi 3": more dice named than values read; pairs of the values
            # read would be a confident wrong count.
            unclear[q.name] = tuple(stated)
            one_each.add(q.name)
        elif stated:
            env[q.name] = sum(stated) if q.summed else stated[0]
            inputs.append((q.name, env[q.name]))
        elif (at_setup := _at_setup(q, question)) is not None:
            env[q.name] = at_setup[0]
            inputs.append((q.name, at_setup[0]))
            from_setup.append(q)
            setup_read.update(at_setup[1])
        elif q.default is not None:
            env[q.name] = q.default
    if from_setup and _unread_digits(question, setup_read | {
            sp for n, _ in inputs for sp in binding.spans.get(n, ())} | {
            sp for s in steps for sp in s.read}):
        # A number of the question left unread ("Çin 9 ABD 5 küp": the 9) would leave the
        # total short: with the setup's counts beside it the result reads as the answer, so
        # the counts are asked for instead.
        inputs = [(n, v) for n, v in inputs if n not in {q.name for q in from_setup}]
        for q in from_setup:
            del env[q.name]
        from_setup = []
    labels = _labels(formula)
    node = parse_expr(formula.expr, formula.id)
    # "moral kaç olur" asks what is left after the loss: the morale before it is needed.
    # (A gain asked so, with no score stated, is the gain: "kaç puanım olur" after a move.)
    state = bool(formula.kept) and not as_step and asks_state(question)
    # The numbers themselves go in the working, not the leading sentence: a number first
    # reads as the result.
    missing = tuple(f"{q.label} (her biri için ayrı ayrı)" if q.name in one_each
                    else f"{q.label} (kuralın saymadıkları hariç kaç tane?)"
                    if q.name in not_all
                    else f"{q.label} (soruda birden çok sayı var: toplamı mı, biri mi?)"
                    if q.name in unclear else q.label
                    for q in formula.quantities if q.name not in env and (
                        q.name != formula.kept or (state and q.name == formula.lowers
                                                   and q.name not in binding.values)))
    # A number the result does not turn on is not needed: "2 kale, görev kartım yok" needs no
    # mission card's points (0 cards × any points).
    for name in [q.name for q in formula.quantities if q.label in missing
                 and len(missing) == 1 and q.name != formula.kept]:
        if _irrelevant(node, env, name):
            env[name] = 0.0
            missing = ()
    cites = formula.citations + tuple(dict.fromkeys(
        c for q in from_setup for c in _setup_cites(q, env[q.name])))
    rule = evaluate(node, dict(formula.given), labels, formula.bands, symbolic=True).text
    # A summed quantity told as several numbers is shown as told ("3, 3, 5"): a rule may
    # count them (``pairs``, ``count_at_most``) rather than add them.
    told = {q.name: binding.values[q.name] for q in formula.quantities
            if q.summed and len(binding.values.get(q.name, ())) > 1}
    read = ", ".join([*(f"{labels[n]} = " + (f"({', '.join(map(fmt_number, told[n]))})"
                                            if n in told else fmt_number(v))
                        for n, v in inputs),
                      *(f"{labels[n]} = {' ya da '.join(map(fmt_number, vs))}"
                        for n, vs in unclear.items())]) or "—"
    working = (f"Kural ({MOMENT_WORDS[formula.moment]}): {formula.say} = {rule}. "
               f"Sorudan: {read}.")
    try:
        if missing:
            raise Missing
        summed = {q.name: binding.values[q.name] for q in formula.quantities
                  if q.summed and q.name in binding.values}
        # quantities the question did not state, defaulted: their 0 terms are not shown
        quiet = frozenset(q.name for q in formula.quantities if q.name not in binding.values)
        done = evaluate(node, env, labels, formula.bands, parts=summed, quiet=quiet)
    except Missing:
        need = ", ".join(missing) or "kural tablosunun kapsadığı bir sayı"
        return Calculation(formula.id, formula.game, None,
                           f"Hesap için {need} gerekli. Formül: {formula.say} = {rule}", working,
                           missing, cites, tuple(inputs), formula.unit)
    value = round(done.value, 6)
    value = float(round(value)) if abs(value - round(value)) < 1e-6 else value
    result = f"{fmt_number(value)} {formula.unit}: {done.text} = {fmt_number(value)}"
    if done.text.strip() == fmt_number(value):
        # A row read from a table ("2 oyuncuda üç koşul") has no working: "3 koşul: 3 = 3"
        # reads as noise; what the row was read for is the working.
        given = ", ".join(f"{fmt_number(v)} {labels[n]}" for n, v in inputs)
        result = f"{fmt_number(value)} {formula.unit}" + (f" ({given})" if given else "")
    elif one_reading(done.text, fmt_number(value)):
        # one reading is the whole working: "2 kart eksik (8: 8-11 jeton, …)", not "2 kart
        # eksik: 2 (8: …) = 2"
        result = f"{fmt_number(value)} {formula.unit} {done.text[len(fmt_number(value)) + 1:]}"
    elif not inputs and not _WORKED.search(done.text):
        # the rule's one number for the case asked ("tek oyuncu doldurursa 8"): what it is for
        result = f"{fmt_number(value)} {formula.unit} ({formula.say})"
    # (a quantity a step worked out is bound with no place in the question: not read there)
    used = [sp for n, _ in inputs for sp in binding.spans.get(n, ())]
    listed = [len(binding.values[n]) for n, _ in inputs if len(binding.values.get(n, ())) > 1]
    for step in steps:  # "(enerji açığı: 15 Enerji Talebi − 12 Toplam Enerji = 3)"
        result += f" ({step.result.split('; ')[0]})"
        cites += tuple(c for c in step.citations if c not in cites)
        inputs += list(step.inputs)
        used += step.read
        listed += step.listed
    if from_setup:  # "(kurulumdaki gibi: 11 Ağaç, 7 Okyanus)": not the question's numbers
        result += " (kurulumdaki gibi: " + ", ".join(
            f"{fmt_number(env[q.name])} {labels[q.name]}" for q in from_setup) + ")"
    env["value"] = value
    rulings: list[str] = []
    for v in formula.verdicts:
        try:
            check = evaluate(parse_expr(v.when, formula.id), env, labels)
        except Missing:
            continue
        if check.value and any(v.say in r for r in rulings):
            continue  # said already ("kriz önlenir" of "kriz önlenir ve 1 moral kazanılır")
        if check.value:
            result += f"; {check.text}: {v.say}"
            cites += v.citations
            rulings.append(v.say)
        elif v.otherwise and matched(tokens(question), v.about):
            # "kriz önlendi mi, moral kazanıyor muyuz": the ruling that does not hold was
            # asked too; what holds instead is the answer to it.
            result += f"; {check.text}: {v.otherwise}"
            cites += v.citations
            rulings.append(v.otherwise)
    before = binding.values.get(formula.kept, ()) if state else ()
    if len(before) == 1:
        # "Moral 7, açlık adımından sonra moral kaç olur": what is left, not the loss;
        # "skorum 87, yeni skorum kaç": the score after the gain.
        label = labels[formula.kept]
        after = max(0.0, before[0] - value) if formula.lowers else before[0] + value
        sign = "−" if formula.lowers else "+"
        result = (f"{fmt_number(after)} {formula.unit}: {fmt_number(before[0])} {label} {sign} "
                  f"{fmt_number(value)} = {fmt_number(after)} ({result})")
        inputs.append((formula.kept, before[0]))
        used += binding.spans.get(formula.kept, ())
        for said, mark in passed_marks(formula, before[0], after):
            result += said
            cites += (mark.citation,)
            rulings.append(mark.say)
        value = after
    return Calculation(formula.id, formula.game, value, result, working, (), cites,
                       tuple(inputs), formula.unit, tuple(rulings), tuple(used), tuple(listed))


def passed_marks(formula: Formula, before: float, after: float) -> list[tuple[str, Mark]]:
    """The marks of the running total ``formula`` keeps that a change from ``before`` to
    ``after`` passes, each with what is said of it ("; 93 < 100 ≤ 101: skor başarımı
    jetonunu çevirirsiniz"). Checked on the whole change: one part of it may pass none."""
    kept = next((q for q in formula.quantities if q.name == formula.kept), None)
    out = []
    for mark in kept.marks if kept is not None else ():
        try:
            check = evaluate(parse_expr(mark.when, formula.id),
                             {"before": before, "after": after}, {})
        except Missing:
            continue
        if check.value:
            out.append((f"; {check.text}: {mark.say}", mark))
    return out


_WORKED = re.compile(r"[-+−×/÷⌈⌊]")  # a result's text that shows arithmetic


# "kaç olur", "kaça düşer", "kaç kalır", "yeni skorum kaç", "krizden sonra moral kaç?" (at
# the end: "sonra kaç jeton alırım" asks the gain), "20 ZP'm var … toplam kaç ZP?" (not
# "toplam kaç ZP kaybederim"): the question asks what a quantity becomes. ("kaç düşer" asks
# the drop; "kaça düşer" what is left.)
_STATE = re.compile(r"\bkac\s+(?:\w+\s+)?(?:ol(?:ur|du|acak|cak|ucak|uyor|uyo)|kal(?:ir|iyor"
                    r"|iyo|acak))\b|\bkaca\s+(?:\w+\s+)?(?:duser|dusuyor|dusuyo|iner|iniyor"
                    r"|iniyo|dusecek|inecek|cikar|cikiyor|cikiyo)\b"
                    r"|\b(?:yeni|final|simdi|artik)\s+(?:\w+\s+){0,2}kac\b"
                    r"|\bsonra\s+\w+\s+kac\W*$"
                    r"|\btoplam\s+(?:\w+\s+)?kac(?:\s+\w+)?\W*$"
                    r"|\bkac\s+(?!tane\b)[\w']+[ae]\s+(?:cik|dus|in)\w*")  # "kaç jetona çıkarım"


def asks_state(question: str) -> bool:
    return bool(_STATE.search(" ".join(fold(w) for w in question.split())))


def _irrelevant(node: ast.expr, env: dict[str, float], name: str) -> bool:
    """Every use of ``name`` in the expression is multiplied by a quantity that is 0 here, or
    sits in a branch of ``when`` the stated numbers do not take (tried values would not do:
    "max(0, sınır − 9)" is 0 for every small limit)."""
    def zero(n: ast.expr) -> bool:
        return (isinstance(n, ast.Name) and env.get(n.id) == 0) or (
            isinstance(n, ast.Constant) and n.value == 0)

    def used(n: ast.AST) -> bool:
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "when":
            try:  # only the branch the question's numbers take ("a crisis prevented")
                taken = n.args[1] if evaluate(n.args[0], env, {}).value else n.args[2]
            except Missing:
                return any(used(c) for c in n.args)
            return used(taken)
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) and (
                zero(n.left) or zero(n.right)):
            return False
        if isinstance(n, ast.Name):
            return n.id == name
        return any(used(c) for c in ast.iter_child_nodes(n))
    return not used(node)


def matched(toks: list[Token], phrases: tuple[str, ...]) -> int:
    """How many of the phrases occur in the tokens (each judged on its own)."""
    return sum(1 for p in phrases if mentions(toks, [(p, p)]))
