"""A rules file's named quantities and the rule text it cites, loaded and checked.

What it does: reads the ``[quantity.<name>]`` tables of ``corpus/rules/<game>.toml`` — the
names players use for a quantity (aliases), whether several numbers said for it add up,
its default, what a stated 0 counts, whether only a count or a rank states it, the places
its rule does not count (``not_where``), what makes one of it not count (``not_with``), the
places that make a shared name's number its own (``where``), its standard-setup counts
by player count (``setup``), the quantity a "-lik" number said of it is (``each_worth``),
the quantities that may be named as parts of its count (``parts``), the names of a
rank's first place (``first``) and the marks a running total may pass (``mark``) — and
locates quotes in the game's text (``locate``), checking that every number used is stated
in them (``check_numbers``). What it does not do:
formulas (``formulas``) or read a question (``bind``, ``working``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass

from .expr import FUNCTIONS, FormulaError, expr_names_and_numbers, parse_expr
from .numbers import numbers_in
from .text import fold

# "her hayatta kalan için" is a rate of one, "en az 0" is no negative count: 0 and 1 need no
# digit in the quote ("bir" is not read as a number, see ``numbers``).
NEUTRAL = frozenset({0.0, 1.0})
SLUG = re.compile(r"^[a-z][a-z0-9_]*$")


@dataclass(frozen=True)
class Citation:
    game: str
    start: int
    end: int
    quote: str


@dataclass(frozen=True)
class Quantity:
    name: str
    label: str  # how the working names it: "hayatta kalan"
    aliases: tuple[str, ...]  # what players type: "hayatta kalan", "survivor", "karakter"
    # Several numbers stated for it are added up ("2 Tarım ve 1 Atık emisyon"): a sum of
    # listed parts.
    summed: bool = False
    default: float | None = None  # assumed when the question does not say (e.g. 0)
    # A 0 stated for one of its aliases counts this instead: "0 gösteren d10" is 10 (the
    # rules: "d10 zarında 0 rakamı “10” değerini temsil eder"). Folded alias → value.
    zero_counts: tuple[tuple[str, float], ...] = ()
    # Only a count states it, never a rank: "2. türbinim" (Deney C's second turbine) is no
    # number of turbines, where "1. sıradayım" is the rank a scoring rule asks for.
    counted: bool = False
    # A rank said of oneself states it with no name: "ben birinciyim".
    ranked: bool = False
    # Told occasion by occasion ("ilkinde en öndeydim, ikincisinde ikinci"), each occasion
    # in which it is the speaker's counts one (``occasions``): King's Day places.
    per_occasion: bool = False
    # Places whose numbers the rule does not count, said of the number (``bind_scope``): "fixer
    # alanındaki d20 17 gösteriyor" (Fixer dice are no friendly Gig). Folded words.
    not_where: tuple[str, ...] = ()
    # What makes one of it not count, said of the number's own thing: "satış etiketi
    # olmayan 1 açık Legend" (a face-up Legend without a sell tag pays nothing). Folded
    # phrases; ``bind`` reads them in the number's noun phrase only.
    not_with: tuple[str, ...] = ()
    # Places that make a number its own when another quantity shares its name: "termometrede
    # 15 küp vardı" (cubes on the thermometer) against "Son Emisyonlar'a 31 küp geldi".
    # Folded words, said of the number; a number said with none of them is not its.
    where: tuple[str, ...] = ()
    # Its count at the standard setup, by player count (players → count), for a question
    # that says it is still as set up ("standart kurulumla başladık, ağaç hiç değişmedi"):
    # ``setup_when`` are the phrases that must all be said ("a|b" = either), ``setup_cites``
    # the rule text that states the counts.
    setup: tuple[tuple[float, float], ...] = ()
    setup_when: tuple[str, ...] = ()
    setup_cites: tuple[Citation, ...] = ()
    # The quantity that says what one of it is worth: a number with the "-lik" ending said
    # of it ("5'lik bi görev kartı", "ikisi de 5'lik") is that worth, not a count of it.
    each_worth: str = ""
    # Quantities that may be named as parts of a count of it ("2 görev kartım tuttu: biri
    # Katedral Bonusu"): such a part counts one of its own and comes off the count.
    parts: tuple[str, ...] = ()
    # Its names that say the first place of a rank, said of oneself right before "bende" /
    # "benim": "çoğunluk bende" (the majority is the first place). Folded; ranked only.
    first: tuple[str, ...] = ()
    # Rulings on a running total's passing a mark, said when a gain or a loss worked out
    # for it passes one: Rebirth's score token flipped at 100 ("before < 100 <= after").
    marks: tuple[Mark, ...] = ()


@dataclass(frozen=True)
class Mark:
    when: str  # a condition over ``before`` and ``after``, the total before and after
    say: str
    citation: Citation


def strings(raw: object, where: str, name: str) -> tuple[str, ...]:
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(s, str) and s.strip() for s in items):
        raise FormulaError(f"{where}: `{name}` must be a string or a list of strings")
    return tuple(items)


def locate(text: str, game: str, quote: str, where: str) -> Citation:
    """The quote's one occurrence in the text; FormulaError if absent or ambiguous."""
    hits = [m.start() for m in re.finditer(re.escape(quote), text)]
    if not hits:
        raise FormulaError(f"{where}: quote not found in the text: {quote!r}")
    if len(hits) > 1:
        raise FormulaError(f"{where}: quote occurs {len(hits)} times; lengthen it: {quote!r}")
    return Citation(game, hits[0], hits[0] + len(quote), quote)


def load_quantities(raw: object, where: str, text: str = "", game: str = "") -> dict[str, Quantity]:
    if not isinstance(raw, dict):
        raise FormulaError(f"{where}: `quantity` must be a table of quantities")
    out = {}
    for name, q in raw.items():
        at = f"{where}: quantity {name}"
        if not SLUG.match(name) or name in FUNCTIONS or name == "value":
            raise FormulaError(f"{at}: a lowercase name (letters, digits, _)")
        if not isinstance(q, dict) or not isinstance(q.get("label"), str):
            raise FormulaError(f"{at}: needs a `label`")
        if set(numbers_in(q["label"])) - NEUTRAL:
            raise FormulaError(f"{at}: the label must state no number")
        default = q.get("default")
        if default is not None and (isinstance(default, bool)
                                    or not isinstance(default, int | float)):
            raise FormulaError(f"{at}: `default` must be a number")
        aliases = strings(q.get("aliases", []) or [q["label"]], at, "aliases")
        zeros = q.get("zero_counts", {})
        if not isinstance(zeros, dict) or any(
                a not in aliases or isinstance(v, bool) or not isinstance(v, int | float)
                for a, v in zeros.items()):
            raise FormulaError(f"{at}: `zero_counts` maps some of its aliases to numbers")
        for flag in ("counted", "ranked", "per_occasion"):
            if not isinstance(q.get(flag, False), bool):
                raise FormulaError(f"{at}: `{flag}` is true or false")
        not_where = strings(q.get("not_where", []) or [], at, "not_where") \
            if q.get("not_where") else ()
        not_with = strings(q["not_with"], at, "not_with") if q.get("not_with") else ()
        places = strings(q["where"], at, "where") if q.get("where") else ()
        setup, setup_when, setup_cites = _setup(q, at, text, game)
        worth = q.get("each_worth", "")
        parts = strings(q["parts"], at, "parts") if q.get("parts") else ()
        first = strings(q["first"], at, "first") if q.get("first") else ()
        if first and (not q.get("ranked") or not set(first) <= set(aliases)):
            raise FormulaError(f"{at}: `first` lists some of a ranked quantity's aliases")
        named = [*parts, worth] if worth else list(parts)
        if not isinstance(worth, str) or any(other not in raw or other == name
                                             for other in named):
            raise FormulaError(f"{at}: `each_worth` and `parts` name other quantities")
        out[name] = Quantity(name, q["label"], aliases, bool(q.get("summed", False)),
                             None if default is None else float(default),
                             tuple((fold(a), float(v)) for a, v in zeros.items()),
                             bool(q.get("counted", False)), bool(q.get("ranked", False)),
                             bool(q.get("per_occasion", False)),
                             tuple(fold(w) for w in not_where),
                             tuple(fold(w) for w in not_with),
                             tuple(fold(w) for w in places),
                             setup, setup_when, setup_cites, worth, parts,
                             tuple(fold(a) for a in first), _marks(q, at, text, game))
    return out


MARK_NAMES = frozenset(("before", "after"))


def _marks(q: Mapping[str, object], at: str, text: str, game: str) -> tuple[Mark, ...]:
    """A running total's marks: each a condition over ``before``/``after`` whose numbers
    its quote states, what is said when it holds, and that quote located in the text."""
    raw = q.get("mark", [])
    if not isinstance(raw, list) or not all(isinstance(m, dict) for m in raw):
        raise FormulaError(f"{at}: `mark` is a list of tables")
    out = []
    for i, m in enumerate(raw, 1):
        where = f"{at} mark {i}"
        when, say, quote = m.get("when"), m.get("say"), m.get("quote")
        if not isinstance(when, str) or not isinstance(say, str) or not say.strip() \
                or not isinstance(quote, str) or not quote.strip():
            raise FormulaError(f"{where}: needs `when`, `say` and one `quote`")
        node = parse_expr(when, where)
        if not isinstance(node, ast.Compare):
            raise FormulaError(f"{where}: `when` is a comparison of before and after")
        names, numbers = expr_names_and_numbers(node, where, condition=True)
        if not names <= MARK_NAMES:
            raise FormulaError(f"{where}: its condition names only before and after")
        cite = locate(text, game, quote, where)
        check_numbers(numbers | set(numbers_in(say)), (cite,), where)
        out.append(Mark(when, say, cite))
    return tuple(out)


def _setup(q: Mapping[str, object], at: str, text: str, game: str
           ) -> tuple[tuple[tuple[float, float], ...], tuple[str, ...], tuple[Citation, ...]]:
    """A quantity's standard-setup counts, the phrases that call for them, and their
    citations; each count must be stated in a quote beside its player count."""
    setup = q.get("setup")
    if setup is None:
        return (), (), ()
    if not isinstance(setup, dict) or not setup or not all(
            k.isdigit() and not isinstance(v, bool) and isinstance(v, int | float)
            for k, v in setup.items()):
        raise FormulaError(f"{at}: `setup` maps player counts (\"2\") to numbers")
    cites = tuple(locate(text, game, s, at)
                  for s in strings(q.get("setup_quote"), at, "setup_quote"))
    for k, v in setup.items():  # each count on the line of its own player count
        if not any({float(k), abs(float(v))} <= set(numbers_in(c.quote)) for c in cites):
            raise FormulaError(f"{at}: no `setup_quote` states {v} for {k} players")
    return (tuple((float(k), float(v)) for k, v in setup.items()),
            strings(q.get("setup_when"), at, "setup_when"), cites)


def check_numbers(numbers: set[float], quotes: tuple[Citation, ...], where: str) -> None:
    stated = {abs(x) for c in quotes for x in numbers_in(c.quote)} | NEUTRAL
    missing = sorted(numbers - stated)
    if missing:
        raise FormulaError(f"{where}: uses numbers its quotes do not state: {missing}")


def given_constants(raw: object, where: str) -> tuple[dict[str, float], dict[str, str]]:
    """Named rule constants: ``temel = 1`` or ``deste = { value = 20, label = "kart" }``."""
    if not isinstance(raw, dict):
        raise FormulaError(f"{where}: `given` must map names to numbers")
    values, labels = {}, {}
    for name, v in raw.items():
        entry = v if isinstance(v, dict) else {"value": v}
        value, label = entry.get("value"), entry.get("label", name.replace("_", " "))
        bad_label = not isinstance(label, str) or bool(set(numbers_in(label)) - NEUTRAL)
        if not SLUG.match(name) or isinstance(value, bool) or not isinstance(
                value, int | float) or bad_label:
            raise FormulaError(f"{where}: given {name!r} must be a number (and a label "
                               "stating no number)")
        values[name], labels[name] = float(value), label
    return values, labels
