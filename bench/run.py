"""Hakem's benchmark: one command, every figure of issue 6 on this machine, in one run.

    .venv/bin/python bench/run.py [--duration 60] [--json] [--update-readme]

What it measures, in order (progress on stderr):

1. index build time (``hakem build`` into a fresh temporary index folder, real corpus);
2. in-process query latency p50/p95/p99 of ``Engine.ask`` on the dev questions, for the
   hybrid, lexical-only and dense-only pipelines, and the hybrid latency while one and then
   two other processes keep the CPU busy (the embedder must not fight them for the cores);
3. per pipeline, a real server (``hakem serve`` with ``HAKEM_MODE``): cold start (process
   start to ``/readyz`` 200), HTTP latency and throughput at 1 and 8 concurrent clients, the
   latency of ``/livez`` during the 8-client load, errors, the server's peak RSS, and its exit
   code after SIGTERM.

Traffic goes to 127.0.0.1 only; every loop is bounded in time and count. Lexical and dense
figures are also given as a ratio to hybrid. What it does not do: assert anything (targets
are reported, not enforced) or run in the test suite (``tests/test_lifecycle.py`` has a
short smoke run of the load client).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from load import HAKEM, ROOT, CpuMeter, Server, log, percentiles, run_load

MODES = ("hybrid", "lexical", "dense")
TARGETS = {  # issue 6, on the 2-core machine
    "inprocess_p95_ms": 80.0,
    "http_c8_p95_ms": 250.0,
    "cold_start_s": 3.0,
    "peak_rss_mb": 600.0,
}


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        info = Path("/proc/cpuinfo").read_text()
        match = re.search(r"^model name\s*:\s*(.+)$", info, re.MULTILINE)
        cpu = match.group(1).strip() if match else cpu
        mhz = re.search(r"^cpu MHz\s*:\s*([\d.]+)", info, re.MULTILINE)
        cpu += f" @ {float(mhz.group(1)) / 1000:.2f} GHz" if mhz else ""
    except OSError:
        pass
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {"cores": os.cpu_count(), "cpu": cpu, "python": platform.python_version(),
            "platform": platform.platform(), "commit": commit}


def load_questions(path: Path) -> list[str]:
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line)["question"] for line in handle if line.strip()]


def default_questions() -> Path:
    for candidate in (ROOT.parent / "shared" / "eval" / "dev.jsonl",
                      Path("/work/shared/eval/dev.jsonl")):
        if candidate.is_file():
            return candidate
    return ROOT.parent / "shared" / "eval" / "dev.jsonl"


def build(env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    subprocess.run([str(HAKEM), "build"], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def time_queries(engine: Any, questions: list[str], mode: str, passes: int) -> list[float]:
    for question in questions[:5]:  # warm-up
        engine.ask(question, None, 5, mode=mode)
    out = []
    for _ in range(passes):
        for question in questions:
            t0 = time.perf_counter()
            engine.ask(question, None, 5, mode=mode)
            out.append((time.perf_counter() - t0) * 1000)
    return out


def burners(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` processes that keep one core each busy until killed."""
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def in_process(index_dir: Path, questions: list[str], passes: int) -> dict[str, Any]:
    from hakem.engine import Engine
    from hakem.settings import Settings

    t0 = time.perf_counter()
    engine = Engine.load(Settings.from_env(index_dir=index_dir))
    out: dict[str, Any] = {"load_s": time.perf_counter() - t0, "modes": {}, "contention": {}}
    for mode in MODES:
        log(f"  in process, {mode}: {passes} × {len(questions)} questions")
        meter = CpuMeter()
        out["modes"][mode] = percentiles(time_queries(engine, questions, mode, passes))
        out["modes"][mode]["others_cores"] = meter.others_cores()
    for n in (1, 2):
        log(f"  in process, hybrid, with {n} CPU-bound process(es) running beside it")
        procs = burners(n)
        try:
            time.sleep(0.5)
            out["contention"][f"busy_{n}"] = percentiles(
                time_queries(engine, questions, "hybrid", 1))
        finally:
            for p in procs:
                p.kill()
                p.wait()
    return out


def over_http(env: dict[str, str], mode: str, questions: list[str], duration: float,
              short: float, workdir: Path) -> dict[str, Any]:
    server = Server({**env, "HAKEM_MODE": mode}, workdir / f"serve-{mode}.log")
    out: dict[str, Any] = {}
    try:
        out["cold_start_s"] = server.wait_ready()
        log(f"  {mode}: ready in {out['cold_start_s']:.2f} s")
        asyncio.run(run_load(server.url, questions, 1, 1.0))  # warm-up
        for clients, seconds in ((1, short), (8, duration if mode == "hybrid" else short)):

            def progress(elapsed: float, ok: int, errors: int, c: int = clients,
                         s: float = seconds) -> None:
                log(f"\r  {mode}, {c} client(s): {elapsed:4.0f}/{s:.0f} s, {ok} answered, "
                    f"{errors} errors", end="")

            meter = CpuMeter(server.proc.pid)
            result = asyncio.run(run_load(server.url, questions, clients, seconds,
                                          probe_livez=clients > 1, progress=progress))
            log("")
            out[f"c{clients}"] = {**result.summary(), "others_cores": meter.others_cores()}
        out["peak_rss_mb"] = server.peak_rss_mb()
    finally:
        out["exit_code"], out["shutdown_s"] = server.stop()
    return out


# --- the report ---------------------------------------------------------------------------

def _ratio(value: float, base: float) -> str:
    return f" ({value / base:.2f}×)" if base else ""


def markdown(results: dict[str, Any]) -> str:
    m, ip, http = results["machine"], results["in_process"], results["http"]
    rows: list[tuple[str, str, Any]] = [
        ("in-process p50 (ms)", "", lambda mode: ip["modes"][mode]["p50"]),
        ("in-process p95 (ms)", "≤ 80", lambda mode: ip["modes"][mode]["p95"]),
        ("in-process p99 (ms)", "", lambda mode: ip["modes"][mode]["p99"]),
        ("HTTP 1 client p50 (ms)", "", lambda mode: http[mode]["c1"]["latency_ms"]["p50"]),
        ("HTTP 1 client p95 (ms)", "", lambda mode: http[mode]["c1"]["latency_ms"]["p95"]),
        ("HTTP 1 client p99 (ms)", "", lambda mode: http[mode]["c1"]["latency_ms"]["p99"]),
        ("HTTP 1 client throughput (req/s)", "", lambda mode: http[mode]["c1"]["throughput_rps"]),
        ("HTTP 8 clients p50 (ms)", "", lambda mode: http[mode]["c8"]["latency_ms"]["p50"]),
        ("HTTP 8 clients p95 (ms)", "≤ 250",
         lambda mode: http[mode]["c8"]["latency_ms"]["p95"]),
        ("HTTP 8 clients p99 (ms)", "", lambda mode: http[mode]["c8"]["latency_ms"]["p99"]),
        ("HTTP 8 clients throughput (req/s)", "",
         lambda mode: http[mode]["c8"]["throughput_rps"]),
        ("HTTP 8 clients requests / errors", "0 errors",
         lambda mode: f"{http[mode]['c8']['requests']} / {http[mode]['c8']['errors']}"),
        ("/livez during 8-client load p95 (ms)", "",
         lambda mode: http[mode]["c8"]["livez_ms"]["p95"]),
        ("other processes' CPU during the 8-client load (cores)", "≈ 0",
         lambda mode: http[mode]["c8"]["others_cores"]),
        ("cold start to /readyz 200 (s)", "≤ 3", lambda mode: http[mode]["cold_start_s"]),
        ("server peak RSS (MB)", "≤ 600", lambda mode: http[mode]["peak_rss_mb"]),
        ("exit code after SIGTERM / time (s)", "0",
         lambda mode: f"{http[mode]['exit_code']} / {http[mode]['shutdown_s']:.2f}"),
    ]
    lines = [f"Machine: {m['cores']} cores, {m['cpu']}, Python {m['python']} "
             f"({m['platform']}), commit {m['commit'] or '?'}.",
             "",
             f"Command: `{results['command']}` — 8-client phase {results['duration_s']:.0f} s "
             f"for hybrid, {results['short_s']:.0f} s otherwise; in process "
             f"{results['passes']} × {results['questions']} dev questions per pipeline.",
             "",
             "| figure | hybrid | lexical only | dense only | target |",
             "| --- | ---: | ---: | ---: | --- |"]
    for label, target, get in rows:
        cells = []
        base = get("hybrid")
        for mode in MODES:
            value = get(mode)
            if isinstance(value, float):
                digits = 2 if label.endswith(("(s)", "(cores)")) else 1
                cell = f"{value:.{digits}f}"
                cell += _ratio(value, base) if mode != "hybrid" else ""
            else:
                cell = str(value)
            cells.append(cell)
        lines.append(f"| {label} | {' | '.join(cells)} | {target} |")
    idle = ip["modes"]["hybrid"]
    noise = max([ip["modes"][mode]["others_cores"] for mode in MODES]
                + [http[mode][c]["others_cores"] for mode in MODES for c in ("c1", "c8")])
    lines += ["", f"Other processes on the machine used up to {noise:.2f} of its "
              f"{m['cores']} cores during a phase (load average {results['loadavg']})."]
    lines += ["", f"Index build (`hakem build`, real corpus, fresh folder): "
              f"{results['build_s']:.1f} s. Engine load in process: {ip['load_s']:.2f} s.", "",
              "In-process hybrid latency while other processes keep cores busy "
              "(OMP_WAIT_POLICY=PASSIVE, 1 thread per embedding call, a pool of 2 models):", "",
              "| CPU-bound processes beside it | p50 (ms) | p95 (ms) | p99 (ms) |",
              "| --- | ---: | ---: | ---: |",
              f"| 0 | {idle['p50']:.1f} | {idle['p95']:.1f} | {idle['p99']:.1f} |"]
    for n in (1, 2):
        c = ip["contention"][f"busy_{n}"]
        lines.append(f"| {n} | {c['p50']:.1f}{_ratio(c['p50'], idle['p50'])} | "
                     f"{c['p95']:.1f}{_ratio(c['p95'], idle['p95'])} | "
                     f"{c['p99']:.1f}{_ratio(c['p99'], idle['p99'])} |")
    lines += ["", "Targets (hybrid): " + ", ".join(
        f"{name} {'met' if ok else 'MISSED'}" for name, ok in results["targets"].items()) + "."]
    return "\n".join(lines) + "\n"


def check_targets(results: dict[str, Any]) -> dict[str, bool]:
    hybrid = results["http"]["hybrid"]
    return {
        "in-process p95 ≤ 80 ms": results["in_process"]["modes"]["hybrid"]["p95"]
        <= TARGETS["inprocess_p95_ms"],
        "HTTP p95 ≤ 250 ms at 8 clients with 0 errors": hybrid["c8"]["latency_ms"]["p95"]
        <= TARGETS["http_c8_p95_ms"] and hybrid["c8"]["errors"] == 0,
        "cold start ≤ 3 s": hybrid["cold_start_s"] <= TARGETS["cold_start_s"],
        "peak RSS ≤ 600 MB": max(results["http"][m]["peak_rss_mb"] for m in MODES)
        <= TARGETS["peak_rss_mb"],
    }


def update_readme(text: str) -> None:
    readme = Path(__file__).with_name("README.md")
    current = readme.read_text(encoding="utf-8")
    start, end = "<!-- results -->", "<!-- /results -->"
    head, _, rest = current.partition(start)
    _, _, tail = rest.partition(end)
    readme.write_text(f"{head}{start}\n{text}{end}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0,
                        help="seconds of the 8-client load on the hybrid server (default 60)")
    parser.add_argument("--short", type=float, default=None,
                        help="seconds of every other load phase (default duration / 3)")
    parser.add_argument("--passes", type=int, default=2,
                        help="passes over the questions in process, per pipeline (default 2)")
    parser.add_argument("--questions", type=Path, default=default_questions(),
                        help="JSONL with a 'question' per line (default ../shared/eval/dev.jsonl)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--update-readme", action="store_true",
                        help="write the results table into bench/README.md")
    args = parser.parse_args(argv)
    short = args.short if args.short is not None else max(5.0, args.duration / 3)
    questions = load_questions(args.questions)
    given = argv if argv is not None else sys.argv[1:]
    command = ".venv/bin/python bench/run.py " + " ".join(given)
    results: dict[str, Any] = {"machine": machine(), "command": command.strip(),
                               "duration_s": args.duration, "short_s": short,
                               "passes": args.passes, "questions": len(questions)}
    with tempfile.TemporaryDirectory(prefix="hakem-bench-") as tmp:
        workdir = Path(tmp)
        env = {**os.environ, "HAKEM_INDEX_DIR": str(workdir / "index")}
        env.pop("HAKEM_MODE", None)
        log("[1/3] building the index (real corpus, default embedder) …")
        results["build_s"] = build(env)
        log(f"  built in {results['build_s']:.1f} s")
        log("[2/3] in-process latency …")
        results["in_process"] = in_process(workdir / "index", questions, args.passes)
        results["http"] = {}
        for n, mode in enumerate(MODES, 1):
            log(f"[3/3] HTTP, {mode} server ({n}/{len(MODES)}) …")
            results["http"][mode] = over_http(env, mode, questions, args.duration, short,
                                              workdir)
    results["loadavg"] = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    results["targets"] = check_targets(results)
    table = markdown(results)
    if args.update_readme:
        update_readme(table)
    print(json.dumps(results, indent=2, ensure_ascii=False) if args.json else table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
