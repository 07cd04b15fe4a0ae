"""``hakem eval``: run the harness through the real engine and print tables or JSON.

What it does: loads the engine once, runs the question set through the full pipeline and,
with ``--compare``, through each ablation (lexical only, dense only, components switched
off) in the same run, then prints a Markdown table (people) or one JSON object (machines).
What it does not do: measuring logic (see ``harness``).
"""

from __future__ import annotations

import argparse
import json
import platform
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.markup import escape

from hakem.engine import Engine
from hakem.errors import HakemError
from hakem.settings import Settings

from .harness import QuestionSetError, Report, load_questions, run

COLUMNS = ("recall@1", "recall@3", "recall@5", "mrr", "game_accuracy",
           "abstained_unanswerable", "abstained_answerable", "hedged_unanswerable",
           "hedged_answerable", "answer_span",
           "threshold_value_found", "threshold_top_fact", "polarity_right", "polarity_wrong")


def ablations(engine: Engine) -> list[tuple[str, Engine]]:
    """Each variant of the pipeline to compare, sharing the loaded index and model."""
    out = [("hybrid", engine)]
    variants: list[tuple[str, dict[str, Any]]] = [
        ("lexical only", {"mode": "lexical"}),
        ("dense only", {"mode": "dense"}),
        ("− game name kept in query", {"strip_game_name": False}),
        ("− English glossary", {"glossary": False}),
        ("− diacritic restoration", {"normalise": False}),
        ("− stem field", {"fields": ("prefix", "word")}),
        ("− prefix field", {"fields": ("stem", "word")}),
        ("− word field", {"fields": ("stem", "prefix")}),
        ("RRF instead of z-score fusion", {"fusion": "rrf"}),
    ]
    for label, changes in variants:
        out.append((label, replace(engine, retriever=engine.retriever.with_config(**changes))))
    return out


def markdown_table(reports: list[Report]) -> str:
    head = "| variant | " + " | ".join(COLUMNS) + " | p50 ms | p95 ms |"
    rule = "|" + "---|" * (len(COLUMNS) + 3)
    rows = [head, rule]
    for r in reports:
        cells = [_fmt(r.overall.get(c)) for c in COLUMNS]
        rows.append(f"| {r.label} | " + " | ".join(cells) +
                    f" | {r.latency.get('p50_ms', '')} | {r.latency.get('p95_ms', '')} |")
    return "\n".join(rows)


def lead_table(report: Report) -> str:
    """The number the answer leads with, for threshold questions with a value."""
    rows = ["| values | n | value in first sentence | wrong number first |", "|---|---|---|---|"]
    for label, key in (("all", ""), ("literal", "_literal"), ("computed", "_computed")):
        m = report.overall
        rows.append(f"| {label} | {m.get('n_values' + key)} | "
                    f"{_fmt(m.get('value_first_sentence' + key))} | "
                    f"{_fmt(m.get('wrong_number_first' + key))} |")
    return "\n".join(rows)


def group_table(report: Report, attr: str) -> str:
    groups: dict[str, dict[str, Any]] = getattr(report, attr)
    cols = ("n", "recall@1", "recall@5", "mrr", "game_accuracy", "abstained_unanswerable",
            "answer_span")
    rows = [f"| {attr[3:]} | " + " | ".join(cols) + " |", "|" + "---|" * (len(cols) + 1)]
    for name, m in groups.items():
        rows.append(f"| {name} | " + " | ".join(_fmt(m.get(c)) for c in cols) + " |")
    return "\n".join(rows)


def _fmt(value: Any) -> str:
    return "–" if value is None else f"{value:.3f}" if isinstance(value, float) else str(value)


def run_eval(args: argparse.Namespace, settings: Settings, console: Console,
             progress: Callable[[str], Any]) -> int:
    try:
        questions = load_questions(args.questions)
    except QuestionSetError as exc:
        raise HakemError(str(exc)) from exc
    engine = Engine.load(settings)
    variants = ablations(engine) if args.compare else ablations(engine)[:1]
    reports = []
    for label, variant in variants:
        with progress(f"eval {label}") as bar:
            task = bar.add_task(label, total=len(questions))

            def tick(done: int, _total: int, bar: Any = bar, task: Any = task) -> None:
                bar.update(task, completed=done)

            reports.append(run(variant.ask, questions, engine.corpus, label, progress=tick))
    machine = f"{platform.machine()}, {platform.python_version()}, {_cores()} cores"
    if args.json:
        out = reports[0].to_json()
        out["machine"] = machine
        out["embedder"] = engine.index.manifest.get("embedder")
        if args.compare:
            out["ablations"] = {r.label: {"overall": r.overall, "latency": r.latency}
                                for r in reports}
        print(json.dumps(out, ensure_ascii=False))
        return 0
    main = reports[0]
    console.print(f"[bold]{args.questions}[/] · {main.overall['n']} questions · "
                  f"embedder {engine.index.manifest.get('embedder')} · {machine}\n")
    console.print(markdown_table(reports), markup=False, soft_wrap=True)
    if "paraphrase_same_decision" in main.overall:
        console.print(f"\nparaphrase groups: same decision "
                      f"{_fmt(main.overall['paraphrase_same_decision'])}, same decision and "
                      f"first sentence {_fmt(main.overall['paraphrase_same_sentence'])}")
    console.print("\n" + lead_table(main), markup=False, soft_wrap=True)
    for attr in ("by_style", "by_kind", "by_game"):
        console.print("")
        console.print(group_table(main, attr), markup=False, soft_wrap=True)
    misses = main.misses if args.misses else main.misses[:10]
    console.print(f"\n[bold]misses[/] ({len(main.misses)}; rank≠1, wrong game, or wrong "
                  f"abstention){'' if args.misses else ', first 10 (--misses for all)'}:")
    for m in misses:
        console.print(f"- {m['id']} [{m['style']}/{m['kind']}] {escape(m['question'])}\n"
                      f"  rank={m['rank']} game={m['got_game']} abstained={m['abstained']} "
                      f"{escape(m['reason'] or '')}\n  top: {escape(str(m['top_passage']))}\n"
                      f"  evidence: {escape(str(m['evidence']))}")
    return 0


def _cores() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 0
