"""Does the corpus on disk still match the index being served?

What it does: ``CorpusWatch`` remembers the size and modification time of every file the
corpus hash covers (texts, games.toml, facts) when the index is loaded; ``check`` re-reads
only those stats and re-hashes the corpus only when they changed, so ``/readyz`` can ask on
every probe. What it does not do: reload anything (the served engine keeps the text it
loaded; a rebuild and restart bring in the new corpus).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from pathlib import Path

from .corpus import corpus_hash

Signature = tuple[tuple[str, int, int], ...]  # (relative path, size, mtime_ns) per file


def signature(corpus_dir: Path) -> Signature:
    out = []
    for path in sorted(corpus_dir.rglob("*")):
        if path.suffix in {".txt", ".toml"}:
            try:
                st = path.stat()
            except OSError:  # removed while listing: a change like any other
                continue
            out.append((path.relative_to(corpus_dir).as_posix(), st.st_size, st.st_mtime_ns))
    return tuple(out)


@dataclass
class CorpusWatch:
    corpus_dir: Path
    expected: str  # the corpus hash the served index was built from
    _seen: Signature | None = None  # None: not hashed yet (the first check hashes once)
    _matches: bool = True
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self) -> bool:
        """True while the corpus on disk hashes to what the index was built from. A few
        stat calls; the hash (about a millisecond for this corpus) only after a change."""
        now = signature(self.corpus_dir)
        with self._lock:
            if now != self._seen:
                try:
                    self._matches = corpus_hash(self.corpus_dir) == self.expected
                except OSError:
                    self._matches = False
                self._seen = now
            return self._matches
