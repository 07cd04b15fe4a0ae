"""The answerability model: its file, its arithmetic, its fitting and the shipped weights."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest

from hakem.answer import HEDGE, Answer, Evidence, with_hedge
from hakem.answerability import (
    FEATURES,
    Model,
    ModelNotReady,
    Tree,
    decide,
    hedged,
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


def test_a_trees_score_is_added_to_the_logistic_and_read_back_from_its_file(tmp_path):
    cov = FEATURES.index("coverage")
    # coverage <= 0.5: -2, else +1.5
    stump = Tree((cov, -1, -1), (0.5, 0.0, 0.0), (1, 0, 0), (2, 0, 0), (0.0, -2.0, 1.5))
    model = Model(FEATURES, *(tuple(x for _ in FEATURES) for x in (0.0, 1.0, 0.0)), 0.5, 0.2,
                  trees=(stump, stump))
    low = dict.fromkeys(FEATURES, 0.0) | {"coverage": 0.4}
    high = low | {"coverage": 0.9}
    assert model.probability(low) == pytest.approx(1 / (1 + math.exp(-(0.5 - 4.0))))
    assert model.probability(high) == pytest.approx(1 / (1 + math.exp(-(0.5 + 3.0))))
    path = tmp_path / "m.json"
    path.write_text(json.dumps(model.to_json()), encoding="utf-8")
    loaded = load_model(path)
    assert loaded.trees == model.trees and loaded.probability(high) == model.probability(high)
    # a tree whose node points back (a loop) or past its end is a damaged file
    data = model.to_json()
    data["trees"][0]["left"][0] = 0  # type: ignore[index]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ModelNotReady, match="make calibrate"):
        load_model(path)


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
    loaded = load_model(path)
    assert loaded.trees == model.trees and loaded.intercept == pytest.approx(model.intercept)
    # The hedge band: above the threshold, below it about a tenth of the answerable ones.
    assert loaded.hedge == pytest.approx(model.hedge) and model.hedge >= model.threshold
    from hakem_eval.calibrate import HEDGE_SHARE, MAX_FALSE_ABSTAIN
    told = sum(hedged_sample(model, s) for s in samples if s.answerable)
    assert (HEDGE_SHARE - MAX_FALSE_ABSTAIN - 0.03) * 300 <= told <= (HEDGE_SHARE + 0.02) * 300


def test_the_exported_trees_give_scikit_learns_own_probabilities():
    # Differential: the node arrays the engine reads against the fitted estimator itself.
    pytest.importorskip("sklearn")
    import numpy as np
    from sklearn.ensemble import HistGradientBoostingClassifier

    from hakem_eval.calibrate import TREES, _trees

    rng = np.random.default_rng(3)
    x = rng.random((300, len(FEATURES)))
    y = x[:, 3] + 0.3 * x[:, 0] * x[:, 5] + rng.normal(0, 0.1, 300) > 0.6
    clf = HistGradientBoostingClassifier(**TREES, class_weight="balanced",
                                         early_stopping=False, random_state=0).fit(x, y)
    model = _trees(x, y)
    ours = [model.probability(dict(zip(FEATURES, row, strict=True))) for row in x[:50]]
    assert ours == pytest.approx(clf.predict_proba(x[:50])[:, 1], abs=1e-9)


def hedged_sample(model, s):
    from hakem_eval.calibrate import hedges
    return hedges(model, s)


def _model(threshold: float, hedge: float) -> Model:
    zeros = tuple(0.0 for _ in FEATURES)
    return Model(FEATURES, zeros, tuple(1.0 for _ in FEATURES), zeros, 0.0, threshold,
                 hedge=hedge)  # p = 0.5 for every question


def test_between_threshold_and_hedge_the_answer_is_hedged_not_refused():
    ev = Evidence(dense=0.5, coverage=0.5, unknown_names=(), out_of_range=False)
    assert decide(ev, _model(0.4, 0.6)) == "" and hedged(ev, _model(0.4, 0.6))
    assert not hedged(ev, _model(0.4, 0.45))  # above the band: said plainly
    assert decide(ev, _model(0.6, 0.7))  # below the threshold: "not in the rules"


def test_a_hedge_below_the_threshold_or_missing_from_the_file(tmp_path):
    path = tmp_path / "m.json"
    data = _model(0.4, 0.6).to_json()
    path.write_text(json.dumps({**data, "hedge": 0.3}), encoding="utf-8")
    with pytest.raises(ModelNotReady, match="make calibrate"):
        load_model(path)
    del data["hedge"]  # a file written before the hedge band: no band
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_model(path).hedge == 0.4


def test_a_hedged_answer_says_so_first_unless_a_calculation_carries_it():
    plain = Answer("q", "g", "name", False, "Kural cümlesi.", None, (), (), hedged=True)
    assert with_hedge(plain).answer == f"{HEDGE} Kural cümlesi."
    worked = with_hedge(Answer("q", "g", "name", False, "6 zar.", None, (), (), hedged=True,
                               calculation=object()))
    assert worked.answer == "6 zar." and not worked.hedged


def test_a_hedged_answer_quotes_the_rule_without_a_number_put_first():
    # Hedged, the fact's number put first reads as the ruling ("2 Thaler — …" for a start
    # amount the rules never give); the rule quoted after the hedge still states it.
    from hakem.answer import fact_lead
    from hakem.facts import Fact, FactHit
    fact = Fact(id="t", game="g", subject="Kurtarma bonusu", unit="Thaler", min=None, max=None,
                value=2, value_unit="Thaler", effect="2 Thaler alırsınız",
                quote="2 Thaler alırsınız.", start=0, end=10, section="")
    hit = FactHit(fact, 1.0)
    led = f"{fact_lead(hit)}. Belirteci 0'a koyarsanız 2 Thaler alırsınız."
    hedged_answer = with_hedge(Answer("q", "g", "name", False, led, None, (), (hit,), hedged=True))
    assert hedged_answer.answer == f"{HEDGE} Belirteci 0'a koyarsanız 2 Thaler alırsınız."
    plain = with_hedge(Answer("q", "g", "name", False, led, None, (), (hit,)))
    assert plain.answer == led  # said plainly, the number leads


def test_under_the_hedge_no_fact_number_leads(tiny_built):
    # "the rules may not say this; the closest rule:" then "en fazla 8 …" reads as the answer;
    # the closest rule is shown as it stands, with its number in its own sentence.
    from hakem.engine import Engine

    plain = Engine.load(tiny_built, model=_model(0.4, 0.45)).ask("Kale Oyunu kaç tur sürer?")
    weak = Engine.load(tiny_built, model=_model(0.4, 0.6)).ask("Kale Oyunu kaç tur sürer?")
    lead = "en fazla 8 Oyun süresi (tur sayısı). "
    assert plain.answer.startswith(lead) and not plain.hedged
    assert weak.hedged and weak.answer == f"{HEDGE} Oyun en fazla 8 tur sürer."
