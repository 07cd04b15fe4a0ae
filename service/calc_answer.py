"""How a calculation shapes the answer a player reads.

What it does: puts the rule calculator's result first in an answer, in place of a fact's
number, with the calculation attached (``with_calculation``); for a question about the
player's own numbers that no formula works out, says so first instead of leading with a
rule's number that would read as the player's result (``without_unworked_number``); and the
calculation's JSON shape. What it does not do: choose or evaluate a formula (``calc``), or
choose the answer's sentences (``choose``).
"""

from __future__ import annotations

from dataclasses import replace

from .answer import Answer, AnswerSpan, led_by_fact
from .calc import Calculation
from .facts import fact_numbers
from .numbers import numbers_in
from .retrieve import Hit
from .text import sentence_spans

UNWORKED = "Bu durumun sonucunu kurallardaki bir formülle hesaplayamadım."


SHOWN_RULES = 2  # rule sentences quoted after a worked result; all are cited


def with_calculation(answer: Answer, calc: Calculation | None,
                     game_text: str | None = None) -> Answer:
    """The answer leading with the calculation's result (in place of a fact's number),
    the calculation attached. An abstention on weak evidence is overridden by a worked
    result, which cites the rules it rests on. With ``game_text``, a worked result is
    followed by the rule sentences it was worked out from, and the passages holding them
    come first: the sentences chosen for the question's words (a fact's band, the
    rulebook's example) are not what the number rests on."""
    if calc is None or (answer.abstained and calc.value is None):
        return answer
    if calc.value is not None and game_text is not None and calc.citations:
        spans = rule_sentences(calc, game_text)
        rest = " ".join(game_text[sp.start : sp.end] for sp in spans[:SHOWN_RULES])
        return replace(answer, abstained=False, reason="", answer=f"{calc.result}. {rest}",
                       answer_span=spans[0], spans=spans, calculation=calc,
                       passages=_citing_first(answer.passages, spans))
    rest = answer.answer[len(led_by_fact(answer)):] if not answer.abstained else ""
    span = answer.answer_span
    if answer.abstained or span is None:
        first = calc.citations[0]
        span = AnswerSpan(first.game, first.start, first.end)
        rest = first.quote
    spans = answer.spans if not answer.abstained and answer.spans else (span,)
    return replace(answer, abstained=False, reason="", answer=f"{calc.result}. {rest}",
                   answer_span=span, spans=spans, calculation=calc)


def rule_sentences(calc: Calculation, game_text: str) -> tuple[AnswerSpan, ...]:
    """The whole sentences of the text that hold the calculation's quotes, in order."""
    out: list[AnswerSpan] = []
    for c in calc.citations:
        start = game_text.rfind("\n", 0, c.start) + 1
        end = game_text.find("\n", c.end)
        end = len(game_text) if end < 0 else end
        held = [sp for sp in sentence_spans(game_text[start:end], offset=start)
                if sp.start < c.end and c.start < sp.end]
        span = AnswerSpan(c.game, min((sp.start for sp in held), default=c.start),
                          max((sp.end for sp in held), default=c.end))
        if span not in out:
            out.append(span)
    return tuple(out)


def _citing_first(passages: tuple[Hit, ...], spans: tuple[AnswerSpan, ...]) -> tuple[Hit, ...]:
    def cites(h: Hit) -> bool:
        return any(h.chunk.game == sp.game and h.chunk.start <= sp.start < h.chunk.end
                   for sp in spans)
    return tuple(sorted(passages, key=lambda h: not cites(h)))  # stable: the rest keep order


def without_unworked_number(answer: Answer) -> Answer:
    """For a question about the player's own numbers that no formula works out: the
    answer says so first instead of leading with a rule's number (the rate, or the
    rulebook's example), which would read as the player's result; the rule stays cited.
    A fact that holds for the number asked about (in range, or a rate worked out for the
    question's count) still leads."""
    if answer.abstained or answer.calculation is not None:
        return answer
    top = answer.facts[0] if answer.facts else None
    if top is not None and (top.in_range or top.applied):
        return answer
    asked = set(numbers_in(answer.question)) - {0.0}
    if top is not None and asked <= fact_numbers(top.fact) | set(numbers_in(top.fact.quote)):
        return answer  # the numbers asked about are the rule's own ("her 2 … için 1 …")
    rest = answer.answer[len(led_by_fact(answer)):]
    return replace(answer, answer=f"{UNWORKED} {rest}")
