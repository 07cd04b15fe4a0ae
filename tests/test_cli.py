"""The `hakem` command: machine output, exit codes, one-line errors."""

from __future__ import annotations

import json

import pytest

from hakem.cli import main
from hakem.settings import ROOT


def test_facts_coverage_of_the_real_corpus_is_complete(capsys):
    code = main(["--corpus-dir", str(ROOT / "corpus"), "facts", "--coverage", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["ratio"] == 1.0 and report["uncovered"] == []
    assert report["covered"] + report["excused"] == report["total"] > 100


def test_facts_search_json(capsys, tiny_corpus_dir):
    code = main(["--corpus-dir", str(tiny_corpus_dir), "facts", "kale", "puan", "--json"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 0 and rows[0]["id"] == "kale-puan" and rows[0]["value"] == 3
    assert rows[0]["sentence"]


def test_unknown_game_is_a_one_line_error(capsys, tiny_corpus_dir):
    code = main(["--corpus-dir", str(tiny_corpus_dir), "facts", "--game", "satranc"])
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1 and "satranc" in err


def test_ask_json_has_the_api_shape(capsys, tiny_built, monkeypatch):
    monkeypatch.setenv("HAKEM_EMBEDDER", "fake")
    code = main(["--corpus-dir", str(tiny_built.corpus_dir), "--index-dir",
                 str(tiny_built.index_dir), "ask", "kale kaç puan", "--game", "kale-oyunu",
                 "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert set(out) >= {"question", "game", "abstained", "answer", "answer_span", "passages",
                        "facts"}
    text = (tiny_built.corpus_dir / "kale-oyunu.txt").read_text(encoding="utf-8")
    assert all(text[p["start"] : p["end"]] == p["text"] for p in out["passages"])


def test_ask_without_an_index_names_the_rebuild_command(capsys, tiny_settings, monkeypatch):
    monkeypatch.setenv("HAKEM_EMBEDDER", "fake")
    code = main(["--corpus-dir", str(tiny_settings.corpus_dir), "--index-dir",
                 str(tiny_settings.index_dir), "ask", "kale"])
    assert code == 1 and "hakem build" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["build", "verify", "ask", "facts", "eval", "chat", "serve"])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0 and "usage: hakem" in capsys.readouterr().out


@pytest.mark.parametrize(("name", "value"), [("HAKEM_MODE", "bogus"), ("HAKEM_K", "0"),
                                             ("HAKEM_K", "many"), ("HAKEM_EMBEDDER", "fake:x")])
def test_bad_settings_are_one_line_errors(name, value, monkeypatch, capsys, tiny_built):
    monkeypatch.setenv(name, value)
    if name != "HAKEM_EMBEDDER":
        monkeypatch.setenv("HAKEM_EMBEDDER", "fake")
    code = main(["--corpus-dir", str(tiny_built.corpus_dir), "--index-dir",
                 str(tiny_built.index_dir), "ask", "kale"])
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1, err
