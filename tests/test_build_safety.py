"""Builds that overlap, were killed, meet a damaged cache or a full disk.

One build at a time (a second one fails at once with one line naming the first), what a
killed build left is cleaned up by the next, a damaged embedding cache is ignored and
rewritten, and a write that fails swaps nothing in and leaves no partial file.
"""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from hakem.cli import main
from hakem.corpus import load_corpus
from hakem.embed import CachedEmbedder, FakeEmbedder
from hakem.index import CURRENT, BuildBusy, BuildFailed, build_index, build_lock, verify_index
from hakem.settings import Settings


def _build_cli(settings: Settings) -> int:
    return main(["--index-dir", str(settings.index_dir), "--corpus-dir",
                 str(settings.corpus_dir), "--embedder", "fake", "build"])


def _current(settings: Settings) -> Path:
    return (settings.index_dir / CURRENT).resolve()


def _verified(settings: Settings) -> None:
    verify_index(settings.index_dir, load_corpus(settings.corpus_dir), settings.corpus_dir,
                 "fake:64")


def test_a_second_build_fails_at_once_with_one_line(tiny_built: Settings, capsys):
    before = _current(tiny_built)
    with build_lock(tiny_built.index_dir):
        assert _build_cli(tiny_built) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "another `hakem build` is running" in err and f"pid {os.getpid()}" in err
    assert _current(tiny_built) == before
    assert _build_cli(tiny_built) == 0  # the lock is released with the first build


def test_concurrent_builds_in_processes_never_break_current(tiny_built: Settings):
    env = {**os.environ, "HAKEM_INDEX_DIR": str(tiny_built.index_dir),
           "HAKEM_CORPUS_DIR": str(tiny_built.corpus_dir), "HAKEM_EMBEDDER": "fake",
           "NO_COLOR": "1"}
    hakem = str(Path(sys.executable).parent / "hakem")
    procs = [subprocess.Popen([hakem, "build"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for _ in range(6)]
    results = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in procs]
    for code, err in results:
        assert code == 0 or (code == 1 and "another `hakem build` is running" in err), err
        assert "Traceback" not in err
    assert any(code == 0 for code, _ in results)
    _verified(tiny_built)
    builds = [p for p in (tiny_built.index_dir / "builds").iterdir()]
    assert _current(tiny_built) in builds


def test_stale_links_and_temp_folders_of_killed_builds_are_removed(tiny_built: Settings):
    stale = tiny_built.index_dir / f".{CURRENT}-4194303"
    stale.symlink_to("builds/gone")
    mine = tiny_built.index_dir / f".{CURRENT}-{os.getpid()}"
    mine.symlink_to("builds/gone")  # even one named like ours: the lock says it is stale
    tmp = tiny_built.index_dir / "builds" / f".tmp-x-{os.getpid()}"
    tmp.mkdir()
    assert _build_cli(tiny_built) == 0
    assert not stale.is_symlink() and not mine.is_symlink() and not tmp.exists()
    assert not list(tiny_built.index_dir.glob(f".{CURRENT}-*"))


def test_cache_saves_in_parallel_do_not_share_a_temp_file(tmp_path: Path):
    errors: list[BaseException] = []

    def save() -> None:
        try:
            cached = CachedEmbedder(FakeEmbedder(), tmp_path)
            cached.documents(["kale", "zar"])
            cached.save()
        except BaseException as exc:  # collected: a thread's exception is otherwise lost
            errors.append(exc)

    threads = [threading.Thread(target=save) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert [p.name for p in tmp_path.iterdir()] == ["fake_64.npz"]


def _valid_cache(settings: Settings) -> Path:
    assert _build_cli(settings) == 0
    path = settings.index_dir / "cache" / "fake_64.npz"
    assert path.is_file()
    return path


@pytest.mark.parametrize("damage", ["empty", "truncated", "garbage", "wrong-shape", "nan"])
def test_a_damaged_cache_is_ignored_and_rewritten(tiny_built: Settings, damage: str):
    path = _valid_cache(tiny_built)
    good = path.read_bytes()
    if damage == "empty":
        path.write_bytes(b"")
    elif damage == "truncated":
        path.write_bytes(good[: len(good) // 2])
    elif damage == "garbage":
        path.write_bytes(b"PK\x03\x04" + os.urandom(200))
    else:
        with np.load(path) as data:
            keys, vectors = data["keys"], data["vectors"]
        if damage == "nan":
            vectors = vectors.copy()
            vectors[0, 0] = np.nan
        else:
            keys = keys[:-1]
        np.savez(path, keys=keys, vectors=vectors)
    assert _build_cli(tiny_built) == 0
    _verified(tiny_built)
    with np.load(path) as data:
        assert data["vectors"].shape == (len(data["keys"]), 64)
        assert np.isfinite(data["vectors"]).all()


def _disk_full(*_args: object, **_kwargs: object) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("where", ["hakem.index.write_sqlite", "numpy.savez"])
def test_disk_full_swaps_nothing_in_and_leaves_no_partial_file(
        tiny_built: Settings, where: str, monkeypatch, capsys):
    _valid_cache(tiny_built)
    before = _current(tiny_built)
    cache_before = sorted(p.name for p in (tiny_built.index_dir / "cache").iterdir())
    monkeypatch.setattr(where, _disk_full)
    assert _build_cli(tiny_built) == 1
    errors = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert len(errors) == 1 and "No space left on device" in errors[0], errors
    assert "previous index is still serving" in errors[0]
    assert _current(tiny_built) == before
    _verified(tiny_built)
    assert not list((tiny_built.index_dir / "builds").glob(".tmp-*"))
    assert sorted(p.name for p in (tiny_built.index_dir / "cache").iterdir()) == cache_before


def test_build_index_raises_typed_errors(tiny_built: Settings, monkeypatch):
    corpus = load_corpus(tiny_built.corpus_dir)
    with build_lock(tiny_built.index_dir), pytest.raises(BuildBusy):
        build_index(corpus, tiny_built.corpus_dir, tiny_built.index_dir, FakeEmbedder())
    monkeypatch.setattr("hakem.index.write_sqlite", _disk_full)
    with pytest.raises(BuildFailed, match="No space left"):
        build_index(corpus, tiny_built.corpus_dir, tiny_built.index_dir, FakeEmbedder())
