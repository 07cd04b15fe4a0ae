"""Calibrate the abstention thresholds, and say honestly how well they hold on unseen questions.

What it does: asks every question of a set once, keeps each question's evidence signals
(dense similarity, term coverage; see ``hakem.answer.Evidence``), then picks the pair of
thresholds (``min_dense``, ``min_coverage``) that best separates unanswerable from
answerable questions on a fixed grid — false abstentions cost ``FALSE_ABSTAIN_COST`` times
more than missed ones — and estimates the result on unseen questions by leave-one-out
cross-validation: each question is judged with thresholds chosen without it. What it does
not do: change the defaults; copy the printed pair into ``AbstainConfig`` only when the
cross-validated figures support it.

    python -m hakem_eval.calibrate ../shared/eval/dev.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
from dataclasses import dataclass, replace
from pathlib import Path

from hakem.answer import AbstainConfig, Evidence, abstain_reason
from hakem.engine import Engine
from hakem.settings import Settings

from .harness import load_questions

DENSE_GRID = tuple(round(0.76 + 0.01 * i, 2) for i in range(13))
COVERAGE_GRID = tuple(round(0.05 * i, 2) for i in range(11))
FALSE_ABSTAIN_COST = 5.0


@dataclass(frozen=True)
class Sample:
    answerable: bool
    evidence: Evidence


def collect(engine: Engine, path: Path) -> list[Sample]:
    """Each question's evidence, through the very path ``Engine.ask`` takes."""
    return [Sample(q.game is not None, engine.evidence(q.question)[2])
            for q in load_questions(path)]


def _abstains(s: Sample, config: AbstainConfig) -> bool:
    return bool(abstain_reason(s.evidence, config))


def _utility(samples: list[Sample], config: AbstainConfig) -> float:
    gain = sum(_abstains(s, config) for s in samples if not s.answerable)
    cost = sum(_abstains(s, config) for s in samples if s.answerable)
    return gain - FALSE_ABSTAIN_COST * cost


def best_config(samples: list[Sample]) -> AbstainConfig:
    grid = [replace(AbstainConfig(), min_dense=d, min_coverage=c)
            for d, c in itertools.product(DENSE_GRID, COVERAGE_GRID)]
    # Ties go to the most conservative pair (lowest thresholds): abstain as little as possible.
    return max(grid, key=lambda cfg: (_utility(samples, cfg), -cfg.min_dense, -cfg.min_coverage))


def rates(samples: list[Sample], decisions: list[bool]) -> dict[str, float]:
    unans = [d for s, d in zip(samples, decisions, strict=True) if not s.answerable]
    ans = [d for s, d in zip(samples, decisions, strict=True) if s.answerable]
    return {"abstained_unanswerable": round(sum(unans) / max(len(unans), 1), 3),
            "abstained_answerable": round(sum(ans) / max(len(ans), 1), 3)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hakem_eval.calibrate",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("questions", type=Path)
    args = parser.parse_args(argv)
    engine = Engine.load(Settings.from_env())
    samples = collect(engine, args.questions)
    default = AbstainConfig()
    fitted = best_config(samples)
    loo = []
    for i in range(len(samples)):
        cfg = best_config(samples[:i] + samples[i + 1 :])
        loo.append(_abstains(samples[i], cfg))
    print(json.dumps({
        "questions": len(samples),
        "default": {"min_dense": default.min_dense, "min_coverage": default.min_coverage,
                    **rates(samples, [_abstains(s, default) for s in samples])},
        "fitted_on_all": {"min_dense": fitted.min_dense, "min_coverage": fitted.min_coverage,
                          **rates(samples, [_abstains(s, fitted) for s in samples])},
        "leave_one_out": rates(samples, loo),
    }, indent=2))
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
