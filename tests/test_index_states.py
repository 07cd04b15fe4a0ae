"""Missing, damaged or foreign indexes, through the HTTP app and ``hakem verify``.

Each case: the process stays up (``/livez`` 200), ``/readyz`` and ``/ask`` answer 503 with
one specific reason and the rebuild command, and nothing has a traceback. A build killed
half-way (SIGKILL in a subprocess) leaves the previous index serving and intact.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hakem.api import create_app
from hakem.cli import main as cli_main
from hakem.index import CURRENT, MANIFEST
from hakem.settings import Settings

HAKEM = Path(sys.executable).parent / "hakem"


def _serving(settings: Settings) -> dict:
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        ready = c.get("/readyz")
        assert ready.status_code == 200, ready.text
        ask = c.post("/ask", json={"question": "kale kaç puan"})
        assert ask.status_code == 200, ask.text
        return ready.json()


def _not_ready(settings: Settings, reason: str) -> str:
    with TestClient(create_app(settings), raise_server_exceptions=False) as c:
        assert c.get("/livez").status_code == 200
        ready = c.get("/readyz")
        assert ready.status_code == 503
        body = ready.json()
        assert body["error"] == "index_not_ready"
        assert reason in body["message"], body["message"]
        assert body["message"].endswith("Rebuild it with: hakem build")
        for response in (c.post("/ask", json={"question": "kale kaç puan"}), c.get("/games"),
                         c.get("/facts")):
            assert response.status_code == 503
            assert response.json() == body  # the same reason everywhere
        for response in (ready, c.get("/livez")):
            assert "Traceback" not in response.text
        return str(body["message"])


def _current(settings: Settings) -> Path:
    return settings.index_dir / CURRENT


def _flip_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: len(path.read_bytes()) // 2])


def test_missing_index(tiny_settings):
    _not_ready(tiny_settings, "no index at")


def test_dangling_current_link(tiny_built):
    target = _current(tiny_built).resolve()
    for f in target.iterdir():
        f.unlink()
    target.rmdir()
    _not_ready(tiny_built, "no index at")


@pytest.mark.parametrize("victim", ["vectors.faiss", "chunks.jsonl", "facts.sqlite"])
@pytest.mark.parametrize("damage", [_truncate, _flip_byte], ids=["truncated", "altered"])
def test_truncated_or_altered_file(tiny_built, victim, damage):
    damage(_current(tiny_built) / victim)
    _not_ready(tiny_built, f"index file {victim} is damaged (checksum mismatch)")


def test_deleted_file(tiny_built):
    (_current(tiny_built) / "facts.sqlite").unlink()
    _not_ready(tiny_built, "index file facts.sqlite is missing")


def test_index_from_another_model(tiny_built):
    _not_ready(replace(tiny_built, embedder="fake:32"),
               "built with embedder 'fake:64', but the settings use 'fake:32'")


def test_index_from_another_corpus(tiny_built):
    text = tiny_built.corpus_dir / "zar-savasi.txt"
    text.write_bytes(text.read_bytes() + b"Ek kural.\n")
    _not_ready(tiny_built, "built from a different corpus")


def _edit_manifest(settings: Settings, edit: Callable[[dict], object]) -> None:
    path = _current(settings) / MANIFEST
    edited = edit(json.loads(path.read_text(encoding="utf-8")))
    path.write_text(edited if isinstance(edited, str) else json.dumps(edited), encoding="utf-8")


@pytest.mark.parametrize(("edit", "reason"), [
    (lambda m: "{not json", "manifest is damaged (JSONDecodeError)"),
    (lambda m: [m], "manifest is damaged (not a JSON object)"),
    (lambda m: {**m, "format_version": 99}, "the index has format 99"),
    (lambda m: {k: v for k, v in m.items() if k != "files"}, "file checksums missing"),
    (lambda m: {**m, "files": {"vectors.faiss": m["files"]["vectors.faiss"]}},
     "file checksums missing"),
    (lambda m: {**m, "files": {**m["files"], "../../x": "0"}}, "file checksums missing"),
    (lambda m: {**m, "dimension": 32}, "do not match its chunks or dimension"),
], ids=["not-json", "not-object", "format", "no-files", "missing-file", "extra-file",
        "dimension"])
def test_damaged_manifest(tiny_built, edit, reason):
    _edit_manifest(tiny_built, edit)
    _not_ready(tiny_built, reason)


def test_unreadable_file_with_matching_checksum(tiny_built):
    """A file damaged before its checksum was taken: caught when reading, not by hashing."""
    vectors = _current(tiny_built) / "vectors.faiss"
    vectors.write_bytes(b"garbage, not a faiss index")

    def fix(m: dict) -> dict:
        import hashlib

        m["files"]["vectors.faiss"] = hashlib.sha256(vectors.read_bytes()).hexdigest()
        return m

    _edit_manifest(tiny_built, fix)
    _not_ready(tiny_built, "the index could not be read")


def test_chunk_that_no_longer_matches_its_text(tiny_built):
    path = _current(tiny_built) / "chunks.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines()
    first = json.loads(lines[0])
    first["text"] = "x" + first["text"][1:]
    path.write_text("\n".join([json.dumps(first, ensure_ascii=False), *lines[1:]]) + "\n",
                    encoding="utf-8")

    def fix(m: dict) -> dict:
        import hashlib

        m["files"]["chunks.jsonl"] = hashlib.sha256(path.read_bytes()).hexdigest()
        return m

    _edit_manifest(tiny_built, fix)
    _not_ready(tiny_built, "no longer matches the corpus text")


# A build in another process, slowed down at one stage so the test can SIGKILL it there.
_SLOW_BUILD = """
import sys, time
from pathlib import Path
import hakem.index as index
from hakem.corpus import load_corpus
from hakem.embed import FakeEmbedder

corpus_dir, index_dir = Path(sys.argv[1]), Path(sys.argv[2])
stage, marker = sys.argv[3], Path(sys.argv[4])

def stall(*_args, **_kwargs):
    marker.write_text("here")
    time.sleep(60)

class SlowEmbedder(FakeEmbedder):
    def documents(self, texts):
        if stage == "embedding":
            stall()
        return super().documents(texts)

if stage == "writing":
    index.write_sqlite = stall
index.build_index(load_corpus(corpus_dir), corpus_dir, index_dir, SlowEmbedder())
"""


@pytest.mark.parametrize("stage", ["embedding", "writing"])
def test_build_killed_half_way_leaves_previous_index_serving(tiny_built, tmp_path, stage):
    before = _serving(tiny_built)
    before_files = {p.name: p.read_bytes() for p in _current(tiny_built).iterdir()}
    marker = tmp_path / "marker"
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_BUILD, str(tiny_built.corpus_dir),
                             str(tiny_built.index_dir), stage, str(marker)])
    try:
        deadline = time.monotonic() + 20
        while not marker.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "build did not start"
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    leftovers = list((tiny_built.index_dir / "builds").glob(".tmp-*"))
    assert len(leftovers) == (1 if stage == "writing" else 0)
    assert _serving(tiny_built) == before  # the same build, still verified and answering
    assert {p.name: p.read_bytes() for p in _current(tiny_built).iterdir()} == before_files
    # The next build swaps in and removes what the killed one left behind.
    assert cli_main(["--index-dir", str(tiny_built.index_dir), "--corpus-dir",
                     str(tiny_built.corpus_dir), "--embedder", "fake", "build"]) == 0
    assert not list((tiny_built.index_dir / "builds").glob(".tmp-*"))
    assert _serving(tiny_built)["index"] != before["index"]


def _verify(settings: Settings, *args: str,
            columns: str = "200") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HAKEM_CORPUS_DIR": str(settings.corpus_dir),
           "HAKEM_INDEX_DIR": str(settings.index_dir), "HAKEM_EMBEDDER": settings.embedder,
           "NO_COLOR": "1", "COLUMNS": columns}
    return subprocess.run([str(HAKEM), "verify", *args], env=env, capture_output=True,
                          text=True, timeout=60)


def test_hakem_verify_exit_codes(tiny_built):
    good = _verify(tiny_built)
    assert good.returncode == 0, good.stderr
    assert "index OK" in good.stdout
    assert json.loads(_verify(tiny_built, "--json").stdout)["ok"] is True
    _flip_byte(_current(tiny_built) / "chunks.jsonl")
    bad = _verify(tiny_built)
    assert bad.returncode == 1
    lines = bad.stderr.strip().splitlines()
    assert len(lines) == 1, bad.stderr
    assert "chunks.jsonl is damaged" in lines[0] and "hakem build" in lines[0]
    assert "Traceback" not in bad.stderr + bad.stdout


def test_hakem_verify_on_missing_index(tiny_settings):
    bad = _verify(tiny_settings)
    assert bad.returncode == 1 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert "no index" in bad.stderr


def test_hakem_verify_error_is_one_line_on_a_narrow_terminal(tiny_settings):
    bad = _verify(tiny_settings, columns="60")
    assert bad.returncode == 1
    assert len(bad.stderr.strip().splitlines()) == 1, bad.stderr
