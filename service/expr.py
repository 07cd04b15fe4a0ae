"""The formulas' arithmetic language: parsed, checked and worked out with its working shown.

What it does: parses an expression with Python's ``ast`` (never executing it) and checks that
it uses only numbers, quantity names, ``+ - * /``, comparisons in conditions and the
functions of ``FUNCTIONS``; works it out for given values, writing the working with the
numbers in place ("5 hayatta kalan × 1", "⌈7 / 2⌉", "2 (9: 8-11 jeton)"), or by name only
(``symbolic``) to state the rule, and tells a working that is one such reading and nothing
else (``one_reading``). ``Missing`` is raised for a value it needs and does not have. What
it does not do: read rules files (``formulas``) or questions (``calc``, ``bind``).
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .errors import HakemError
from .numbers import fmt_number

if TYPE_CHECKING:  # formulas imports this module; the band type is only named here
    from .formulas import Band

FUNCTIONS = {"ceil": 1, "floor": 1, "max": 2, "min": 2, "band": 1, "when": 3,
             "count_at_most": 2, "pairs": 1}


class FormulaError(HakemError):
    """A rules file is malformed, or a formula's quote or number is not in its text (here:
    an expression not in the formulas' language)."""

    code = "formulas_invalid"


def parse_expr(expr: str, where: str) -> ast.expr:
    try:
        return ast.parse(expr, mode="eval").body
    except SyntaxError as exc:
        raise FormulaError(f"{where}: not an expression: {expr!r}") from exc


def expr_names_and_numbers(node: ast.expr, where: str, condition: bool = False
                           ) -> tuple[set[str], set[float]]:
    """The names and number literals of an expression; FormulaError for anything else."""
    names: set[str] = set()
    numbers: set[float] = set()

    def walk(n: ast.expr, cond: bool) -> None:
        if isinstance(n, ast.Constant) and isinstance(n.value, int | float) \
                and not isinstance(n.value, bool):
            numbers.add(abs(float(n.value)))
        elif isinstance(n, ast.Name):
            names.add(n.id)
        elif isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add | ast.Sub | ast.Mult | ast.Div):
            walk(n.left, cond)
            walk(n.right, cond)
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            walk(n.operand, cond)
        elif isinstance(n, ast.Compare) and cond and (len(n.ops) == 1 or (
                len(n.ops) == 2 and all(isinstance(o, ast.Lt | ast.LtE) for o in n.ops))
                ) and all(isinstance(o, ast.Lt | ast.LtE | ast.Gt | ast.GtE | ast.Eq
                                     | ast.NotEq) for o in n.ops):
            # (one comparison, or a range: "4 <= value <= 7", a band of a table)
            for side in (n.left, *n.comparators):
                walk(side, cond)
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
              and FUNCTIONS.get(n.func.id) == len(n.args) and not n.keywords):
            for i, arg in enumerate(n.args):
                walk(arg, cond or (n.func.id == "when" and i == 0))
        else:
            raise FormulaError(f"{where}: not allowed in an expression: {ast.unparse(n)!r}")

    walk(node, condition)
    return names, numbers



class Missing(Exception):
    pass


@dataclass(frozen=True)
class Eval:
    value: float
    text: str


def _precedence(node: ast.expr) -> int:
    if isinstance(node, ast.BinOp):
        return 1 if isinstance(node.op, ast.Add | ast.Sub) else 2
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
            "max", "min", "when") and len(node.args) >= 2:
        # max(0, x) and when(c, a, b) are written as the term they give
        return min(_precedence(a) for a in node.args[-2:])
    return 3


_OPS = {ast.Add: "+", ast.Sub: "−", ast.Mult: "×", ast.Div: "/"}
_CMP = {ast.Lt: "<", ast.LtE: "≤", ast.Gt: ">", ast.GtE: "≥", ast.Eq: "=", ast.NotEq: "≠"}
_NOT = {ast.Lt: "≥", ast.LtE: ">", ast.Gt: "≤", ast.GtE: "<", ast.Eq: "≠", ast.NotEq: "="}


def _band(bands: tuple[Band, ...], x: float) -> Band:
    for b in bands:
        if b.low <= x and (b.high is None or x <= b.high):
            return b
    raise Missing  # outside every band: the table does not say


def evaluate(node: ast.expr, env: dict[str, float], labels: dict[str, str],
             bands: tuple[Band, ...] = (), symbolic: bool = False,
             parts: dict[str, tuple[float, ...]] | None = None,
             quiet: frozenset[str] = frozenset()) -> Eval:
    """The expression's value and its working, numbers in place ("5 hayatta kalan × 1");
    with ``symbolic``, quantities by name only ("hayatta kalan × 1"), value 0. A term of a
    sum that is 0 and reads only ``quiet`` quantities (ones the question did not state) is
    left out of the working: "3 kale × 5 + 0 görev kartı × 0 puanı" reads "3 kale × 5"."""
    def silent(n: ast.expr, e: Eval) -> bool:
        names = {x.id for x in ast.walk(n) if isinstance(x, ast.Name)}
        return e.value == 0 and bool(names) and names <= quiet

    def ev(n: ast.expr) -> Eval:
        if isinstance(n, ast.Constant):
            assert isinstance(n.value, int | float)  # formulas.py allows numbers only
            return Eval(float(n.value), fmt_number(float(n.value)))
        if isinstance(n, ast.Name):
            if n.id in env:
                label = labels.get(n.id, "")
                # A sum of listed parts is shown as its parts: "(2 + 1) Emisyon jetonu".
                stated = (parts or {}).get(n.id, ())
                shown = f"({' + '.join(map(fmt_number, stated))})" if len(stated) > 1 \
                    else fmt_number(env[n.id])
                return Eval(env[n.id], f"{shown} {label}".strip())
            if symbolic:
                return Eval(0.0, labels.get(n.id, n.id))
            raise Missing
        if isinstance(n, ast.UnaryOp):
            inner = ev(n.operand)
            return Eval(-inner.value, f"−{inner.text}")
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            ta = f"({a.text})" if _precedence(n.left) < _precedence(n) else a.text
            tb = f"({b.text})" if _precedence(n.right) <= _precedence(n) and (
                _precedence(n.right) < 3) else b.text
            op = type(n.op)
            value = (a.value + b.value if op is ast.Add else a.value - b.value if op is ast.Sub
                     else a.value * b.value if op is ast.Mult
                     else a.value / b.value if b.value else 0.0)
            if op in (ast.Add, ast.Sub) and silent(n.right, b):
                return Eval(value, a.text)
            if op is ast.Add and silent(n.left, a):
                return Eval(value, b.text)
            return Eval(value, f"{ta} {_OPS[op]} {tb}")
        if isinstance(n, ast.Compare) and len(n.ops) == 2:  # a range: "4 ≤ 5 ≤ 7"
            a, b, c = ev(n.left), ev(n.comparators[0]), ev(n.comparators[1])
            ok = [x.value < y.value if isinstance(op, ast.Lt) else x.value <= y.value
                  for op, x, y in zip(n.ops, (a, b), (b, c), strict=True)]
            return Eval(float(all(ok)), f"{a.text} {_CMP[type(n.ops[0])]} {b.text} "
                        f"{_CMP[type(n.ops[1])]} {c.text}")
        if isinstance(n, ast.Compare):
            a, b = ev(n.left), ev(n.comparators[0])
            cmp = type(n.ops[0])
            holds = {ast.Lt: a.value < b.value, ast.LtE: a.value <= b.value,
                     ast.Gt: a.value > b.value, ast.GtE: a.value >= b.value,
                     ast.Eq: a.value == b.value, ast.NotEq: a.value != b.value}[cmp]
            # a comparison that fails reads as what holds instead: "4 < 4 + 2"
            said = (_CMP if holds or symbolic else _NOT)[cmp]
            return Eval(float(holds), f"{a.text} {said} {b.text}")
        assert isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        fn, args = n.func.id, n.args
        if fn == "when":
            cond = ev(args[0])
            if symbolic:  # the rule stated: both of its cases
                yes, no = ev(args[1]), ev(args[2])
                return Eval(0.0, f"({cond.text} ise {yes.text}, değilse {no.text})")
            return ev(args[1]) if cond.value else ev(args[2])
        xs = [ev(a) for a in args]
        if fn in ("ceil", "floor"):
            value = (math.ceil if fn == "ceil" else math.floor)(round(xs[0].value, 9))
            marks = "⌈⌉" if fn == "ceil" else "⌊⌋"
            return Eval(float(value), f"{marks[0]}{xs[0].text}{marks[1]}")
        if fn == "count_at_most":
            name = args[0].id if isinstance(args[0], ast.Name) else ""
            listed = (parts or {}).get(name, ())
            if symbolic or not listed:
                return Eval(0.0, f"[{labels.get(name, name)} ≤ {xs[1].text}]")
            hits = [x for x in listed if x <= xs[1].value]
            shown = ", ".join(map(fmt_number, listed))
            return Eval(float(len(hits)), f"{len(hits)} ({shown} içinde ≤ {xs[1].text})")
        if fn == "pairs":  # pairs of equal values, each value in one pair at most
            name = args[0].id if isinstance(args[0], ast.Name) else ""
            listed = (parts or {}).get(name, ())
            if symbolic or not listed:
                return Eval(0.0, f"[{labels.get(name, name)}: aynı değerli çift]")
            count = sum(listed.count(v) // 2 for v in set(listed))
            shown = ", ".join(map(fmt_number, listed))
            return Eval(float(count), f"{count} ({shown} içinde aynı değerli çift)")
        if fn == "band":
            if symbolic:
                return Eval(0.0, f"[{xs[0].text}: " + "; ".join(b.say for b in bands) + "]")
            band = _band(bands, xs[0].value)
            return Eval(band.value,
                         f"{fmt_number(band.value)} ({fmt_number(xs[0].value)}: {band.say})")
        value = max(x.value for x in xs) if fn == "max" else min(x.value for x in xs)
        # "max(0, talep − üretim)": a count never goes below zero; the working shows the
        # difference, and says so when the zero is what counts.
        zero = [i for i, a in enumerate(args) if isinstance(a, ast.Constant) and a.value == 0]
        if not zero:
            return Eval(value, f"{fn}({xs[0].text}; {xs[1].text})")
        inner = xs[1 - zero[0]]
        clamp = " (eksiye düşmez)" if inner.value != value and not symbolic else ""
        return Eval(value, inner.text + clamp)

    return ev(node)


def one_reading(text: str, value: str) -> bool:
    """The working is one reading and nothing else, the value and what it was read from
    in one parenthesis: a band's row ("2 (8: 8-11 jeton, 2 daha az kart)"), a rank's
    ("5 (1: 1. sıra)"), the pairs counted ("2 (3, 3, 5, 5 içinde aynı değerli çift)")."""
    if not text.startswith(f"{value} (") or not text.endswith(")"):
        return False
    depth = 0
    for i, c in enumerate(text[len(value) + 1:], len(value) + 1):
        depth += (c == "(") - (c == ")")
        if depth == 0:
            return i == len(text) - 1
    return False


def additive(node: ast.expr) -> bool:
    """A sum of terms, each a quantity or a quantity times a number ("dirty * 1 + emissions
    * 1"): what each player's numbers add to is the same rule applied to their sums."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return additive(node.left) and additive(node.right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        sides = (node.left, node.right)
        return (any(isinstance(x, ast.Name) for x in sides)
                and any(isinstance(x, ast.Constant) for x in sides))
    return isinstance(node, ast.Name)
