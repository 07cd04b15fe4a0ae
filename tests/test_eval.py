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


GOOD = {"id": "q-1", "game": "kale-oyunu", "question": "kale kaç puan", "kind": "threshold",
        "style": "formal", "evidence": ["her kale oyun sonunda 3 puan"], "answer": "3",
        "value": 3}
UNANSWERABLE = {"id": "q-2", "game": None, "question": "Catan'da kaç zar var",
                "kind": "unanswerable", "style": "formal", "evidence": []}


@pytest.mark.parametrize(("change", "field"), [
    ({"evidence": "her kale oyun sonunda 3 puan"}, "evidence"),  # was split into characters
    ({"evidence": [3]}, "evidence"),
    ({"evidence": [""]}, "evidence"),
    ({"kind": "sayi"}, "kind"),
    ({"style": None}, "style"),
    ({"id": 7}, "id"),
    ({"question": "  "}, "question"),
    ({"game": 5}, "game"),
    ({"value": "3"}, "value"),
    ({"value": True}, "value"),
    ({"answer": ["3"]}, "answer"),
    ({"polarity": "yes"}, "polarity"),
    ({"evidence": []}, "evidence"),
    ({"id": "q-2"}, "duplicate id"),
], ids=lambda v: json.dumps(v, ensure_ascii=False)[:40] if isinstance(v, dict) else v)
def test_a_bad_question_is_named_by_line_and_field(tmp_path, change, field):
    path = tmp_path / "set.jsonl"
    lines = [json.dumps(UNANSWERABLE), json.dumps({**GOOD, **change}, ensure_ascii=False)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(QuestionSetError) as exc:
        load_questions(path)
    assert "set.jsonl:2:" in str(exc.value) and field in str(exc.value)


@pytest.mark.parametrize("line", ["[1, 2]", '"q"', "{not json", json.dumps(
    {**UNANSWERABLE, "evidence": ["x"]})])
def test_a_line_that_is_not_a_question(tmp_path, line):
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(QuestionSetError, match=r"set\.jsonl:2:"):
        load_questions(path)


def test_hakem_eval_with_string_evidence_is_a_one_line_error(tiny_built, tmp_path,
                                                             monkeypatch, capsys):
    monkeypatch.setenv("HAKEM_EMBEDDER", "fake")
    path = tmp_path / "set.jsonl"
    path.write_text(json.dumps({**GOOD, "evidence": "her kale"}) + "\n", encoding="utf-8")
    code = main(["--index-dir", str(tiny_built.index_dir), "--corpus-dir",
                 str(tiny_built.corpus_dir), "eval", str(path)])
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert "set.jsonl:1" in err and "evidence" in err


def test_the_first_sentence_is_read_after_the_hedge_preface():
    from hakem.answer import HEDGE
    from hakem_eval.harness import first_sentence
    text = f"{HEDGE} - Atık Temizleme: atık yığınından 3 kart kaldır. Sonra moral düşer."
    assert first_sentence(text) == "- Atık Temizleme: atık yığınından 3 kart kaldır."
    assert first_sentence("12 jeton: kaybedersiniz. Sonra.") == "12 jeton: kaybedersiniz."


def test_the_judges_answers_file_has_what_the_judge_reads(tiny_built, monkeypatch, tmp_path,
                                                          capsys):
    from hakem_eval.answers import main as answers_main

    for name, value in (("EMBEDDER", "fake"), ("INDEX_DIR", str(tiny_built.index_dir)),
                        ("CORPUS_DIR", str(tiny_built.corpus_dir))):
        monkeypatch.setenv(f"HAKEM_{name}", value)
    out = tmp_path / "answers.jsonl"
    assert answers_main([str(QUESTIONS), "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == [q.id for q in load_questions(QUESTIONS)]
    first = rows[0]
    assert first["game_expected"] == "kale-oyunu" and first["reference_value"] == 3
    assert not first["hakem_abstained"] and "3 puan" in first["hakem_answer"]
    # the cited sentences are the rule text's own characters
    assert "her kale oyun sonunda 3 puan" in " ".join(first["hakem_cited_sentences"])
    assert any(r["hakem_abstained"] for r in rows if r["game_expected"] is None)
    assert "wrote 4 answers" in capsys.readouterr().out


def test_the_judges_answers_command_names_a_bad_set_in_one_line(tmp_path, capsys):
    from hakem_eval.answers import main as answers_main

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x"}\n', encoding="utf-8")
    assert answers_main([str(bad), "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "bad.jsonl:1" in capsys.readouterr().err


def test_the_calculator_snapshot_counts_and_compares(tmp_path, capsys):
    from hakem_eval.calcsnap import main as snap_main

    situations = tmp_path / "s.jsonl"
    line = {"id": "x-1", "question": "kolonide 7 hayatta kalan var, kaç yiyecek harcıyoruz",
            "game": "dead-of-winter", "kind": "threshold", "style": "colloquial",
            "answer": "⌈7/2⌉ = 4", "value": 4,
            "evidence": ["her 2 hayatta kalan için 1 yiyecek jetonu harca"]}
    situations.write_text(json.dumps(line, ensure_ascii=False) + "\n", encoding="utf-8")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert snap_main([str(situations), "--out", str(first)]) == 0
    assert "1 questions: 1 right, 0 wrong" in capsys.readouterr().out
    rows = json.loads(first.read_text(encoding="utf-8"))
    assert rows["x-1"]["value"] == 4 and rows["x-1"]["formula"]
    # an earlier snapshot that worked it out otherwise: the change is listed
    rows["x-1"].update(value=3, result="3 yiyecek")
    first.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
    assert snap_main([str(situations), "--out", str(second), "--against", str(first)]) == 0
    assert "x-1 wrong -> right" in capsys.readouterr().out
    # a missing earlier snapshot is a one-line error
    assert snap_main([str(situations), "--out", str(second), "--against",
                      str(tmp_path / "none.json")]) == 2
    assert "error:" in capsys.readouterr().err
