"""Overload benchmark (issue 12): heavy clients that hang up, and one client asking short ones.

    .venv/bin/python bench/overload.py [--duration 60] [--heavy 32] [--json]

What it measures: ``hakem serve`` (the real model, the repository's ``index/`` unless
``--index-dir``) on a free 127.0.0.1 port while ``--heavy`` clients each loop: open a
connection, POST a 500-character question, wait a random 0-1 s for the answer, hang up (and
start the next one then, whatever the answer was).
Meanwhile one client asks the short dev questions one after another, and ``/livez`` is probed
every 100 ms. Reported: the short questions' latency (target p95 ≤ 300 ms) and their 5xx
count (target 0), ``/livez`` p99 (target ≤ 50 ms), what the heavy clients got (answers,
503 ``overloaded``, nothing because they had hung up), and the server's RSS before and after
the load (flat). Loopback only; every loop is bounded in time and count. What it does not
do: assert anything.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from load import HOST, MAX_REQUESTS, ROOT, CpuMeter, Server, log, percentiles

TARGETS = {"short_p95_ms": 300.0, "short_5xx": 0, "livez_p99_ms": 50.0}


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    match = re.search(r"^VmRSS:\s*(\d+)\s*kB", status, re.MULTILINE)
    return int(match.group(1)) / 1024 if match else float("nan")


def questions(path: Path) -> tuple[list[str], list[str]]:
    """Short questions (the dev set's) and 500-character ones (dev questions run together)."""
    rows = [json.loads(line)["question"] for line in path.read_text(encoding="utf-8")
            .splitlines() if line.strip()]
    short = [q for q in rows if len(q) < 120]
    long_, rng = [], random.Random(12)
    for _ in range(50):
        text = ""
        while len(text) < 500:
            text += rng.choice(rows) + " "
        long_.append(text[:500].strip())
    return short, long_


async def heavy_client(port: int, texts: list[str], deadline: float, tally: dict[str, int],
                       seed: int) -> None:
    rng = random.Random(seed)
    while time.perf_counter() < deadline and sum(tally.values()) < MAX_REQUESTS:
        body = json.dumps({"question": rng.choice(texts)}).encode()
        head = (f"POST /ask HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
        try:
            reader, writer = await asyncio.open_connection(HOST, port)
        except OSError:
            tally["connect_error"] = tally.get("connect_error", 0) + 1
            await asyncio.sleep(0.1)
            continue
        kind, patience = "hung_up", rng.uniform(0.0, 1.0)
        hang_up = time.perf_counter() + patience
        try:
            writer.write(head + body)
            await writer.drain()
            line = await asyncio.wait_for(reader.readline(), patience)
            kind = line.split()[1].decode() if len(line.split()) > 1 else "closed"
        except (TimeoutError, OSError):
            pass
        finally:
            writer.close()
        tally[kind] = tally.get(kind, 0) + 1
        # One question per 0-1 s per client, answered or not: a 503 does not make it spin.
        await asyncio.sleep(max(0.0, hang_up - time.perf_counter()))


async def short_client(url: str, texts: list[str], deadline: float,
                       out: dict[str, Any]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30.0) as http:
        i = 0
        while time.perf_counter() < deadline and i < MAX_REQUESTS:
            t0 = time.perf_counter()
            try:
                r = await http.post("/ask", json={"question": texts[i % len(texts)]})
                status = r.status_code
            except httpx.HTTPError as exc:
                status = type(exc).__name__  # type: ignore[assignment]
            i += 1
            if status == 200:
                out["latencies"].append((time.perf_counter() - t0) * 1000)
            else:
                out["errors"][str(status)] = out["errors"].get(str(status), 0) + 1


async def livez_probe(url: str, deadline: float, out: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=10.0) as http:
        while time.perf_counter() < deadline:
            t0 = time.perf_counter()
            try:
                if (await http.get("/livez")).status_code == 200:
                    out.append((time.perf_counter() - t0) * 1000)
            except httpx.HTTPError:
                out.append(10_000.0)
            await asyncio.sleep(0.1)


async def load(server: Server, short: list[str], long_: list[str], heavy: int,
               duration: float) -> dict[str, Any]:
    deadline = time.perf_counter() + duration
    tally: dict[str, int] = {}
    short_out: dict[str, Any] = {"latencies": [], "errors": {}}
    livez: list[float] = []
    await asyncio.gather(
        *(heavy_client(server.port, long_, deadline, tally, seed) for seed in range(heavy)),
        short_client(server.url, short, deadline, short_out),
        livez_probe(server.url, deadline, livez))
    return {"heavy": tally, "short": short_out["latencies"], "short_errors": short_out["errors"],
            "livez": livez}


def merge(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    def add(x: dict[str, int], y: dict[str, int]) -> dict[str, int]:
        return {k: x.get(k, 0) + y.get(k, 0) for k in {*x, *y}}

    return {"heavy": add(a["heavy"], b["heavy"]),
            "short_errors": add(a["short_errors"], b["short_errors"]),
            "short_ms": percentiles(a["short"] + b["short"]),
            "livez_ms": percentiles(a["livez"] + b["livez"]),
            "short_ms_rounds": [percentiles(a["short"]), percentiles(b["short"])]}


def markdown(r: dict[str, Any]) -> str:
    s, lz = r["short_ms"], r["livez_ms"]
    fives = sum(v for k, v in r["short_errors"].items() if k.startswith("5"))
    heavy = ", ".join(f"{k}: {v}" for k, v in sorted(r["heavy"].items()))
    rows = [
        ("short questions answered", f"{s['n']}", ""),
        ("short-question p50 / p95 / p99 (ms)",
         f"{s['p50']:.0f} / {s['p95']:.0f} / {s['p99']:.0f}", "p95 ≤ 300"),
        ("short-question errors", json.dumps(r["short_errors"]) if r["short_errors"] else "0",
         "0 × 5xx"),
        ("/livez p50 / p99 / max (ms)", f"{lz['p50']:.1f} / {lz['p99']:.1f} / {lz['max']:.1f}",
         "p99 ≤ 50"),
        ("heavy requests sent (what they got)", f"{sum(r['heavy'].values())} ({heavy})", ""),
        ("server RSS before / after round 1 / after round 2 / 5 s later (MB)",
         f"{r['rss_before']:.0f} / {r['rss_middle']:.0f} / {r['rss_after']:.0f} / "
         f"{r['rss_idle']:.0f}", "flat"),
        ("other processes' CPU during the load (cores)", f"{r['others_cores']:.2f}", ""),
    ]
    out = ["| figure | value | target |", "| --- | ---: | --- |"]
    out += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    met = (s["p95"] <= TARGETS["short_p95_ms"] and fives == 0
           and lz["p99"] <= TARGETS["livez_p99_ms"])
    out.append("")
    out.append(f"Targets {'met' if met else 'NOT all met'}: short p95 {s['p95']:.0f} ms, "
               f"{fives} × 5xx on short questions, /livez p99 {lz['p99']:.1f} ms.")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0, help="load seconds (≤ 150)")
    parser.add_argument("--heavy", type=int, default=32, help="heavy clients (≤ 64)")
    parser.add_argument("--index-dir", type=Path, default=ROOT / "index")
    parser.add_argument("--questions", type=Path,
                        default=ROOT.parent / "shared" / "eval" / "dev.jsonl")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    duration, heavy = min(args.duration, 150.0), max(1, min(args.heavy, 64))
    short, long_ = questions(args.questions)
    env = {**os.environ, "HAKEM_INDEX_DIR": str(args.index_dir), "OMP_WAIT_POLICY": "PASSIVE"}
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"hakem-overload-{os.getpid()}.log"
    server = Server(env, log_path)
    try:
        log(f"server ready in {server.wait_ready():.1f} s; warming up")
        with httpx.Client(base_url=server.url, timeout=30) as http:
            for q in short[:10] + long_[:4]:
                http.post("/ask", json={"question": q})
        before = rss_mb(server.proc.pid)
        log(f"load: {heavy} heavy clients + 1 short client, 2 rounds of {duration / 2:.0f} s")
        meter = CpuMeter(server.proc.pid)
        # Two rounds: memory that grows in the second as in the first would be a leak.
        first = asyncio.run(load(server, short, long_, heavy, duration / 2))
        middle = rss_mb(server.proc.pid)
        result = merge(first, asyncio.run(load(server, short, long_, heavy, duration / 2)))
        result["others_cores"] = meter.others_cores()
        result["rss_before"], result["rss_middle"] = before, middle
        result["rss_after"] = rss_mb(server.proc.pid)
        time.sleep(5)
        result["rss_idle"] = rss_mb(server.proc.pid)
        result["loadavg"] = os.getloadavg()
        result["duration_s"], result["heavy_clients"] = duration, heavy
    finally:
        code, _ = server.stop()
    result["exit_code"] = code
    print(json.dumps(result, indent=2) if args.json else markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
