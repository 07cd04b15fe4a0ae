"""The harness runs end to end on a small question set, so it cannot silently break."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hakem.cli import main
from hakem_eval.harness import QuestionSetError, evidence_spans, load_questions, run

QUESTIONS = Path(__file__).parent / "data" / "tiny_questions.jsonl"


def test_harness_measures_the_tiny_set(tiny_engine):
    questions = load_questions(QUESTIONS)
    report = run(tiny_engine.ask, questions, tiny_engine.corpus)
    m = report.overall
    assert m["n"] == 4
    assert m["recall@5"] == 1.0 and m["game_accuracy"] == 1.0
    assert m["abstained_unanswerable"] == 1.0 and m["abstained_answerable"] == 0.0
    assert 0.0 < m["mrr"] <= 1.0
    assert m["threshold_value_found"] == 1.0
    assert set(report.by_style) == {"formal", "no-diacritics", "game-unnamed"}
    assert set(report.latency) == {"p50_ms", "p95_ms"}
    assert report.latency["p50_ms"] <= report.latency["p95_ms"]


def test_evidence_is_matched_with_whitespace_collapsed(tiny_engine):
    q = load_questions(QUESTIONS)[0]
    spans = evidence_spans(q, tiny_engine.corpus)
    text = tiny_engine.corpus.game("kale-oyunu").text
    assert [text[s:e] for s, e in spans] == [q.evidence[0]]


def test_bad_question_file_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    with pytest.raises(QuestionSetError, match=r"bad\.jsonl:1"):
        load_questions(bad)


def test_eval_command_prints_one_json_object(tiny_built, monkeypatch, capsys):
    monkeypatch.setenv("HAKEM_EMBEDDER", "fake")
    code = main(["--index-dir", str(tiny_built.index_dir), "--corpus-dir",
                 str(tiny_built.corpus_dir), "eval", str(QUESTIONS), "--json", "--compare"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["overall"]["n"] == 4
    assert {"hybrid", "lexical only", "dense only"} <= set(out["ablations"])
