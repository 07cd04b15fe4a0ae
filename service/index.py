"""Build, store, verify and load the index: FAISS vectors, chunks, facts, and a manifest.

What it does: ``build_index`` embeds every chunk, fact and sentence and writes plain,
checkable artifacts (``vectors.faiss``, ``chunks.jsonl``, ``facts.sqlite``, the sentence
vectors ``sentences.npy`` (no pickle) with their spans ``sentences.jsonl``, ``manifest.json``
with format version, embedder, dimension, corpus hash and per-file SHA-256) into a fresh
folder, then swaps it in atomically (``index/current`` is a symlink replaced with one
rename), so a build killed half-way leaves the previous index serving. One build runs at a
time per index folder (an ``flock`` on ``index/.build.lock``, released by the kernel even
when a build is killed); the lock holder removes what killed builds left (temp folders,
``.current-*`` links), and a write that fails (disk full) removes its partial files and
swaps nothing in. ``load_index`` verifies all of it and raises ``IndexNotReady`` with a
specific reason. What it does not do: ranking (see ``retrieve``); no pickle anywhere.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import faiss
import numpy as np

from .chunks import Chunk, ChunkSettings, chunk_corpus, chunk_sentences
from .corpus import Corpus, corpus_hash
from .embed import CachedEmbedder, Embedder
from .errors import FactsError, HakemError, IndexNotReady
from .facts import Fact, fact_text, load_facts, read_table, write_sqlite

FORMAT_VERSION = 2  # 2: sentence vectors, for choosing the answer sentence
MANIFEST = "manifest.json"
VECTORS = "vectors.faiss"
CHUNKS = "chunks.jsonl"
FACTS = "facts.sqlite"
SENTENCES = "sentences.npy"
SENTENCE_SPANS = "sentences.jsonl"
FILES = (VECTORS, CHUNKS, FACTS, SENTENCES, SENTENCE_SPANS)
CURRENT = "current"
LOCK = ".build.lock"
BATCH = 32

Progress = Callable[[int, int], None]


class BuildBusy(HakemError):
    """Another build holds the index folder's lock."""

    code = "build_running"


class BuildFailed(HakemError):
    """The new index could not be written (disk full, permissions); nothing was swapped in."""

    code = "build_failed"


@contextmanager
def build_lock(index_dir: Path) -> Iterator[None]:
    """Hold the index folder's build lock, or raise ``BuildBusy`` at once (never wait: a
    second build of the same corpus would only redo the first one's work)."""
    index_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(index_dir / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            who = f" (pid {holder})" if holder.isdigit() else ""
            raise BuildBusy(f"another `hakem build` is running on {index_dir}{who}; "
                            "wait for it to finish") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)  # closing releases the lock


@dataclass(frozen=True)
class LoadedIndex:
    manifest: dict[str, Any]
    chunks: tuple[Chunk, ...]
    vectors: faiss.Index
    facts: tuple[Fact, ...]
    fact_vectors: np.ndarray  # one row per fact, same order, same embedder as the passages
    path: Path
    # Every passage sentence's vector, by (game, start, end): the answer stage compares
    # candidate sentences with the question by meaning without embedding them per query.
    sentence_vectors: dict[tuple[str, int, int], np.ndarray] | None = None


def embed_text(chunk: Chunk, game_name: str) -> str:
    """What the embedder sees: the passage with its game and section as context."""
    where = f"{game_name} — {chunk.section}" if chunk.section else game_name
    return f"{where}: {chunk.text}"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def build_index(corpus: Corpus, corpus_dir: Path, index_dir: Path, embedder: Embedder,
                chunk_settings: ChunkSettings | None = None,
                progress: Progress | None = None, locked: bool = False) -> Path:
    """Build into a temporary folder, verify it, then make it ``index/current``.

    Raises ``BuildBusy`` when another build runs, ``BuildFailed`` when writing fails.
    ``locked``: the caller already holds ``build_lock(index_dir)``."""
    if locked:
        return _build_locked(corpus, corpus_dir, index_dir, embedder, chunk_settings, progress)
    with build_lock(index_dir):
        return _build_locked(corpus, corpus_dir, index_dir, embedder, chunk_settings, progress)


def _build_locked(corpus: Corpus, corpus_dir: Path, index_dir: Path, embedder: Embedder,
                  chunk_settings: ChunkSettings | None, progress: Progress | None) -> Path:
    chunk_settings = chunk_settings or ChunkSettings()
    facts = load_facts(corpus_dir, corpus)  # fails fast, before the slow part
    chunks = chunk_corpus(corpus.games, chunk_settings)
    names = {g.id: g.name for g in corpus.games}
    # Passages and facts are embedded in one pass (one progress bar); facts are matched to a
    # question by meaning too, so that English questions meet Turkish facts.
    texts = [embed_text(c, names[c.game]) for c in chunks]
    texts += [fact_text(f, names[f.game]) for f in facts]
    game_texts = {g.id: g.text for g in corpus.games}
    sentences = [(c.game, sp.start, sp.end) for c in chunks
                 for sp in chunk_sentences(c, game_texts[c.game])]
    sentences = list(dict.fromkeys(sentences))  # a sentence on a passage boundary once
    texts += [game_texts[g][a:b] for g, a, b in sentences]
    parts = []
    for i in range(0, len(texts), BATCH):
        parts.append(embedder.documents(texts[i : i + BATCH]))
        if progress:
            progress(min(i + BATCH, len(texts)), len(texts))
    embedded = (np.vstack(parts) if parts else np.zeros((0, embedder.dim))).astype(np.float32)
    n_facts = len(chunks) + len(facts)
    vectors, fact_vectors = embedded[: len(chunks)], embedded[len(chunks) : n_facts]
    sentence_vectors = embedded[n_facts:]
    builds = index_dir / "builds"
    builds.mkdir(parents=True, exist_ok=True)
    _remove_abandoned(index_dir)
    stamp = time.strftime("%Y%m%dT%H%M%S") + f"-{uuid.uuid4().hex[:8]}"
    tmp = builds / f".tmp-{stamp}-{os.getpid()}"
    tmp.mkdir()
    try:
        flat = faiss.IndexFlatIP(embedder.dim)
        flat.add(vectors)
        faiss.write_index(flat, str(tmp / VECTORS))
        with (tmp / CHUNKS).open("w", encoding="utf-8") as handle:
            for chunk in chunks:
                handle.write(json.dumps(asdict(chunk), ensure_ascii=False) + "\n")
        write_sqlite(facts, tmp / FACTS, fact_vectors)
        np.save(tmp / SENTENCES, sentence_vectors, allow_pickle=False)
        with (tmp / SENTENCE_SPANS).open("w", encoding="utf-8") as handle:
            for game, start, end in sentences:
                handle.write(json.dumps({"game": game, "start": start, "end": end}) + "\n")
        manifest = {
            "format_version": FORMAT_VERSION,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "embedder": embedder.name,
            "dimension": embedder.dim,
            "metric": "inner_product_on_normalised_vectors",
            "corpus_hash": corpus_hash(corpus_dir),
            "games": {g.id: g.sha256 for g in corpus.games},
            "chunker": asdict(chunk_settings),
            "counts": {"chunks": len(chunks), "facts": len(facts),
                       "sentences": len(sentences)},
            "files": {name: _sha256(tmp / name) for name in FILES},
        }
        (tmp / MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                    encoding="utf-8")
        _fsync(tmp, (*FILES, MANIFEST))  # on disk before it can become current
        if isinstance(embedder, CachedEmbedder):
            embedder.save()  # before the swap: a build that reports failure swapped nothing
        final = builds / stamp
        tmp.rename(final)
    except BaseException as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if isinstance(exc, OSError | RuntimeError):  # faiss reports a failed write as this
            reason = os.strerror(exc.errno) if isinstance(exc, OSError) and exc.errno else (
                exc.__class__.__name__)
            raise BuildFailed(f"the new index could not be written ({reason}); "
                              "the previous index is still serving") from exc
        raise
    _swap_current(index_dir, final)
    return final


def _fsync(folder: Path, names: tuple[str, ...]) -> None:
    for name in names:
        fd = os.open(folder / name, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _remove_abandoned(index_dir: Path) -> None:
    """What killed builds left: temp folders and temp links. Called under the build lock, so
    every one of them belongs to a build that is no longer running."""
    for tmp in (index_dir / "builds").glob(".tmp-*"):
        shutil.rmtree(tmp, ignore_errors=True)
    for link in index_dir.glob(f".{CURRENT}-*"):
        if link.is_symlink() or link.is_file():
            link.unlink(missing_ok=True)


def _swap_current(index_dir: Path, target: Path) -> None:
    link = index_dir / CURRENT
    previous = link.resolve() if link.is_symlink() else None
    tmp_link = index_dir / f".{CURRENT}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    tmp_link.symlink_to(target.relative_to(index_dir))
    os.replace(tmp_link, link)  # atomic: readers see the old build or the new, never neither
    dir_fd = os.open(index_dir, os.O_RDONLY)
    try:
        os.fsync(dir_fd)  # the swap itself survives a power cut
    finally:
        os.close(dir_fd)
    for old in (index_dir / "builds").iterdir():
        if old.resolve() not in {target.resolve(), previous} and not old.name.startswith(".tmp"):
            shutil.rmtree(old, ignore_errors=True)


def read_manifest(index_dir: Path) -> tuple[Path, dict[str, Any]]:
    """The build that ``current`` points to now (resolved once, so a rebuild swapping the
    link while we read cannot mix two builds) and its manifest."""
    link = index_dir / CURRENT
    path = link.resolve() if link.is_symlink() else link
    if not (path / MANIFEST).is_file():
        raise IndexNotReady(f"no index at {link}")
    try:
        manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise IndexNotReady(f"the index manifest is damaged ({exc.__class__.__name__})") from exc
    if not isinstance(manifest, dict):
        raise IndexNotReady("the index manifest is damaged (not a JSON object)")
    if manifest.get("format_version") != FORMAT_VERSION:
        raise IndexNotReady(f"the index has format {manifest.get('format_version')!r} "
                            f"but this Hakem reads format {FORMAT_VERSION}")
    files = manifest.get("files")
    if not isinstance(files, dict) or set(files) != set(FILES) or not all(
            isinstance(v, str) for v in files.values()):
        raise IndexNotReady("the index manifest is damaged (file checksums missing)")
    return path, manifest


def _verify_at(path: Path, manifest: dict[str, Any], corpus_dir: Path,
               embedder_name: str | None) -> None:
    for name, expected in manifest["files"].items():
        file = path / name
        if not file.is_file():
            raise IndexNotReady(f"index file {name} is missing")
        if _sha256(file) != expected:
            raise IndexNotReady(f"index file {name} is damaged (checksum mismatch)")
    if manifest.get("corpus_hash") != corpus_hash(corpus_dir):
        raise IndexNotReady("the index was built from a different corpus")
    if embedder_name is not None and manifest.get("embedder") != embedder_name:
        raise IndexNotReady(f"the index was built with embedder {manifest.get('embedder')!r}, "
                            f"but the settings use {embedder_name!r}")


def verify_index(index_dir: Path, corpus: Corpus, corpus_dir: Path,
                 embedder_name: str | None) -> dict[str, Any]:
    """Every check short of loading: manifest, checksums, corpus and model match."""
    path, manifest = read_manifest(index_dir)
    _verify_at(path, manifest, corpus_dir, embedder_name)
    return manifest


def load_index(index_dir: Path, corpus: Corpus, corpus_dir: Path,
               embedder: Embedder | None) -> LoadedIndex:
    path, manifest = read_manifest(index_dir)
    _verify_at(path, manifest, corpus_dir, embedder.name if embedder else None)
    try:
        vectors = faiss.read_index(str(path / VECTORS))
        with (path / CHUNKS).open(encoding="utf-8") as handle:
            chunks = tuple(Chunk(**json.loads(line)) for line in handle)
        facts, fact_vectors = read_table(path / FACTS)
        sentence_matrix = np.load(path / SENTENCES, allow_pickle=False)
        with (path / SENTENCE_SPANS).open(encoding="utf-8") as handle:
            spans = [json.loads(line) for line in handle]
        keys = [(str(r["game"]), int(r["start"]), int(r["end"])) for r in spans]
    except (RuntimeError, ValueError, TypeError, KeyError, OSError, FactsError) as exc:
        raise IndexNotReady(f"the index could not be read ({exc.__class__.__name__})") from exc
    if vectors.ntotal != len(chunks) or vectors.d != manifest.get("dimension"):
        raise IndexNotReady("the index vectors do not match its chunks or dimension")
    texts = {g.id: g.text for g in corpus.games}
    for chunk in chunks:
        if chunk.game not in texts or texts[chunk.game][chunk.start : chunk.end] != chunk.text:
            raise IndexNotReady(f"chunk {chunk.id} no longer matches the corpus text")
    for fact in facts:  # a fact cites text by offsets: shifted ones would cite other words
        if fact.game not in texts or texts[fact.game][fact.start : fact.end] != fact.quote:
            raise IndexNotReady(f"fact {fact.game}/{fact.id} no longer matches the corpus "
                                f"text at its offsets {fact.start}-{fact.end}")
    if facts and (fact_vectors is None or fact_vectors.shape != (len(facts), vectors.d)):
        raise IndexNotReady("the facts table has no vectors of the index's dimension")
    if fact_vectors is None:
        fact_vectors = np.zeros((0, vectors.d), dtype=np.float32)
    if sentence_matrix.shape != (len(keys), vectors.d):
        raise IndexNotReady("the sentence vectors do not match their spans or dimension")
    return LoadedIndex(manifest=manifest, chunks=chunks, vectors=vectors, facts=facts,
                       fact_vectors=fact_vectors, path=path,
                       sentence_vectors=dict(zip(keys, sentence_matrix, strict=True)))
