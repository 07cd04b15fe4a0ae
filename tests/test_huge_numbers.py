"""A number too long to be a count (309 digits overflow a float to inf) is not read as a
number: /ask, /facts, `hakem ask` and `hakem facts` answer normally, never a 500 or a
traceback. The tiny corpus gets a rate fact, since rates are where the arithmetic runs."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from hakem.api import create_app
from hakem.cli import main
from hakem.corpus import load_corpus
from hakem.embed import FakeEmbedder
from hakem.facts import load_facts
from hakem.factsearch import search_facts
from hakem.index import build_index
from hakem.numbers import numbers_in
from hakem.settings import Settings

HUGE = "9" * 309
QUESTION = f"{HUGE} oyuncu için kaç adet kale parçası"
RATE = '''
[[fact]]
id = "kale-parcasi"
subject = "oyuncu"
unit = "oyuncu"
value = 6
per = 1
rounding = "up"
value_unit = "kale parçası"
effect = "her oyuncu 6 kale parçası alır"
quote = "Oyuncu başına 6 adet kale parçası."
'''


@pytest.fixture
def rated(tiny_settings: Settings) -> Settings:
    facts = tiny_settings.corpus_dir / "facts" / "kale-oyunu.toml"
    facts.write_text(facts.read_text(encoding="utf-8") + RATE, encoding="utf-8")
    corpus = load_corpus(tiny_settings.corpus_dir)
    build_index(corpus, tiny_settings.corpus_dir, tiny_settings.index_dir, FakeEmbedder())
    return tiny_settings


def test_a_309_digit_number_is_not_read_as_a_number():
    assert numbers_in(f"{HUGE} oyuncu") == []
    assert numbers_in("123456789012 kart") == [123456789012.0]  # long but exact: still read


def test_the_rate_is_still_worked_out_for_a_normal_count(rated: Settings):
    facts = load_facts(rated.corpus_dir, load_corpus(rated.corpus_dir))
    hits = search_facts(facts, "3 oyuncu için kaç kale parçası", "kale-oyunu")
    assert any(h.applied == (3.0, 18.0) for h in hits)
    assert all(h.applied is None for h in search_facts(facts, QUESTION, "kale-oyunu"))


def test_api_ask_and_facts_answer_a_huge_number(rated: Settings):
    with TestClient(create_app(rated), raise_server_exceptions=False) as client:
        r = client.post("/ask", json={"question": QUESTION, "game": "kale-oyunu"})
        assert r.status_code == 200, r.text
        r = client.get("/facts", params={"q": QUESTION, "game": "kale-oyunu"})
        assert r.status_code == 200, r.text


@pytest.mark.parametrize("command", ["ask", "facts"])
def test_cli_answers_a_huge_number(command: str, rated: Settings, capsys, monkeypatch):
    monkeypatch.setenv("HAKEM_EMBEDDER", "fake")
    code = main(["--corpus-dir", str(rated.corpus_dir), "--index-dir", str(rated.index_dir),
                 command, QUESTION, "--game", "kale-oyunu", "--json"])
    assert code == 0
    assert isinstance(json.loads(capsys.readouterr().out), dict | list)


