"""The HTTP API (FastAPI): /ask, /games, /facts, /livez, /readyz.

What it does: validates requests with the pydantic models of ``schemas`` (the only place
pydantic is used), loads the engine once in ``lifespan``, admits CPU work through
``admission`` (503 ``overloaded`` when saturated), and maps every error to a typed JSON body
``{"error": code, "message": ..., "detail"?: [...]}`` in one place; bad input is a 4xx, never
a 5xx, and no error body echoes raw input. ``http_guard`` sits in front (body size, content
type, encoding, nesting). A missing or damaged index does not crash the process: ``/livez``
stays 200 while ``/readyz`` and every endpoint that needs the index answer 503 with the
reason and the rebuild command. What it does not do: any retrieval logic (see ``engine``).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from functools import partial
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from .admission import Admission, ClientGone, Overloaded, cost_of
from .answer import answer_json
from .deps import NotReady, ready_engine
from .engine import Engine
from .errors import REBUILD, HakemError, IndexNotReady, UnknownGame
from .factsearch import search_facts
from .freshness import CorpusWatch
from .http_guard import RequestGuard
from .phrasing import fact_json
from .schemas import (
    MAX_GAME_CHARS,
    AskRequest,
    AskResponse,
    ErrorBody,
    FactOut,
    GameOut,
    LiveOut,
    ReadyOut,
)
from .settings import MAX_K, MAX_QUESTION_CHARS, Settings
from .web import router as web_router

log = logging.getLogger("hakem.api")
DEFAULTS = Settings()  # for the description only; the running server uses its own settings

DESCRIPTION = f"""Offline rules assistant for board games (Turkish rule texts).

Limits: a question is 1–{MAX_QUESTION_CHARS} characters of text (no control
characters); `k` is 1–{MAX_K} (default `HAKEM_K`, {DEFAULTS.k}); request bodies are UTF-8 JSON
(`Content-Type: application/json`) of at most {DEFAULTS.max_body_bytes} bytes
(`HAKEM_MAX_BODY_BYTES`), nested at most {DEFAULTS.max_json_depth} levels
(`HAKEM_MAX_JSON_DEPTH`). Every error is a JSON body `{{"error": code, "message": ...}}`
(with `detail` for field errors): 400 `invalid_json` / `invalid_encoding`, 404
`unknown_game` / `not_found`, 408 `request_timeout`, 413 `body_too_large`, 415
`unsupported_media_type`, 422 `invalid_request`, 503 `index_not_ready` (the message names
the reason and the rebuild command, `{REBUILD}`), `overloaded` (too much work waiting:
retry after the `Retry-After` seconds) or `shutting_down`. `HEAD` is answered on every
`GET` route."""


def _error(status: int, code: str, message: str, detail: list[dict[str, Any]] | None = None,
           headers: Mapping[str, str] | None = None) -> JSONResponse:
    body = ErrorBody(error=code, message=message, detail=detail).model_dump(exclude_none=True)
    return JSONResponse(status_code=status, content=body, headers=headers)


def _detail(error: Any) -> dict[str, Any]:
    loc, msg = [str(p) for p in error.get("loc", ())], str(error.get("msg", ""))
    if error.get("type") == "extra_forbidden":  # the name is the client's: not echoed
        loc, msg = [*loc[:-1], "(unknown field)"], "unknown field; the fields are " + ", ".join(
            AskRequest.model_fields)
    return {"loc": loc, "msg": msg, "type": str(error.get("type", ""))}


ERRORS: dict[int | str, Any] = {
    code: {"model": ErrorBody} for code in (400, 404, 413, 415, 422, 503)}


def _load(settings: Settings) -> tuple[Engine | None, NotReady | None]:
    try:
        return Engine.load(settings), None
    except HakemError as exc:  # stay alive and say why in /readyz
        log.error("not ready: %s", exc)
        return None, NotReady(getattr(exc, "code", "index_not_ready"), str(exc))
    except Exception as exc:  # anything else in the artifacts: same state, never a crash
        log.exception("the index could not be loaded")
        reason = f"the index could not be loaded ({exc.__class__.__name__})"
        return None, NotReady(IndexNotReady.code, str(IndexNotReady(reason)))


def create_app(settings: Settings | None = None, engine: Engine | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if engine is not None:
            app.state.engine, app.state.not_ready = engine, None
        else:
            app.state.engine, app.state.not_ready = _load(settings)
        eng = app.state.engine
        app.state.watch = None if eng is None else CorpusWatch(
            eng.settings.corpus_dir, str(eng.index.manifest.get("corpus_hash")))
        yield

    # No /docs or /redoc: FastAPI's pages load their scripts from a CDN, which an offline
    # tool cannot; the schema itself stays at /openapi.json. No slash redirects: Starlette
    # builds their Location from the client's Host header.
    app = FastAPI(title="Hakem", version="0.1.0", lifespan=lifespan, description=DESCRIPTION,
                  responses={422: {"model": ErrorBody}}, docs_url=None, redoc_url=None,
                  redirect_slashes=False)
    # One slot per embedding model; long questions never take the last one (admission).
    app.state.admission = Admission(slots=max(2, settings.embed_instances),
                                    max_waiting=settings.max_queue,
                                    max_wait=settings.queue_wait_ms / 1000)
    app.add_middleware(RequestGuard, max_body_bytes=settings.max_body_bytes,
                       max_depth=settings.max_json_depth, body_timeout=settings.header_timeout)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            return _error(400, "invalid_json", "the request body is not valid JSON")
        # Say where and what, never the raw input (it may be huge or not text at all).
        detail = [_detail(e) for e in errors[:10]]
        return _error(422, "invalid_request", "the request is not valid: see detail", detail)

    @app.exception_handler(UnknownGame)
    async def _unknown_game(_: Request, exc: UnknownGame) -> JSONResponse:
        return _error(404, exc.code, f"unknown game; known games: {', '.join(exc.known)}")

    @app.exception_handler(NotReady)
    async def _not_ready(_: Request, exc: NotReady) -> JSONResponse:
        return _error(503, exc.code, exc.message, headers={"Retry-After": "30"})

    @app.exception_handler(Overloaded)
    async def _overloaded(_: Request, exc: Overloaded) -> JSONResponse:
        return _error(503, exc.code, exc.message, headers={"Retry-After": str(exc.retry_after)})

    @app.exception_handler(ClientGone)
    async def _gone(_: Request, exc: ClientGone) -> JSONResponse:
        # Nobody reads this: nginx's "client closed request", so logs do not show a 5xx.
        return _error(499, "client_gone", "the client disconnected before its turn")

    @app.exception_handler(IndexNotReady)
    async def _index_not_ready(_: Request, exc: IndexNotReady) -> JSONResponse:
        return _error(503, exc.code, str(exc))

    @app.exception_handler(HakemError)
    async def _hakem(_: Request, exc: HakemError) -> JSONResponse:
        return _error(400, exc.code, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed",
                413: "body_too_large"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail), headers=exc.headers)

    @app.exception_handler(Exception)
    async def _internal(_: Request, exc: Exception) -> JSONResponse:
        log.error("internal error: %s", exc.__class__.__name__)
        return _error(500, "internal_error", "internal error; the server log has the details")

    @app.post("/ask", response_model=AskResponse, responses=ERRORS,
              summary="Answer a rules question with cited passages")
    async def ask(body: AskRequest, request: Request) -> dict[str, Any]:
        eng = ready_engine(request)
        eng.check_game(body.game)
        answer = await request.app.state.admission.run(
            partial(eng.ask, context=body.context), body.question, body.game, body.k,
            cost=cost_of(body.question), gone=request.is_disconnected)
        requested = body.game if body.game and answer.game not in {None, body.game} else None
        return {**answer_json(answer), "requested_game": requested}

    @app.get("/games", response_model=list[GameOut], responses={503: ERRORS[503]})
    async def games(request: Request) -> list[dict[str, Any]]:
        eng = ready_engine(request)
        return [{"id": g.id, "name": g.name, "aliases": list(g.aliases),
                 "language": g.language} for g in eng.corpus.games]

    @app.get("/facts", response_model=list[FactOut],
             responses={404: ERRORS[404], 503: ERRORS[503]})
    async def facts(request: Request,
                    game: str | None = Query(None, max_length=MAX_GAME_CHARS),
                    q: str | None = Query(None, max_length=MAX_QUESTION_CHARS),
                    limit: int = Query(50, ge=1, le=500)) -> list[dict[str, Any]]:
        eng = ready_engine(request)
        eng.check_game(game)
        if q and q.strip():  # CPU work: off the event loop, through admission like /ask
            hits = await request.app.state.admission.run(
                search_facts, eng.index.facts, q, game, limit,
                eng.retriever.lexical.glossary, cost=1, gone=request.is_disconnected)
            rows = [h.fact for h in hits]
        else:
            rows = [f for f in eng.index.facts if game is None or f.game == game][:limit]
        return [fact_json(f) for f in rows]

    @app.get("/livez", response_model=LiveOut, summary="The process is up (no index needed)")
    async def livez() -> dict[str, str]:
        return {"status": "alive"}

    @app.get("/readyz", response_model=ReadyOut, responses={503: ERRORS[503]},
             summary="The index is loaded and verified; else 503 with the reason")
    async def readyz(request: Request) -> dict[str, Any]:
        eng = ready_engine(request)
        watch: CorpusWatch | None = getattr(request.app.state, "watch", None)
        if watch is not None and not watch.check():  # stats only, unless a file changed
            raise NotReady(IndexNotReady.code, str(IndexNotReady(
                "the corpus changed since the index was built")))
        return {"status": "ready", "embedder": str(eng.index.manifest.get("embedder")),
                "index": eng.index.path.name, "mode": eng.settings.mode,
                "passages": len(eng.index.chunks), "facts": len(eng.index.facts)}

    app.include_router(web_router, responses={c: ERRORS[c] for c in (400, 404, 503)})
    return app
