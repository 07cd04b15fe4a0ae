"""The calculator's snapshot: every question of some sets worked out, to compare two versions.

What it does: runs ``hakem.sums.work_out`` (what ``hakem calc`` and the engine show) on each
question of one or more sets (``FORMAT.md``) with a game, and writes one JSON object keyed by
question id: the question, its reference ``value``, and the formula, value and result line
worked out (None where no formula applies). It prints how many values equal the reference,
how many differ, and with ``--against`` an earlier snapshot, every question whose working
changed (old and new status: right, wrong, missing, none, noref). What it does not do: judge
answers (a worked value that differs from ``value`` may still be right where a question asks
two numbers, as the first is read), or ask the engine (no retrieval, no index needed).

    python -m hakem_eval.calcsnap eval/situations*.jsonl --out /tmp/new.json --against /tmp/old.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hakem.calc import Calculator
from hakem.corpus import load_corpus
from hakem.errors import HakemError
from hakem.settings import Settings
from hakem.sums import work_out

from .harness import QuestionSetError, load_questions

Row = dict[str, Any]


def status(row: Row) -> str:
    """How a worked question stands against its reference value."""
    if row["value"] is None:
        return "none" if row["formula"] is None else "missing"
    if row["ref"] is None:
        return "noref"
    return "right" if abs(row["value"] - float(row["ref"])) < 1e-9 else "wrong"


def changes(old: dict[str, Row], new: dict[str, Row]) -> list[str]:
    """One block per question in both snapshots whose working changed."""
    out = []
    for qid, row in new.items():
        was = old.get(qid)
        if was is None or (was["formula"], was["value"], was["result"]) == (
                row["formula"], row["value"], row["result"]):
            continue
        out.append(f"{qid} {status(was)} -> {status(row)} | {row['q'][:110]} | ref {row['ref']}"
                   f"\n    OLD {was['result']}\n    NEW {row['result']}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hakem_eval.calcsnap", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", nargs="+", type=Path, help="question sets (JSONL)")
    parser.add_argument("--out", type=Path, required=True, help="snapshot file to write")
    parser.add_argument("--against", type=Path, help="an earlier snapshot to compare with")
    args = parser.parse_args(argv)
    try:
        questions = [q for path in args.sets for q in load_questions(path) if q.game]
        old = json.loads(args.against.read_text(encoding="utf-8")) if args.against else None
        settings = Settings.from_env()
        calculator = Calculator.from_corpus(settings.corpus_dir,
                                            load_corpus(settings.corpus_dir))
    except (QuestionSetError, HakemError, OSError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    rows: dict[str, Row] = {}
    for n, q in enumerate(questions, 1):
        assert q.game is not None
        calc = work_out(calculator, q.question, q.game)
        rows[q.id] = {"q": q.question, "ref": q.value,
                      "formula": calc.formula if calc else None,
                      "value": calc.value if calc else None,
                      "result": calc.result if calc else None}
        print(f"\r{n}/{len(questions)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    args.out.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    counts = {s: sum(1 for r in rows.values() if status(r) == s)
              for s in ("right", "wrong", "missing")}
    print(f"{len(rows)} questions: {counts['right']} right, {counts['wrong']} wrong, "
          f"{counts['missing']} missing a quantity; wrote {args.out}")
    if old is not None:
        changed = changes(old, rows)
        print("\n".join(changed) if changed else "no working changed")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
