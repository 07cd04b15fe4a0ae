"""The evaluation harness behind ``hakem eval``: any question set in ``shared/eval`` format.

What it does: reads a JSONL question set (see ``FORMAT.md``), asks each question through the
real pipeline, and measures recall@1/3/5 and MRR (a passage counts when it is in the
question's game and overlaps the span of one of its evidence quotes), game accuracy,
abstention on unanswerable and answerable questions, answer-span accuracy, threshold values
found in facts, and in-process latency — overall and per style, kind and game, with the
list of misses. What it does not do: tune anything. It only measures.
"""

from __future__ import annotations

import json
import math
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hakem.answer import HEDGE, Answer
from hakem.corpus import Corpus
from hakem.facts import fact_numbers
from hakem.numbers import numbers_in
from hakem.text import sentence_spans

KINDS = ("threshold", "rule", "procedure", "faq", "component", "scoring", "setup", "end",
         "variant", "unanswerable")
STYLES = ("formal", "colloquial", "no-diacritics", "typo", "english", "mixed", "game-unnamed")


class QuestionSetError(ValueError):
    """The question file is not in the expected format; the message names the line."""


@dataclass(frozen=True)
class Question:
    id: str
    game: str | None
    question: str
    kind: str
    style: str
    evidence: tuple[str, ...]
    answer: str = ""
    value: float | None = None
    polarity: str | None = None  # "evet" / "hayır" for a yes/no question
    group: str | None = None  # paraphrase sets: the questions of a group ask the same thing


def load_questions(path: Path) -> list[Question]:
    """The questions of a JSONL file in ``FORMAT.md``'s format; ``QuestionSetError`` naming
    the file, line and field of the first that is not (never a silent reinterpretation:
    ``"evidence": "a string"`` read as a list would be its characters)."""
    out, seen = [], set()
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise QuestionSetError(f"cannot read {path}: {exc}") from exc
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionSetError(f"{path}:{n}: not valid JSON ({exc.msg})") from exc
        q = _question(row, f"{path}:{n}")
        if q.id in seen:
            raise QuestionSetError(f"{path}:{n}: duplicate id {q.id!r}")
        seen.add(q.id)
        out.append(q)
    if not out:
        raise QuestionSetError(f"{path}: no questions")
    return out


POLARITIES = ("evet", "hayır")


def _question(row: Any, where: str) -> Question:
    def bad(field: str, what: str) -> QuestionSetError:
        return QuestionSetError(f"{where}: `{field}` must be {what}")

    if not isinstance(row, dict):
        raise QuestionSetError(f"{where}: a question is a JSON object")
    for name in ("id", "question"):
        if not isinstance(row.get(name), str) or not row[name].strip():
            raise bad(name, "a non-empty string")
    game = row.get("game")
    if game is not None and not (isinstance(game, str) and game.strip()):
        raise bad("game", "a game id or null")
    kind, style = row.get("kind"), row.get("style")
    if kind not in KINDS:
        raise bad("kind", "one of " + ", ".join(KINDS))
    if style not in STYLES:
        raise bad("style", "one of " + ", ".join(STYLES))
    evidence = row.get("evidence", [])
    if not isinstance(evidence, list) or not all(
            isinstance(e, str) and e.strip() for e in evidence):
        raise bad("evidence", "a list of non-empty strings")
    if kind == "unanswerable" and (evidence or game is not None):
        raise QuestionSetError(f"{where}: an unanswerable question has no evidence and "
                               "`game` null")
    if kind != "unanswerable" and (not evidence or game is None):
        raise QuestionSetError(f"{where}: an answerable question needs `game` and at least "
                               "one `evidence` quote")
    answer = row.get("answer", "")
    if not isinstance(answer, str):
        raise bad("answer", "a string")
    value = row.get("value")
    if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)
                              or not math.isfinite(value)):
        raise bad("value", "a finite number")
    if row.get("polarity") not in (None, *POLARITIES):
        raise bad("polarity", "evet or hayır")
    group = row.get("group")  # paraphrase sets (eval/paraphrase.jsonl)
    if group is not None and not (isinstance(group, str) and group.strip()):
        raise bad("group", "a non-empty string or absent")
    return Question(id=row["id"], game=game, question=row["question"], kind=kind, style=style,
                    evidence=tuple(evidence), answer=answer,
                    value=None if value is None else float(value),
                    polarity=row.get("polarity"), group=group)


def _ws_map(text: str) -> tuple[str, list[int]]:
    """Text with whitespace runs collapsed, and each collapsed char's offset in ``text``."""
    chars, offsets = [], []
    for m in re.finditer(r"\s+|\S", text):
        chars.append(" " if m.group().isspace() else m.group())
        offsets.append(m.start())
    return "".join(chars), [*offsets, len(text)]


def evidence_spans(q: Question, corpus: Corpus) -> list[tuple[int, int]]:
    """Every place each evidence quote occurs in its document (whitespace-collapsed match)."""
    if q.game is None or q.game not in corpus.ids:
        return []
    text = corpus.game(q.game).text
    collapsed, offsets = _ws_map(text)
    spans = []
    for quote in q.evidence:
        needle = re.sub(r"\s+", " ", quote.strip())
        i = collapsed.find(needle)
        while i >= 0 and needle:
            spans.append((offsets[i], offsets[i + len(needle) - 1] + 1))
            i = collapsed.find(needle, i + 1)
    return spans


@dataclass(frozen=True)
class Outcome:
    question: Question
    answer: Answer
    rank: int | None  # 1-based rank of the first passage overlapping evidence
    seconds: float
    span_hit: bool
    value_found: bool | None
    top_fact_right: bool | None
    # For a yes/no question: the verdict the answer leads with ("evet", "hayır" or "" when it
    # states none); None when the question has no polarity.
    stated_polarity: str | None = None
    # The number the answer leads with (issue 13): whether the first sentence states the
    # question's value, whether its first number is another one, and whether the value is
    # "literal" (stated in the question's evidence) or "computed" (needs arithmetic).
    lead: LeadNumber | None = None


@dataclass(frozen=True)
class LeadNumber:
    computed: bool
    value_first: bool
    wrong_first: bool


def first_sentence(answer_text: str) -> str:
    """The first sentence a player reads after the hedge's fixed preface, if any ("Kurallar
    bunu açıkça söylemiyor olabilir; en yakın kural: - Atık Temizleme: … 3 kart kaldır.")."""
    answer_text = answer_text.removeprefix(HEDGE).lstrip()
    spans = sentence_spans(answer_text)
    return answer_text[spans[0].start : spans[0].end] if spans else ""


def lead_number(q: Question, answer: Answer) -> LeadNumber | None:
    """How the answer's first sentence fares on a threshold question with a value. An
    abstention leads with no number: neither right nor wrong."""
    if q.kind != "threshold" or q.value is None or q.game is None:
        return None
    stated = {x for quote in q.evidence for x in numbers_in(quote)}
    numbers = [] if answer.abstained else numbers_in(first_sentence(answer.answer))
    return LeadNumber(computed=q.value not in stated, value_first=q.value in numbers,
                      wrong_first=bool(numbers) and numbers[0] != q.value)


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(start < e and s < end for s, e in spans)


def judge(q: Question, answer: Answer, spans: list[tuple[int, int]], seconds: float) -> Outcome:
    rank = None
    for i, hit in enumerate(answer.passages, 1):
        if hit.chunk.game == q.game and _overlaps(hit.chunk.start, hit.chunk.end, spans):
            rank = i
            break
    span_hit = any(s.game == q.game and _overlaps(s.start, s.end, spans)
                   for s in (answer.spans or ((answer.answer_span,) if answer.answer_span else ())))
    value_found = top_right = None
    if q.kind == "threshold" and q.value is not None and q.game is not None:
        numbers = set(numbers_in(answer.answer))
        for fh in answer.facts:
            numbers |= fact_numbers(fh.fact)
        value_found = q.value in numbers
        top_right = False
        if answer.facts:
            top = answer.facts[0]
            # A rate's number for the question's count ("5 kişi" → 3) is the top fact's answer.
            top_numbers = fact_numbers(top.fact) | ({top.applied[1]} if top.applied else set())
            top_right = top.fact.game == q.game and q.value in top_numbers
    stated = None
    if q.polarity is not None:
        first = re.match(r"\s*(Evet|Hayır)\b", answer.answer) if not answer.abstained else None
        stated = first.group(1).replace("E", "e").replace("H", "h") if first else ""
    return Outcome(q, answer, rank, seconds, span_hit, value_found, top_right, stated,
                   lead_number(q, answer))


def _rate(items: Iterable[bool]) -> float | None:
    values = list(items)
    return round(sum(values) / len(values), 3) if values else None


def metrics(outcomes: list[Outcome]) -> dict[str, Any]:
    answerable = [o for o in outcomes if o.question.game is not None]
    unanswerable = [o for o in outcomes if o.question.game is None]
    thresholds = [o for o in answerable if o.value_found is not None]
    polar = [o for o in answerable if o.question.polarity is not None]
    return {
        "n": len(outcomes),
        "recall@1": _rate(o.rank is not None and o.rank <= 1 for o in answerable),
        "recall@3": _rate(o.rank is not None and o.rank <= 3 for o in answerable),
        "recall@5": _rate(o.rank is not None and o.rank <= 5 for o in answerable),
        "mrr": round(sum(1 / o.rank for o in answerable if o.rank) / len(answerable), 3)
        if answerable else None,
        "game_accuracy": _rate(o.answer.game == o.question.game for o in answerable),
        "abstained_unanswerable": _rate(o.answer.abstained for o in unanswerable),
        "abstained_answerable": _rate(o.answer.abstained for o in answerable),
        # Answered with "the rules may not say this; the closest rule:" (``Answer.hedged``).
        "hedged_unanswerable": _rate(o.answer.hedged for o in unanswerable),
        "hedged_answerable": _rate(o.answer.hedged for o in answerable),
        "answer_span": _rate(o.span_hit for o in answerable),
        "threshold_value_found": _rate(bool(o.value_found) for o in thresholds),
        "threshold_top_fact": _rate(bool(o.top_fact_right) for o in thresholds),
        # Of yes/no questions: the answer leads with the right verdict / with the wrong one.
        "polarity_right": _rate(o.stated_polarity == o.question.polarity for o in polar),
        "polarity_wrong": _rate(o.stated_polarity not in ("", None, o.question.polarity)
                                for o in polar),
        **_lead_metrics(outcomes),
    }


def paraphrase_consistency(outcomes: list[Outcome]) -> dict[str, float | None]:
    """Of groups of the same question in several styles: the share whose questions all get
    the same abstain decision, and the share that also cite the same first sentence."""
    groups: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        if o.question.group:
            groups[o.question.group].append(o)
    decided = [len({o.answer.abstained for o in g}) == 1 for g in groups.values()]
    same = [len({(o.answer.abstained, o.answer.answer_span) for o in g}) == 1
            for g in groups.values()]
    return {"paraphrase_same_decision": _rate(decided), "paraphrase_same_sentence": _rate(same)}


def _lead_metrics(outcomes: list[Outcome]) -> dict[str, Any]:
    """Value in the first sentence and wrong number first, for all threshold questions
    with a value and separately for literal and computed values."""
    leads = [o.lead for o in outcomes if o.lead is not None]
    out: dict[str, Any] = {}
    for label, group in (("", leads), ("_literal", [x for x in leads if not x.computed]),
                         ("_computed", [x for x in leads if x.computed])):
        out[f"value_first_sentence{label}"] = _rate(x.value_first for x in group)
        out[f"wrong_number_first{label}"] = _rate(x.wrong_first for x in group)
        out[f"n_values{label}"] = len(group)
    return out


def _latency(outcomes: list[Outcome]) -> dict[str, float]:
    ms = sorted(o.seconds * 1000 for o in outcomes)
    if not ms:
        return {}
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return {"p50_ms": round(statistics.median(ms), 1), "p95_ms": round(p95, 1)}


@dataclass(frozen=True)
class Report:
    label: str
    overall: dict[str, Any]
    latency: dict[str, float]
    by_style: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_kind: dict[str, dict[str, Any]] = field(default_factory=dict)
    by_game: dict[str, dict[str, Any]] = field(default_factory=dict)
    misses: tuple[dict[str, Any], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "overall": self.overall, "latency": self.latency,
                "by_style": self.by_style, "by_kind": self.by_kind, "by_game": self.by_game,
                "misses": list(self.misses)}


AskFn = Callable[[str], Answer]


def run(ask: AskFn, questions: list[Question], corpus: Corpus, label: str = "hybrid",
        progress: Callable[[int, int], None] | None = None) -> Report:
    outcomes = []
    for i, q in enumerate(questions, 1):
        started = time.perf_counter()
        answer = ask(q.question)
        outcomes.append(judge(q, answer, evidence_spans(q, corpus), time.perf_counter() - started))
        if progress:
            progress(i, len(questions))
    groups: dict[str, dict[str, list[Outcome]]] = {"style": defaultdict(list),
                                                   "kind": defaultdict(list),
                                                   "game": defaultdict(list)}
    for o in outcomes:
        groups["style"][o.question.style].append(o)
        groups["kind"][o.question.kind].append(o)
        groups["game"][o.question.game or "(none)"].append(o)
    overall = metrics(outcomes)
    if any(o.question.group for o in outcomes):
        overall.update(paraphrase_consistency(outcomes))
    return Report(label=label, overall=overall, latency=_latency(outcomes),
                  by_style={k: metrics(v) for k, v in sorted(groups["style"].items())},
                  by_kind={k: metrics(v) for k, v in sorted(groups["kind"].items())},
                  by_game={k: metrics(v) for k, v in sorted(groups["game"].items())},
                  misses=tuple(_miss(o) for o in outcomes if _is_miss(o)))


def _is_miss(o: Outcome) -> bool:
    if o.question.game is None:
        return not o.answer.abstained
    return o.rank != 1 or o.answer.abstained or o.answer.game != o.question.game


def _miss(o: Outcome) -> dict[str, Any]:
    top = o.answer.passages[0].chunk if o.answer.passages else None
    return {"id": o.question.id, "style": o.question.style, "kind": o.question.kind,
            "question": o.question.question, "expected_game": o.question.game,
            "got_game": o.answer.game, "rank": o.rank, "abstained": o.answer.abstained,
            "reason": o.answer.reason,
            "top_passage": f"{top.id} [{top.section}] {top.text[:90]}" if top else None,
            "evidence": o.question.evidence[:1]}
