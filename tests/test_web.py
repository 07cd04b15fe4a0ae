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


def test_teach_page_and_lesson_json(client):
    assert client.get("/teach/kale-oyunu").status_code == 200
    _error(client.get("/teach/satranc"), 404, "unknown_game")
    data = client.get("/api/teach/kale-oyunu").json()
    assert data["name"] == "Kale Oyunu" and data["player_range"] == [2, 4]
    assert [p["key"] for p in data["parts"]] == [
        "about", "components", "setup", "turn", "end", "scoring", "mistakes"]
    about = data["parts"][0]
    assert about["title"] == "Oyun nedir, nasıl kazanılır?"
    item = about["items"][0]
    assert set(item) >= {"game", "start", "end", "section", "where", "text"}
    assert item["text"].startswith("Kale Oyunu, 2-4 oyuncunun")
    assert item["where"] == "Oyun Hakkında bölümü, 1. paragraf"
    turn = data["parts"][3]
    assert turn["items"] == [] and turn["note"]  # the tiny text has no turn: said, not faked
    setup2 = client.get("/api/teach/kale-oyunu", params={"players": 2}).json()["parts"][2]
    setup3 = client.get("/api/teach/kale-oyunu", params={"players": 3}).json()["parts"][2]
    assert [i["text"] for i in setup2["items"]] == [
        "2 oyunculu oyunda her oyuncu 12 karo ile başlar."]
    assert setup3["items"] == []
    _error(client.get("/api/teach/kale-oyunu", params={"players": 0}), 422, "invalid_request")
    _error(client.get("/api/teach/satranc"), 404, "unknown_game")


def test_places_name_paragraphs(client, tiny_engine):
    data = client.get("/api/places/kale-oyunu").json()
    text = tiny_engine.corpus.game("kale-oyunu").text
    where = {p["where"] for p in data["paragraphs"]}
    assert {"Oyun Hakkında bölümü, 1. paragraf", "Bileşenler bölümü, 2. paragraf"} <= where
    for p in data["paragraphs"]:
        assert "\n" not in text[p["start"]:p["end"]]
    _error(client.get("/api/places/satranc"), 404, "unknown_game")


def test_faq_json_and_page(client):
    data = client.get("/api/faq/kale-oyunu").json()
    assert len(data["entries"]) == 1
    entry = data["entries"][0]
    assert entry["verdict"] == "Evet"
    assert entry["title"] == "Bir kaleyi kaybettiğinizde kale parçanızı geri alırsınız…"
    assert client.get("/api/faq/kale-oyunu", params={"q": "kale parçası"}).json()["entries"]
    assert client.get("/api/faq/kale-oyunu", params={"q": "uzay gemisi"}).json()[
        "entries"] == []
    zar = client.get("/api/faq/zar-savasi").json()["entries"]
    assert zar[0]["verdict"] == "Hayır" and zar[0]["title"] == "Zarlar yeniden atılamaz"
    _error(client.get("/api/faq/satranc"), 404, "unknown_game")
    # In a browser /faq/{game} is a page: titles as summaries, no script, no raw JSON.
    page = client.get("/faq/zar-savasi")
    assert page.headers["content-type"].startswith("text/html")
    assert "<summary>Hayır — Zarlar yeniden atılamaz</summary>" in page.text
    assert "<script" not in page.text and '"entries"' not in page.text
    searched = client.get("/faq/zar-savasi", params={"q": "<b>uzay</b>"}).text
    assert "0 cevap" in searched and "<b>uzay</b>" not in searched  # escaped
    _error(client.get("/faq/satranc"), 404, "unknown_game")


def test_suggest_offers_whole_questions(client, tiny_engine):
    chunks = [c for c in tiny_engine.index.chunks if c.game == "kale-oyunu"]
    castle = next(c for c in chunks if c.heading.startswith("Kale Parçası"))
    resp = client.get("/suggest", params={"game": "kale-oyunu", "section": castle.section,
                                          "near": castle.start, "exclude": [castle.start]})
    assert [s["label"] for s in resp.json()["suggestions"]] == ["Zar nasıl işler?"]
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
    assert data["requested_game"] is None


def test_the_game_named_in_the_question_wins_over_the_picked_one(client):
    data = client.post("/ask", json={"question": "Kale Oyunu'nda her kale kaç puan?",
                                     "game": "zar-savasi"}).json()
    assert data["game"] == "kale-oyunu" and data["game_source"] == "name"
    assert data["requested_game"] == "zar-savasi"
    assert all(p["game"] == "kale-oyunu" for p in data["passages"])
    same = client.post("/ask", json={"question": "her kale kaç puan?",
                                     "game": "kale-oyunu"}).json()
    assert same["game_source"] == "request" and same["requested_game"] is None


def test_setup_question_and_its_follow_up_through_the_api(client):
    three = client.post("/ask", json={"question": "Kale Oyunu 3 kişi kurulum"}).json()
    assert three["game"] == "kale-oyunu"
    two = client.post("/ask", json={"question": "peki 2 kişiysek?",
                                    "context": three["question"]}).json()
    assert two["question"] == "Kale Oyunu 2 kişi kurulum" and two["game"] == "kale-oyunu"
    assert "2 oyuncu" in two["answer"] and "12 karo" in two["answer"]
    assert not two["abstained"] and two["passages"]
    # Without the context the same line is not a setup question of any game.
    alone = client.post("/ask", json={"question": "peki 2 kişiysek?"}).json()
    assert "12 karo ile başlar" not in alone["answer"] or alone["abstained"]
    for bad in ("", " ", "a\x00b", "x" * 501, 5):
        _error(client.post("/ask", json={"question": "kale?", "context": bad}), 422,
               "invalid_request")


def test_without_index_page_loads_and_routes_say_503(no_index_client):
    assert no_index_client.get("/").status_code == 200
    assert no_index_client.get("/teach/kale-oyunu").status_code == 200
    assert no_index_client.get("/static/app.js").status_code == 200
    for path in ("/api/teach/kale-oyunu", "/faq/kale-oyunu", "/api/faq/kale-oyunu",
                 "/api/places/kale-oyunu",
                 "/suggest?game=kale-oyunu", "/games/kale-oyunu/text?start=0&end=3",
                 "/games/kale-oyunu/view?start=0&end=3"):
        body = _error(no_index_client.get(path), 503, "index_not_ready")
        assert "hakem build" in body["message"]
