"""Turn ranked passages (and matching facts) into an answer, or an honest "not in the rules".

What it does: gathers the signals that decide whether the rules answer the question
(``Evidence``, judged by ``answerability``), and writes the answer: the rule sentences that
settle it (chosen by ``choose``, each with its own offsets), led by the matching fact when the
question asks for a number, by "Evet"/"Hayır" only when the chosen FAQ answer itself says so;
or an abstention that says why. Also the answer's JSON shape. What it does not do: retrieval
(``retrieve``), fact ranking (``factsearch``), which fact leads (``lead``), or picking
sentences (``choose``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from .absent import absent_count
from .answerability import Model, decide, hedged
from .candidates import PRIOR, SentenceModel
from .choose import Vectors, best_coverage, best_meaning, choose, coverage
from .facts import Fact, FactHit
from .lead import echoes, fact_lead, lead_fact
from .phrasing import applied_sentence, fact_json, fact_sentence
from .question import Question
from .retrieve import Hit, Retrieval
from .working import Calculation, calculation_json

NOT_IN_RULES = "Kurallarda bu sorunun cevabı bulunamadı."
NO_WORDS = "Soruda harf ya da rakam yok; kurallarla ilgili bir soru yazın."
HEDGE = "Kurallar bunu açıkça söylemiyor olabilir; en yakın kural:"


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
    spans: tuple[AnswerSpan, ...] = ()  # every sentence the answer quotes (one per part)
    kind: str = ""  # the question's type (``Question.kind``)
    calculation: Calculation | None = None  # when the rules' formula was worked out
    # Answered on weak evidence: the rules may not settle it (``answerability.hedged``); the
    # text says so first (``with_hedge``).
    hedged: bool = False
    # No game named or picked and the question fits several: the other games, whose answers
    # the text gives after this game's (``which_game``).
    other_games: tuple[str, ...] = ()


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
    # What a number question counts when no fact of the game mentions it ("RAM limiti"):
    # the rules state no such number. See ``asked``.
    unstated: str = ""
    known_share: float = 1.0  # share of the question's words that the rules use
    game_source: str = ""
    dense_margin: float = 0.0  # best passage's similarity over the fifth's
    lexical: float = 0.0  # best BM25 score among the passages
    sentence_coverage: float = 0.0  # the best single sentence's share of the query's terms
    fact_score: float = 0.0  # the best fact's score (0 when none)
    missing: float = 0.0  # rarity of the rarest question word the top passages lack
    foreign_names: int = 0  # name-like words the corpus never uses, English ones included
    sentence_dense: float = 0.0  # the closest candidate sentence's cosine similarity
    question: Question | None = None


def evidence(q: Question, retrieval: Retrieval, facts: tuple[FactHit, ...],
             terms: set[str] | None, idf: Callable[[str], float], game_text: str | None,
             unknown_names: list[str], unstated: str = "",
             known_share: float = 1.0, missing: float = 0.0,
             foreign_names: int = 0, vectors: Vectors | None = None) -> Evidence:
    """``terms`` is None when word overlap cannot be judged (an English question)."""
    hits = retrieval.hits
    top = hits[0] if hits else None
    cover = 1.0 if terms is None else max(
        (coverage(terms, h.chunk.text, idf) for h in hits[:3]), default=0.0)
    sentence = 1.0 if terms is None else (
        best_coverage(hits, game_text, frozenset(terms), idf) if game_text else 0.0)
    dense = [h.dense for h in hits[:5]]
    return Evidence(dense=top.dense if top else 0.0, coverage=cover,
                    unknown_names=tuple(unknown_names),
                    out_of_range=_out_of_range(facts) and q.how_many,
                    terms=None if terms is None else frozenset(terms), unstated=unstated,
                    known_share=known_share, game_source=retrieval.game_source,
                    dense_margin=(dense[0] - dense[-1]) if dense else 0.0,
                    lexical=max((h.lexical for h in hits[:5]), default=0.0),
                    sentence_coverage=sentence,
                    fact_score=facts[0].score if facts else 0.0, missing=missing,
                    foreign_names=foreign_names,
                    sentence_dense=best_meaning(hits, game_text, retrieval.query_vector,
                                                vectors) if game_text else 0.0,
                    question=q)


def _out_of_range(facts: tuple[FactHit, ...]) -> bool:
    """The best facts that say something about the number asked ("4 oyunculu") all give
    their numbers for other cases (2 and 3 players), and none for this one."""
    related = [f for f in facts if f.in_range is not None]
    return bool(related) and not any(f.in_range for f in related)


def no_words(q: Question) -> Answer:
    """A question with no letter or digit ("→→→", an emoji) asks nothing."""
    return Answer(q.raw, None, "none", True, NO_WORDS, None, (), (), "no words", (), q.kind)


def compose(q: Question, retrieval: Retrieval, facts: tuple[FactHit, ...],
            game_text: str | None, ev: Evidence, model: Model,
            idf: Callable[[str], float] = lambda _t: 1.0,
            part_terms: Callable[[str], set[str] | None] | None = None,
            vectors: Vectors | None = None,
            part_vector: Callable[[str], np.ndarray] | None = None,
            ranker: SentenceModel = PRIOR, situation: bool = False) -> Answer:
    """The answer: the sentences that settle it (and the fact, for a number), or an
    abstention that says why. ``situation``: the question states the player's own numbers
    for a rule the calculator knows; a matched fact is then the rule's rate, not the answer."""
    hits = retrieval.hits
    reason = decide(ev, model)
    absent = absent_count(hits, game_text, ev.unstated.split()) if reason and ev.unstated \
        and not ev.unknown_names and not ev.out_of_range and game_text else None
    if absent is not None and game_text is not None:  # (for the type checker)
        # No fact gives the number because the rules say there is none: that is the answer.
        span = AnswerSpan(hits[0].chunk.game, absent.start, absent.end)
        said = " ".join(unmarked([_capitalised(game_text[absent.start : absent.end])]))
        return Answer(retrieval.question, retrieval.game, retrieval.game_source, False, said,
                      span, hits, (), "", (span,), q.kind)
    if reason or not hits or game_text is None:
        return Answer(retrieval.question, retrieval.game, retrieval.game_source, True,
                      _abstain_text(ev, facts), None, hits, facts if ev.out_of_range else (),
                      reason or "no passages", (), q.kind)
    top_fact = lead_fact(q, facts)
    terms = ev.terms if ev.terms is not None else frozenset()
    choice = choose(q, hits, game_text, terms, idf, sentence_fact(q, facts),
                    (lambda part: part_terms(part) or set()) if part_terms else None,
                    retrieval.query_vector, vectors,
                    part_vector if retrieval.query_vector is not None else None, ranker,
                    # On weak evidence a matched number is as likely another case's (a
                    # count the rules never give, answered with a nearby one: judged).
                    leads=top_fact is not None and not situation and not hedged(ev, model))
    # A sentence read from after its FAQ verdict ("Evet — ama aynı kademeye …") starts in
    # lower case; the answer starts it as a sentence (the cited span is the text's own).
    texts = [_capitalised(game_text[sp.start : sp.end]) for sp in choice.spans] \
        or [hits[0].chunk.text]
    text = " ".join(unmarked(texts))
    game = hits[0].chunk.game
    spans = tuple(AnswerSpan(game, sp.start, sp.end) for sp in choice.spans)
    fact = top_fact.fact if top_fact is not None else None
    # The fact's own sentence must be a chosen one, not one read after it as explanation.
    quoted = fact is not None and any(sp.start <= fact.start < sp.end
                                      for sp in choice.core or choice.spans)
    weak = hedged(ev, model)
    # Under the hedge ("the rules may not say this; the closest rule:") a number put first
    # still reads as the answer; the closest rule is shown as it stands.
    if top_fact is not None and (quoted or top_fact.applied) and not echoes(q, top_fact) \
            and not weak:
        # A fact leads only with the sentence that states it (or its rate worked out): a
        # number from elsewhere in the rules, put first, misleads (measured on dev, dev2,
        # probe4 and probe5: 2 of 3 such leads were wrong). The player's own numbers that
        # no rule works out are the calculator's to flag (``calc_answer.without_unworked_number``).
        text = f"{fact_lead(top_fact)}. {text}"
    elif choice.verdict:
        text = f"{choice.verdict}. {text}"
    return Answer(retrieval.question, retrieval.game, retrieval.game_source, False, text,
                  spans[0] if spans else None, hits, facts, "", spans, q.kind,
                  hedged=weak)


def sentence_fact(q: Question, facts: tuple[FactHit, ...]) -> Fact | None:
    """The fact whose sentence is likeliest to answer: the one that may lead the answer, or
    for a which/what question the best match, whether or not its number may lead."""
    top = lead_fact(q, facts) or (facts[0] if facts and q.kind == "other" else None)
    return top.fact if top else None


def with_hedge(answer: Answer) -> Answer:
    """A hedged answer's text says first that the rules may not settle the question: the
    closest rule is shown, not presented as the ruling. A worked calculation is not hedged:
    it rests on the formula the rules state."""
    if not answer.hedged or answer.abstained or answer.calculation is not None:
        return replace(answer, hedged=False) if answer.hedged else answer
    # A number put first reads as the ruling, hedge or not; the quoted rule still states it.
    text = answer.answer[len(led_by_fact(answer)):]
    return replace(answer, answer=f"{HEDGE} {text}")


def led_by_fact(answer: Answer) -> str:
    """The fact lead ``compose`` put before the answer's sentences ("12 jeton. "), or ""."""
    if not answer.facts:
        return ""
    lead = f"{fact_lead(answer.facts[0])}. "
    return lead if answer.answer.startswith(lead) else ""


_MARKER = re.compile(r"^(?:\d{1,2}[.)]|[-•–*])\s+")


def unmarked(texts: list[str]) -> list[str]:
    """The shown sentences without a list marker before the first one when it is read alone.

    One item of a numbered list shown by itself ("2. Kriz kartları …") reads as a stray
    number put first (judged a leftover fragment); a run of items keeps its markers.
    """
    if not texts or (len(texts) > 1 and _MARKER.match(texts[1])):
        return texts
    return [_capitalised(_MARKER.sub("", texts[0], count=1)) or texts[0], *texts[1:]]


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
    if ev.game_source == "content":
        return (f"{NOT_IN_RULES} (Soru buradaki oyunların kurallarında geçmiyor gibi; "
                "oyunun adını yazarsanız o oyunun kurallarında ararım.)")
    return NOT_IN_RULES


def answer_json(answer: Answer) -> dict[str, Any]:
    """The answer in the HTTP API's shape: one shape for every machine reader."""
    span = answer.answer_span
    return {
        "question": answer.question, "game": answer.game, "game_source": answer.game_source,
        "other_games": list(answer.other_games),
        "abstained": answer.abstained, "answer": answer.answer,
        "answer_span": {"game": span.game, "start": span.start, "end": span.end} if span else None,
        "answer_spans": [{"game": s.game, "start": s.start, "end": s.end} for s in answer.spans],
        "kind": answer.kind, "hedged": answer.hedged,
        "passages": [{"id": h.chunk.id, "game": h.chunk.game, "section": h.chunk.section,
                      "kind": h.chunk.kind, "start": h.chunk.start, "end": h.chunk.end,
                      "text": h.chunk.text, "score": round(h.score, 6)}
                     for h in answer.passages],
        "facts": [{**fact_json(f.fact, f.score),
                   **({"applied": {"count": f.applied[0], "value": f.applied[1],
                                   "sentence": applied_sentence(f.fact, *f.applied)}}
                      if f.applied else {})}
                  for f in answer.facts],
        "calculation": calculation_json(answer.calculation),
    }
