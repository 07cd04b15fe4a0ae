"""How a fact is said: a Turkish sentence for players, a JSON object for machines.

What it does: words a fact leading with its range or number ("12 veya daha fazla Krizde
Topluluk jetonu: …"), a rate worked out for a count ("5 hayatta kalan için 3 yiyecek …"),
and the one JSON shape the API and the CLI print. What it does not do: load, check or rank
facts (see ``facts`` and ``factsearch``).
"""

from __future__ import annotations

from .facts import Fact
from .numbers import fmt_number


def applied_sentence(fact: Fact, count: float, result: float) -> str:
    """"5 hayatta kalan için 3 yiyecek (her 2 hayatta kalan için 1, yukarı yuvarlanır)"."""
    how = {"up": ", yukarı yuvarlanır", "down": ", aşağı yuvarlanır"}.get(fact.rounding, "")
    unit = fact.value_unit or fact.unit
    return (f"{fmt_number(count)} {fact.unit} için {fmt_number(result)} {unit} "
            f"(her {fmt_number(fact.per or 1)} {fact.unit} için "
            f"{fmt_number(fact.value or 0)}{how})")


def _range_text(fact: Fact) -> str:
    lo, hi = fact.min, fact.max
    if lo is not None and hi is not None:
        return fmt_number(lo) if lo == hi else f"{fmt_number(lo)}–{fmt_number(hi)}"
    if lo is not None:
        return f"{fmt_number(lo)} veya daha fazla"
    return f"en fazla {fmt_number(hi)}" if hi is not None else ""


def fact_sentence(fact: Fact) -> str:
    """The fact in plain Turkish, leading with its range or number."""
    if fact.per is not None and fact.value is not None:
        return (f"her {fmt_number(fact.per)} {fact.unit} için {fmt_number(fact.value)} "
                f"{fact.value_unit or fact.unit} — {fact.subject}: {fact.effect}")
    rng = _range_text(fact)
    if rng:
        return f"{rng} {fact.subject}: {fact.effect}"
    if fact.value is not None:
        unit = fact.value_unit or fact.unit
        return f"{fmt_number(fact.value)} {unit} — {fact.subject}: {fact.effect}"
    return f"{fact.subject}: {fact.effect}"


def fact_json(fact: Fact, score: float | None = None) -> dict[str, object]:
    """A fact as the API and ``--json`` print it: its fields, its sentence, its citation."""
    out: dict[str, object] = {
        "id": fact.id, "game": fact.game, "subject": fact.subject, "min": fact.min,
        "max": fact.max, "value": fact.value, "unit": fact.unit, "effect": fact.effect,
        "section": fact.section, "quote": fact.quote, "start": fact.start, "end": fact.end,
        "sentence": fact_sentence(fact)}
    if fact.per is not None:
        out["per"], out["rounding"] = fact.per, fact.rounding
    if score is not None:
        out["score"] = round(score, 4)
    return out
