"""Text bound for a terminal: no control characters from the corpus or the user reach it.

What it does: ``safe_console`` makes a rich ``Console`` whose printed text has every C0/C1
control character (ESC, CSI, BEL, backspace...; not newline or tab) replaced by U+FFFD,
one character for one so rich's styling spans stay in place, before rich adds its own
colour codes; ``safe_json`` is ``json.dumps`` with C1 characters escaped too (JSON already
escapes C0). ``bad_text`` finds what a command line may not pass as text: lone surrogates
(bytes that were not UTF-8) and control characters. What it does not do: decide what is
printed (``cli``, ``chat``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable
from typing import Any, TextIO

from rich.console import Console, ConsoleRenderable, RenderHook
from rich.text import Text

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_C1 = re.compile(r"[\x80-\x9f]")
REPLACEMENT = "\ufffd"


def strip_controls(text: str) -> str:
    return _CONTROL.sub(REPLACEMENT, text)


class _NoControls(RenderHook):
    def process_renderables(self, renderables: list[ConsoleRenderable]
                            ) -> list[ConsoleRenderable]:
        for item in renderables:
            if isinstance(item, Text) and _CONTROL.search(item.plain):
                item.plain = strip_controls(item.plain)  # same length: spans still fit
        return renderables


def safe_console(stderr: bool = False, file: TextIO | None = None, **kwargs: Any) -> Console:
    console = Console(stderr=stderr, file=file, **kwargs)
    console.push_render_hook(_NoControls())
    return console


def safe_json(value: Any) -> str:
    return _C1.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


def bad_text(values: Iterable[object]) -> str | None:
    """Why one of these command-line strings is not text, or None."""
    for value in values:
        items: Iterable[object] = value if isinstance(value, list) else [value]
        for item in items:
            if not isinstance(item, str):
                continue
            if any(unicodedata.category(c) == "Cs" for c in item):
                return "is not valid UTF-8 (check the terminal's encoding)"
            if _CONTROL.search(item):
                return "contains control characters"
    return None
