"""The index against the corpus it cites: fact offsets checked by ``hakem verify`` and at
load, and a running server's /readyz noticing a corpus file changed under it."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3

from fastapi.testclient import TestClient

from hakem import freshness
from hakem.api import create_app
from hakem.cli import main
from hakem.freshness import CorpusWatch
from hakem.index import CURRENT, FACTS, MANIFEST
from hakem.settings import Settings


def _shift_fact_offsets(settings: Settings) -> None:
    build = (settings.index_dir / CURRENT).resolve()
    with sqlite3.connect(build / FACTS) as db:
        db.execute('UPDATE facts SET "start" = "start" + 1, "end" = "end" + 1')
    db.close()
    manifest = json.loads((build / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"][FACTS] = hashlib.sha256((build / FACTS).read_bytes()).hexdigest()
    (build / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


def test_verify_rejects_shifted_fact_offsets(tiny_built: Settings, capsys):
    args = ["--index-dir", str(tiny_built.index_dir), "--corpus-dir",
            str(tiny_built.corpus_dir), "--embedder", "fake", "verify"]
    assert main(args) == 0
    _shift_fact_offsets(tiny_built)
    capsys.readouterr()
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "no longer matches the corpus text at its offsets" in err and "hakem build" in err
    assert len(err.strip().splitlines()) == 1


def test_server_is_not_ready_with_shifted_fact_offsets(tiny_built: Settings):
    _shift_fact_offsets(tiny_built)
    with TestClient(create_app(tiny_built), raise_server_exceptions=False) as client:
        r = client.get("/readyz")
        assert r.status_code == 503 and "offsets" in r.json()["message"]


def test_readyz_notices_a_corpus_file_changed_under_a_running_server(tiny_built: Settings):
    with TestClient(create_app(tiny_built), raise_server_exceptions=False) as client:
        assert client.get("/readyz").status_code == 200
        text = tiny_built.corpus_dir / "zar-savasi.txt"
        original = text.read_bytes()
        os.utime(text, ns=(1, 1))  # touched, same bytes: still the same corpus
        assert client.get("/readyz").status_code == 200
        text.write_bytes(original + b"Ek kural.\n")
        r = client.get("/readyz")
        assert r.status_code == 503, r.text
        body = r.json()
        assert body["error"] == "index_not_ready"
        assert "corpus changed" in body["message"]
        assert body["message"].endswith("Rebuild it with: hakem build")
        assert client.get("/livez").status_code == 200
        text.write_bytes(original)  # put back: ready again
        assert client.get("/readyz").status_code == 200


def test_the_corpus_is_hashed_only_when_its_files_change(tiny_built: Settings, monkeypatch):
    calls = []
    real = freshness.corpus_hash
    monkeypatch.setattr(freshness, "corpus_hash", lambda d: calls.append(d) or real(d))
    watch = CorpusWatch(tiny_built.corpus_dir, real(tiny_built.corpus_dir))
    assert all(watch.check() for _ in range(20))
    assert len(calls) == 1  # the first check
    facts = tiny_built.corpus_dir / "facts" / "kale-oyunu.toml"
    facts.write_text(facts.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert not watch.check() and not watch.check()
    assert len(calls) == 2
