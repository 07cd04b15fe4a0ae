"""Draft facts and formulas for a new rule text, for an editor to confirm.

What it does: goes through the sentences of a game's text that state a number, and for
each one not yet covered (by a fact quote or a formula citation) proposes an entry: a
formula when the sentence has the shape of one — per unit ("her 2 hayatta kalan için 1
yiyecek", rounded when it says so), per player ("her oyuncu için 2 küp"), a difference
("aradaki fark kadar"), a band table ("4-7 jeton: …") or a comparison ("eşit veya daha
fazla") — otherwise a plain fact; each with the numbers and the nouns they count, the
moment the rule applies (setup, start, each round or turn, end), and the sentence as the
quote. ``render_toml`` prints them as TOML; ``coverage`` says what is left.

What it does not do: decide anything. Every draft is a guess for a person to check, edit
and save into ``corpus/facts/<game>.toml`` or ``corpus/rules/<game>.toml``; nothing is
written.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from .formulas import Formula
from .numbers import WORD, fmt_number, number_spans, numeric_sentences
from .text import fold

_MOMENTS = (("setup", ("kurulum", "hazirlik", "oyun basinda", "baslangicta")),
            ("end", ("oyun sonunda", "oyun sonu", "oyun bittiginde", "sonunda")),
            ("each-turn", ("turunda", "sirasi", "siraniz", "her oyuncu turu")),
            ("each-round", ("her tur", "her raunt", "her raund", "her rauntta", "turun basinda",
                            "faz")),
            ("start", ("basinda",)))
_PER = re.compile(r"\bher (\d+ )?(\w+(?: \w+)?) (?:için|başına)", re.IGNORECASE)
_BAND = re.compile(r"\d+\s*[-–]\s*\d+\s+\w+\s*:|\d+\+\s*\w*\s*:")


@dataclass(frozen=True)
class Draft:
    game: str
    start: int
    end: int
    sentence: str
    kind: str  # "per-unit", "per-player", "difference", "bands", "comparison", "sum", "fact"
    moment: str
    numbers: tuple[tuple[float, str], ...]  # each number and the noun after it


@dataclass(frozen=True)
class DraftReport:
    total: int
    covered_by_facts: int
    covered_by_formulas: int
    drafts: tuple[Draft, ...]


def moment_of(sentence: str) -> str:
    folded = fold(sentence)
    for moment, cues in _MOMENTS:
        if any(c in folded for c in cues):
            return moment
    return "any"


def kind_of(sentence: str) -> str:
    folded = fold(sentence)
    if _BAND.search(sentence):
        return "bands"
    if "her oyuncu icin" in folded or "oyuncu basina" in folded or "oyuncu sayisi kadar" in folded:
        return "per-player"
    if "fark kadar" in folded or "acik kadar" in folded:
        return "difference"
    if _PER.search(sentence) or "yukari yuvarla" in folded or "asagi yuvarla" in folded:
        return "per-unit"
    if "esit veya daha" in folded or "veya daha fazla" in folded or "asarsa" in folded:
        return "comparison"
    if " + " in sentence or "sayisi kadar" in folded:
        return "sum"
    return "fact"


def nouns_of(sentence: str) -> tuple[tuple[float, str], ...]:
    """Each number of the sentence and the word after it: what it counts, in Turkish."""
    out = []
    for _, end, value in number_spans(sentence):
        after = WORD.findall(sentence[end:])[:2]
        out.append((value, " ".join(after)))
    return tuple(out)


def draft_game(game_id: str, text: str, fact_spans: list[tuple[int, int]],
               formulas: tuple[Formula, ...]) -> DraftReport:
    """Drafts for the numeric sentences of one game that no fact or formula covers yet."""
    formula_spans = [(c.start, c.end) for f in formulas if f.game == game_id
                     for c in f.citations]
    by_facts = by_formulas = 0
    drafts = []
    sentences = numeric_sentences(text)
    for s, e in sentences:
        in_formula = any(a < e and s < b for a, b in formula_spans)
        in_fact = any(a < e and s < b for a, b in fact_spans)
        by_formulas += in_formula
        by_facts += in_fact
        kind = kind_of(text[s:e])
        # A fact covers a plain number; a sentence with a formula's shape wants a formula.
        if in_formula or (in_fact and kind == "fact"):
            continue
        drafts.append(Draft(game_id, s, e, text[s:e], kind, moment_of(text[s:e]),
                            nouns_of(text[s:e])))
    return DraftReport(len(sentences), by_facts, by_formulas, tuple(drafts))


def _toml_str(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a valid TOML basic string


def render_toml(report: DraftReport) -> str:
    """The drafts as TOML entries (formulas with a guessed expression left to the editor)."""
    lines = [f"# {report.total} numeric sentences: {report.covered_by_facts} covered by facts,",
             f"# {report.covered_by_formulas} by formulas, {len(report.drafts)} drafted below.",
             "# Check each one against the text; delete what is not a rule.", ""]
    for i, d in enumerate(report.drafts, 1):
        counted = "; ".join(f"{fmt_number(v)} → {noun or '?'}" for v, noun in d.numbers)
        lines.append(f"# {d.game}:{d.start}-{d.end} · {d.kind} · numbers: {counted}")
        if d.kind == "fact":
            value = d.numbers[0][0] if d.numbers else 0
            lines += ["[[fact]]", f'id = "draft-{i}"', 'subject = ""',
                      f"unit = {_toml_str(d.numbers[0][1] if d.numbers else '')}",
                      f"value = {fmt_number(value).replace(',', '.')}", 'effect = ""']
        else:
            lines += ["[[formula]]", f'id = "draft-{i}"', 'say = ""', 'unit = ""',
                      f'moment = "{d.moment}"', f"expr = {_toml_str(_guess_expr(d))}",
                      "asks = []", "keywords = []"]
        lines += [f"quote = {_toml_str(d.sentence)}", ""]
    return "\n".join(lines)


def _guess_expr(d: Draft) -> str:
    nums = [fmt_number(v).replace(",", ".") for v, _ in d.numbers]
    folded = fold(d.sentence)
    if d.kind == "per-player":
        return f"players * {nums[0] if nums else 1}"
    if d.kind == "per-unit" and len(nums) >= 2:
        core = f"count / {nums[0]}"
        core = f"ceil({core})" if "yukari" in folded else f"floor({core})" \
            if "asagi" in folded else core
        return f"{core} * {nums[1]}"
    if d.kind == "per-unit":
        return f"count * {nums[0] if nums else 1}"
    if d.kind == "difference":
        return "max(0, a - b)"
    if d.kind == "bands":
        return "band(count)"
    if d.kind == "comparison":
        return "total  # and a [[formula.verdict]] with the comparison"
    return " + ".join(["part"] * max(2, len(nums)))
