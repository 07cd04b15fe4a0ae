"""Admission control: bounded waiting, short questions never behind long ones, 503 with
Retry-After when saturated, and a waiting call dropped when its client has gone."""

from __future__ import annotations

import asyncio
import json
import threading
from dataclasses import replace

import httpx
import pytest

from hakem.admission import Admission, ClientGone, Overloaded, cost_of
from hakem.api import create_app
from hakem.engine import Engine
from hakem.settings import Settings

LONG = "kale kaç puan kazandırır " * 20  # 500 characters


def test_cost_grows_with_the_question():
    assert cost_of("kale") == 1 and cost_of("x" * 250) == 3 and cost_of(LONG[:500]) == 6


async def _blocked(gate: threading.Event) -> str:
    await asyncio.to_thread(gate.wait, 10)
    return "done"


def test_light_calls_pass_heavy_ones_and_the_wait_list_is_bounded():
    async def main() -> None:
        adm = Admission(slots=2, max_waiting=6, max_wait=10)
        gate = threading.Event()
        first = asyncio.create_task(adm.run(gate.wait, 10, cost=6))
        await asyncio.sleep(0.05)
        second = asyncio.create_task(adm.run(gate.wait, 10, cost=6))  # waits: 1 heavy slot
        await asyncio.sleep(0.05)
        assert adm.waiting == 1
        with pytest.raises(Overloaded) as exc:  # 6 waiting + 6 > 6
            await adm.run(gate.wait, 10, cost=6)
        assert exc.value.retry_after >= 1
        assert await asyncio.wait_for(adm.run(lambda: "short", cost=1), 2) == "short"
        gate.set()
        assert await first and await second
        assert adm.waiting == 0 and adm._running == 0

    asyncio.run(main())


def test_a_waiting_call_whose_client_left_is_never_run():
    async def main() -> None:
        adm = Admission(slots=2, max_waiting=100, max_wait=10)
        gate, ran = threading.Event(), []
        busy = [asyncio.create_task(adm.run(gate.wait, 10, cost=1)) for _ in range(2)]
        await asyncio.sleep(0.05)

        async def gone() -> bool:
            return True

        with pytest.raises(ClientGone):
            await adm.run(lambda: ran.append(1), cost=1, gone=gone)
        assert not ran and adm.waiting == 0
        gate.set()
        await asyncio.gather(*busy)
        assert adm._running == 0

    asyncio.run(main())


def test_a_call_that_waited_too_long_is_overloaded():
    async def main() -> None:
        adm = Admission(slots=2, max_waiting=100, max_wait=0.2)
        gate = threading.Event()
        busy = [asyncio.create_task(adm.run(gate.wait, 10, cost=1)) for _ in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(Overloaded):
            await adm.run(lambda: None, cost=1)
        gate.set()
        await asyncio.gather(*busy)
        assert adm.waiting == 0 and adm._running == 0

    asyncio.run(main())


def _app(settings: Settings, engine: Engine, gate: threading.Event):
    real = engine.ask

    def ask(question, *args, **kwargs):
        if len(question) > 200:
            gate.wait(10)
        return real(question, *args, **kwargs)

    engine.ask = ask  # type: ignore[method-assign]
    app = create_app(settings, engine=engine)
    app.state.engine, app.state.not_ready, app.state.watch = engine, None, None
    return app


def test_api_saturated_is_a_typed_503_with_retry_after_and_short_questions_pass(tiny_built):
    settings = replace(tiny_built, embed_instances=1, max_queue=6)
    gate = threading.Event()
    app = _app(settings, Engine.load(settings), gate)

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            heavy = [asyncio.create_task(http.post("/ask", json={"question": LONG[:500]}))
                     for _ in range(2)]
            await asyncio.sleep(0.2)
            full = await http.post("/ask", json={"question": LONG[:500]})
            assert full.status_code == 503
            assert int(full.headers["retry-after"]) >= 1
            assert full.json()["error"] == "overloaded" and full.json()["message"]
            short = await asyncio.wait_for(http.post("/ask", json={"question": "kale puan"}), 5)
            assert short.status_code == 200
            assert (await http.get("/livez")).status_code == 200
            gate.set()
            assert [r.status_code for r in await asyncio.gather(*heavy)] == [200, 200]

    asyncio.run(main())


def test_api_drops_a_waiting_question_whose_client_disconnected(tiny_built):
    settings = replace(tiny_built, embed_instances=1)
    gate = threading.Event()
    engine = Engine.load(settings)
    asked: list[str] = []
    app = _app(settings, engine, gate)
    blocking = engine.ask

    def counting(question, *args, **kwargs):
        asked.append(question)
        return blocking(question, *args, **kwargs)

    engine.ask = counting  # type: ignore[method-assign]

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            first = asyncio.create_task(http.post("/ask", json={"question": LONG[:500]}))
            await asyncio.sleep(0.2)
            body = json.dumps({"question": LONG[:499]}).encode()
            sent: list[dict] = []
            messages = [{"type": "http.request", "body": body, "more_body": False}]

            async def receive() -> dict:
                if messages:
                    return messages.pop()
                return {"type": "http.disconnect"}  # the client hung up after sending

            async def send(message: dict) -> None:
                sent.append(message)

            scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
                     "method": "POST", "path": "/ask", "raw_path": b"/ask",
                     "query_string": b"", "root_path": "", "scheme": "http",
                     "server": ("t", 80), "client": ("127.0.0.1", 1),
                     "headers": [(b"content-type", b"application/json"),
                                 (b"content-length", str(len(body)).encode())]}
            await asyncio.wait_for(app(scope, receive, send), 5)
            assert sent[0]["status"] == 499
            gate.set()
            assert (await first).status_code == 200
        assert asked == [LONG[:500].strip()]  # the dropped question was never worked on

    asyncio.run(main())


@pytest.mark.parametrize(("target", "url"), [
    ("hakem.web.faq_entries", "/api/faq/kale-oyunu"),
    ("hakem.web.build_lesson", "/api/teach/kale-oyunu"),
    ("hakem.api.search_facts", "/facts?q=kale"),
])
def test_cpu_routes_run_off_the_event_loop(tiny_built, monkeypatch, target, url):
    import time

    module, name = target.rsplit(".", 1)
    real = getattr(__import__(module, fromlist=[name]), name)

    def slow(*args, **kwargs):
        time.sleep(1.0)  # stands for CPU work: it holds whatever thread runs it
        return real(*args, **kwargs)

    monkeypatch.setattr(target, slow)
    app = _app(tiny_built, Engine.load(tiny_built), threading.Event())

    async def main() -> None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
            heavy = asyncio.create_task(http.get(url))
            await asyncio.sleep(0.1)  # the heavy request is in its handler now
            assert (await http.get("/livez")).status_code == 200
            assert not heavy.done()  # /livez answered while the work still ran
            assert (await heavy).status_code == 200

    asyncio.run(main())


@pytest.mark.skipif(not hasattr(__import__("os"), "setpriority"), reason="Linux thread nice")
def test_heavy_work_runs_at_a_lower_cpu_priority_than_light_work():
    import os

    def nice() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    async def main() -> tuple[int, int]:
        adm = Admission(slots=2)
        return await adm.run(nice, cost=6), await adm.run(nice, cost=1)

    heavy, light = asyncio.run(main())
    assert light == os.getpriority(os.PRIO_PROCESS, 0)
    assert heavy == min(19, light + 10)
