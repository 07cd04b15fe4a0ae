"""How ``hakem serve`` runs uvicorn: limits for idle, slow and half-open connections.

What it does: ``serve`` starts uvicorn with the h11 protocol subclassed so that a connection
must send a complete request head within ``header_timeout`` seconds of connecting (uvicorn
itself waits forever: 300 connections that never finish a request stopped it accepting),
closes idle keep-alive connections after a few seconds, bounds concurrent connections, and
gives in-flight requests a grace period at shutdown. What it does not do: admission of work
(``admission``), or anything about the app (``api``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

KEEP_ALIVE_SECONDS = 5  # an idle keep-alive connection is closed after this
MAX_CONNECTIONS = 512  # past this uvicorn answers 503 at once instead of queueing
GRACEFUL_SHUTDOWN_SECONDS = 10
MAX_HEAD_BYTES = 16 * 1024  # request line and headers


class HeadTimeoutH11(H11Protocol):
    """h11 with a deadline for the first request head of each connection."""

    header_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_timer: asyncio.TimerHandle | None = self.loop.call_later(
            self.header_timeout, self._head_timed_out)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and self._head_timer is not None:  # a request arrived
            self._head_timer.cancel()
            self._head_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self.cycle is None and not self.transport.is_closing():
            self.transport.close()  # no request to answer: nothing is owed to the client


def protocol_with(header_timeout: float) -> type[HeadTimeoutH11]:
    return type("HeadTimeoutH11", (HeadTimeoutH11,), {"header_timeout": header_timeout})


def serve(app: Any, host: str, port: int, header_timeout: float) -> None:
    import uvicorn

    uvicorn.run(app, host=host, port=port, log_level="info", http=protocol_with(header_timeout),
                timeout_keep_alive=KEEP_ALIVE_SECONDS, limit_concurrency=MAX_CONNECTIONS,
                h11_max_incomplete_event_size=MAX_HEAD_BYTES,
                timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS)
