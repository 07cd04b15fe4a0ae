"""Choose the answer at sentence level: the rule sentences that settle THIS question.

What it does: ranks the sentences of the top passages (each with its passage's rank as
context) for the analysed question: the question's terms they carry (IDF-weighted), their
meaning (sentence vectors built with the index), the numbers it states, the sentence stating
the matched fact for a number question, a rule's modality ("yapabilir", "yapamaz",
"yalnızca", "zorunda") for a yes/no question; and pushes down what answers nothing: stubs, a
worked example's numbers, and for how/why/yes-no questions a glossary line ("Ana Hedef (Main
Objective): …"). A how/what-happens question gets the sentences that follow the best one too;
a two-part question gets the best sentence for each part (by its own words, and its own
meaning beside the whole question's); no sentence is chosen twice. An FAQ
answer's verdict ("Hayır.", or written into its sentence: "Doğru, …") is kept only for a
yes/no question whose best sentence is that FAQ answer, in the best passage, carrying enough
of the question's terms, and only when the answer says one thing (it does not turn, "Evet —
ama …", nor say beside "Evet" what cannot be done): a verdict answers its own FAQ question,
not any other; elsewhere the sentence is quoted from after it. What it does not do: decide
whether to answer at all (``answerability``), or write the answer text (``answer``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from .chunks import chunk_sentences
from .facts import Fact
from .lexical import analyse
from .lists import with_its_lead_in, with_what_it_announces
from .question import Question
from .retrieve import Hit
from .text import Span, fold, words

Vectors = Mapping[tuple[str, int, int], np.ndarray]

SENTENCE_POOL = 2  # passages whose sentences are candidates
# Weight of a sentence's closeness in meaning to the question (z-scored among the
# candidates). Measured on dev, dev2 and probe5: the evidence sentence is chosen for 0.738
# of questions by words alone, 0.779 with this weight, less with half or twice it.
DENSE_WEIGHT = 0.1
MAX_PARTS = 3
# An FAQ verdict is repeated only when its answer carries this share of the question's terms.
VERDICT_MIN_COVERAGE = 0.25
_VERDICT = re.compile(r"(Evet|Hayır|Doğru|Yanlış)[.!]?")
# An FAQ answer's verdict written into its first sentence ("Evet — ama …", "Doğru, …",
# "Normalde hayır -- …"); a contrast right after it ("— ama") turns it.
_OPENER = re.compile(r"(?:Normalde )?(Evet|Hayır|hayır|evet|Doğru|Yanlış)\s*(?:—|–|--|,|:)\s*"
                     r"(?:(ama|ancak|fakat)\s+)?")
# What cannot be done, folded ("seçemezsiniz", "yapılamaz", "kullanamıyorsunuz").
_CANNOT = re.compile(r"\w+(?:amaz|emez|amiyor|emiyor|amiyo|emiyo)\w*")
# A rule's modality, folded: what a yes/no question about a rule is decided by.
_MODAL = re.compile(r"\w*(?:abil|ebil|amaz|emez|amay|emey|mali|meli|zorunda|gerek)\w*"
                    r"|yalnizca|sadece|degil|olamaz|yok|hayir|evet|asla|her zaman")
# A worked example of the rulebook ("Örneğin Enerji Talebi 12 ise …"): its numbers are not
# the player's, and shown as the answer they mislead.
# A sentence that states an order, folded: "aşağıdan yukarıya doğru sırasıyla d4, d6 …",
# "soldan sağa doldurulur", "önce X, sonra Y", "(1) … (2) …".
_STATES_ORDER = re.compile(r"sirasiyla|sirayla|\b(?:asagidan|alttan|ustten|yukaridan) "
                           r"(?:yukari|uste|alta|asagi)\w*|\bsoldan saga\b|\bsagdan sola\b"
                           r"|\bonce\b.*\b(?:sonra|ardindan)\b|\(1\)")
ORDER_WEIGHT = 0.5
_EXAMPLE = re.compile(r"^(?:[-•(]\s*)?(?:Örne(?:ğin|k)|Mesela|Ör\.)", re.IGNORECASE)
# A how / what-happens / which question is answered by a few sentences of the rule, not by
# its first line: up to this many characters of the passage, from the chosen sentence on.
EXPLAIN_CHARS = 450
DESCRIBED_PENALTY = 0.25
# "Ana Hedef (Main Objective): …", "- Kart Verme (Hand Off): …": a term and its definition.
_DEFINITION = re.compile(r"^(?:[-•]\s*|\d{1,2}\.\s*)?[^.:;!?]{1,60}\([^()]{2,40}\)\s*:")


@dataclass(frozen=True)
class Choice:
    spans: tuple[Span, ...]  # the chosen sentences, one per part, distinct
    verdict: str  # "Evet" / "Hayır" when the chosen FAQ answer itself opens with it
    coverage: float  # the best sentence's share of the question's terms


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


@dataclass(frozen=True)
class _Candidate:
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


def _candidates(hits: tuple[Hit, ...], game_text: str) -> list[_Candidate]:
    # Evidence (coverage, meaning) and the choice itself read the same candidates.
    return list(_candidates_of(tuple(hits[:SENTENCE_POOL]), game_text))


@lru_cache(maxsize=64)
def _candidates_of(hits: tuple[Hit, ...], game_text: str) -> tuple[_Candidate, ...]:
    out: list[_Candidate] = []
    for rank, hit in enumerate(hits):
        spans = chunk_sentences(hit.chunk, game_text)
        for i, span in enumerate(spans):
            text = game_text[span.start : span.end]
            if _VERDICT.fullmatch(text):
                continue  # a bare "Hayır." is the next sentence's verdict, not an answer
            before = game_text[spans[i - 1].start : spans[i - 1].end] if i else ""
            bare = _VERDICT.fullmatch(before) if i else None
            opens = _OPENER.match(text)
            said = bare.group(1) if bare else opens.group(1).capitalize() if opens else ""
            out.append(_Candidate(rank, span, text, said,
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


def _with_meaning(pool: list[_Candidate], game: str, query_vector: np.ndarray | None,
                  vectors: Vectors | None) -> list[_Candidate]:
    if query_vector is None or not vectors or not pool:
        return pool
    rows = [vectors.get((game, c.span.start, c.span.end)) for c in pool]
    if any(r is None for r in rows):  # an index without this sentence: words alone
        return pool
    sims = np.stack([r for r in rows if r is not None]) @ query_vector
    z = (sims - sims.mean()) / (float(sims.std()) or 1.0)
    return [replace(c, meaning=float(m)) for c, m in zip(pool, z, strict=True)]


def _score(c: _Candidate, q: Question, terms: AbstractSet[str],
           idf: Callable[[str], float], fact: Fact | None) -> float:
    tokens = set(words(c.text))
    score = coverage(terms, c.text, idf) + 0.3 / (c.rank + 1) + DENSE_WEIGHT * c.meaning
    if {w for w in q.words if w[:1].isdigit()} & tokens:
        score += 0.2
    asks_number = (q.how_many or q.kind == "other") and not q.yes_no
    if asks_number and any(t[:1].isdigit() for t in tokens):
        score += 0.1
    if asks_number and fact is not None and c.span.start <= fact.start < c.span.end:
        score += 1.0  # the fact was matched on its subject and number: a finer signal
    if len(c.text) < 25:  # a list marker or stub answers nothing
        score -= 0.3
    if (q.how_why or q.yes_no or q.what_if) and _DEFINITION.match(c.text):
        # A term's definition says what it is, rarely how, why or whether. (Excluding it
        # outright lost answer sentences on dev, probe3 and probe5: some definitions are
        # the rule.)
        score -= 0.25
    if c.described and (q.how_why or q.yes_no or q.what_if or q.setup) and not q.how_many:
        # A component's caption says what a thing is and what it is for, not how it is
        # played or set up. (Every sentence of a components passage, also the paragraphs of
        # rules some texts put there, was judged mixed: old answer better 16, new 21.)
        score -= DESCRIBED_PENALTY
    if q.yes_no and any(_MODAL.fullmatch(fold(t)) for t in tokens):
        score += 0.1
    if _EXAMPLE.match(c.text):
        score -= 0.25
    if q.asks_order and _STATES_ORDER.search(fold(c.text)):
        score += ORDER_WEIGHT
    return score


_TURN = re.compile(r"(?:Ancak|Fakat|Ama|Yine de|Bununla birlikte|Öte yandan)\b")


def _turns_after(c: _Candidate, pool: list[_Candidate]) -> bool:
    """The sentence right after ``c`` in its passage opens with a contrast ("Ancak …")."""
    after = min((o for o in pool if o.rank == c.rank and o.span.start > c.span.start),
                key=lambda o: o.span.start, default=None)
    return after is not None and bool(_TURN.match(after.text))


def _explained(c: _Candidate, pool: list[_Candidate], taken: set[Span]) -> Span:
    """The chosen sentence with the sentences that follow it in its passage, within
    EXPLAIN_CHARS: how a thing is done is rarely one sentence."""
    following = sorted((o for o in pool if o.rank == c.rank and o.span.start > c.span.start),
                       key=lambda o: o.span.start)
    end = c.span.end
    for o in following[:2]:
        if o.span.end - c.span.start > EXPLAIN_CHARS or o.span in taken or _EXAMPLE.match(o.text) \
                or o.text.rstrip().endswith("?"):  # the next FAQ question explains nothing
            break
        end = o.span.end
    return Span(c.span.start, end)


def choose(q: Question, hits: tuple[Hit, ...], game_text: str, terms: AbstractSet[str],
           idf: Callable[[str], float], fact: Fact | None = None,
           part_terms: Callable[[str], AbstractSet[str]] | None = None,
           query_vector: np.ndarray | None = None, vectors: Vectors | None = None,
           part_vector: Callable[[str], np.ndarray] | None = None) -> Choice:
    """The sentences that answer ``q``: the best one, or the best for each of its parts.
    With ``query_vector`` and the index's sentence ``vectors``, meaning counts too; with
    ``part_vector`` (the embedder's query), each part's own meaning."""
    # An order is often stated apart from the topic's own sentence ("Dördüncü adımda zarları
    # fixer alanına yerleştirirsiniz. … aşağıdan yukarıya sırasıyla d4, d6 …"): one passage
    # deeper for an order question.
    candidates = list(_candidates_of(tuple(hits[:SENTENCE_POOL + 1]), game_text)) \
        if q.asks_order else _candidates(hits, game_text)
    pool = _with_meaning(candidates, hits[0].chunk.game, query_vector, vectors) if hits \
        else candidates
    if not pool:
        return Choice((), "", 0.0)
    ranked = sorted(pool, key=lambda c: -_score(c, q, terms, idf, fact))
    best = ranked[0]
    chosen = [best]
    explain_parts: set[Span] = set()  # the sentences chosen for a how/why/what-if part
    if q.parts and part_terms is not None:
        chosen = []
        whole = pool
        for i, part in enumerate(q.parts[:MAX_PARTS]):
            # A part's own meaning counts beside the whole question's: the whole question's
            # vector leans to the part with more words ("ısırık çıkarsa o mu ölüyor, yoksa
            # yanındakilere de geçiyor"), a short part alone ("sırası ne") means little.
            if part_vector is not None:
                own = _with_meaning(candidates, hits[0].chunk.game, part_vector(part), vectors)
                pool = [replace(c, meaning=c.meaning + w.meaning)
                        for c, w in zip(own, whole, strict=True)]
            mine = set(part_terms(part))
            top = max(pool, key=lambda c: _score(c, q, mine, idf, fact))
            if any(top.span == c.span for c in chosen):
                # The sentence chosen for an earlier part is this part's best too: this
                # part gets the best other sentence for what that one does not already say
                # ("opening hand kaç kart ve kaç kere mulligan" is not answered by the
                # mulligan sentence alone), if any other sentence says some of it.
                rest = mine - set().union(*(terms_of(c.text) for c in chosen))
                fresh = [c for c in pool if all(c.span != o.span for o in chosen)]
                if not rest or not fresh:
                    continue
                top = max(fresh, key=lambda c: _score(c, q, rest, idf, fact))
                if not coverage(rest, top.text, idf):
                    continue
            chosen.append(top)
            if i < len(q.parts_explain) and q.parts_explain[i]:
                explain_parts.add(top.span)
    best_cover = coverage(terms, best.text, idf)
    # The verdict of an FAQ answer that is the best passage's and carries enough of the
    # question's words (measured on dev2: a verdict from a weaker match answered another
    # FAQ question).
    # An FAQ answer that turns ("Hayır. X kullanılamaz. Ancak Y hâlâ sayılır.") answers two
    # questions: its verdict is X's, and read before Y it gave the wrong ruling (probe8).
    turns = _turns_after(best, pool) or best.mixed
    kept = (q.yes_no and not q.parts and chosen[0] is best and not turns and best.rank == 0
            and best_cover >= VERDICT_MIN_COVERAGE)
    # A verdict that opens its sentence is read in it; one that stands alone is said first.
    verdict = best.verdict if kept and not best.opener else ""
    # A yes/no question too: the deciding clause often follows the rule it qualifies
    # ("… taşımak anlamına geliyor. … Takas çalma sayılmaz."); an FAQ answer that opens with
    # its verdict is complete as it is, unless it turns. (Measured: answer sentence dev2
    # 0.700 → 0.721, probe 0.750 → 0.769, probe4 0.859 → 0.872, paraphrase 0.720 → 0.740,
    # none lower.)
    explains = (q.how_why or q.what_if or q.kind == "other"
                or (q.yes_no and (not best.verdict or best.opener or turns))) and not q.parts
    taken = {c.span for c in chosen}
    spans = tuple(dict.fromkeys(
        with_what_it_announces(with_its_lead_in(
            _explained(c, pool, taken) if explains or c.span in explain_parts else c.span,
            game_text), game_text)
        for c in chosen))
    # A verdict written into a sentence answers its FAQ's question: shown only where a
    # verdict is kept, read from the rule after it elsewhere ("Doğru, Nucleum'da tur sayısı
    # … yoktur" asked "tur var mı").
    openers = {c.span.start: c.opener for c in chosen if c.opener and not (kept and c is best)}
    spans = tuple(dict.fromkeys(Span(sp.start + openers[sp.start], sp.end)
                                if sp.start in openers else sp for sp in spans))
    return Choice(spans, verdict, best_cover)


def best_meaning(hits: tuple[Hit, ...], game_text: str, query_vector: np.ndarray | None,
                 vectors: Vectors | None) -> float:
    """The highest cosine similarity of the question to any candidate sentence (0 when the
    index has no sentence vectors)."""
    if query_vector is None or not vectors or not hits:
        return 0.0
    game = hits[0].chunk.game
    rows = [vectors.get((game, c.span.start, c.span.end)) for c in _candidates(hits, game_text)]
    found = [r for r in rows if r is not None]
    return float(max(np.stack(found) @ query_vector)) if found else 0.0


def best_coverage(hits: tuple[Hit, ...], game_text: str, terms: AbstractSet[str],
                  idf: Callable[[str], float]) -> float:
    """The highest share of the question's terms any candidate sentence carries."""
    return max((coverage(terms, c.text, idf) for c in _candidates(hits, game_text)),
               default=0.0)
