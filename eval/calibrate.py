"""Fit the answerability model, and say honestly how well it holds on unseen questions.

What it does: asks every question of several question sets once (through the very path
``Engine.ask`` takes, with a model that never abstains), keeps each question's signals
(``hakem.answerability.features``), and fits a standardised logistic regression
(scikit-learn) of "the rules answer it". The abstention threshold is the highest probability
cut that turns away at most ``MAX_FALSE_ABSTAIN`` of the answerable training questions.
Reported **leave-one-set-out**: each set is judged by a model fitted on the others only,
which is the honest estimate for a set written later. ``--write`` saves the model fitted on
all sets to the versioned JSON file the engine loads. Questions that name a game not in the
corpus are left to the hard rule (``detect``) and not fitted on. What it does not do: run at
serving time (scikit-learn is a development dependency), or pick features (they are fixed in
``hakem.answerability.FEATURES``).

    python -m hakem_eval.calibrate ../shared/eval/dev.jsonl ../shared/eval/dev2.jsonl \
        eval/probe*.jsonl --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from hakem.answerability import FEATURES, Model, features, neutral_model
from hakem.engine import Engine
from hakem.settings import Settings

from .harness import load_questions

MAX_FALSE_ABSTAIN = 0.01  # of answerable training questions turned away
# Of answerable training questions answered with "the rules may not say this": the band
# above the threshold. Each of probe19-23 left out in turn (sets written after the model's
# design), unanswerable questions abstained on or hedged / answerable ones hedged: 0.50 /
# 0.088 at 0.10, 0.60 / 0.144 at 0.15, 0.68 / 0.198 at 0.20, 0.74 / 0.254 at 0.25. Judged,
# every hedged unanswerable answer is correct and every unhedged one wrong, while a hedged
# answerable one keeps its verdict: at 0.20 about 1.4 misleading answers per 100 questions
# give way to a hedge, for about 4.5 right answers that carry one (eval/README, Session 10).
# Session 16, each of probe19-33 left out in turn: unanswerable handled 221/294 (0.75) at
# 0.20, 233 (0.79) at 0.25, 249 (0.85) at 0.30; answerable hedged 0.21 / 0.26 / 0.31. The 8
# blind unanswerable questions answered unhedged in session 15 sat in that band; issue 10
# asks ≥ 0.80 handled, so 0.30: 28 misleading answers fewer for 147 right ones hedged.
HEDGE_SHARE = 0.30
C = 1.0  # inverse regularisation strength (scikit-learn's default)


@dataclass(frozen=True)
class Sample:
    set: str
    id: str
    answerable: bool
    x: tuple[float, ...]
    named_unknown: bool  # decided by the hard rule, not by the model

def collect(engine: Engine, path: Path) -> list[Sample]:
    out = []
    for q in load_questions(path):
        ev = engine.evidence(q.question)[2]
        values = features(ev)
        out.append(Sample(path.name, q.id, q.game is not None,
                          tuple(values[f] for f in FEATURES),
                          bool(ev.unknown_names)))
    return out

def fit(samples: list[Sample]) -> Model:
    from sklearn.linear_model import LogisticRegression  # development dependency only
    from sklearn.preprocessing import StandardScaler

    train = [s for s in samples if not s.named_unknown]
    x = np.array([s.x for s in train])
    y = np.array([s.answerable for s in train])
    scaler = StandardScaler().fit(x)
    clf = LogisticRegression(C=C, class_weight="balanced", max_iter=1000)
    clf.fit(scaler.transform(x), y)
    p = clf.predict_proba(scaler.transform(x))[:, 1]
    answerable = np.sort(p[y])
    # The cut below which at most MAX_FALSE_ABSTAIN of the answerable questions fall.
    allowed = int(MAX_FALSE_ABSTAIN * len(answerable))
    threshold = float(answerable[allowed]) if len(answerable) else 0.5
    hedge = float(answerable[int(HEDGE_SHARE * len(answerable))]) if len(answerable) else 0.5
    return Model(FEATURES, tuple(float(v) for v in scaler.mean_),
                 tuple(float(v) for v in scaler.scale_), tuple(float(v) for v in clf.coef_[0]),
                 float(clf.intercept_[0]), round(threshold - 1e-6, 6),
                 hedge=round(max(hedge, threshold) - 1e-6, 6))

def abstains(model: Model, s: Sample) -> bool:
    return s.named_unknown or model.probability(dict(zip(FEATURES, s.x, strict=True))) \
        < model.threshold

def hedges(model: Model, s: Sample) -> bool:
    return not abstains(model, s) and model.probability(
        dict(zip(FEATURES, s.x, strict=True))) < model.hedge

def rates(model: Model, samples: list[Sample]) -> dict[str, float | int]:
    def share(flags: list[bool]) -> float:
        return round(sum(flags) / max(len(flags), 1), 3)
    unans = [s for s in samples if not s.answerable]
    ans = [s for s in samples if s.answerable]
    return {"n": len(samples),
            "abstained_unanswerable": share([abstains(model, s) for s in unans]),
            "abstained_answerable": share([abstains(model, s) for s in ans]),
            "hedged_unanswerable": share([hedges(model, s) for s in unans]),
            "hedged_answerable": share([hedges(model, s) for s in ans])}

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hakem_eval.calibrate",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("questions", type=Path, nargs="+", help="question sets (JSONL)")
    parser.add_argument("--write", type=Path, nargs="?", const=Path(""), default=None,
                        help="save the model fitted on all sets (default: the settings' "
                             "answerability file, corpus/answerability.json)")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    engine = Engine.load(settings, model=neutral_model())
    if args.write == Path(""):
        args.write = settings.answerability_file
    by_set: dict[str, list[Sample]] = {}
    for i, path in enumerate(args.questions, 1):
        print(f"[{i}/{len(args.questions)}] {path}", file=sys.stderr)
        by_set[path.name] = collect(engine, path)
    loso, wrong = {}, []
    for name, held in by_set.items():
        others = [s for n, ss in by_set.items() if n != name for s in ss]
        held_out = fit(others)
        loso[name] = rates(held_out, held)
        wrong += [s.id for s in held if s.answerable and abstains(held_out, s)]
    everything = [s for ss in by_set.values() for s in ss]
    model = fit(everything)
    report = {"leave_one_set_out": loso, "fitted_on_all": rates(model, everything),
              "threshold": model.threshold, "hedge": model.hedge,
              "answerable_turned_away_leave_one_set_out": wrong,
              "weights": dict(zip(FEATURES, (round(w, 3) for w in model.coef), strict=True))}
    print(json.dumps(report, indent=2))
    if args.write:
        trained = {p.name: {"sha256": hashlib.sha256(p.read_bytes()).hexdigest(),
                            "questions": len(by_set[p.name])} for p in args.questions}
        payload = {**model.to_json(), "trained_on": trained, "report": report,
                   "embedder": engine.embedder.name}
        args.write.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n",
                              encoding="utf-8")
        print(f"wrote {args.write}", file=sys.stderr)
    return 0

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
