"""The page and its JSON routes on the tiny corpus (FastAPI TestClient, fake embedder)."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from hakem.api import create_app
from hakem.settings import Settings


@pytest.fixture
def client(tiny_engine):
    with TestClient(create_app(tiny_engine.settings, engine=tiny_engine)) as c:
        yield c


@pytest.fixture
def no_index_client(tmp_path, tiny_corpus_dir):
    settings = Settings(corpus_dir=tiny_corpus_dir, index_dir=tmp_path / "none",
                        embedder="fake")
    with TestClient(create_app(settings)) as c:
        yield c


def _error(resp, status, code):
    assert resp.status_code == status, resp.text
    body = resp.json()
    assert body["error"] == code and body["message"]
    return body


def test_page_is_turkish_mobile_and_self_contained(client):
    resp = client.get("/")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/html")
    page = resp.text
    assert '<html lang="tr">' in page and 'name="viewport"' in page
    csp = resp.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp
    # Only the app's own files: no inline script, no other host.
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert scripts and all('src="/static/' in attrs and not body.strip()
                           for attrs, body in scripts)
    assert "http://" not in page and "https://" not in page
    for name in re.findall(r'(?:href|src)="(/static/[^"]+)"', page):
        assert client.get(name).status_code == 200, name


def test_static_files_and_their_types(client):
    assert client.get("/static/app.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/static/style.css").headers["content-type"].startswith("text/css")
    js = client.get("/static/app.js").text
    assert ".innerHTML" not in js and "http" not in js.replace("HTTP ", "")
    css = client.get("/static/style.css").text
    assert "font-size: 1rem" in css and "min-height: 48px" in css  # no zoom, big taps
    _error(client.get("/static/nope.js"), 404, "not_found")
    _error(client.get("/static/..%2Fapi.py"), 404, "not_found")
    _error(client.get("/static/api.py"), 404, "not_found")


def test_teach_page_and_json(client):
    assert client.get("/teach/kale-oyunu").status_code == 200
    _error(client.get("/teach/satranc"), 404, "unknown_game")
    data = client.get("/api/teach/kale-oyunu").json()
    assert data["name"] == "Kale Oyunu"
    stages = [s["stage"] for s in data["steps"]]
    assert stages == ["about", "components", "scoring", "faq"]  # empty setup skipped
    first = data["steps"][0]
    assert first["title"] == "Oyun nedir?" and first["index"] == 1
    p = first["passages"][0]
    assert set(p) >= {"game", "start", "end", "section", "text"}
    assert p["text"].startswith("Kale Oyunu, 2-4 oyuncunun")
    _error(client.get("/api/teach/satranc"), 404, "unknown_game")


def test_faq_listing_and_search(client):
    data = client.get("/faq/kale-oyunu").json()
    assert len(data["entries"]) == 1
    entry = data["entries"][0]
    assert entry["verdict"] == "Evet"
    assert entry["title"] == "Bir kaleyi kaybettiğinizde kale parçanızı geri alırsınız…"
    assert client.get("/faq/kale-oyunu", params={"q": "kale parçası"}).json()["entries"]
    assert client.get("/faq/kale-oyunu", params={"q": "uzay gemisi"}).json()["entries"] == []
    zar = client.get("/faq/zar-savasi").json()["entries"]
    assert zar[0]["verdict"] == "Hayır" and zar[0]["title"] == "Zarlar yeniden atılamaz"
    _error(client.get("/faq/satranc"), 404, "unknown_game")


def test_suggest(client):
    kale = client.get("/api/teach/kale-oyunu").json()["steps"][1]["passages"]
    castle = kale[0]
    resp = client.get("/suggest", params={"game": "kale-oyunu", "section": castle["section"],
                                          "near": castle["start"],
                                          "exclude": [castle["start"]]})
    labels = [s["label"] for s in resp.json()["suggestions"]]
    assert labels == ["Zar (Die)"]
    _error(client.get("/suggest", params={"game": "satranc"}), 404, "unknown_game")
    _error(client.get("/suggest"), 422, "invalid_request")


def test_text_in_context_and_bad_offsets(client, tiny_engine):
    text = tiny_engine.corpus.game("kale-oyunu").text
    start = text.index("Oyuncu başına 6 adet")
    end = text.index("3 puan kazandırır.") + len("3 puan kazandırır.")
    data = client.get("/games/kale-oyunu/text", params={"start": start, "end": end}).json()
    assert data["passage"] == text[start:end]
    assert data["before"] + data["passage"] + data["after"] == text[
        data["context_start"] : data["context_end"]]
    assert data["section"].startswith("Bileşenler") and data["name"] == "Kale Oyunu"
    size = len(text)
    for params in ({"start": 10, "end": 5}, {"start": -1, "end": 5},
                   {"start": 0, "end": size + 1}, {"start": 5, "end": 5}):
        _error(client.get("/games/kale-oyunu/text", params=params), 400, "bad_range")
        _error(client.get("/games/kale-oyunu/view", params=params), 400, "bad_range")
    _error(client.get("/games/kale-oyunu/text", params={"start": "a", "end": 5}), 422,
           "invalid_request")
    _error(client.get("/games/kale-oyunu/text"), 422, "invalid_request")
    _error(client.get("/games/satranc/text", params={"start": 0, "end": 5}), 404,
           "unknown_game")


def test_section_view_page_marks_the_passage(client, tiny_engine):
    text = tiny_engine.corpus.game("kale-oyunu").text
    start = text.index("İki adet")
    resp = client.get("/games/kale-oyunu/view", params={"start": start, "end": start + 8})
    assert resp.status_code == 200 and "script-src 'self'" in resp.headers[
        "content-security-policy"]
    assert '<mark id="alinti">İki adet</mark>' in resp.text
    assert "Oyuncu başına 6 adet" in resp.text  # the rest of the section is shown too
    assert "<script" not in resp.text


def test_ask_contract_the_page_relies_on(client):
    data = client.post("/ask", json={"question": "Kale Oyunu'nda her kale kaç puan?",
                                     "game": None, "k": 5}).json()
    assert data["game"] == "kale-oyunu" and data["game_source"] == "name"
    span, passages = data["answer_span"], data["passages"]
    assert any(p["start"] <= span["start"] < span["end"] <= p["end"] for p in passages)
    assert all(f["sentence"] and f["start"] < f["end"] for f in data["facts"])


def test_without_index_page_loads_and_routes_say_503(no_index_client):
    assert no_index_client.get("/").status_code == 200
    assert no_index_client.get("/teach/kale-oyunu").status_code == 200
    assert no_index_client.get("/static/app.js").status_code == 200
    for path in ("/api/teach/kale-oyunu", "/faq/kale-oyunu",
                 "/suggest?game=kale-oyunu", "/games/kale-oyunu/text?start=0&end=3",
                 "/games/kale-oyunu/view?start=0&end=3"):
        body = _error(no_index_client.get(path), 503, "index_not_ready")
        assert "hakem build" in body["message"]
