"""The answerability model: its file, its arithmetic, its fitting and the shipped weights."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from hakem.answer import Evidence
from hakem.answerability import (
    FEATURES,
    Model,
    ModelNotReady,
    decide,
    load_model,
    neutral_model,
)
from hakem.settings import ROOT


def test_the_shipped_model_loads_and_speaks_this_versions_features():
    model = load_model(ROOT / "corpus" / "answerability.json")
    assert model.features == FEATURES and 0.0 < model.threshold < 1.0
    meta = json.loads((ROOT / "corpus" / "answerability.json").read_text(encoding="utf-8"))
    # it says what it was fitted on and how it held leave-one-set-out
    assert meta["trained_on"] and meta["report"]["leave_one_set_out"]


@pytest.mark.parametrize("content", ["", "{not json", '{"format": 9}',
                                     '{"format": 1, "features": ["dense"]}'])
def test_a_missing_or_damaged_model_names_the_command_that_rebuilds_it(tmp_path, content):
    path = tmp_path / "answerability.json"
    if content:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(ModelNotReady, match="make calibrate"):
        load_model(path)


def test_non_finite_weights_are_refused(tmp_path):
    data = neutral_model().to_json()
    data["coef"] = [math.nan, *data["coef"][1:]]  # type: ignore[index]
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelNotReady):
        load_model(path)


def test_probability_is_the_standardised_logistic_of_the_features():
    n = len(FEATURES)
    coef = tuple(2.0 if f == "coverage" else 0.0 for f in FEATURES)
    mean = tuple(0.5 if f == "coverage" else 0.0 for f in FEATURES)
    scale = tuple(0.25 if f == "coverage" else 1.0 for f in FEATURES)
    model = Model(FEATURES, mean, scale, coef, 0.0, 0.5)
    values = dict.fromkeys(FEATURES, 0.0) | {"coverage": 0.75}
    assert model.probability(values) == pytest.approx(1 / (1 + math.exp(-2.0)))
    assert len(model.coef) == n


def test_the_neutral_model_never_abstains_but_an_unknown_game_always_does():
    weak = Evidence(dense=0.0, coverage=0.0, unknown_names=(), out_of_range=True)
    assert decide(weak, neutral_model()) == ""
    named = Evidence(dense=1.0, coverage=1.0, unknown_names=("Catan",), out_of_range=False)
    assert "Catan" in decide(named, neutral_model())


def test_fitting_separates_the_classes_and_writes_a_model_that_loads(tmp_path: Path):
    pytest.importorskip("sklearn")
    from hakem_eval.calibrate import Sample, abstains, fit

    rng = random.Random(7)
    samples = []
    for i in range(400):
        answerable = i % 4 != 0
        centre = 0.7 if answerable else 0.2
        x = tuple(rng.gauss(centre, 0.1) if f in ("coverage", "sentence_coverage")
                  else rng.random() for f in FEATURES)
        samples.append(Sample("synthetic", str(i), answerable, x, False))
    model = fit(samples)
    turned_away = sum(abstains(model, s) for s in samples if s.answerable)
    caught = sum(abstains(model, s) for s in samples if not s.answerable)
    assert turned_away <= 0.01 * 300 + 1 and caught >= 80
    path = tmp_path / "answerability.json"
    path.write_text(json.dumps(model.to_json()), encoding="utf-8")
    assert load_model(path).coef == pytest.approx(model.coef)
