"""HTTP edges an attack found: HEAD, long static names, the shutdown timeout, /docs from a
CDN, undocumented error statuses on web routes, and a redirect built from the Host header."""

from __future__ import annotations

import asyncio
import json

import pytest
from fastapi.testclient import TestClient

from hakem.api import create_app
from hakem.http_guard import RequestGuard
from hakem.settings import Settings


@pytest.fixture
def client(tiny_built: Settings):
    with TestClient(create_app(tiny_built), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("url", ["/livez", "/readyz", "/games", "/facts?game=kale-oyunu", "/",
                                 "/static/style.css", "/openapi.json", "/faq/kale-oyunu",
                                 "/games/kale-oyunu/text?start=0&end=5"])
def test_head_answers_every_get_route_without_a_body(client, url):
    got, head = client.get(url), client.head(url)
    assert got.status_code == 200 and head.status_code == 200, head.text
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"]
    assert int(head.headers["content-length"]) == len(got.content)


def test_head_on_a_post_route_is_a_typed_405(client):
    r = client.head("/ask")
    assert r.status_code == 405 and "POST" in r.headers["allow"] and r.content == b""


def test_head_of_an_error_keeps_its_status(client):
    assert client.head("/faq/no-such-game").status_code == 404


@pytest.mark.parametrize("length", [255, 256, 300, 5000])
def test_a_long_static_name_is_404_not_500(client, length):
    r = client.get("/static/" + "a" * length + ".css")
    assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_docs_pages_are_off_and_nothing_loads_from_a_cdn(client):
    for url in ("/docs", "/redoc", "/docs/oauth2-redirect"):
        assert client.get(url).status_code == 404
    assert client.get("/openapi.json").status_code == 200
    assert "cdn" not in client.get("/").text.casefold()


def test_openapi_declares_the_errors_of_web_routes(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/teach/{game}", "/api/faq/{game}", "/api/places/{game}", "/suggest",
                 "/games/{game}/text"):
        declared = set(paths[path]["get"]["responses"])
        assert {"400", "404", "422", "503"} <= declared, (path, declared)
    assert {"404", "503"} <= set(paths["/facts"]["get"]["responses"])
    assert "503" in paths["/readyz"]["get"]["responses"]


def test_no_redirect_reflects_the_host_header(client):
    for url in ("/games/", "/facts/", "/livez/"):
        r = client.get(url, headers={"host": "evil.example"}, follow_redirects=False)
        assert "evil.example" not in r.headers.get("location", "")
        assert r.status_code == 404 and r.json()["error"] == "not_found"


def test_a_request_cancelled_at_the_shutdown_timeout_gets_a_json_503():
    """What uvicorn does when ``timeout_graceful_shutdown`` ends: cancel the request's task."""
    started = asyncio.Event()

    async def slow_app(scope, receive, send):
        started.set()
        await asyncio.sleep(60)

    async def run() -> list[dict]:
        sent: list[dict] = []

        async def receive():
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "GET", "path": "/ask", "headers": []}
        task = asyncio.create_task(RequestGuard(slow_app)(scope, receive, send))
        await started.wait()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return sent

    sent = asyncio.run(run())
    start, body = sent
    assert start["status"] == 503
    headers = dict(start["headers"])
    assert headers[b"content-type"] == b"application/json" and b"retry-after" in headers
    assert json.loads(body["body"])["error"] == "shutting_down"
