"""The benchmark's tools: a bounded HTTP load client, a real server process, CPU meters.

What it does: starts ``hakem serve`` on a free 127.0.0.1 port and waits for ``/readyz``;
drives it with N concurrent asyncio clients for a bounded time and request count, recording
latencies, errors and ``/livez`` latency; measures CPU used by a process or by everything
else; summarises latencies as percentiles. What it does not do: decide what to measure or
report it (see ``run.py``); send traffic anywhere but loopback.
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
HAKEM = Path(sys.executable).parent / "hakem"
HOST = "127.0.0.1"  # loopback only, by design
MAX_REQUESTS = 200_000  # a hard bound on any one load phase, whatever the duration


def log(message: str, end: str = "\n") -> None:
    print(message, file=sys.stderr, end=end, flush=True)


# --- figures -----------------------------------------------------------------------------

def percentiles(values: list[float]) -> dict[str, float]:
    """p50/p95/p99 (nearest rank), mean and max, in the values' unit."""
    if not values:
        return {"n": 0, "p50": float("nan"), "p95": float("nan"), "p99": float("nan"),
                "mean": float("nan"), "max": float("nan")}
    ordered = sorted(values)

    def rank(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]

    return {"n": len(ordered), "p50": rank(0.50), "p95": rank(0.95), "p99": rank(0.99),
            "mean": sum(ordered) / len(ordered), "max": ordered[-1]}


class CpuMeter:
    """CPU used by everything else on the machine meanwhile, in cores (a noise gauge: on a
    shared 2-core machine, other people's work shows up in every latency figure)."""

    TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def __init__(self, *pids: int) -> None:
        self.pids = (os.getpid(), *pids)
        self.start = self._read()

    def _read(self) -> tuple[float, float, float]:
        try:
            fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
            values = [int(v) for v in fields[:8]]
            busy = sum(values) - values[3] - values[4]  # minus idle and iowait
            ours = 0
            for pid in self.pids:
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                ours += int(stat[11]) + int(stat[12])  # utime, stime
        except (OSError, ValueError, IndexError):
            return (float("nan"),) * 3
        return busy / self.TICK, ours / self.TICK, time.perf_counter()

    def others_cores(self) -> float:
        busy, ours, now = self._read()
        return max(0.0, ((busy - self.start[0]) - (ours - self.start[1]))
                   / max(1e-9, now - self.start[2]))


# --- the load client ----------------------------------------------------------------------

@dataclass
class LoadResult:
    clients: int
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    livez_ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        done = len(self.latencies_ms) + self.errors
        return {"clients": self.clients, "seconds": round(self.seconds, 2), "requests": done,
                "errors": self.errors, "error_kinds": self.error_kinds,
                "throughput_rps": done / self.seconds if self.seconds else 0.0,
                "latency_ms": percentiles(self.latencies_ms),
                "livez_ms": percentiles(self.livez_ms)}


async def run_load(base_url: str, questions: list[str], clients: int, duration: float,
                   max_requests: int = MAX_REQUESTS, probe_livez: bool = False,
                   progress: Any = None) -> LoadResult:
    """``clients`` concurrent clients POST /ask with the questions in turn for ``duration``
    seconds (or ``max_requests`` in all); optionally GET /livez every 100 ms meanwhile."""
    host = httpx.URL(base_url).host
    if host not in {"127.0.0.1", "localhost", "::1"}:
        raise ValueError(f"load tests go to loopback only, not {host!r}")
    result = LoadResult(clients=clients, seconds=0.0)
    sent = 0
    start = time.perf_counter()
    deadline = start + duration
    limits = httpx.Limits(max_connections=clients + 2, max_keepalive_connections=clients + 2)

    async def client(worker: int, http: httpx.AsyncClient) -> None:
        nonlocal sent
        i = worker * max(1, len(questions) // max(1, clients))
        while time.perf_counter() < deadline and sent < max_requests:
            sent += 1
            question = questions[i % len(questions)]
            i += 1
            t0 = time.perf_counter()
            try:
                response = await http.post("/ask", json={"question": question})
                ok, kind = response.status_code == 200, str(response.status_code)
            except httpx.HTTPError as exc:
                ok, kind = False, type(exc).__name__
            if ok:
                result.latencies_ms.append((time.perf_counter() - t0) * 1000)
            else:
                result.errors += 1
                result.error_kinds[kind] = result.error_kinds.get(kind, 0) + 1

    async def livez(http: httpx.AsyncClient) -> None:
        while time.perf_counter() < deadline:
            t0 = time.perf_counter()
            try:
                if (await http.get("/livez")).status_code == 200:
                    result.livez_ms.append((time.perf_counter() - t0) * 1000)
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)

    async def report() -> None:
        while time.perf_counter() < deadline and sent < max_requests:
            await asyncio.sleep(1.0)
            if progress:
                progress(time.perf_counter() - start, len(result.latencies_ms), result.errors)

    async with httpx.AsyncClient(base_url=base_url, timeout=60.0, limits=limits) as http, \
            httpx.AsyncClient(base_url=base_url, timeout=10.0) as probe:
        tasks = [client(w, http) for w in range(clients)]
        tasks += [livez(probe)] if probe_livez else []
        reporter = asyncio.ensure_future(report())
        await asyncio.gather(*tasks)
        reporter.cancel()
    result.seconds = time.perf_counter() - start
    return result


# --- the server ------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


class Server:
    """``hakem serve`` in a subprocess on a free loopback port."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self._log = log_path.open("ab")
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([str(HAKEM), "serve", "--host", HOST, "--port",
                                      str(self.port)], env=env, stdout=self._log,
                                     stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 60.0) -> float:
        """Seconds from process start to the first ``/readyz`` 200."""
        deadline = self.started + timeout
        with httpx.Client(timeout=2.0) as http:
            while time.perf_counter() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited with {self.proc.returncode}")
                try:
                    if http.get(f"{self.url}/readyz").status_code == 200:
                        return time.perf_counter() - self.started
                except httpx.HTTPError:
                    pass
                time.sleep(0.01)
        raise TimeoutError("server not ready in time")

    def peak_rss_mb(self) -> float:
        status = Path(f"/proc/{self.proc.pid}/status").read_text()
        match = re.search(r"^VmHWM:\s*(\d+)\s*kB", status, re.MULTILINE)
        return int(match.group(1)) / 1024 if match else float("nan")

    def stop(self, timeout: float = 15.0) -> tuple[int | None, float]:
        """SIGTERM, then the exit code and how long the graceful shutdown took."""
        t0 = time.perf_counter()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code: int | None = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = None
        self._log.close()
        return code, time.perf_counter() - t0


# --- the phases ---------------------------------------------------------------------------
