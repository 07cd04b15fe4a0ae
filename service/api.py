"""The HTTP API (FastAPI): /ask, /games, /facts, /livez, /readyz.

What it does: validates requests with pydantic (the only place pydantic is used), loads the
engine once in ``lifespan``, and maps the domain errors to HTTP statuses in one place. A
missing or damaged index does not crash the process: ``/livez`` stays 200 while ``/readyz``
and ``/ask`` answer 503 with the reason and the rebuild command. What it does not do: any
retrieval logic (see ``engine``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from .cli import answer_json
from .engine import Engine
from .errors import HakemError, IndexNotReady, UnknownGame
from .facts import fact_sentence
from .factsearch import search_facts
from .settings import Settings
from .web import router as web_router


class ErrorBody(BaseModel):
    error: str  # a stable code: invalid_request, unknown_game, index_not_ready, ...
    message: str
    detail: list[dict[str, Any]] | None = None


class AskRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    question: str = Field(min_length=1, max_length=500)
    game: str | None = None
    k: int = Field(default=5, ge=1, le=20)

    @field_validator("question")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("the question is empty")
        if any(ord(c) < 32 and c not in "\t\n\r" for c in value):
            raise ValueError("the question contains control characters")
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


class AskResponse(BaseModel):
    question: str
    game: str | None
    game_source: str
    abstained: bool
    answer: str
    answer_span: Span | None
    passages: list[Passage]
    facts: list[FactOut]


class GameOut(BaseModel):
    id: str
    name: str
    aliases: list[str]
    language: str


def _error(status: int, code: str, message: str,
           detail: list[dict[str, Any]] | None = None) -> JSONResponse:
    return JSONResponse(status_code=status,
                        content=ErrorBody(error=code, message=message, detail=detail).model_dump(
                            exclude_none=True))


def create_app(settings: Settings | None = None, engine: Engine | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.engine, app.state.not_ready = engine, None
        if engine is None:
            try:
                app.state.engine = Engine.load(settings)
            except HakemError as exc:  # stay alive and say why in /readyz
                app.state.not_ready = str(exc)
        yield

    app = FastAPI(title="Hakem", version="0.1.0", lifespan=lifespan,
                  description="Offline rules assistant for board games (Turkish rule texts).",
                  responses={422: {"model": ErrorBody}, 503: {"model": ErrorBody}})

    def ready_engine(request: Request) -> Engine:
        eng = getattr(request.app.state, "engine", None)
        if eng is None:
            reason = getattr(request.app.state, "not_ready", None) or "index not loaded"
            raise IndexNotReady(reason.split(". Rebuild it with")[0])
        return eng

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        # Echo where and what, never the raw input (it may be huge or not text at all).
        detail = [{"loc": [str(p) for p in e.get("loc", ())], "msg": str(e.get("msg", "")),
                   "type": str(e.get("type", ""))} for e in exc.errors()]
        return _error(422, "invalid_request", "the request is not valid", detail)

    @app.exception_handler(UnknownGame)
    async def _unknown_game(_: Request, exc: UnknownGame) -> JSONResponse:
        return _error(404, exc.code, str(exc))

    @app.exception_handler(IndexNotReady)
    async def _not_ready(_: Request, exc: IndexNotReady) -> JSONResponse:
        return _error(503, exc.code, str(exc))

    @app.exception_handler(HakemError)
    async def _hakem(_: Request, exc: HakemError) -> JSONResponse:
        return _error(400, exc.code, str(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return _error(exc.status_code, code, str(exc.detail))

    @app.post("/ask", response_model=AskResponse, responses={404: {"model": ErrorBody}})
    async def ask(body: AskRequest, request: Request) -> dict[str, Any]:
        eng = ready_engine(request)
        eng.check_game(body.game)
        answer = await run_in_threadpool(eng.ask, body.question, body.game, body.k)
        return answer_json(answer)

    @app.get("/games", response_model=list[GameOut])
    async def games(request: Request) -> list[dict[str, Any]]:
        eng = ready_engine(request)
        return [{"id": g.id, "name": g.name, "aliases": list(g.aliases),
                 "language": g.language} for g in eng.corpus.games]

    @app.get("/facts", response_model=list[FactOut], responses={404: {"model": ErrorBody}})
    async def facts(request: Request, game: str | None = None, q: str | None = None,
                    limit: int = 50) -> list[dict[str, Any]]:
        eng = ready_engine(request)
        eng.check_game(game)
        limit = max(1, min(limit, 500))
        if q and q.strip():
            rows = [h.fact for h in search_facts(eng.index.facts, q[:500], game, limit=limit)]
        else:
            rows = [f for f in eng.index.facts if game is None or f.game == game][:limit]
        return [{"id": f.id, "game": f.game, "subject": f.subject, "min": f.min, "max": f.max,
                 "value": f.value, "unit": f.unit, "effect": f.effect, "section": f.section,
                 "quote": f.quote, "start": f.start, "end": f.end,
                 "sentence": fact_sentence(f)} for f in rows]

    @app.get("/livez")
    async def livez() -> dict[str, str]:
        return {"status": "alive"}

    @app.get("/readyz", responses={503: {"model": ErrorBody}})
    async def readyz(request: Request) -> Any:
        eng = ready_engine(request)
        return {"status": "ready", "embedder": eng.index.manifest.get("embedder"),
                "passages": len(eng.index.chunks), "facts": len(eng.index.facts)}

    app.include_router(web_router)
    return app
