"""Read a versioned file of standardised linear weights (the answerability and sentence
models share this shape: format, feature names, mean, scale, coef).

What it does: reads the file, checks its format, its feature names and the length of each
weight list, and returns the raw bytes (for a checksum), the parsed JSON and the three weight
lists, raising ``ValueError`` on anything amiss. What it does not do: decide what a missing
or damaged file means (each model names its own rebuild command) or read model-specific keys.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Weights:
    raw: bytes
    data: dict[str, Any]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]


def read_weights(path: Path, fmt: int | tuple[int, ...], features: tuple[str, ...]) -> Weights:
    """Raises ``OSError``, ``ValueError``, ``KeyError`` or ``TypeError`` for a bad file.
    ``fmt``: the format number, or the numbers, the reader knows."""
    raw = path.read_bytes()
    data = json.loads(raw)
    known = fmt if isinstance(fmt, tuple) else (fmt,)
    if data.get("format") not in known:
        raise ValueError(f"format {data.get('format')!r}, expected {' or '.join(map(str, known))}")
    if tuple(data["features"]) != features:
        raise ValueError("its features are not this version's")
    mean, scale, coef = (tuple(float(x) for x in data[key]) for key in ("mean", "scale", "coef"))
    if any(len(values) != len(features) for values in (mean, scale, coef)):
        raise ValueError("a weight list has the wrong length")
    return Weights(raw, data, mean, scale, coef)
