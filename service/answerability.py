"""Whether the rules answer a question: one calibrated decision over generic signals.

What it does: turns a question's evidence (retrieval scores and margins, sentence-level and
passage-level term coverage, fact match, the share of its words the rules use, question type)
into a feature vector, and applies a logistic-regression model whose weights are a versioned
JSON file (``answerability.json`` beside the corpus, written by ``make calibrate``, fitted
and reported leave-one-set-out over the question sets). The one hard rule left is a game
named that is not in the corpus (``detect.unknown_names``, on dictionary evidence). What it
does not do: fit the model (``hakem_eval.calibrate`` does, with scikit-learn, at development
time only; here it is a dot product), or compute the signals (``answer.evidence``).
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import HakemError, IndexNotReady
from .weights import read_weights

if TYPE_CHECKING:  # the evidence type lives with the answer stage
    from .answer import Evidence

FORMAT = 1
# The signals, in the model's order. Each is generic: nothing here names a game or a word.
FEATURES = ("dense", "dense_margin", "lexical", "coverage", "sentence_coverage",
            "known_share", "named", "out_of_range", "unstated", "fact_score", "how_many",
            "yes_no", "how_why", "english", "content_terms", "missing", "foreign_names",
            "sentence_dense")
REBUILD_MODEL = "make calibrate"


class ModelNotReady(IndexNotReady):
    """The answerability model file is missing or damaged (served as "not ready")."""

    def __init__(self, reason: str) -> None:
        HakemError.__init__(self, f"{reason}. Rebuild it with: {REBUILD_MODEL}")
        self.reason = reason


def features(ev: Evidence) -> dict[str, float]:
    """The model's inputs for one question."""
    q = ev.question
    return {
        "dense": ev.dense,
        "dense_margin": ev.dense_margin,
        "lexical": math.log1p(max(ev.lexical, 0.0)),
        "coverage": ev.coverage if ev.terms is not None else 0.0,
        "sentence_coverage": ev.sentence_coverage if ev.terms is not None else 0.0,
        "known_share": ev.known_share,
        "named": float(ev.game_source in ("name", "request")),
        "out_of_range": float(ev.out_of_range),
        "unstated": float(bool(ev.unstated)),
        "fact_score": min(ev.fact_score, 10.0) / 10.0,
        "how_many": float(bool(q and q.how_many)),
        "yes_no": float(bool(q and q.yes_no)),
        "how_why": float(bool(q and q.how_why)),
        "english": float(ev.terms is None),
        "content_terms": math.log1p(len(ev.terms or ())),
        "missing": ev.missing,
        "foreign_names": float(min(ev.foreign_names, 2)),
        "sentence_dense": ev.sentence_dense,
    }


@dataclass(frozen=True)
class Model:
    """Standardised logistic regression: p(answerable) = σ(b + Σ wᵢ (xᵢ − μᵢ) / σᵢ)."""

    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float  # abstain below this probability
    checksum: str = ""  # of the file it was read from
    # Answer, but say the rules may not settle it, below this probability (and at or above
    # ``threshold``): a band where most answered unanswerable questions fall and few
    # answerable ones. Equal to ``threshold`` when there is no such band.
    hedge: float = 0.0

    def probability(self, values: dict[str, float]) -> float:
        z = self.intercept + sum(
            w * (values[name] - mu) / (sd or 1.0)
            for name, mu, sd, w in zip(self.features, self.mean, self.scale, self.coef,
                                       strict=True))
        return 1.0 / (1.0 + math.exp(-max(min(z, 60.0), -60.0)))

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "features": list(self.features), "mean": list(self.mean),
                "scale": list(self.scale), "coef": list(self.coef),
                "intercept": self.intercept, "threshold": self.threshold,
                "hedge": max(self.hedge, self.threshold)}


def neutral_model() -> Model:
    """A model that never abstains: what calibration measures the signals with."""
    zeros = tuple(0.0 for _ in FEATURES)
    return Model(FEATURES, zeros, tuple(1.0 for _ in FEATURES), zeros, 0.0, 0.0)


def load_model(path: Path) -> Model:
    """Read and check the model file; a missing or damaged one names the command that
    rebuilds it."""
    try:
        w = read_weights(path, FORMAT, FEATURES)
        raw, data, mean, scale, coef = w.raw, w.data, w.mean, w.scale, w.coef
        threshold = float(data["threshold"])
        hedge = float(data.get("hedge", threshold))  # files before the hedge band: none
        if hedge < threshold:
            raise ValueError("its hedge band starts below its threshold")
        model = Model(FEATURES, mean, scale, coef, intercept=float(data["intercept"]),
                      threshold=threshold, checksum=hashlib.sha256(raw).hexdigest(),
                      hedge=hedge)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelNotReady(f"the answerability model {path} is missing or damaged "
                            f"({exc})") from exc
    if not all(math.isfinite(x) for x in (*model.mean, *model.scale, *model.coef,
                                           model.intercept, model.threshold, model.hedge)):
        raise ModelNotReady(f"the answerability model {path} has non-finite weights")
    return model


def hedged(ev: Evidence, model: Model) -> bool:
    """Answered, but with too little evidence to say the rules settle it."""
    return not ev.unknown_names and model.probability(features(ev)) < model.hedge


def decide(ev: Evidence, model: Model) -> str:
    """Why the rules do not answer the question, or "" when they do."""
    if ev.unknown_names:
        return f"names a game not in the corpus: {', '.join(ev.unknown_names)}"
    p = model.probability(features(ev))
    if p < model.threshold:
        why = ("the rules give this number only for other cases" if ev.out_of_range
               else f"no fact of the game gives a number of: {ev.unstated}" if ev.unstated
               else "weak match")
        return f"{why} (p(answerable) {p:.2f} < {model.threshold:.2f})"
    return ""
