"""Turn ranked passages (and matching facts) into an answer, or an honest "not in the rules".

What it does: picks the sentence of the top passages that best answers the question, with
its own offsets; leads with a fact (worked out for the question's count, for a rate) when the
question turns on a number; and abstains, saying why, when the rules do not answer: a game
Hakem does not know, a number asked for a case the rules do not cover, or evidence too weak.
Also the answer's JSON shape. What it does not do: retrieval (see ``retrieve``) or fact
ranking (see ``factsearch``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from .chunks import Chunk
from .facts import FactHit
from .lexical import analyse
from .phrasing import applied_sentence, fact_json, fact_sentence
from .retrieve import Hit, Retrieval
from .text import LEADING_MARK, Span, fold, sentence_spans, stem, words

NOT_IN_RULES = "Kurallarda bu sorunun cevabı bulunamadı."
SENTENCE_POOL = 2  # passages searched for the answer sentence


@dataclass(frozen=True)
class AnswerSpan:
    game: str
    start: int
    end: int


@dataclass(frozen=True)
class Answer:
    question: str
    game: str | None
    game_source: str
    abstained: bool
    answer: str
    answer_span: AnswerSpan | None
    passages: tuple[Hit, ...]
    facts: tuple[FactHit, ...]
    reason: str = ""  # why it abstained, for people and for the eval's miss list
    calculation: Any = None  # a ``calc.Calculation`` when the rules' formula was worked out


@dataclass(frozen=True)
class AbstainConfig:
    """When the best passage is this weak on both signals, the rules do not answer."""

    min_dense: float = 0.83
    min_coverage: float = 0.2
    # With the game guessed from the question's content, at least this share of its words
    # must be the rules' words. Every game-unnamed answerable question of dev and probe to
    # probe4 has 2/3 or more; off-topic questions mostly 1/2 or less.
    min_known_share: float = 0.6


def terms_of(text: str) -> set[str]:
    """The content terms of a text as ranking sees them: stems and 5-letter prefixes."""
    fields = analyse(words(text))
    return set(fields["stem"]) | set(fields["prefix"])


def coverage(question_terms: AbstractSet[str], text: str,
             idf: Callable[[str], float] = lambda _t: 1.0) -> float:
    """IDF-weighted share of the question's content terms (stems or prefixes) in ``text``."""
    total = sum(idf(t) for t in question_terms)
    if not total:
        return 0.0
    return sum(idf(t) for t in question_terms & terms_of(text)) / total


def best_sentence(query: str, hits: tuple[Hit, ...], game_text: str,
                  idf: Callable[[str], float] = lambda _t: 1.0,
                  numeric: bool = False, fact: FactHit | None = None,
                  terms: frozenset[str] | None = None) -> Span | None:
    """The sentence of the top passages that best answers the query, with its offsets.

    When the question turns on a number and the best fact's quote stands in one of the top
    passages, the sentence holding that quote is the answer: the fact was matched on its
    subject and its number, a finer signal than shared words. Otherwise the sentence sharing
    the most (IDF-weighted) query terms wins, with a small prior for the passage's rank; a
    sentence stating a number is preferred for numeric questions. Sub-heading lines are
    names, not answers, and are skipped.
    """
    pool = hits[:SENTENCE_POOL]
    if fact is not None:
        for hit in pool:
            c = hit.chunk
            if c.game == fact.fact.game and c.start <= fact.fact.start < c.end:
                for span in _sentences(c, game_text):
                    if span.start <= fact.fact.start < span.end:
                        return span
    terms = terms if terms is not None else frozenset(terms_of(query))
    q_numbers = {w for w in words(query) if w[:1].isdigit()}
    best: tuple[float, Span] | None = None
    for rank, hit in enumerate(pool):
        spans = _sentences(hit.chunk, game_text)
        for i, span in enumerate(spans):
            sentence = game_text[span.start : span.end]
            tokens = set(words(sentence))
            score = coverage(terms, sentence, idf) + 0.3 / (rank + 1)
            if q_numbers & tokens:
                score += 0.2
            if numeric and any(t[:1].isdigit() for t in tokens):
                score += 0.1
            if len(sentence) < 25:  # a list marker or stub answers nothing
                score -= 0.3
            if i and _VERDICT.fullmatch(game_text[spans[i - 1].start : spans[i - 1].end]):
                # An FAQ answer's "Hayır." is what the player asked: keep it with its reason.
                span = Span(spans[i - 1].start, span.end)
            if best is None or score > best[0]:
                best = (score, span)
    return _with_what_it_announces(best[1], game_text) if best else None


def _with_what_it_announces(span: Span, game_text: str) -> Span:
    """A label that ends in a colon ("Kral Günü Puanlaması (King's Day Scoring):") is one
    unit with the sentence after it, even when a passage boundary falls between them."""
    if not game_text[span.start : span.end].endswith(":"):
        return span
    after = sentence_spans(game_text[span.end : span.end + 1200], offset=span.end)
    if not after:
        return span
    # A numbered list it announces is taken up to its last item ("sona erer: 1. Kazanma …
    # 2. Kaybetme …"), within ANNOUNCED_MAX characters.
    end, expected = after[0].end, 1
    for sp in after:
        if sp.end - span.start > ANNOUNCED_MAX:
            break
        marker = LEADING_MARK.match(game_text[sp.start : sp.end])
        if marker and game_text[sp.start : sp.start + marker.end()].startswith(f"{expected}."):
            end, expected = sp.end, expected + 1
    return Span(span.start, end)


ANNOUNCED_MAX = 900


_VERDICT = re.compile(r"(Evet|Hayır|Doğru|Yanlış)[.!]?")


def _sentences(chunk: Chunk, game_text: str) -> list[Span]:
    spans = sentence_spans(game_text[chunk.start : chunk.end], offset=chunk.start)
    if chunk.heading and game_text.startswith(chunk.heading, chunk.start):
        # The sub-heading line ("4. Zar Gerektiren Aksiyonlar") is a name, not an answer.
        body = [sp for sp in spans if sp.start >= chunk.start + len(chunk.heading)]
        spans = body or spans
    return spans


@dataclass(frozen=True)
class Evidence:
    """The signals that decide whether the rules answer the question at all."""

    dense: float  # cosine similarity of the query and the best passage
    coverage: float  # IDF-weighted share of the query's terms found in the top passages
    # Names of games not in the corpus ("Catan"), when the question names no known game.
    # A game picked in the request does not make "Catan'da ...?" a question about it.
    unknown_names: tuple[str, ...]
    out_of_range: bool  # the best fact is for another case than the number asked about
    # The query's terms as the corpus knows them (diacritics restored, English translated);
    # None for an English question, whose words a Turkish passage cannot share.
    terms: frozenset[str] | None = None
    # What a number question counts when no fact of the game mentions it ("RAM limiti",
    # "oyunun süresi (dakika)"): the rules state no such number. See ``asked``.
    unstated: str = ""
    # No game was named or picked, and most of the question's words are not the rules'
    # words: a question about something else ("yarın yağmur yağacak mı"). See ``AbstainConfig``.
    known_share: float = 1.0
    game_source: str = ""


def evidence(retrieval: Retrieval, facts: tuple[FactHit, ...], terms: set[str] | None,
             idf: Callable[[str], float], unknown_names: list[str],
             unstated: str = "", known_share: float = 1.0) -> Evidence:
    """``terms`` is None when word overlap cannot be judged (an English question)."""
    top = retrieval.hits[0] if retrieval.hits else None
    cover = 1.0 if terms is None else max(
        (coverage(terms, h.chunk.text, idf) for h in retrieval.hits[:3]), default=0.0)
    return Evidence(dense=top.dense if top else 0.0, coverage=cover,
                    unknown_names=tuple(unknown_names),
                    out_of_range=_out_of_range(facts) and _turns_on_number(retrieval.question),
                    terms=None if terms is None else frozenset(terms), unstated=unstated,
                    known_share=known_share, game_source=retrieval.game_source)


def _out_of_range(facts: tuple[FactHit, ...]) -> bool:
    """The best facts that say something about the number asked ("4 oyunculu") all give
    their numbers for other cases (2 and 3 players), and none for this one."""
    related = [f for f in facts if f.in_range is not None]
    return bool(related) and not any(f.in_range for f in related)


def abstain_reason(ev: Evidence, config: AbstainConfig) -> str:
    """Why the rules do not answer, or "" when they do."""
    if ev.unknown_names:
        return f"names a game not in the corpus: {', '.join(ev.unknown_names)}"
    if ev.out_of_range:
        return "the rules give this number only for other cases"
    if ev.unstated:
        return f"no fact of the game gives a number of: {ev.unstated}"
    if ev.game_source == "content" and ev.known_share < config.min_known_share:
        return f"off topic: {ev.known_share:.0%} of the words are the rules' words"
    if ev.dense < config.min_dense and ev.coverage < config.min_coverage:
        return f"weak match (dense {ev.dense:.2f}, term coverage {ev.coverage:.2f})"
    return ""


def compose(retrieval: Retrieval, facts: tuple[FactHit, ...], game_text: str | None,
            ev: Evidence, idf: Callable[[str], float] = lambda _t: 1.0,
            config: AbstainConfig | None = None) -> Answer:
    """The answer: facts and the best sentence, or an abstention that says why."""
    hits = retrieval.hits
    reason = abstain_reason(ev, config or AbstainConfig())
    if reason or not hits or game_text is None:
        return Answer(retrieval.question, retrieval.game, retrieval.game_source, True,
                      _abstain_text(ev, facts), None, hits, facts if ev.out_of_range else (),
                      reason or "no passages")
    numeric = _turns_on_number(retrieval.question)
    top_fact = facts[0] if facts and numeric else None
    span = best_sentence(retrieval.query, hits, game_text, idf, numeric, top_fact, ev.terms)
    text = game_text[span.start : span.end] if span else hits[0].chunk.text
    answer_span = AnswerSpan(hits[0].chunk.game, span.start, span.end) if span else None
    if top_fact is not None:
        lead = applied_sentence(top_fact.fact, *top_fact.applied) if top_fact.applied \
            else fact_sentence(top_fact.fact)
        text = f"{lead}. {text}"
    return Answer(retrieval.question, retrieval.game, retrieval.game_source, False, text,
                  answer_span, hits, facts)


def _capitalised(name: str) -> str:
    """A name as a title: "azul" → "Azul", "istanbul" → "İstanbul" (Turkish dotted İ)."""
    first = {"i": "İ", "ı": "I"}.get(name[:1], name[:1].upper())
    return first + name[1:]


def _abstain_text(ev: Evidence, facts: tuple[FactHit, ...]) -> str:
    if ev.unknown_names:
        names = ", ".join(_capitalised(n) for n in ev.unknown_names)
        return f"{NOT_IN_RULES} ({names} bu kural setinde yok.)"
    if ev.unstated:
        return f"{NOT_IN_RULES} (Kurallarda “{ev.unstated}” için bir sayı verilmiyor.)"
    if ev.out_of_range:
        known = "; ".join(fact_sentence(f.fact) for f in facts[:2])
        return f"Kurallar bu sayıyı sorduğunuz durum için vermiyor. Verilenler: {known}."
    if ev.game_source == "content" and ev.known_share < AbstainConfig().min_known_share:
        return (f"{NOT_IN_RULES} (Soru buradaki oyunların kurallarına benzemiyor; "
                "oyunun adını yazarsanız o oyunun kurallarında ararım.)")
    return NOT_IN_RULES


# Folded, so that "kac" typed without Turkish letters is "kaç".
_NUMBER_WORDS = {fold(stem(w)) for w in ("kaç", "kaçıncı", "sayı", "en", "fazla", "az",
                                         "puan", "many", "much", "how")}


def _turns_on_number(question: str) -> bool:
    tokens = words(question)
    return any(t[:1].isdigit() for t in tokens) or any(
        fold(stem(t)) in _NUMBER_WORDS or fold(t) in _NUMBER_WORDS for t in tokens)


def answer_json(answer: Answer) -> dict[str, Any]:
    """The answer in the HTTP API's shape: one shape for every machine reader."""
    span = answer.answer_span
    return {
        "question": answer.question, "game": answer.game, "game_source": answer.game_source,
        "abstained": answer.abstained, "answer": answer.answer,
        "answer_span": {"game": span.game, "start": span.start, "end": span.end} if span else None,
        "passages": [{"id": h.chunk.id, "game": h.chunk.game, "section": h.chunk.section,
                      "kind": h.chunk.kind, "start": h.chunk.start, "end": h.chunk.end,
                      "text": h.chunk.text, "score": round(h.score, 6)}
                     for h in answer.passages],
        "facts": [{**fact_json(f.fact, f.score),
                   **({"applied": {"count": f.applied[0], "value": f.applied[1],
                                   "sentence": applied_sentence(f.fact, *f.applied)}}
                      if f.applied else {})}
                  for f in answer.facts],
        "calculation": None if answer.calculation is None else {
            "value": answer.calculation.value, "result": answer.calculation.result,
            "working": answer.calculation.working, "missing": list(answer.calculation.missing),
            "citations": [{"game": c.game, "start": c.start, "end": c.end}
                          for c in answer.calculation.citations]},
    }
