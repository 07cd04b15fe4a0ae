"""How a calculation shapes the answer a player reads.

What it does: puts the rule calculator's result first in an answer, in place of a fact's
number, with the calculation attached (``with_calculation``); for a question about the
player's own numbers that no formula works out, says so first instead of leading with a
rule's number that would read as the player's result (``without_unworked_number``); and the
calculation's JSON shape. What it does not do: choose or evaluate a formula (``calc``), or
choose the answer's sentences (``choose``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from itertools import combinations, pairwise

from .answer import Answer, AnswerSpan, led_by_fact
from .bind_groups import breakdowns
from .bind_words import EVERY, RATE_WORDS
from .facts import fact_numbers
from .mentions import tokens
from .numbers import numbers_in
from .retrieve import Hit
from .text import sentence_spans
from .working import Calculation

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
    left = unread(answer.question, calc) if calc.value is not None else ()
    # Said first: a result leaving out part of the player's situation read as its total.
    result = (f"Sorudaki {', '.join(left)} hariç hesap: " if left else "") + calc.result
    if calc.value is not None and game_text is not None and calc.citations:
        spans = rule_sentences(calc, game_text)
        rest = " ".join(game_text[sp.start : sp.end] for sp in spans[:SHOWN_RULES])
        return replace(answer, abstained=False, reason="", answer=f"{result}. {rest}",
                       answer_span=spans[0], spans=spans, calculation=calc,
                       passages=_citing_first(answer.passages, spans))
    rest = answer.answer[len(led_by_fact(answer)):] if not answer.abstained else ""
    span = answer.answer_span
    if answer.abstained or span is None:
        first = calc.citations[0]
        span = AnswerSpan(first.game, first.start, first.end)
        rest = first.quote
    spans = answer.spans if not answer.abstained and answer.spans else (span,)
    return replace(answer, abstained=False, reason="", answer=f"{result}. {rest}",
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


_JOINS = frozenset(("ve", "veya", "ile", "ya", "da", "de", "and", "or"))
_DASHES = frozenset("-–")
_ALL_OF = re.compile(r"(?i)(?:ikisi|üçü|ucu|dördü|dordu|beşi|besi|hepsi)\s+(?:de|da)\b")
_ORDINAL = re.compile(r"\.\s*\w")  # "6. raunt", "1. oldum": a rank, not a count


def unread(question: str, calc: Calculation) -> tuple[str, ...]:
    """The numbers the player stated that the result was not worked from, each with the
    word that says what it counts ("skorum 87", "3 gürültü"): a result that leaves out a
    part of the player's situation (a prior score, a second round) reads as the total
    asked unless the answer says what it left out. Ranks ("2. raunt", "ikinci") and 0 (a
    space's name) are names, not counts."""
    question = unicodedata.normalize("NFC", question)  # as the calculator read it
    toks = tokens(question)
    read = set(calc.read)
    # A number the rule itself states ("beş bitiş koşulundan", the card's "1 kart çek") or
    # the whole of numbers read ("3 Kral Günü": 2 + 1 of them; "2 ve 3 olan iki karo") is
    # the player saying what the result rests on, not a part left out.
    spans = sorted(read)
    # (a span read without a number in it is a "one of" word: "birinde", "biri")
    values = [next(iter(numbers_in(question[a:b])), 1.0) for a, b in spans]
    wholes = {float(len(values)), *map(float, calc.listed)} | {
        sum(c) for n in range(2, min(len(values), 6) + 1) for c in combinations(values, n)}
    run = 1  # numbers listed together ("2, 5 ve 3"): how many they are is no other count
    for (_, end), (start, _) in pairwise(spans):
        between = re.findall(r"\w+", question[end:start])
        run = run + 1 if all(w.casefold() in _JOINS for w in between) else 1
        wholes.add(float(run))
    ruled = {x for c in calc.citations for x in numbers_in(c.quote)}
    out: list[str] = []
    told = breakdowns(question, toks)  # "11 (7 temiz 4 kirli)": the 11, told by kind
    for i, t in enumerate(toks):
        if t.number is None or t.text or not t.number or (t.start, t.end) in read or i in told:
            continue
        if _ORDINAL.match(question, t.end) and not question[t.end + 1 :].lstrip()[:1].isdigit():
            continue
        if question[t.start - 1 : t.start] in _DASHES or question[t.end : t.end + 1] in _DASHES:
            continue  # an end of a range ("0-9 numaralı zar"): a name of the die, not a count
        if t.number in wholes or t.number in ruled:
            continue
        if _ALL_OF.match(question, t.start):
            continue  # "d4, d6, d8 üçü de 3", "ikisi de 5'lik": all of the things just named
        if i and toks[i - 1].text in RATE_WORDS and any(
                w.text in EVERY for w in toks[max(0, i - 6):i]):
            continue  # "her değer çifti için 1 kart çek": a card's rate, not a part left out
        after = toks[i + 1] if i + 1 < len(toks) else None
        before = toks[i - 1] if i else None
        if after is not None and after.text.isalpha() and after.text not in _JOINS \
                and after.start - t.end <= 1:
            out.append(question[t.start : after.end])
        elif before is not None and before.text.isalpha() and before.text not in _JOINS \
                and t.start - before.end <= 1:
            out.append(question[before.start : t.end])
        else:
            out.append(question[t.start : t.end])
    return tuple(f"“{w}”" for w in out)
