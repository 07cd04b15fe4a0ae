"""Typed rules: the formulas a rule text states, loaded, checked and located in the text.

What it does: reads ``corpus/rules/<game>.toml`` — named quantities (with the Turkish and
English names players use for them) and formulas over them (base + per-unit, per-player
multipliers, differences, sums of listed parts, band tables, ceilings/floors, comparisons
with the player count), each with the moment it applies and the exact rule text it comes
from. Every quote must occur verbatim in the game's text (offsets are computed from it), and
every number a formula uses must be stated in its quotes, so a formula cannot carry a number
the rules do not give. A formula may say which quantity its result is (``gives``), for
another formula to work it out first (``chain``), or which quantity its result is a loss of
(``lowers``: "moral"), so that "moral 7, … moral kaç olur" is answered with what is left,
or a gain of (``raises``: the score): "skorum 87, … yeni skorum kaç" gets 87 plus the gain.
A formula each player applies to one shared pool (``each_player``: "Her oyuncu … Son
Emisyonlar alanına ekler") adds up the numbers stated for each player; only a sum of
quantities times numbers may say so, since only then is the rule of the sums the sum of
the rules. A quantity may name places whose numbers its rule does not count (``not_where``:
Fixer dice are no Gig), what makes one of it not count (``not_with``: a face-up Legend without
a sell tag), the places that make a name it shares its own (``where``: cubes "termometrede"),
or be counted occasion by occasion (``per_occasion``: King's Day places); a formula may
also apply, once, to the move another formula works out when its phrases are said
(``also_when``: the port's point on top of the tile's score).
A formula's verdicts are rulings decided by its result ("value >= players": "kriz önlenir");
one may say what holds when it does not (``otherwise``), said when the question names what it
decides (``about``): "kriz önlendi mi, moral kazanıyor muyuz" gets "koloni moral kazanmaz".
A running total may carry marks (``mark``: "before < 100 <= after": the score token turns),
said when a worked change to it passes one. ``verify_formulas`` is what ``hakem verify`` calls.

What it does not do: parse the quantity tables (``quantities``), read a question or
evaluate anything (see ``calc``, ``expr``), or touch the facts table (``corpus/facts``, see
``facts``).

An expression is a small arithmetic language (``expr``) parsed with Python's ``ast`` and never
executed: numbers, quantity names, names of ``given`` rule constants, ``+ - * /``,
``ceil(x)``, ``floor(x)``, ``max(a, b)``, ``min(a, b)``, ``band(x)`` (the formula's band
table), ``when(condition, a, b)``, ``count_at_most(listed, n)`` (how many of the numbers
listed for a summed quantity are n or less: dice results) and ``pairs(listed)`` (how many
pairs of equal numbers they hold, each number in one pair); comparisons only in conditions
(one, or a range of a band table: ``4 <= value <= 7``).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from .corpus import Corpus, read_text
from .expr import FormulaError, additive, expr_names_and_numbers, parse_expr
from .numbers import numbers_in
from .quantities import (
    Citation,
    Quantity,
    check_numbers,
    given_constants,
    load_quantities,
    locate,
    strings,
)

__all__ = ["Citation", "Formula", "FormulaError", "Quantity", "load_formulas", "locate",
           "verify_formulas"]

RULES_DIR = "rules"
MOMENTS = ("setup", "start", "each-round", "each-turn", "on-event", "end", "any")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class Band:
    low: float
    high: float | None  # None: no upper end ("12+")
    value: float
    say: str


@dataclass(frozen=True)
class Verdict:
    when: str  # a condition over ``value`` and the quantities: "value >= players + 2"
    say: str
    citations: tuple[Citation, ...]
    # What holds when ``when`` does not ("koloni moral kazanmaz"), said only when the
    # question names what the verdict decides (one of ``about``: "moral").
    otherwise: str = ""
    about: tuple[str, ...] = ()


@dataclass(frozen=True)
class Formula:
    id: str
    game: str
    say: str  # what it computes, in words: "aksiyon zarı sayısı"
    unit: str  # the result's unit: "zar"
    moment: str
    expr: str
    quantities: tuple[Quantity, ...]
    given: tuple[tuple[str, float], ...]  # named rule constants: (("temel", 1.0),)
    labels: tuple[tuple[str, str], ...]  # how quantities and constants are named in working
    asks: tuple[str, ...]  # what a question asks a number of: "zar", "dice"
    keywords: tuple[str, ...]  # words that say the formula's topic: "aksiyon", "roll"
    citations: tuple[Citation, ...]
    bands: tuple[Band, ...] = ()
    verdicts: tuple[Verdict, ...] = ()
    # Phrases the question must all contain ("a|b" = either): for a formula that takes no
    # number from the question, what says the question asks for exactly this combination.
    needs: tuple[str, ...] = ()
    # A rule that also applies to the move a question works out by another rule, when all
    # these phrases are said and not denied ("a|b" = either): once, or as many times as the
    # question says if the move's rule did not read that number; the port's 1 point on top
    # of the settlement placed on it ("son karoyu limana koydum").
    also_when: tuple[str, ...] = ()
    gives: str = ""  # the quantity its result is, for another formula to chain (``chain``)
    # A running quantity it takes and gives anew (the Energy Demand after each Growth), the
    # quantity that counts the rounds it is applied over, and what says the later round it
    # is used in ("emisyon"): a question that states the quantity now and asks about that
    # round gets it renewed first (``chain``).
    updates: str = ""
    over: str = ""
    used_in: tuple[str, ...] = ()
    # An exchange of one item each with a rival (``exchange``): the quantities of the items
    # the player holds, the one given and the one taken.
    exchange: tuple[str, ...] = ()
    # The quantity its result is a loss of ("moral"): a question that states that quantity
    # ("moral 7") and asks what it becomes ("moral kaç olur") gets it less the loss.
    lowers: str = ""
    # The quantity its result is a gain of (the player's score, the tokens they hold): a
    # question that states it ("skorum 87") and asks what it becomes gets it plus the gain.
    raises: str = ""

    @property
    def kept(self) -> str:
        """The running quantity the result is taken from or added to, if any."""
        return self.lowers or self.raises

    def constants(self) -> dict[str, float]:
        return dict(self.given)


def _bands(raw: object, where: str) -> tuple[Band, ...]:
    if not isinstance(raw, list):
        raise FormulaError(f"{where}: `bands` must be a list of tables")
    out = []
    for b in raw:
        if not (isinstance(b, dict) and isinstance(b.get("low"), int | float)
                and isinstance(b.get("value"), int | float) and isinstance(b.get("say"), str)):
            raise FormulaError(f"{where}: a band needs numbers `low`, `value` and a `say`")
        high = b.get("high")
        out.append(Band(float(b["low"]), None if high is None else float(high),
                        float(b["value"]), b["say"]))
    return tuple(out)


def _formula(raw: Mapping[str, object], game: str, text: str, quantities: dict[str, Quantity],
             where: str) -> Formula:
    fid = raw.get("id")
    if not isinstance(fid, str) or not _ID.match(fid):
        raise FormulaError(f"{where}: `id` must be a lowercase slug")
    where = f"{where} {fid}"
    for key in ("say", "unit", "expr"):
        if not isinstance(raw.get(key), str) or not str(raw[key]).strip():
            raise FormulaError(f"{where}: `{key}` must be a non-empty string")
    moment = raw.get("moment", "any")
    if moment not in MOMENTS:
        raise FormulaError(f"{where}: `moment` must be one of {', '.join(MOMENTS)}")
    citations = tuple(locate(text, game, q, where)
                      for q in strings(raw.get("quote"), where, "quote"))
    given, given_labels = given_constants(raw.get("given", {}), where)
    bands = _bands(raw.get("bands", []), where)
    expr = str(raw["expr"])
    names, numbers = expr_names_and_numbers(parse_expr(expr, where), where)
    numbers |= {abs(v) for v in given.values()}
    numbers |= {abs(x) for b in bands for x in (b.low, b.value, b.high) if x is not None}
    numbers |= {abs(x) for b in bands for x in numbers_in(b.say)}
    # What a stated 0 counts must be the rules' own number too, cited by the formula.
    numbers |= {abs(v) for n in names if n in quantities for _, v in quantities[n].zero_counts}
    unknown = names - set(quantities) - set(given)
    if unknown:
        raise FormulaError(f"{where}: unknown names {sorted(unknown)}")
    if not used_quantities(names, quantities) and not raw.get("needs"):
        raise FormulaError(f"{where}: a formula that takes no number from the question "
                           "needs `needs` (the phrases that ask for it)")
    if "band(" in expr and not bands:
        raise FormulaError(f"{where}: `band(...)` needs a `bands` table")
    verdicts = []
    verdict_raw = raw.get("verdict", [])
    for v in verdict_raw if isinstance(verdict_raw, list) else []:
        if not isinstance(v, dict) or not isinstance(v.get("when"), str) \
                or not isinstance(v.get("say"), str):
            raise FormulaError(f"{where}: a verdict needs `when` and `say`")
        v_names, v_numbers = expr_names_and_numbers(parse_expr(v["when"], where), where, True)
        if v_names - set(quantities) - set(given) - {"value"}:
            raise FormulaError(f"{where}: verdict uses unknown names {sorted(v_names)}")
        names |= v_names - {"value"}
        cites = tuple(locate(text, game, q, where)
                      for q in strings(v.get("quote", []) or [], where, "quote")) \
            if v.get("quote") else ()
        v_numbers |= {abs(x) for x in numbers_in(v["say"] + " " + str(v.get("otherwise", "")))}
        check_numbers(v_numbers, citations + cites, f"{where} verdict")
        otherwise, about = v.get("otherwise", ""), v.get("about", [])
        if not isinstance(otherwise, str) or not isinstance(about, list) \
                or not all(isinstance(a, str) for a in about) or bool(otherwise) != bool(about):
            raise FormulaError(f"{where}: a verdict's `otherwise` (a ruling) and `about` (the "
                               "words that ask it) come together")
        verdicts.append(Verdict(v["when"], v["say"], cites, otherwise, tuple(about)))
    check_numbers(numbers, citations, where)
    gives = raw.get("gives", "")
    if gives and (not isinstance(gives, str) or gives not in quantities or gives in names):
        raise FormulaError(f"{where}: `gives` must name a quantity of the file that the "
                           "formula itself does not use")
    updates, over = raw.get("updates", ""), raw.get("over", "")
    used_in = strings(raw.get("used_in", []) or [], where, "used_in") \
        if raw.get("used_in") else ()
    if not isinstance(updates, str) or not isinstance(over, str) \
            or len({bool(updates), bool(over), bool(used_in)}) != 1 \
            or (updates and not {updates, over} <= names & set(quantities)):
        raise FormulaError(f"{where}: `updates`, `over` and `used_in` come together: two "
                           "quantities the formula uses and the phrases of the round")
    exchange = strings(raw.get("exchange", []) or [], where, "exchange") \
        if raw.get("exchange") else ()
    if exchange and (len(exchange) != 3 or not set(exchange) <= names & set(quantities)
                     or not raw.get("needs")):
        raise FormulaError(f"{where}: `exchange` names three quantities the formula uses (the "
                           "items held, the one given, the one taken), and `needs` says the "
                           "swap")
    kept = {}
    for key in ("lowers", "raises"):
        name = raw.get(key, "")
        if not isinstance(name, str) or (name and (name not in quantities or name in names)):
            raise FormulaError(f"{where}: `{key}` must name a quantity of the file that the "
                               "formula itself does not use")
        kept[key] = name
    lowers, raises = kept["lowers"], kept["raises"]
    each_player = raw.get("each_player", False)
    if not isinstance(each_player, bool) or (each_player and not additive(parse_expr(expr,
                                                                                  where))):
        raise FormulaError(f"{where}: `each_player` is true or false, and only for a sum of "
                           "quantities each times a number (what each player adds to one "
                           "pool)")
    if lowers and raises:
        raise FormulaError(f"{where}: a result is a loss (`lowers`) or a gain (`raises`), "
                           "not both")
    used = tuple(replace(quantities[n], summed=True) if each_player and n in names
                 else quantities[n]
                 for n in sorted((names | {n for n in (lowers, raises) if n}) & set(quantities)))
    return Formula(
        id=fid, game=game, say=str(raw["say"]), unit=str(raw["unit"]), moment=str(moment),
        expr=expr, quantities=used, given=tuple(given.items()),
        labels=tuple({**{q.name: q.label for q in used}, **given_labels}.items()),
        asks=strings(raw.get("asks", []) or [raw["unit"]], where, "asks"),
        keywords=strings(raw.get("keywords", []) or [raw["say"]], where, "keywords"),
        citations=citations, bands=bands, verdicts=tuple(verdicts),
        needs=strings(raw.get("needs", []) or [], where, "needs") if raw.get("needs") else (),
        also_when=strings(raw.get("also_when", []) or [], where, "also_when")
        if raw.get("also_when") else (),
        gives=str(gives), lowers=lowers, raises=raises, updates=updates, over=over,
        used_in=used_in, exchange=exchange)


def used_quantities(names: set[str], quantities: dict[str, Quantity]) -> set[str]:
    return names & set(quantities)


def load_formulas(corpus_dir: Path, corpus: Corpus) -> tuple[Formula, ...]:
    """Every formula of ``corpus_dir/rules/<game>.toml``, checked against its game's text.
    No rules folder means no formulas (a corpus may have none yet)."""
    out: list[Formula] = []
    for path in sorted((corpus_dir / RULES_DIR).glob("*.toml")):
        if path.stem not in corpus.ids:
            raise FormulaError(f"{path}: no game {path.stem!r} in the corpus")
        try:
            raw = tomllib.loads(read_text(path))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise FormulaError(f"{path} is not valid TOML: {exc}") from exc
        text = corpus.game(path.stem).text
        quantities = load_quantities(raw.get("quantity", {}), path.name, text, path.stem)
        seen: set[str] = set()
        for i, f in enumerate(raw.get("formula", []), 1):
            if not isinstance(f, dict):
                raise FormulaError(f"{path.name}: formula #{i} is not a table")
            formula = _formula(f, path.stem, text, quantities, f"{path.name}: formula")
            if formula.id in seen:
                raise FormulaError(f"{path.name}: duplicate formula id {formula.id}")
            seen.add(formula.id)
            out.append(formula)
    return tuple(out)


def verify_formulas(corpus_dir: Path, corpus: Corpus) -> int:
    """What ``hakem verify`` checks: every formula loads and every citation is the quoted
    text at its offsets. Returns the number of formulas; raises FormulaError otherwise."""
    formulas = load_formulas(corpus_dir, corpus)
    for f in formulas:
        text = corpus.game(f.game).text
        for c in (*f.citations, *(c for v in f.verdicts for c in v.citations),
                  *(c for q in f.quantities for c in q.setup_cites),
                  *(m.citation for q in f.quantities for m in q.marks)):
            if text[c.start : c.end] != c.quote:
                raise FormulaError(f"formula {f.game}/{f.id}: citation {c.start}-{c.end} "
                                   "is not its quote")
    return len(formulas)
