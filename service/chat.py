"""``hakem chat``: the interactive prompt (issue 5). Being built."""

from __future__ import annotations

from .errors import HakemError
from .settings import Settings


def run_chat(settings: Settings) -> int:
    raise HakemError("hakem chat is not built yet")
