"""What HTTP handlers share: the loaded engine, or the reason it is not there.

What it does: ``ready_engine(request)`` returns the engine ``api``'s lifespan loaded, or
raises ``NotReady`` with the reason recorded at load time (``api`` maps it to a 503 with the
rebuild command). What it does not do: load anything.
"""

from __future__ import annotations

from fastapi import Request

from .engine import Engine
from .errors import IndexNotReady


class NotReady(Exception):
    """Raised by endpoints that need the engine while it could not be loaded."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def ready_engine(request: Request) -> Engine:
    eng: Engine | None = getattr(request.app.state, "engine", None)
    if eng is None:  # a fresh exception each time: a re-raised one grows its traceback
        why = getattr(request.app.state, "not_ready", None) or NotReady(
            IndexNotReady.code, str(IndexNotReady("the index is not loaded yet")))
        raise NotReady(why.code, why.message)
    return eng
