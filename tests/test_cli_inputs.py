"""Every command-line input path: a bad value is one line on stderr and exit 1, never a
traceback; and nothing printed passes a terminal control sequence through."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hakem.cli import main
from hakem.corpus import load_corpus
from hakem.embed import FakeEmbedder
from hakem.index import build_index
from hakem.settings import Settings

HAKEM = Path(sys.executable).parent / "hakem"


def _one_line_error(capsys, code: int, *needles: str) -> None:
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err and all(n in err for n in needles), err


def test_serve_with_a_port_out_of_range(capsys):
    _one_line_error(capsys, main(["serve", "--port", "99999"]), "--port")


@pytest.mark.parametrize("limit", ["-1", "0", "100000"])
def test_facts_limit_out_of_range(capsys, tiny_corpus_dir, limit):
    code = main(["--corpus-dir", str(tiny_corpus_dir), "facts", "kale", "--limit", limit])
    _one_line_error(capsys, code, "--limit")


@pytest.mark.parametrize("arg", ["kale \udcff puan", "kale \x1b[2J puan", "\x9b31m kale"])
def test_ask_with_text_that_is_not_text(capsys, tiny_built, arg):
    code = main(["--corpus-dir", str(tiny_built.corpus_dir), "--index-dir",
                 str(tiny_built.index_dir), "--embedder", "fake", "ask", arg])
    _one_line_error(capsys, code, "argument")


def test_non_utf8_bytes_in_argv_of_the_real_command(tiny_built):
    env = {**os.environ, "HAKEM_CORPUS_DIR": str(tiny_built.corpus_dir), "NO_COLOR": "1",
           "HAKEM_INDEX_DIR": str(tiny_built.index_dir), "HAKEM_EMBEDDER": "fake",
           "LC_ALL": "C.UTF-8"}
    done = subprocess.run([os.fsencode(HAKEM), b"ask", b"kale \xff\xfe puan"], env=env,
                          capture_output=True, timeout=60)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 1 and len(err.strip().splitlines()) == 1, err
    assert "not valid UTF-8" in err and "Traceback" not in err


@pytest.fixture
def escaped_corpus(tiny_settings: Settings) -> Settings:
    """The tiny corpus with terminal escapes in a rule text (clear screen, 8-bit CSI)."""
    text = tiny_settings.corpus_dir / "kale-oyunu.txt"
    raw = text.read_text(encoding="utf-8")
    text.write_text(raw.replace("Evet.", "Evet.\x1b[2J\x1b]0;pwned\x07\x9b31m"),
                    encoding="utf-8")
    corpus = load_corpus(tiny_settings.corpus_dir)
    build_index(corpus, tiny_settings.corpus_dir, tiny_settings.index_dir, FakeEmbedder())
    return tiny_settings


@pytest.mark.parametrize("as_json", [False, True])
def test_control_characters_of_the_corpus_never_reach_the_terminal(escaped_corpus, capsys,
                                                                   as_json):
    code = main(["--corpus-dir", str(escaped_corpus.corpus_dir), "--index-dir",
                 str(escaped_corpus.index_dir), "--embedder", "fake", "ask",
                 "kaleyi kaybettiğinizde ne olur", "--game", "kale-oyunu", "-k", "20",
                 *(["--json"] if as_json else [])])
    out = capsys.readouterr().out
    assert code == 0
    assert not any(c in out for c in "\x1b\x9b\x07"), repr(out)
    if as_json:  # escaped, so a program reading the JSON still gets the exact text
        passages = json.loads(out)["passages"]
        assert any("\x1b[2J" in p["text"] and "\x9b" in p["text"] for p in passages)
    else:
        assert "Evet.\ufffd[2J" in out
