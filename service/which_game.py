"""One answer for a question that names no game and fits several games about equally.

What it does: joins the answers from the likeliest games into one, each under its game's
name, with a line asking the player to name or pick the game; each cites its first
passages (``PASSAGES_EACH``) and its sentences.
What it does not do: decide when a question is ambiguous (``engine.GAME_MARGIN``, from the
retrieval's ``game_scores``) or answer any game (the ordinary pipeline does, once per game).
"""

from __future__ import annotations

from dataclasses import replace

from .answer import Answer
from .corpus import Corpus

ASK_GAME = ("Soruda oyun adı yok ve soru birden çok oyuna uyuyor; "
            "oynadığınız oyunun cevabına bakın.")
NAME_IT = "Oyunun adını yazar ya da seçerseniz yalnız onun kurallarıyla cevaplarım."
PASSAGES_EACH = 3  # the page shows the first passage; the rest sit one tap away


def all_games(first: Answer, others: list[Answer], corpus: Corpus) -> Answer:
    """``first`` (the likeliest game's answer) with ``others`` after it, each under its
    game's name. A game whose rules do not answer the question is left out, and so is a
    hedged answer when another game's rules answer outright (on the read sets' 19 such
    questions this dropped only another game's answer: a hedged one is its nearest rule,
    not a ruling). When one answer is left, it is the answer."""
    if first.abstained:  # another game's nearest rule would answer an unanswered question
        return first
    answers = [a for a in (first, *others) if not a.abstained and a.game is not None]
    answers = [a for a in answers if not a.hedged] or answers
    if len(answers) == 1:  # still a game guessed from the question's content
        return replace(answers[0], game_source=first.game_source)
    lines = [ASK_GAME, *(_under(corpus.game(a.game or "").name, a.answer) for a in answers),
             NAME_IT]
    return replace(
        answers[0], answer="\n".join(lines), game_source=first.game_source,
        spans=tuple(s for a in answers for s in a.spans),
        passages=tuple(h for a in answers for h in a.passages[:PASSAGES_EACH]),
        # The facts table and the working line are one game's: the page would show them
        # under the other games' answers too. Each answer's own lead (a fact, a worked
        # result) stays in its text, under its game's name.
        facts=(), calculation=None,
        hedged=answers[0].hedged,
        other_games=tuple(a.game for a in answers[1:] if a.game))


def _under(name: str, text: str) -> str:
    """The answer under its game's name, once: a lesson's part already starts with it."""
    return text if text.startswith(f"{name}:") else f"{name}: {text}"
