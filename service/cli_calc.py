"""``hakem calc`` and ``hakem facts draft``: the rule calculator and the editor's drafts.

What it does: ``hakem calc "<question>" [--game G] [--json]`` works a question's numbers
out with the formula the rules state (no index or model needed: the game is named with
``--game`` or found by its name in the question); ``hakem facts draft <game>`` prints
candidate facts and formulas for the numeric sentences no fact or formula covers yet, as
TOML for an editor, with the coverage left. ``register`` adds both to the ``hakem`` parser.
What it does not do: any calculating or drafting of its own (see ``calc``, ``draft``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.console import Console
from rich.markup import escape

from .errors import HakemError
from .settings import Settings


def cmd_calc(args: argparse.Namespace, settings: Settings) -> int:
    from .calc import Calculator
    from .corpus import load_corpus
    from .detect import find_games
    from .sums import work_out
    from .working import calculation_json

    question = " ".join(args.question).strip()
    if not question:
        raise HakemError("the question is empty")
    corpus = load_corpus(settings.corpus_dir)
    game = args.game
    if game is not None and game not in corpus.ids:
        raise HakemError(f"unknown game {game!r}; known games: {', '.join(corpus.ids)}")
    if game is None:
        named = find_games(question, corpus.games)
        game = named[0].game if named else None
    if game is None:
        raise HakemError("no game named in the question; pass --game "
                         f"({', '.join(corpus.ids)})")
    calc = work_out(Calculator.from_corpus(settings.corpus_dir, corpus), question, game)
    if args.json:
        out = calculation_json(calc)
        print(json.dumps({"game": game, "formula": calc.formula if calc else None,
                          "calculation": out}, ensure_ascii=False))
        return 0
    console = Console(highlight=False)
    if calc is None:
        console.print(f"[yellow]no formula of {game} applies to this question[/]")
        return 1
    console.print(f"[bold]{escape(calc.result)}[/]")
    console.print(escape(calc.working))
    for c in calc.citations:
        console.print(f"  [dim]{c.game}:{c.start}-{c.end}[/] {escape(c.quote)}")
    return 0


def cmd_draft(game: str, settings: Settings, as_json: bool) -> int:
    from .corpus import load_corpus
    from .draft import draft_game, render_toml
    from .facts import load_facts
    from .formulas import load_formulas

    corpus = load_corpus(settings.corpus_dir)
    if game not in corpus.ids:
        raise HakemError(f"unknown game {game!r}; known games: {', '.join(corpus.ids)}")
    facts = load_facts(settings.corpus_dir, corpus)
    report = draft_game(game, corpus.game(game).text,
                        [(f.start, f.end) for f in facts if f.game == game],
                        load_formulas(settings.corpus_dir, corpus))
    if as_json:
        print(json.dumps({"total": report.total, "covered_by_facts": report.covered_by_facts,
                          "covered_by_formulas": report.covered_by_formulas,
                          "drafts": [{"start": d.start, "end": d.end, "sentence": d.sentence,
                                      "kind": d.kind, "moment": d.moment,
                                      "numbers": [{"value": v, "noun": n} for v, n in d.numbers]}
                                     for d in report.drafts]}, ensure_ascii=False))
    else:
        print(render_toml(report))
    return 0


def register(sub: Any) -> None:
    """Add ``calc`` to the ``hakem`` subcommands, and ``draft`` to ``hakem facts``."""
    p = sub.add_parser("calc", help="Work a question's numbers out with the rules' formula",
                       description="Work a question's numbers out with the formula the rules "
                       "state, showing the working and citing each rule used")
    p.add_argument("question", nargs="+", help="the question, with your numbers")
    p.add_argument("--game", help="game id (default: the game the question names)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_calc)
    facts = sub.choices.get("facts")
    if facts is None:
        return
    plain = facts.get_default("func")
    facts.epilog = ("hakem facts draft <game>: candidate facts and formulas (TOML) for the "
                    "numeric sentences of a text that nothing covers yet")

    def facts_or_draft(args: argparse.Namespace, settings: Settings) -> int:
        if args.query[:1] == ["draft"]:
            if len(args.query) != 2:
                raise HakemError("usage: hakem facts draft <game>")
            return cmd_draft(args.query[1], settings, args.json)
        return int(plain(args, settings))

    facts.set_defaults(func=facts_or_draft)
