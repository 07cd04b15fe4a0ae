"""The HTTP API on the tiny corpus: answers, and every kind of bad input gets a typed 4xx.

Each error body is ``{"error": code, "message": ...}`` (``detail`` for field errors), never a
5xx, never a traceback, and never an echo of what the client sent.
"""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from hakem.api import create_app
from hakem.settings import Settings

MARK = "SENTINEL7Q"  # put in bad inputs; must never come back in an error body


@pytest.fixture
def client(tiny_built: Settings):
    with TestClient(create_app(tiny_built), raise_server_exceptions=False) as c:
        yield c


def _typed(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["error"] == code and body["message"]
    assert set(body) <= {"error", "message", "detail"}
    assert MARK not in response.text and "Traceback" not in response.text
    return body


def test_ask_answers_with_cited_passages(client, tiny_built):
    r = client.post("/ask", json={"question": "  kale kaç puan kazandırır?  ", "k": 3})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["question"] == "kale kaç puan kazandırır?"
    assert body["game"] == "kale-oyunu" and not body["abstained"]
    assert body["hedged"] is False  # the tiny corpus's model has no hedge band
    assert 1 <= len(body["passages"]) <= 3
    text = (tiny_built.corpus_dir / "kale-oyunu.txt").read_bytes().decode("utf-8")
    for p in body["passages"]:
        assert text[p["start"] : p["end"]] == p["text"]


def test_readyz_livez_and_games(client):
    ready = client.get("/readyz").json()
    assert ready["status"] == "ready" and ready["embedder"] == "fake:64"
    assert ready["index"] and ready["passages"] > 0 and ready["mode"] == "hybrid"
    assert client.get("/livez").json() == {"status": "alive"}
    assert {g["id"] for g in client.get("/games").json()} == {"kale-oyunu", "zar-savasi"}


@pytest.mark.parametrize(("body", "status", "code"), [
    ({"question": ""}, 422, "invalid_request"),
    ({"question": "   \n\t "}, 422, "invalid_request"),
    ({"question": MARK + "a" * 500}, 422, "invalid_request"),
    ({"question": MARK + "\x00 kale"}, 422, "invalid_request"),
    ({"question": MARK + "\x1b[31m kale"}, 422, "invalid_request"),
    ({"question": MARK + "\x85 kale"}, 422, "invalid_request"),
    ({"question": 5}, 422, "invalid_request"),
    ({"question": ["kale"]}, 422, "invalid_request"),
    ({"question": None}, 422, "invalid_request"),
    ({"question": "kale", "k": "5"}, 422, "invalid_request"),
    ({"question": "kale", "k": True}, 422, "invalid_request"),
    ({"question": "kale", "k": 0}, 422, "invalid_request"),
    ({"question": "kale", "k": 21}, 422, "invalid_request"),
    ({"question": "kale", "k": 2.5}, 422, "invalid_request"),
    ({"question": "kale", "k": 10**30}, 422, "invalid_request"),
    ({"question": "kale", "game": 3}, 422, "invalid_request"),
    ({"question": "kale", "game": MARK * 20}, 422, "invalid_request"),
    ({"question": "kale", "game": MARK}, 404, "unknown_game"),
    ({"question": "kale", "game": ""}, 404, "unknown_game"),
    ({"question": "kale", MARK: 1}, 422, "invalid_request"),
    ({}, 422, "invalid_request"),
    ([MARK], 422, "invalid_request"),
    (MARK, 422, "invalid_request"),
], ids=lambda v: repr(v)[:30])
def test_bad_json_bodies_get_typed_4xx(client, body, status, code):
    out = _typed(client.post("/ask", json=body), status, code)
    if status == 422:
        assert out["detail"] and all({"loc", "msg", "type"} == set(d) for d in out["detail"])


def test_unknown_field_is_named_but_not_echoed_in_full(client):
    body = _typed(client.post("/ask", json={"question": "kale", "x" * 5000: 1}), 422,
                  "invalid_request")
    assert len(json.dumps(body)) < 1000


def test_whole_number_float_k_is_accepted(client):
    assert client.post("/ask", json={"question": "kale puan", "k": 2.0}).status_code == 200


@pytest.mark.parametrize(("raw", "status", "code"), [
    (b'{"question": "kale ' + MARK.encode() + b' \xff\xfe"}', 400, "invalid_encoding"),
    (b'\xef\xbb\xbf{"question": "\xc3\x28"}', 400, "invalid_encoding"),
    (b'{"question": "' + MARK.encode() + b'", ', 400, "invalid_json"),
    (b'{"question": ' + MARK.encode() + b"}", 400, "invalid_json"),
    (b"[" * 5000 + b"]" * 5000, 400, "invalid_json"),
    (b'{"a":' * 40 + b"1" + b"}" * 40, 400, "invalid_json"),
    (b'{"question": "kale", "question": 5}', 422, "invalid_request"),
    (b"null", 422, "invalid_request"),
    (b"", 422, "invalid_request"),
], ids=["latin1", "bad-utf8", "truncated", "bare-word", "nested-list", "nested-obj",
        "duplicate-key", "null", "empty"])
def test_malformed_bodies_get_typed_4xx(client, raw, status, code):
    _typed(client.post("/ask", content=raw, headers={"content-type": "application/json"}),
           status, code)


def test_brackets_inside_strings_do_not_count_as_nesting(client):
    question = "kale " + "[{" * 40
    r = client.post("/ask", json={"question": question})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("content_type", [
    "application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x", None])
def test_wrong_content_type_is_415(client, content_type):
    headers = {"content-type": content_type} if content_type else {}
    r = client.post("/ask", content=b'{"question": "kale"}', headers=headers)
    _typed(r, 415, "unsupported_media_type")


def test_json_content_type_with_charset_is_fine(client):
    r = client.post("/ask", content=json.dumps({"question": "kale puan"}).encode(),
                    headers={"content-type": "application/json; charset=utf-8"})
    assert r.status_code == 200


def test_body_over_the_limit_is_413_by_content_length(client):
    big = json.dumps({"question": MARK, "pad": "x" * 20_000})
    _typed(client.post("/ask", content=big, headers={"content-type": "application/json"}),
           413, "body_too_large")


def test_streamed_body_over_the_limit_is_413_without_content_length(client):
    sent = []

    def chunks():
        for _ in range(100):  # 100 x 1 KiB, chunked: no Content-Length to trust
            sent.append(1)
            yield b" " * 1024

    r = client.post("/ask", content=chunks(), headers={"content-type": "application/json"})
    _typed(r, 413, "body_too_large")
    assert "content-length" not in {k.lower() for k in r.request.headers}


def test_small_streamed_body_is_accepted(client):
    def chunks():
        yield b'{"question": '
        yield b'"kale puan"}'

    r = client.post("/ask", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 200, r.text


def test_limit_is_a_setting(tiny_built):
    from dataclasses import replace

    app = create_app(replace(tiny_built, max_body_bytes=64))
    with TestClient(app) as c:
        _typed(c.post("/ask", json={"question": "kale " * 20}), 413, "body_too_large")
        assert c.post("/ask", json={"question": "kale"}).status_code == 200


def test_bad_content_length_header(client):
    r = client.post("/ask", content=b'{"question": "kale"}',
                    headers={"content-type": "application/json", "content-length": "-3"})
    assert 400 <= r.status_code < 500


@pytest.mark.parametrize(("url", "status", "code"), [
    ("/facts?limit=abc", 422, "invalid_request"),
    ("/facts?limit=0", 422, "invalid_request"),
    ("/facts?limit=100000", 422, "invalid_request"),
    (f"/facts?game={MARK}", 404, "unknown_game"),
    (f"/facts?q={MARK * 60}", 422, "invalid_request"),
    (f"/{MARK}", 404, "not_found"),
])
def test_bad_queries_and_routes(client, url, status, code):
    _typed(client.get(url), status, code)


def test_facts_search_with_odd_text(client):
    for q in ["%00", "\u0130\u0131", "...", "5", "%E2%80%AE", "kale"]:
        assert client.get(f"/facts?q={q}").status_code == 200


def test_wrong_method_is_typed_405(client):
    r = client.get("/ask")
    _typed(r, 405, "method_not_allowed")
    assert "POST" in r.headers.get("allow", "")


def test_internal_error_is_a_typed_500_without_details(client, monkeypatch):
    def boom(*_a, **_k):
        raise RuntimeError(MARK + " secret internals")

    monkeypatch.setattr(client.app.state.engine, "ask", boom)
    _typed(client.post("/ask", json={"question": "kale"}), 500, "internal_error")


def test_openapi_documents_limits_and_error_shape(client):
    spec = client.get("/openapi.json").json()
    assert "500 characters" in spec["info"]["description"].replace("1–500", "500")
    ask = spec["paths"]["/ask"]["post"]
    assert {"400", "404", "413", "415", "422", "503"} <= set(ask["responses"])
    schema = spec["components"]["schemas"]["AskRequest"]
    assert schema["properties"]["question"]["maxLength"] == 500
    assert schema["additionalProperties"] is False


def test_default_k_comes_from_the_server_settings(tiny_built):
    from dataclasses import replace

    from hakem.engine import Engine

    settings = replace(tiny_built, k=2)
    with TestClient(create_app(settings, engine=Engine.load(settings))) as client:
        body = client.post("/ask", json={"question": "kale kaç puan"}).json()
    assert len(body["passages"]) == 2
