"""The few domain errors Hakem raises. They are mapped to HTTP statuses in one place (api).

"Not in the rules" is not an error: it is an answer with ``abstained=True``.
"""

from __future__ import annotations

REBUILD = "hakem build"


class HakemError(Exception):
    """Base class: a problem a user can act on, with a one-line message."""

    code = "hakem_error"


class CorpusError(HakemError):
    """The corpus folder is missing, incomplete or unreadable."""

    code = "corpus_invalid"


class FactsError(HakemError):
    """A facts file is malformed or a fact's quote is not found exactly once in its text."""

    code = "facts_invalid"


class IndexNotReady(HakemError):
    """The index is missing, damaged, or built from another corpus or model."""

    code = "index_not_ready"

    def __init__(self, reason: str) -> None:
        super().__init__(f"{reason}. Rebuild it with: {REBUILD}")
        self.reason = reason


class InvalidRequest(HakemError):
    """An argument out of range (k, mode...): the caller's mistake, said plainly."""

    code = "invalid_request"


class UnknownGame(HakemError):
    code = "unknown_game"

    def __init__(self, game: str, known: tuple[str, ...]) -> None:
        super().__init__(f"unknown game {game!r}; known games: {', '.join(known)}")
        self.game = game
        self.known = known


class EmbedderError(HakemError):
    """The embedding model could not be loaded (wrong path, no network for a hub name...)."""

    code = "embedder_unavailable"
