"""The HTTP API (FastAPI): /ask, /games, /facts, /livez, /readyz.

What it does: validates requests with pydantic (the only place pydantic is used), loads the
engine once in ``lifespan``, and maps every error to a typed JSON body
``{"error": code, "message": ..., "detail"?: [...]}`` in one place; bad input is a 4xx, never
a 5xx, and no error body echoes raw input. ``http_guard`` sits in front (body size, content
type, encoding, nesting). A missing or damaged index does not crash the process: ``/livez``
stays 200 while ``/readyz`` and every endpoint that needs the index answer 503 with the
reason and the rebuild command. What it does not do: any retrieval logic (see ``engine``).
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from .answer import answer_json
from .deps import NotReady, ready_engine
from .engine import Engine
from .errors import REBUILD, HakemError, IndexNotReady, UnknownGame
from .factsearch import search_facts
from .http_guard import RequestGuard
from .phrasing import fact_json
from .settings import MAX_K, MAX_QUESTION_CHARS, Settings
from .web import router as web_router

log = logging.getLogger("hakem.api")
DEFAULTS = Settings()  # for the description only; the running server uses its own settings
MAX_GAME_CHARS = 100

DESCRIPTION = f"""Offline rules assistant for board games (Turkish rule texts).

Limits: a question is 1–{MAX_QUESTION_CHARS} characters of text (no control
characters); `k` is 1–{MAX_K} (default `HAKEM_K`, {DEFAULTS.k}); request bodies are UTF-8 JSON
(`Content-Type: application/json`) of at most {DEFAULTS.max_body_bytes} bytes
(`HAKEM_MAX_BODY_BYTES`), nested at most {DEFAULTS.max_json_depth} levels
(`HAKEM_MAX_JSON_DEPTH`). Every error is a JSON body `{{"error": code, "message": ...}}`
(with `detail` for field errors): 400 `invalid_json` / `invalid_encoding`, 404
`unknown_game` / `not_found`, 413 `body_too_large`, 415 `unsupported_media_type`, 422
`invalid_request`, 503 `index_not_ready` (the message names the reason and the rebuild
command, `{REBUILD}`)."""


class ErrorBody(BaseModel):
    error: str  # a stable code: invalid_request, unknown_game, index_not_ready, ...
    message: str
    detail: list[dict[str, Any]] | None = None


# What the validator below accepts, for the schema: some non-space, no control characters.
_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
QUESTION_PATTERN = rf"^[^{_CONTROL}]*[^\s{_CONTROL}][^{_CONTROL}]*$"


def _is_bad_char(char: str) -> bool:
    return char not in "\t\n\r" and unicodedata.category(char) in {"Cc", "Cs"}


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    question: str = Field(min_length=1, max_length=MAX_QUESTION_CHARS,
                          description="the rules question, in Turkish or English",
                          json_schema_extra={"pattern": QUESTION_PATTERN})
    game: str | None = Field(default=None, max_length=MAX_GAME_CHARS,
                             description="a game id from /games; omitted: detected")
    k: int | None = Field(default=None, ge=1, le=MAX_K,
                          description="passages to return (default: the server's HAKEM_K)")

    @field_validator("k", mode="before")
    @classmethod
    def _whole_number(cls, value: Any) -> Any:  # JSON Schema's integer includes 5.0
        return int(value) if isinstance(value, float) and value.is_integer() else value

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is empty")
        if any(_is_bad_char(c) for c in value):
            raise ValueError("the question contains control characters or invalid text")
        return value.strip()


class Span(BaseModel):
    game: str
    start: int
    end: int


class Passage(BaseModel):
    id: str
    game: str
    section: str
    kind: str
    start: int
    end: int
    text: str
    score: float


class Applied(BaseModel):
    count: float
    value: float
    sentence: str


class FactOut(BaseModel):
    id: str
    game: str
    subject: str
    min: float | None
    max: float | None
    value: float | None
    unit: str
    effect: str
    section: str
    quote: str
    start: int
    end: int
    sentence: str
    score: float | None = None
    per: float | None = None  # a rate: `value` per `per` units of the subject
    rounding: str | None = None
    applied: Applied | None = None  # the rate worked out for the count the question states


class CalculationOut(BaseModel):
    """The rules' formula worked out for the question's numbers (``calc``)."""

    value: float | None  # None when a quantity is missing: the formula is given instead
    result: str  # the leading sentence: "6 zar: 1 temel + 5 hayatta kalan × 1 = 6"
    working: str
    missing: list[str]
    citations: list[Span]


class AskResponse(BaseModel):
    question: str
    game: str | None
    game_source: str
    abstained: bool
    answer: str
    answer_span: Span | None
    passages: list[Passage]
    facts: list[FactOut]
    calculation: CalculationOut | None = None


class GameOut(BaseModel):
    id: str
    name: str
    aliases: list[str]
    language: str


class LiveOut(BaseModel):
    status: str


class ReadyOut(BaseModel):
    status: str
    embedder: str
    index: str  # the build folder's name: which build is serving
    mode: str
    passages: int
    facts: int


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
        yield

    app = FastAPI(title="Hakem", version="0.1.0", lifespan=lifespan, description=DESCRIPTION,
                  responses={422: {"model": ErrorBody}})
    app.add_middleware(RequestGuard, max_body_bytes=settings.max_body_bytes,
                       max_depth=settings.max_json_depth)

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
        answer = await run_in_threadpool(eng.ask, body.question, body.game, body.k)
        return answer_json(answer)

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
        if q and q.strip():
            rows = [h.fact for h in search_facts(eng.index.facts, q, game, limit=limit,
                                                 glossary=eng.retriever.lexical.glossary)]
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
        return {"status": "ready", "embedder": str(eng.index.manifest.get("embedder")),
                "index": eng.index.path.name, "mode": eng.settings.mode,
                "passages": len(eng.index.chunks), "facts": len(eng.index.facts)}

    app.include_router(web_router)
    return app
