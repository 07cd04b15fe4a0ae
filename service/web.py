"""The web page and its JSON helpers: teaching mode, FAQ, suggestions, citations in context.

What it does: serves the single page (``/`` and ``/teach/{game}``, plain HTML/CSS/JS from
``static/``, no CDN, a Content-Security-Policy allowing only the app's own files), the JSON
routes the page needs beyond ``/ask`` and ``/games`` (``/api/teach/{game}`` the lesson,
``/api/faq/{game}``, ``/api/places/{game}`` the readable place of every paragraph,
``/suggest``, ``/games/{game}/text``), and script-free HTML pages: the FAQ
(``/faq/{game}``) and a whole section with a cited range marked (``/games/{game}/view``).
Errors are raised as domain errors
(``UnknownGame`` → 404, ``NotReady`` → 503, ``BadRange`` → 400) so ``api`` maps them to
its one JSON error shape. What it does not do: answering questions (``/ask`` is in ``api``)
or building the steps and entries (``teach``).
"""

from __future__ import annotations

import html
import re
from dataclasses import asdict
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse

from .corpus import Game
from .deps import ready_engine
from .engine import Engine
from .errors import HakemError
from .lesson import build_lesson
from .places import paragraph_at, sentences
from .teach import context, faq_entries, game_chunks, search_faq, section_range, suggestions

STATIC = Path(__file__).parent / "static"
# Only the app's own files: no inline script, no CDN, nothing fetched from elsewhere.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
HTML_HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer", "Cache-Control": "no-cache"}
_STATIC_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*\.(css|js|svg)$")
_MEDIA = {"css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
          "svg": "image/svg+xml"}
MAX_QUERY = 500

# Routes that compute (teaching steps, FAQ search, context) are plain ``def``: FastAPI runs
# them in its thread pool, so they never hold the event loop that /livez answers on.
router = APIRouter()


class BadRange(HakemError):
    """Offsets that are not a range of the game's text."""

    code = "bad_range"


def _game(eng: Engine, game: str) -> Game:
    eng.check_game(game)  # UnknownGame → 404 with the list of known games
    return eng.corpus.game(game)


def _check_range(game: Game, start: int, end: int) -> None:
    size = len(game.text)
    if start < 0 or end < 0:
        raise BadRange(f"offsets must not be negative (start {start}, end {end})")
    if start >= end:
        raise BadRange(f"start {start} must be before end {end}")
    if end > size:
        raise BadRange(f"end {end} is past the end of {game.id} ({size} characters)")


@cache
def _page() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8")


@router.get("/", include_in_schema=False)
async def index() -> HTMLResponse:
    return HTMLResponse(_page(), headers=HTML_HEADERS)


@router.get("/teach/{game}", include_in_schema=False)
def teach_page(game: str, request: Request) -> HTMLResponse:
    # Without an index the page still loads and shows the 503 reason from its API calls.
    if getattr(request.app.state, "engine", None) is not None:
        _game(ready_engine(request), game)
    return HTMLResponse(_page(), headers=HTML_HEADERS)


@router.get("/static/{name}", include_in_schema=False)
async def static(name: str) -> FileResponse:
    # A fixed folder and a strict name pattern: no path ever leaves static/.
    match = _STATIC_NAME.match(name) if len(name) <= 64 else None  # a long name: ENAMETOOLONG
    path = STATIC / name
    if not match or not path.is_file():
        raise HTTPException(404, f"no static file {name!r}")
    return FileResponse(path, media_type=_MEDIA[match.group(1)],
                        headers={"X-Content-Type-Options": "nosniff",
                                 "Cache-Control": "no-cache"})


@router.get("/api/teach/{game}")
def teach_json(game: str, request: Request,
                     players: Annotated[int | None, Query(ge=1, le=10)] = None) -> dict[str, Any]:
    """The lesson of a game: about, components, setup for ``players``, turn, end, scoring and
    the most common mistakes; every item a cited rule sentence."""
    eng = ready_engine(request)
    g = _game(eng, game)
    lesson = build_lesson(game, g.name, g.text, eng.index.chunks, eng.index.facts, players)
    return asdict(lesson)


@router.get("/api/places/{game}")
def places(game: str, request: Request) -> dict[str, Any]:
    """Every paragraph of a game as a readable place ("Kurulum bölümü, 3. paragraf"), so a
    client can name where a cited range stands instead of showing character offsets."""
    eng = ready_engine(request)
    g = _game(eng, game)
    seen: dict[tuple[str, int], list[int]] = {}
    for s in sentences(g.text, game_chunks(eng.index.chunks, game)):
        span = seen.setdefault((s.section, s.paragraph), [s.start, s.end])
        span[1] = s.end
    return {"game": game, "name": g.name, "paragraphs": [
        {"section": sec, "paragraph": n, "start": a, "end": b,
         "where": paragraph_at(sec, n, g.name)} for (sec, n), (a, b) in seen.items()]}


def _faq(eng: Engine, game: str, q: str | None) -> tuple[Game, str, list[dict[str, Any]]]:
    g = _game(eng, game)
    entries = faq_entries(game, eng.index.chunks)
    query = (q or "").strip()[:MAX_QUERY]
    if query:
        entries = search_faq(entries, query)
    return g, query, [asdict(e) for e in entries]


@router.get("/api/faq/{game}")
def faq_json(game: str, request: Request, q: str | None = None) -> dict[str, Any]:
    """The FAQ answers of a game, each with a title cut from its own text; ``q`` filters."""
    g, query, entries = _faq(ready_engine(request), game, q)
    return {"game": game, "name": g.name, "q": query, "entries": entries}


@router.get("/faq/{game}", include_in_schema=False)
def faq_page(game: str, request: Request, q: str | None = None) -> HTMLResponse:
    """The FAQ as a page a browser shows: each answer under its title, with its place."""
    g, query, entries = _faq(ready_engine(request), game, q)
    esc = html.escape
    items = "".join(
        f'<li><details><summary>{esc(e["verdict"]) + " — " if e["verdict"] else ""}'
        f'{esc(e["title"])}</summary><div class="faq-body"><p class="passage">{esc(e["text"])}'
        f'</p><a href="/games/{esc(game)}/view?start={e["start"]}&amp;end={e["end"]}#alinti">'
        f"Bağlamında aç</a></div></details></li>" for e in entries)
    count = f"“{esc(query)}” için {len(entries)} cevap" if query else f"{len(entries)} cevap"
    body = (f'<p class="crumbs"><a href="/">← Hakem</a> · {esc(g.name)}</p>'
            f"<h1>{esc(g.name)}: sık sorulan sorular</h1>"
            f'<form action="/faq/{esc(game)}"><input type="search" name="q" maxlength="500" '
            f'value="{esc(query)}" placeholder="SSS içinde ara" aria-label="SSS içinde ara">'
            f'</form><p class="where">{count}</p><ul class="faq-list">{items}</ul>')
    return HTMLResponse(_html(f"SSS · {g.name}", body), headers=HTML_HEADERS)


def _html(title: str, body: str) -> str:
    esc = html.escape
    return (f'<!doctype html><html lang="tr"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(title)} · Hakem</title>"
            f'<link rel="stylesheet" href="/static/style.css">'
            f'<link rel="icon" href="/static/icon.svg"></head>'
            f'<body><main class="view">{body}</main></body></html>')


@router.get("/suggest")
def suggest(request: Request, game: str, section: str = "", near: int | None = None,
                  exclude: Annotated[list[int] | None, Query()] = None) -> dict[str, Any]:
    """Follow-ups from the same section: its other headings or passages' first words."""
    eng = ready_engine(request)
    _game(eng, game)
    found = suggestions(game, eng.index.chunks, section[:MAX_QUERY], near,
                        frozenset(exclude or ()))
    return {"game": game, "section": section, "suggestions": [asdict(s) for s in found]}


@router.get("/games/{game}/text")
def text_in_context(game: str, start: int, end: int, request: Request) -> dict[str, Any]:
    """A cited range with the rule text around it (``before`` + ``passage`` + ``after``)."""
    eng = ready_engine(request)
    g = _game(eng, game)
    _check_range(g, start, end)
    ctx = context(g.text, eng.index.chunks, game, start, end)
    return {"name": g.name, **asdict(ctx)}


@router.get("/games/{game}/view", include_in_schema=False)
def view(game: str, start: int, end: int, request: Request) -> HTMLResponse:
    """The whole section holding a cited range, the range marked: readable without JS."""
    eng = ready_engine(request)
    g = _game(eng, game)
    _check_range(g, start, end)
    section, s, e = section_range(eng.index.chunks, game, start, end)
    esc = html.escape
    body = (f'<p class="crumbs"><a href="/">← Hakem</a> · {esc(g.name)}</p>'
            f"<h1>{esc(section or g.name)}</h1>"
            f'<p class="where">Alıntı: {esc(g.name)}, {esc(_place(eng, g, start))}</p>'
            f'<div class="section-text">{esc(g.text[s:start])}<mark id="alinti">'
            f"{esc(g.text[start:end])}</mark>{esc(g.text[end:e])}</div>")
    return HTMLResponse(_html(f"{section or g.name} · {g.name}", body), headers=HTML_HEADERS)


def _place(eng: Engine, g: Game, offset: int) -> str:
    for s in sentences(g.text, game_chunks(eng.index.chunks, g.id)):
        if s.start <= offset < s.end or offset < s.start:
            return paragraph_at(s.section, s.paragraph, g.name)
    return g.name
