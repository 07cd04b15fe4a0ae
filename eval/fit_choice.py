"""Fit the answer-sentence model, and say honestly how well it holds on unseen questions.

What it does: for every answerable question of several question sets, takes the candidate
sentences ``choose`` would rank (through ``Engine.evidence``, the path ``ask`` takes) with
their signals (``hakem.candidates.features``), labels each by whether it overlaps the
question's evidence, and fits a conditional logit: per question, the softmax over its
candidates of a linear score, maximising the probability of the evidence sentences (L2
regularised). Reported **leave-one-set-out**: each set's questions are ranked by a model
fitted on the other sets only, beside the hand-set prior, as the share whose best sentence
is an evidence sentence. ``--write`` saves the model fitted on all sets, with that report,
to the versioned JSON file the engine loads. What it does not do: run at serving time
(scipy is a development dependency), pick features (``hakem.candidates.FEATURES``), or
change which passages are retrieved.

    python -m hakem_eval.fit_choice ../shared/eval/dev.jsonl eval/probe.jsonl --write
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from hakem.answer import sentence_fact
from hakem.candidates import FEATURES, PRIOR, SentenceModel, features, pool_of
from hakem.engine import Engine
from hakem.question import analyse
from hakem.settings import Settings

from .harness import evidence_spans, load_questions

POOL = 3  # passages whose sentences the fitted model ranks (the prior ranks 2)
L2 = 1.0  # on standardised weights; 0.1 and 10 gave the same held-out figures


@dataclass(frozen=True)
class Ranked:
    """One question's candidates: their signals, which are evidence, the prior's scores."""

    set_name: str
    x: np.ndarray
    y: np.ndarray
    prior: np.ndarray


def collect(engine: Engine, paths: list[Path], pool: int = POOL,
            progress: bool = True) -> list[Ranked]:
    wide = SentenceModel(PRIOR.mean, PRIOR.scale, PRIOR.coef, pool)
    lexical = engine.retriever.lexical
    out: list[Ranked] = []
    for path in paths:
        questions = [q for q in load_questions(path) if q.game is not None]
        for i, item in enumerate(questions, 1):
            if progress:
                print(f"\r{path.stem}: {i}/{len(questions)}", end="", file=sys.stderr)
            q = analyse(item.question)
            retrieval, facts, ev = engine.evidence(q)
            if retrieval.game != item.game or not retrieval.hits:
                continue
            text = engine.corpus.game(item.game).text
            terms = ev.terms if ev.terms is not None else frozenset()
            fact = sentence_fact(q, facts)
            cands = pool_of(retrieval.hits, text, q, wide, retrieval.query_vector,
                            engine.index.sentence_vectors)
            spans = evidence_spans(item, engine.corpus)
            hits = retrieval.hits
            x = np.array([features(c, q, terms, lexical.idf, fact, hits, cands) for c in cands])
            y = np.array([any(c.span.start < e and s < c.span.end for s, e in spans)
                          for c in cands])
            # The prior ranks only its own pool: deeper candidates never win under it.
            shallow = np.array([c.rank < PRIOR.pool + (1 if q.asks_order else 0)
                                for c in cands])
            prior = np.where(shallow, [PRIOR.score(list(row)) for row in x], -np.inf)
            if len(cands):
                out.append(Ranked(path.stem, x, y, prior))
        if progress:
            print(file=sys.stderr)
    return out


def fit(data: list[Ranked], l2: float = L2, pool: int = POOL) -> SentenceModel:
    """The conditional logit over the questions that have evidence and non-evidence
    candidates (the others say nothing about which sentence is better)."""
    xs = np.concatenate([r.x for r in data])
    mean, scale = xs.mean(axis=0), xs.std(axis=0)
    scale[scale == 0] = 1.0
    rows = [((r.x - mean) / scale, r.y) for r in data if r.y.any() and not r.y.all()]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        total, grad = l2 * float(w @ w), 2 * l2 * w
        for z, y in rows:
            s = z @ w
            p = np.exp(s - s.max())
            p /= p.sum()
            hit = p[y].sum()
            total -= float(np.log(hit))
            target = np.where(y, p / hit, 0.0)
            grad = grad + z.T @ (p - target)
        return total, grad

    w = minimize(loss, np.zeros(len(FEATURES)), jac=True, method="L-BFGS-B").x
    return SentenceModel(tuple(float(v) for v in mean), tuple(float(v) for v in scale),
                         tuple(float(v) for v in w), pool)


def best_is_evidence(r: Ranked, model: SentenceModel) -> bool:
    scores = [model.score(list(row)) for row in r.x]
    return bool(r.y[int(np.argmax(scores))])


def leave_one_set_out(data: list[Ranked]) -> dict[str, dict[str, float | int]]:
    report: dict[str, dict[str, float | int]] = {}
    for name in sorted({r.set_name for r in data}):
        model = fit([r for r in data if r.set_name != name])
        held = [r for r in data if r.set_name == name and r.y.any()]
        if not held:
            continue
        report[name] = {
            "n": len(held),
            "fitted": round(sum(best_is_evidence(r, model) for r in held) / len(held), 3),
            "prior": round(sum(bool(r.y[int(np.argmax(r.prior))]) for r in held) / len(held),
                           3)}
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     prog="python -m hakem_eval.fit_choice")
    parser.add_argument("sets", nargs="+", type=Path, help="question sets (JSON Lines)")
    parser.add_argument("--write", action="store_true",
                        help="save the model fitted on all sets beside the corpus")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    engine = Engine.load(settings)
    data = collect(engine, args.sets, progress=not args.json)
    report = leave_one_set_out(data)
    n = sum(int(v["n"]) for v in report.values())
    summary = {name: round(sum(float(v[name]) * int(v["n"]) for v in report.values()) / n, 3)
               for name in ("fitted", "prior")}
    if args.json:
        print(json.dumps({"sets": report, "all": summary, "n": n}, indent=1))
    else:
        for name, row in report.items():
            print(f"{name:14} n={row['n']:4}  fitted {row['fitted']:.3f}  prior {row['prior']:.3f}")
        print(f"{'all':14} n={n:4}  fitted {summary['fitted']:.3f}  prior {summary['prior']:.3f}")
    if args.write:
        model = fit(data)
        body = model.to_json() | {"report": {"leave_one_set_out": report, "all": summary,
                                             "sets": [str(p) for p in args.sets]}}
        settings.sentence_model_file.write_text(json.dumps(body, indent=1) + "\n",
                                                encoding="utf-8")
        print(f"wrote {settings.sentence_model_file}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
