"""Hakem's answers to a question set, written for an independent judge (``judged/JUDGE.md``).

What it does: asks every question of one or more sets (``FORMAT.md``) through the real
engine, as a player would (no game picked), and writes one JSON line per question with what
the judge reads: the question, the expected game and reference answer, whether Hakem
abstained, the answer text, the sentences it cites and its top passage. What it does not do:
judge or score anything (``hakem eval`` measures; a reader judges).

    python -m hakem_eval.answers eval/probe36.jsonl --out /tmp/probe36-answers.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hakem.answer import Answer
from hakem.engine import Engine
from hakem.errors import HakemError
from hakem.settings import Settings

from .harness import Question, QuestionSetError, load_questions


def record(q: Question, a: Answer, text_of: dict[str, str]) -> dict[str, Any]:
    """One judge line: what the player reads and what it rests on."""
    cited = [text_of[s.game][s.start:s.end] for s in a.spans if s.game in text_of]
    top = a.passages[0] if a.passages else None
    row: dict[str, Any] = {
        "id": q.id, "question": q.question, "game_expected": q.game,
        "reference_answer": q.answer, "hakem_abstained": a.abstained,
        "hakem_game": a.game, "hakem_answer": a.answer, "hakem_cited_sentences": cited,
        "hakem_top_passage": None,
    }
    if top is not None:
        row["hakem_top_passage"] = f"{top.chunk.game} [{top.chunk.section}] {top.chunk.text[:300]}"
    if q.value is not None:
        row["reference_value"] = q.value
    if q.polarity is not None:
        row["reference_polarity"] = q.polarity
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hakem_eval.answers", description=__doc__)
    parser.add_argument("sets", nargs="+", type=Path, help="question sets (JSONL)")
    parser.add_argument("--out", type=Path, required=True, help="answers file to write")
    args = parser.parse_args(argv)
    try:
        questions = [q for path in args.sets for q in load_questions(path)]
        engine = Engine.load(Settings.from_env())
    except (QuestionSetError, HakemError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    text_of = {g.id: g.text for g in engine.corpus.games}
    rows = []
    for n, q in enumerate(questions, 1):
        rows.append(record(q, engine.ask(q.question), text_of))
        print(f"\r{n}/{len(questions)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                        encoding="utf-8")
    print(f"wrote {len(rows)} answers to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
