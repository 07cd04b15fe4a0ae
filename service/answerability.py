"""Whether the rules answer a question: one calibrated decision over generic signals.

What it does: turns a question's evidence (retrieval scores and margins, sentence-level and
passage-level term coverage, fact match, the share of its words the rules use, question type)
into a feature vector, and applies a model whose weights are a versioned JSON file
(``answerability.json`` beside the corpus, written by ``make calibrate``, fitted and reported
leave-one-set-out over the question sets): p(answerable) = σ(b + Σ linear terms + Σ trees),
where the shipped file holds small boosted decision trees (format 2; a format-1 file holds
standardised logistic-regression weights only). The one hard rule left is a game named that
is not in the corpus (``detect.unknown_names``, on dictionary evidence). What it does not do:
fit the model (``hakem_eval.calibrate`` does, with scikit-learn, at development time only;
here it is a sum and a few comparisons), or compute the signals (``answer.evidence``).
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

FORMATS = (1, 2)  # 1: logistic-regression weights; 2: the same, plus boosted trees
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
class Tree:
    """One decision tree, as parallel node arrays: an inner node sends a question left when
    its feature's value is at most ``threshold`` (``feature`` -1 marks a leaf, whose
    ``value`` is added to the score)."""

    feature: tuple[int, ...]
    threshold: tuple[float, ...]
    left: tuple[int, ...]
    right: tuple[int, ...]
    value: tuple[float, ...]

    def output(self, x: list[float]) -> float:
        node = 0
        for _ in range(len(self.feature)):  # a well-formed tree ends before this bound
            f = self.feature[node]
            if f < 0:
                return self.value[node]
            node = self.left[node] if x[f] <= self.threshold[node] else self.right[node]
        raise ValueError("a tree's nodes loop")

    def to_json(self) -> dict[str, list[float] | list[int]]:
        return {"feature": list(self.feature), "threshold": list(self.threshold),
                "left": list(self.left), "right": list(self.right), "value": list(self.value)}


@dataclass(frozen=True)
class Model:
    """p(answerable) = σ(b + Σ wᵢ (xᵢ − μᵢ) / σᵢ + Σ trees(x))."""

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
    trees: tuple[Tree, ...] = ()

    def probability(self, values: dict[str, float]) -> float:
        x = [values[name] for name in self.features]
        z = self.intercept + sum(
            w * (v - mu) / (sd or 1.0)
            for v, mu, sd, w in zip(x, self.mean, self.scale, self.coef, strict=True))
        z += sum(tree.output(x) for tree in self.trees)
        return 1.0 / (1.0 + math.exp(-max(min(z, 60.0), -60.0)))

    def to_json(self) -> dict[str, object]:
        return {"format": 2 if self.trees else 1, "features": list(self.features),
                "mean": list(self.mean), "scale": list(self.scale), "coef": list(self.coef),
                "intercept": self.intercept, "threshold": self.threshold,
                "hedge": max(self.hedge, self.threshold),
                **({"trees": [t.to_json() for t in self.trees]} if self.trees else {})}


def neutral_model() -> Model:
    """A model that never abstains: what calibration measures the signals with."""
    zeros = tuple(0.0 for _ in FEATURES)
    return Model(FEATURES, zeros, tuple(1.0 for _ in FEATURES), zeros, 0.0, 0.0)


def load_model(path: Path) -> Model:
    """Read and check the model file; a missing or damaged one names the command that
    rebuilds it."""
    try:
        w = read_weights(path, FORMATS, FEATURES)
        raw, data, mean, scale, coef = w.raw, w.data, w.mean, w.scale, w.coef
        threshold = float(data["threshold"])
        hedge = float(data.get("hedge", threshold))  # files before the hedge band: none
        if hedge < threshold:
            raise ValueError("its hedge band starts below its threshold")
        trees = tuple(_tree(t) for t in data.get("trees", ())) if data["format"] == 2 else ()
        model = Model(FEATURES, mean, scale, coef, intercept=float(data["intercept"]),
                      threshold=threshold, checksum=hashlib.sha256(raw).hexdigest(),
                      hedge=hedge, trees=trees)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelNotReady(f"the answerability model {path} is missing or damaged "
                            f"({exc})") from exc
    values = (*model.mean, *model.scale, *model.coef, model.intercept, model.threshold,
              model.hedge, *(v for t in model.trees for v in (*t.threshold, *t.value)))
    if not all(math.isfinite(x) for x in values):
        raise ModelNotReady(f"the answerability model {path} has non-finite weights")
    return model


def _tree(data: dict[str, list[float]]) -> Tree:
    """A tree from its file form, its node links checked (every child a later node)."""
    tree = Tree(tuple(int(f) for f in data["feature"]),
                tuple(float(t) for t in data["threshold"]),
                tuple(int(n) for n in data["left"]), tuple(int(n) for n in data["right"]),
                tuple(float(v) for v in data["value"]))
    n = len(tree.feature)
    if not n or any(len(a) != n for a in (tree.threshold, tree.left, tree.right, tree.value)):
        raise ValueError("a tree's node lists differ in length")
    for i, f in enumerate(tree.feature):
        if f >= len(FEATURES) or (f >= 0 and not (i < tree.left[i] < n and i < tree.right[i] < n)):
            raise ValueError("a tree names a feature or a node it does not have")
    return tree


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
