"""``hakem chat``: an interactive rules prompt for the table, on stdin/stdout.

What it does: loads the engine once, then reads one line at a time: a question is answered
(answer, numbered facts, cited passages) and remembered: a follow-up ("peki 2 kişiysek?") is
asked as the previous question with the new number, in the same game; ``:oyun G`` sets the
game kept for the next questions (a question naming another game wins, and says so);
``:öğret G [N]`` walks the game's lesson, setup for N players (``n``/``p``/``q`` or
``:sonraki``/``:önceki``/``:bitir``), ``:sss G [words]`` lists FAQ answers, ``:yardım`` shows
the commands, ``:çık`` or end of input quits. One bad line (undecodable bytes, a failing
answer) prints one line and the session goes on. It prompts only when stdin is a terminal,
so piped input gives clean output; colour only on a terminal, never with ``NO_COLOR``. A
missing index is one line on stderr and exit code 1. What it does not do: any answering or
teaching logic of its own (``engine``, ``lesson``, ``followup``).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import TextIO

from rich.console import Console
from rich.markup import escape

from .answer import Answer
from .detect import find_games
from .engine import Engine
from .errors import HakemError
from .lesson import build_lesson
from .lesson_model import Part
from .phrasing import fact_sentence
from .settings import Settings
from .teach import faq_entries, search_faq
from .terminal import safe_console
from .text import fold

SOURCE = {"request": "seçtiğiniz oyun", "name": "sorudaki addan", "content": "içerikten tahmin"}
PASSAGE_CHARS = 320  # enough to recognise a passage at the table; the offsets give the rest
HELP = """Komutlar:
  soru yazın              cevap, sayısal kurallar ve kaynak pasajlar
  :oyun G                 oyunu seç (ör. :oyun daybreak); :oyun - seçimi kaldırır
  :oyunlar                oyunları listele
  :öğret [G] [N]          oyunu öğren (N: oyuncu sayısı): n/:sonraki, p/:önceki, q/:bitir
  peki 2 kişiysek?        önceki soruyu yeni sayıyla sorar
  :sss [G] [kelimeler]    sık sorulan soruları listele / ara
  :yardım                 bu yardım
  :çık                    çık (Ctrl-D de olur)"""


@dataclass
class ChatState:
    game: str | None = None  # kept between questions
    last: str | None = None  # the previous question, for follow-ups
    steps: tuple[Part, ...] = ()  # the lesson being taught, if any
    step: int = 0


class Chat:
    def __init__(self, engine: Engine, console: Console) -> None:
        self.engine = engine
        self.out = console
        self.state = ChatState()
        self.names = {g.id: g.name for g in engine.corpus.games}

    # ------------------------------------------------------------ games
    def resolve(self, typed: str) -> str | None:
        """A game id from its id, name or alias, typed any way (case, diacritics)."""
        want = fold(typed).replace(" ", "-")
        for g in self.engine.corpus.games:
            if want in {fold(g.id), *(fold(a).replace(" ", "-") for a in g.aliases)}:
                return g.id
        return None

    def games_line(self) -> str:
        return ", ".join(f"{gid} ({name})" for gid, name in self.names.items())

    def pick(self, typed: str) -> str | None:
        game = self.resolve(typed)
        if game is None:
            self.out.print(f"[red]Bilinmeyen oyun:[/] {escape(typed)}. "
                           f"Oyunlar: {escape(self.games_line())}")
        return game

    # ------------------------------------------------------------ lines
    def handle(self, line: str) -> bool:
        """Act on one input line; False when the user wants to quit."""
        text = line.strip()
        if not text:
            return True
        if self.state.steps and fold(text) in {"n", "p", "q"}:
            return self.teach_move({"n": 1, "p": -1, "q": 0}[fold(text)])
        if not text.startswith(":"):
            self.ask(text)
            return True
        cmd, _, arg = text[1:].partition(" ")
        cmd, arg = fold(cmd), arg.strip()
        if cmd in {"cik", "quit", "exit"}:
            return False
        if cmd in {"yardim", "help", "h", "?"}:
            self.out.print(escape(HELP))
        elif cmd == "oyunlar":
            self.out.print(escape(self.games_line()))
        elif cmd == "oyun":
            self.set_game(arg)
        elif cmd in {"ogret", "ogren"}:
            self.teach(arg)
        elif cmd in {"sonraki", "onceki", "bitir"}:
            return self.teach_move({"sonraki": 1, "onceki": -1, "bitir": 0}[cmd])
        elif cmd == "sss":
            self.faq(arg)
        else:
            self.out.print(f"[red]Bilinmeyen komut:[/] :{escape(cmd)} (:yardım)")
        return True

    def set_game(self, arg: str) -> None:
        if not arg:
            now = self.names.get(self.state.game or "", "yok (sorudan anlaşılır)")
            self.out.print(f"Oyun: {escape(now)}. Oyunlar: {escape(self.games_line())}")
        elif arg in {"-", "otomatik"}:
            self.state.game = None
            self.out.print("Oyun seçimi kaldırıldı: oyun sorudan anlaşılacak.")
        elif (game := self.pick(arg)) is not None:
            self.state.game = game
            self.out.print(f"Oyun: [bold cyan]{escape(self.names[game])}[/]")

    # ------------------------------------------------------------ asking
    def ask(self, question: str) -> None:
        # A question naming one of our games is not bound to the kept game; one naming a game
        # the rules do not cover ("Catan'da") is answered "not in the rules" by the engine.
        named = find_games(question, self.engine.corpus.games)
        kept = self.state.game
        game = None if named else kept
        answer = self.engine.ask(question, game, context=self.state.last)
        if answer.question != question:
            self.out.print(f"[dim]Anladığım soru:[/] {escape(answer.question)}")
        if kept and answer.game and answer.game != kept and answer.game_source == "name":
            self.out.print(f"[yellow]Soruda {escape(self.names[answer.game])} geçiyor; ona "
                           f"göre cevapladım.[/]")
        self.state.last = answer.question  # "peki 2 kişiysek?" may follow any question
        if answer.game and not answer.abstained and not answer.other_games:
            # Answered for several games: which one is played is still unknown.
            self.state.game = answer.game
        self.print_answer(answer)

    def print_answer(self, a: Answer) -> None:
        print_answer(self.out, a, self.names)

    def print_passage(self, i: int, game: str, section: str, start: int, end: int,
                      text: str) -> None:
        print_passage(self.out, i, section or self.names.get(game, game), game, start, end,
                      text)

    # ------------------------------------------------------------ teaching and FAQ
    def teach(self, arg: str) -> None:
        words = arg.split()
        players = int(words.pop()) if words and words[-1].isdigit() else None
        arg = " ".join(words)
        game = self.pick(arg) if arg else self.state.game
        if game is None:
            if not arg:
                self.out.print(f"Hangi oyun? ör. :öğret {next(iter(self.names))} 3. "
                               f"Oyunlar: {escape(self.games_line())}")
            return
        self.state.game = game
        g = self.engine.corpus.game(game)
        lesson = build_lesson(game, g.name, g.text, self.engine.index.chunks,
                              self.engine.index.facts, players)
        self.state.steps = lesson.parts
        self.state.step = 0
        who = f", {players} oyuncu" if players else ""
        self.out.print(f"[bold]{escape(self.names[game])}[/] dersi{who}: "
                       f"{len(self.state.steps)} adım. n = sonraki, p = önceki, q = bitir.")
        self.print_step()

    def teach_move(self, delta: int) -> bool:
        if not self.state.steps:
            self.out.print("Öğretme modu açık değil (:öğret G).")
            return True
        if delta == 0:
            self.state.steps = ()
            self.out.print("Öğretme modu bitti. Soru sorabilirsiniz.")
            return True
        new = self.state.step + delta
        if not 0 <= new < len(self.state.steps):
            self.out.print("Son adım. (q ile bitirin)" if delta > 0 else "İlk adımdasınız.")
            return True
        self.state.step = new
        self.print_step()
        return True

    def print_step(self) -> None:
        s = self.state.steps[self.state.step]
        self.out.print(f"\n[bold cyan]Adım {self.state.step + 1}/{len(self.state.steps)}[/] "
                       f"[bold]{escape(s.title)}[/]")
        if s.note:
            self.out.print(f"  [yellow]{escape(s.note)}[/]")
        for i, it in enumerate(s.items, 1):  # whole sentences: never cut
            label = f"[bold]{escape(it.label)}[/]: " if it.label else ""
            self.out.print(f"  [green]{i}.[/] {label}{escape(' '.join(it.text.split()))} "
                           f"[dim]({escape(it.where)} · {it.game}:{it.start}-{it.end})[/]")

    def faq(self, arg: str) -> None:
        first, _, rest = arg.partition(" ")
        game = self.resolve(first) if first else None
        words = rest if game else arg
        game = game or self.state.game
        if game is None:
            self.out.print(f"Hangi oyun? ör. :sss {next(iter(self.names))}")
            return
        entries = faq_entries(game, self.engine.index.chunks)
        if words.strip():
            entries = search_faq(entries, words)
        self.out.print(f"[bold]{escape(self.names[game])}[/] SSS: {len(entries)} cevap"
                       + (f" ({escape(words.strip())})" if words.strip() else ""))
        for i, e in enumerate(entries, 1):
            verdict = f"[bold]{escape(e.verdict)}[/] — " if e.verdict else ""
            self.out.print(f"  [green]{i}.[/] {verdict}{escape(e.title)} "
                           f"[dim]({e.game}:{e.start}-{e.end})[/]")


def run_chat(settings: Settings, stdin: TextIO | None = None, stdout: TextIO | None = None,
             engine: Engine | None = None) -> int:
    stdin = stdin or sys.stdin
    if hasattr(stdin, "reconfigure"):  # undecodable bytes become U+FFFD, caught per line
        stdin.reconfigure(errors="replace")
    # soft_wrap: no hard line breaks inserted, so piped output keeps each passage on its line.
    # Control characters of the corpus or of a typed line never reach the terminal.
    console = safe_console(file=stdout or sys.stdout, highlight=False, soft_wrap=True,
                           no_color="NO_COLOR" in os.environ)
    try:
        engine = engine or Engine.load(settings)
    except HakemError as exc:  # one plain line, never wrapped by rich
        sys.stderr.write(f"hakem chat: {exc}\n")
        return 1
    chat = Chat(engine, console)
    interactive = stdin.isatty()
    if interactive:
        console.print("[bold]Hakem[/] — kurallara sorun. :yardım komutları gösterir, :çık çıkar.")
    while True:
        if interactive:
            game = chat.names.get(chat.state.game or "", "")
            console.print(f"[cyan]{escape(game)}[/]> " if game else "> ", end="")
        try:
            line = stdin.readline()
        except UnicodeDecodeError:  # bytes that are not UTF-8: this line only is lost
            console.print("[red]Bu satır okunamadı (UTF-8 değil); tekrar yazın.[/]")
            continue
        if not line:  # end of input
            break
        if "\ufffd" in line:
            console.print("[red]Bu satır okunamadı (UTF-8 değil); tekrar yazın.[/]")
            continue
        try:
            if not chat.handle(line):
                break
        except HakemError as exc:
            console.print(f"[red]{escape(str(exc))}[/]")
        except Exception as exc:  # one failing answer must not end the session
            console.print(f"[red]Bu soru cevaplanamadı ({exc.__class__.__name__}); "
                          f"başka bir soru deneyin.[/]")
    return 0


def print_answer(out: Console, a: Answer, names: dict[str, str]) -> None:
    """An answer for people: the game and why, the answer, numbered facts, cited passages."""
    if a.abstained:  # no game line: the guessed game is not what the player asked about
        out.print(f"[yellow]∅ {escape(a.answer)}[/]")
        return
    if a.game:
        shown = " / ".join(escape(names.get(g, g)) for g in (a.game, *a.other_games))
        why = ("birden çok oyuna uyuyor" if a.other_games
               else SOURCE.get(a.game_source, a.game_source))
        out.print(f"[dim]Oyun:[/] [bold cyan]{shown}[/] [dim]({escape(why)})[/]")
    style = "bold yellow" if a.hedged else "bold"  # yellow: the rules may not settle it
    out.print(f"[{style}]{escape(a.answer)}[/]")
    for i, fh in enumerate(a.facts, 1):
        f = fh.fact
        out.print(f"  [magenta]#{i}[/] {escape(fact_sentence(f))} "
                  f"[dim]({f.game}:{f.start}-{f.end})[/]")
    for i, hit in enumerate(a.passages, 1):
        c = hit.chunk
        print_passage(out, i, c.section or names.get(c.game, c.game), c.game, c.start, c.end,
                      c.text)


def print_passage(out: Console, i: int, where: str, game: str, start: int, end: int,
                  text: str) -> None:
    body = " ".join(text.split())
    if len(body) > PASSAGE_CHARS:
        body = body[: PASSAGE_CHARS - 1] + "…"
    out.print(f"  [green]{i}.[/] [dim]{escape(where)} · {game}:{start}-{end}[/]\n"
              f"     {escape(body)}")
