"""A pure ASGI guard in front of the app: body size, content type, encoding and JSON nesting.

What it does: answers ``HEAD`` as the ``GET`` of the same URL with the body left out (the
framework's routes only list GET); if the server cancels a request still running when its
shutdown timeout ends, answers it with a JSON 503 instead of the server's text/plain 500;
reads the request body itself, counting the streamed bytes (``Content-Length``
is checked first but not trusted), and answers with a typed JSON error before the app sees
the request when the body is too large (413), not JSON (415), not UTF-8 (400) or nested
deeper than any request of this API can be (400). The app then gets the buffered body
replayed, so nothing downstream depends on the framework's own body parsing for these
cases. What it does not do: validate fields (pydantic in ``api`` does that). Uvicorn itself
sets no body limit, which is why this exists.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
JSON_TYPES = frozenset({"application/json"})


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": code, "message": message}).encode("utf-8")


def json_depth_exceeds(body: bytes, limit: int) -> bool:
    """True if brackets outside strings nest deeper than ``limit`` (a linear scan)."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False
    depth, in_string, escaped = 0, False, False
    for byte in body:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


class _Rejected(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class RequestGuard:
    """Reject oversized, non-JSON, non-UTF-8 or absurdly nested request bodies up front."""

    def __init__(self, app: ASGIApp, max_body_bytes: int = 16_384, max_depth: int = 32,
                 body_timeout: float = 10.0) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_depth = max_depth
        self.body_timeout = body_timeout  # a body trickled slower than this gets 408

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        out: Send = tracked
        if scope.get("method") == "HEAD":
            scope, out = {**scope, "method": "GET"}, _without_body(tracked)
        try:
            await self._guarded(scope, receive, out)
        except asyncio.CancelledError:
            # The server's shutdown timeout cancels what still runs; a client that waited
            # gets the typed error every other failure gets, and may retry elsewhere.
            if started:
                raise
            await _send_error(out, 503, "shutting_down",
                              "the server is shutting down; retry the request",
                              [(b"retry-after", b"5")])

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            async with asyncio.timeout(self.body_timeout):
                body, more = await self._read_body(scope, receive)
        except TimeoutError:
            await self._reject(send, _Rejected(408, "request_timeout",
                                               "the request body took too long to arrive"))
            return
        except _Rejected as exc:
            await self._reject(send, exc)
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: only http.disconnect is left

        if more is not None:  # the client went away while sending
            return
        await self.app(scope, replay, send)

    async def _read_body(self, scope: Scope, receive: Receive) -> tuple[bytes, Message | None]:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", ())}
        limit = self.max_body_bytes
        declared = headers.get("content-length", "").strip()
        if declared:
            if not declared.isdigit():
                raise _Rejected(400, "invalid_request", "the Content-Length header is not a number")
            if int(declared) > limit:
                raise _Rejected(413, "body_too_large",
                                f"the request body is larger than {limit} bytes")
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return b"", message
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:  # counted as it streams: chunked bodies have no Content-Length
                raise _Rejected(413, "body_too_large",
                                f"the request body is larger than {limit} bytes")
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if scope.get("method", "GET") in BODY_METHODS and body:
            media = headers.get("content-type", "").split(";")[0].strip().lower()
            if media not in JSON_TYPES:
                raise _Rejected(415, "unsupported_media_type",
                                "send the request body as JSON with "
                                "Content-Type: application/json")
            try:
                body.decode("utf-8")
            except UnicodeDecodeError:
                raise _Rejected(400, "invalid_encoding",
                                "the request body is not valid UTF-8") from None
            if json_depth_exceeds(body, self.max_depth):
                raise _Rejected(400, "invalid_json",
                                f"the JSON body is nested deeper than {self.max_depth} levels")
        return body, None

    @staticmethod
    async def _reject(send: Send, exc: _Rejected) -> None:
        await _send_error(send, exc.status, exc.code, exc.message)


async def _send_error(send: Send, status: int, code: str, message: str,
                      extra: list[tuple[bytes, bytes]] | None = None) -> None:
    payload = error_body(code, message)
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(payload)).encode()),
                            (b"connection", b"close"), *(extra or [])]})
    await send({"type": "http.response.body", "body": payload, "more_body": False})


def _without_body(send: Send) -> Send:
    """A ``send`` for HEAD: the GET's status and headers (Content-Length included), no body."""

    async def head_send(message: Message) -> None:
        if message["type"] == "http.response.body":
            if message.get("more_body", False):
                return
            message = {"type": "http.response.body", "body": b"", "more_body": False}
        await send(message)

    return head_send
