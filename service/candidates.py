"""The candidate answer sentences of the top passages, and the score that ranks them.

What it does: lists the sentences of the best passages (each with its passage's rank, its
FAQ verdict if any, and its closeness in meaning to the question), describes each by generic
signals (the question's terms it carries, IDF-weighted, and those of its passage, its
heading and its neighbours; the passage's retrieval score; the numbers it states; a rule's
modality for a yes/no question; whether it is a definition, a component's caption, a worked
example, an FAQ question) and scores it with a linear model. The shipped model is fitted on
the question sets' evidence sentences (``make fit-choice``, reported leave-one-set-out) and
read from a versioned JSON file beside the corpus; without that file the hand-set prior
below is used, the weights this stage had before it was fitted. Nothing here names a game or
a word of one. What it does not do: pick the parts' sentences, keep a verdict or extend a
sentence into its explanation (``choose``), or fit the model (``hakem_eval.fit_choice``).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from contextlib import suppress
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from .chunks import chunk_sentences
from .errors import HakemError, IndexNotReady
from .facts import Fact
from .lexical import analyse
from .question import Question
from .retrieve import Hit
from .text import Span, fold, words
from .weights import read_weights

Vectors = Mapping[tuple[str, int, int], np.ndarray]

FORMAT = 1
REFIT = "make fit-choice"
SENTENCE_POOL = 2  # passages whose sentences are candidates, unless a model says otherwise

VERDICT = re.compile(r"(Evet|Hayır|Doğru|Yanlış)[.!]?")
# An FAQ answer's verdict written into its first sentence ("Evet — ama …", "Doğru, …",
# "Normalde hayır -- …"); a contrast right after it ("— ama") turns it.
OPENER = re.compile(r"(?:Normalde )?(Evet|Hayır|hayır|evet|Doğru|Yanlış)\s*(?:—|–|--|,|:)\s*"
                    r"(?:(ama|ancak|fakat)\s+)?")
# What cannot be done, folded ("seçemezsiniz", "yapılamaz", "kullanamıyorsunuz").
_CANNOT = re.compile(r"\w+(?:amaz|emez|amiyor|emiyor|amiyo|emiyo)\w*")
# A rule's modality, folded: what a yes/no question about a rule is decided by.
_MODAL = re.compile(r"\w*(?:abil|ebil|amaz|emez|amay|emey|mali|meli|zorunda|gerek)\w*"
                    r"|yalnizca|sadece|degil|olamaz|yok|hayir|evet|asla|her zaman")
# A sentence that states an order, folded: "aşağıdan yukarıya doğru sırasıyla d4, d6 …",
# "soldan sağa doldurulur", "önce X, sonra Y", "(1) … (2) …".
_STATES_ORDER = re.compile(r"sirasiyla|sirayla|\b(?:asagidan|alttan|ustten|yukaridan) "
                           r"(?:yukari|uste|alta|asagi)\w*|\bsoldan saga\b|\bsagdan sola\b"
                           r"|\bonce\b.*\b(?:sonra|ardindan)\b|\(1\)")
# A worked example of the rulebook ("Örneğin Enerji Talebi 12 ise …"): its numbers are not
# the player's, and shown as the answer they mislead.
EXAMPLE = re.compile(r"^(?:[-•(]\s*)?(?:Örne(?:ğin|k)|Mesela|Ör\.)", re.IGNORECASE)
# "Ana Hedef (Main Objective): …", "- Kart Verme (Hand Off): …": a term and its definition.
_DEFINITION = re.compile(r"^(?:[-•]\s*|\d{1,2}\.\s*)?[^.:;!?]{1,60}\([^()]{2,40}\)\s*:")

# The signals, in the model's order.
FEATURES = ("coverage", "rank", "meaning", "question_number", "number", "fact", "stub",
            "definition", "caption", "modal", "example", "order", "passage_coverage",
            "heading_coverage", "passage_score", "passage_dense", "length", "next_coverage",
            "previous_coverage", "faq_yes_no", "verdict_yes_no", "asks_back", "precision",
            "how_many_number")
# The weights this stage was hand-set with before it was fitted (every other weight 0).
_PRIOR = {"coverage": 1.0, "rank": 0.3, "meaning": 0.1, "question_number": 0.2, "number": 0.1,
          "fact": 1.0, "stub": -0.3, "definition": -0.25, "caption": -0.25, "modal": 0.1,
          "example": -0.25, "order": 0.5}


class ChoiceModelNotReady(IndexNotReady):
    """The sentence model file is damaged (served as "not ready")."""

    def __init__(self, reason: str) -> None:
        HakemError.__init__(self, f"{reason}. Rebuild it with: {REFIT}")
        self.reason = reason


@dataclass(frozen=True)
class SentenceModel:
    """score = Σ wᵢ (xᵢ − μᵢ) / σᵢ over ``FEATURES``, among the sentences of ``pool``
    passages (one more for an order question)."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    pool: int = SENTENCE_POOL
    checksum: str = ""  # of the file it was read from; "" for the prior

    def score(self, values: Sequence[float]) -> float:
        return sum(w * (x - mu) / (sd or 1.0)
                   for x, mu, sd, w in zip(values, self.mean, self.scale, self.coef,
                                           strict=True))

    def to_json(self) -> dict[str, object]:
        return {"format": FORMAT, "features": list(FEATURES), "mean": list(self.mean),
                "scale": list(self.scale), "coef": list(self.coef), "pool": self.pool}


PRIOR = SentenceModel(tuple(0.0 for _ in FEATURES), tuple(1.0 for _ in FEATURES),
                      tuple(_PRIOR.get(name, 0.0) for name in FEATURES))


def load_sentence_model(path: Path) -> SentenceModel:
    """The fitted model, or the prior when there is no file; a damaged file names the
    command that rebuilds it."""
    if not path.exists():
        return PRIOR
    try:
        w = read_weights(path, FORMAT, FEATURES)
        pool = int(w.data["pool"])
        if not 1 <= pool <= 10 or not all(math.isfinite(x) for x in (*w.mean, *w.scale, *w.coef)):
            raise ValueError("its pool or weights are out of range")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ChoiceModelNotReady(f"the sentence model {path} is damaged ({exc})") from exc
    return SentenceModel(w.mean, w.scale, w.coef, pool, hashlib.sha256(w.raw).hexdigest())


@lru_cache(maxsize=8192)
def terms_of(text: str) -> frozenset[str]:
    """The content terms of a text as ranking sees them: stems and 5-letter prefixes."""
    fields = analyse(words(text))
    return frozenset(fields["stem"]) | frozenset(fields["prefix"])


def coverage(question_terms: AbstractSet[str], text: str,
             idf: Callable[[str], float] = lambda _t: 1.0) -> float:
    """IDF-weighted share of the question's content terms (stems or prefixes) in ``text``."""
    total = sum(idf(t) for t in question_terms)
    if not total:
        return 0.0
    return sum(idf(t) for t in question_terms & terms_of(text)) / total


@dataclass(frozen=True)
class Candidate:
    rank: int
    span: Span
    text: str
    verdict: str  # the FAQ verdict just before it, or opening it ("Doğru, …"), if any
    meaning: float = 0.0  # closeness in meaning to the question, z-scored among candidates
    # A components list's caption: what a thing is, not how it is played.
    described: bool = False
    # The verdict opens the sentence itself ("Evet — ama …"), not a sentence of its own.
    opener: int = 0  # its length
    # The FAQ answer says two things: its verdict answers one of them, not the player's
    # question (it turns: "Evet — ama …"; or beside "Evet" it says what cannot be done).
    mixed: bool = False


@lru_cache(maxsize=64)
def candidates(hits: tuple[Hit, ...], game_text: str) -> tuple[Candidate, ...]:
    """Every sentence of ``hits`` but a bare verdict ("Hayır."), which is the next one's."""
    out: list[Candidate] = []
    for rank, hit in enumerate(hits):
        spans = chunk_sentences(hit.chunk, game_text)
        for i, span in enumerate(spans):
            text = game_text[span.start : span.end]
            if VERDICT.fullmatch(text):
                continue
            before = game_text[spans[i - 1].start : spans[i - 1].end] if i else ""
            bare = VERDICT.fullmatch(before) if i else None
            opens = OPENER.match(text)
            said = bare.group(1) if bare else opens.group(1).capitalize() if opens else ""
            out.append(Candidate(rank, span, text, said,
                                 described=hit.chunk.kind == "components"
                                 and _whole_line(span, game_text),
                                 opener=opens.end() if opens else 0,
                                 mixed=bool(opens and opens.group(2))
                                 or (said == "Evet" and _says_cannot(span, game_text))))
    return tuple(out)


def _says_cannot(span: Span, text: str) -> bool:
    """The FAQ answer (the rest of the sentence's line) says what cannot be done."""
    line_end = text.find("\n", span.start)
    return bool(_CANNOT.search(fold(text[span.start : len(text) if line_end < 0 else line_end])))


def _whole_line(span: Span, text: str) -> bool:
    """The sentence is its line's only one: a caption under a component's name ("Yüksek
    okyanus sayılarını takip etmek için"), not a paragraph of rules about it."""
    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    before = text[line_start : span.start].strip(" \t-•")
    after = text[span.end : len(text) if line_end < 0 else line_end].strip()
    return not before and not after


def with_meaning(pool: list[Candidate], game: str, query_vector: np.ndarray | None,
                 vectors: Vectors | None) -> list[Candidate]:
    if query_vector is None or not vectors or not pool:
        return pool
    rows = [vectors.get((game, c.span.start, c.span.end)) for c in pool]
    if any(r is None for r in rows):  # an index without this sentence: words alone
        return pool
    sims = np.stack([r for r in rows if r is not None]) @ query_vector
    z = (sims - sims.mean()) / (float(sims.std()) or 1.0)
    return [replace(c, meaning=float(m)) for c, m in zip(pool, z, strict=True)]


def features(c: Candidate, q: Question, terms: AbstractSet[str], idf: Callable[[str], float],
             fact: Fact | None, hits: Sequence[Hit], pool: Sequence[Candidate]) -> list[float]:
    """The signals of one candidate sentence for this question, in ``FEATURES`` order."""
    tokens = set(words(c.text))
    hit = hits[c.rank]
    asks_number = (q.how_many or q.kind == "other") and not q.yes_no
    has_number = any(t[:1].isdigit() for t in tokens)
    own = sorted((o for o in pool if o.rank == c.rank), key=lambda o: o.span.start)
    at = next(i for i, o in enumerate(own) if o.span == c.span)
    after = own[at + 1].text if at + 1 < len(own) else ""
    before = own[at - 1].text if at else ""
    said = terms_of(c.text)
    said_weight = sum(idf(t) for t in said) or 1.0
    return [
        coverage(terms, c.text, idf),
        1.0 / (c.rank + 1),
        c.meaning,
        # A number the question states, in digits or words ("iki kişi" matches "2 Oyuncu");
        # the rule's side is read in digits only, as the texts write their counts.
        float(bool(set(q.numbers) & _numbers(tokens))),
        float(asks_number and has_number),
        float(asks_number and fact is not None and c.span.start <= fact.start < c.span.end),
        float(len(c.text) < 25),  # a list marker or stub answers nothing
        # A term's definition says what it is, rarely how, why or whether.
        float(bool((q.how_why or q.yes_no or q.what_if) and _DEFINITION.match(c.text))),
        # A component's caption says what a thing is and is for, not how it is played.
        float(c.described and bool(q.how_why or q.yes_no or q.what_if or q.setup)
              and not q.how_many),
        float(q.yes_no and any(_MODAL.fullmatch(fold(t)) for t in tokens)),
        float(bool(EXAMPLE.match(c.text))),
        float(q.asks_order and bool(_STATES_ORDER.search(fold(c.text)))),
        coverage(terms, hit.chunk.text, idf),
        coverage(terms, f"{hit.chunk.section} {hit.chunk.heading}", idf),
        hit.score / (hits[0].score or 1.0),
        hit.dense,
        math.log(len(c.text) + 1),
        coverage(terms, after, idf),
        coverage(terms, before, idf),
        float(q.yes_no and hit.chunk.kind == "faq"),
        float(q.yes_no and bool(c.verdict)),
        float(c.text.rstrip().endswith("?")),  # an FAQ's question, not its answer
        sum(idf(t) for t in said & terms) / said_weight,  # how much of it is about this
        float(q.how_many and has_number),
    ]


def _numbers(tokens: AbstractSet[str]) -> set[float]:
    out = set()
    for t in tokens:
        if t[:1].isdigit():
            with suppress(ValueError):  # "2.si": not a plain number
                out.add(float(t.replace(",", ".")))
    return out


def pool_of(hits: tuple[Hit, ...], game_text: str, q: Question, model: SentenceModel,
            query_vector: np.ndarray | None, vectors: Vectors | None) -> list[Candidate]:
    """The candidates the model ranks for ``q``. An order is often stated apart from the
    topic's own sentence ("… aşağıdan yukarıya sırasıyla d4, d6 …"): one passage deeper for
    an order question."""
    pool = list(candidates(tuple(hits[: model.pool + (1 if q.asks_order else 0)]), game_text))
    return with_meaning(pool, hits[0].chunk.game, query_vector, vectors) if hits else pool
