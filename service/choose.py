"""Choose the answer at sentence level: the rule sentences that settle THIS question.

What it does: takes the candidate sentences of the top passages ranked for the analysed
question by the sentence model (``candidates``: the question's terms a sentence and its
passage carry, its meaning, its numbers, the matched fact, a rule's modality, and what
answers nothing: stubs, worked examples, glossary lines for how/why/yes-no questions).
A how/what-happens question gets the sentences that follow the best one too (``extent``),
and when its best sentence is a component's line, the rule sentence that says how;
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
from collections import Counter
from collections.abc import Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

import numpy as np

from .candidates import (
    PRIOR,
    SENTENCE_POOL,
    Candidate,
    SentenceModel,
    Vectors,
    candidates,
    coverage,
    features,
    pool_of,
    terms_of,
    with_meaning,
)
from .extent import bridged, explained, merged, overlaps, with_what_it_points_to
from .facts import Fact
from .lists import with_its_lead_in, with_what_it_announces
from .numbers import numbers_in
from .question import Question
from .retrieve import Hit
from .text import Span, fold, words

__all__ = ["Choice", "Vectors", "best_coverage", "best_meaning", "choose", "coverage",
           "terms_of"]

MAX_PARTS = 3
# Two parts whose best sentence is one: the earlier part takes its next best when that loses
# at most this much of the sentence model's score (a logit) and less than the later part would.
PART_SHARE_MARGIN = 2.5
# An FAQ verdict is repeated only when its answer carries this share of the question's terms.
VERDICT_MIN_COVERAGE = 0.25
@dataclass(frozen=True)
class Choice:
    # the chosen sentences, distinct: one per part, each with what explains it (and, asked
    # how, the rule behind a component's line); two with one sentence between read as one
    spans: tuple[Span, ...]
    verdict: str  # "Evet" / "Hayır" when the chosen FAQ answer itself opens with it
    coverage: float  # the best sentence's share of the question's terms
    # The chosen sentences with their list or lead-in, before they are read with the
    # sentences that explain them: what a fact must be stated in to lead the answer.
    core: tuple[Span, ...] = ()


_TURN = re.compile(r"(?:Ancak|Fakat|Ama|Yine de|Bununla birlikte|Öte yandan)\b")


def _turns_after(c: Candidate, pool: list[Candidate]) -> bool:
    """The sentence right after ``c`` in its passage opens with a contrast ("Ancak …")."""
    after = min((o for o in pool if o.rank == c.rank and o.span.start > c.span.start),
                key=lambda o: o.span.start, default=None)
    return after is not None and bool(_TURN.match(after.text))


# A negation right after a word's stem, folded: "sayıl-maz", "alın-mamalı", "ol-muyor"
# (not "alın-malı", which obliges).
_NEGATED = re.compile(r"(?:a|e|i|u)?m(?:az|ez|iyor|uyor|iyo|uyo|a(?!li)|e(?!li))")
# "yalnızca … tetiklenir" restricts: "Hayır" to "mutlaka tetiklenir mi" agrees with it
# (measured on the read sets: 3 of 5 firings were such, all wrong without this).
_RESTRICTS = frozenset(("yalnizca", "sadece", "ancak", "yalniz", "only"))


def _contradicts(q: Question, c: Candidate) -> bool:
    """The FAQ answer's own words say the opposite of its verdict for what ``q`` asks:
    "Hayır, katkı isteğe bağlıdır" to "isteğe bağlı mı?" (its verdict answered "zorunlu mu",
    a question the text does not show). The asked word is found by its stem in the answer;
    an answer that does not repeat it, or a negated question, decides nothing."""
    asked = q.asked
    if len(asked) < 4 or c.verdict not in ("Evet", "Hayır") or re.search(
            r"m(?:az|ez|iyor|uyor|iyo|uyo)|degil", asked):
        return False
    stem = asked[: max(4, len(asked) - 2)]
    said = [fold(w) for w in words(c.text[c.opener:])]
    if any(w in _RESTRICTS for w in said):
        return False
    for i, w in enumerate(said):
        if w.startswith(stem):
            negated = bool(_NEGATED.match(w[len(stem):])) or (
                i + 1 < len(said) and said[i + 1].startswith("degil"))
            return negated == (c.verdict == "Evet")
    return False


# How many of the next best sentences may be the rule behind a component's line.
RULE_AFTER_CAPTION = 2


def _asks_how(q: Question) -> bool:
    return (q.how_why or q.what_if) and not q.parts and not q.yes_no and not q.how_many


# Two sentences this alike say one thing (the rules often repeat a rule in the components
# list, the flow and the FAQ: "Koşul tetiklenmezse kart sessizce atılır …" and "Koşul
# gerçekleşmezse …"): the answer says it once. Read over every pair of sentences in the
# corpus: below these, or with a number the other does not state ("raund başına +2" / "+3",
# "her 2 hayatta kalan için 1" / "her 1 … için 1"), pairs were other rules.
SAME_SHARE = 0.7  # of the shorter sentence's terms
SAME_SHARE_OF_LONGER = 0.4  # a heading or a caption is not a rule's duplicate
SAME_MIN_TERMS = 8


def same_say(a: Candidate, b: Candidate) -> bool:
    """The two candidates overlap in the text, or say the same thing."""
    if overlaps(a.span, b.span):
        return True
    short, long_ = sorted((a, b), key=lambda c: len(terms_of(c.text)))
    ts, tl = terms_of(short.text), terms_of(long_.text)
    shared = len(ts & tl)
    return (len(ts) >= SAME_MIN_TERMS and shared >= SAME_SHARE * len(ts)
            and shared >= SAME_SHARE_OF_LONGER * len(tl)
            and not Counter(numbers_in(short.text)) - Counter(numbers_in(long_.text)))


def choose(q: Question, hits: tuple[Hit, ...], game_text: str, terms: AbstractSet[str],
           idf: Callable[[str], float], fact: Fact | None = None,
           part_terms: Callable[[str], AbstractSet[str]] | None = None,
           query_vector: np.ndarray | None = None, vectors: Vectors | None = None,
           part_vector: Callable[[str], np.ndarray] | None = None,
           model: SentenceModel = PRIOR, leads: bool = False) -> Choice:
    """The sentences that answer ``q``: the best one, or the best for each of its parts,
    ranked by ``model``. With ``query_vector`` and the index's sentence ``vectors``, meaning
    counts too; with ``part_vector`` (the embedder's query), each part's own meaning."""
    pool = pool_of(hits, game_text, q, model, query_vector, vectors)
    if not pool:
        return Choice((), "", 0.0)

    def score(c: Candidate, among: list[Candidate], words: AbstractSet[str]) -> float:
        return model.score(features(c, q, words, idf, fact, hits, among))

    ranked = sorted(pool, key=lambda c: -score(c, pool, terms))
    # ``leads``: the matched fact may lead the answer, and the answer is not hedged. The fact
    # was matched on its subject and its number, a finer signal than the sentence model's,
    # and leads only with its own sentence: left to the model, threshold questions of the
    # read sets lost that lead (value first 745 -> 724 of 872; eval/README, "Session 12").
    stating = [c for c in ranked if leads and fact is not None
               and c.span.start <= fact.start < c.span.end]
    best = stating[0] if stating else ranked[0]
    chosen = [best]
    explain_parts: set[Span] = set()  # the sentences chosen for a how/why/what-if part
    if q.parts and part_terms is not None:
        chosen = []
        owner: list[int] = []  # the part each chosen sentence answers
        part_scored: list[dict[Span, float]] = []  # each part's score of each candidate
        part_ranked: list[list[Candidate]] = []
        part_words: list[set[str]] = []
        whole = pool
        for i, part in enumerate(q.parts[:MAX_PARTS]):
            # A part's own meaning counts beside the whole question's: the whole question's
            # vector leans to the part with more words ("ısırık çıkarsa o mu ölüyor, yoksa
            # yanındakilere de geçiyor"), a short part alone ("sırası ne") means little.
            if part_vector is not None:
                bare = [replace(c, meaning=0.0) for c in whole]
                own = with_meaning(bare, hits[0].chunk.game, part_vector(part), vectors)
                pool = [replace(c, meaning=c.meaning + w.meaning)
                        for c, w in zip(own, whole, strict=True)]
            mine = set(part_terms(part))
            scored = {c.span: score(c, pool, mine) for c in pool}
            ranked_part = sorted(pool, key=lambda c: -scored[c.span])
            part_scored.append(scored)
            part_ranked.append(ranked_part)
            part_words.append(mine)
            top = ranked_part[0]
            explains_part = i < len(q.parts_explain) and q.parts_explain[i]
            said = [c for c in chosen if same_say(top, c)]
            if len(said) == 1:
                # Two parts want one sentence: when the earlier part loses less by taking
                # its next best, and that is nearly as good for it, it does ("kaleyi kim
                # kontrol ediyor, oyun sonunda kaç puan": the points sentence answers the
                # second part, the majority sentence the first). Judged on 80 of the read
                # answers it changed: 23 -> 31 correct of 41 swaps. Giving this part its
                # own next best instead padded more answers than it completed (31 -> 33
                # correct of 39, readers preferring the old 19 times, the new 6).
                k = chosen.index(said[0])
                j = owner[k]
                fresh_i = next((c for c in ranked_part
                                if not any(same_say(c, o) for o in chosen)), None)
                fresh_j = next((c for c in part_ranked[j] if not same_say(c, top)
                                and not any(same_say(c, o) for o in chosen)
                                and coverage(part_words[j], c.text, idf)), None)
                loss_i = (scored[top.span] - scored[fresh_i.span]
                          if fresh_i is not None else float("inf"))
                loss_j = (part_scored[j][said[0].span] - part_scored[j][fresh_j.span]
                          if fresh_j is not None else float("inf"))
                if fresh_j is not None and loss_j < loss_i and loss_j <= PART_SHARE_MARGIN:
                    chosen[k] = fresh_j
                    if j < len(q.parts_explain) and q.parts_explain[j]:
                        explain_parts.add(fresh_j.span)  # (the shared one keeps its reading)
                    said = []
            if said:
                # This part's best sentence says what an earlier part's does (the rules
                # repeat a limit in several places): it gets another sentence only for what
                # those do not already say, if one says some of it; else the earlier
                # sentence answers it too, and is explained when this part asks how. (Its
                # next best sentence whatever it says was tried: of 49 read answers it
                # changed, readers preferred the old 22 times, the new 4.)
                rest = mine - set().union(*(terms_of(c.text) for c in chosen))
                fresh = [c for c in ranked_part if not any(same_say(c, o) for o in chosen)]
                nxt = fresh[0] if rest and fresh else None
                if nxt is not None and not coverage(rest, nxt.text, idf):
                    nxt = max(fresh, key=lambda c: score(c, pool, rest))
                    nxt = nxt if coverage(rest, nxt.text, idf) else None
                if nxt is None:
                    if explains_part:
                        explain_parts.update(c.span for c in said)
                    continue
                top = nxt
            chosen.append(top)
            owner.append(i)
            if explains_part:
                explain_parts.add(top.span)
    best_cover = coverage(terms, best.text, idf)
    if _asks_how(q) and hits[best.rank].chunk.kind == "components" and chosen == [best]:
        # A component's line says what a thing is and is for; asked how it works, the rule
        # that says so comes too ("Koloni fazında her gürültü jetonu için zar atılır ve
        # zombi çekebilir" and the flow's "… sonuç 3 veya daha düşükse … 1 zombi eklenir").
        rule = next((c for c in ranked[1:RULE_AFTER_CAPTION + 1]
                     if hits[c.rank].chunk.kind not in ("components", "about")
                     and not same_say(c, best)), None)
        if rule is not None and coverage(terms, rule.text, idf) >= best_cover / 2:
            chosen.append(rule)
    # The verdict of an FAQ answer that is the best passage's and carries enough of the
    # question's words (measured on dev2: a verdict from a weaker match answered another
    # FAQ question).
    # An FAQ answer that turns ("Hayır. X kullanılamaz. Ancak Y hâlâ sayılır.") answers two
    # questions: its verdict is X's, and read before Y it gave the wrong ruling (probe8).
    turns = _turns_after(best, pool) or best.mixed
    kept = (q.yes_no and not q.parts and chosen[0] is best and not turns and best.rank == 0
            and best_cover >= VERDICT_MIN_COVERAGE and not _contradicts(q, best))
    # A verdict that opens its sentence is read in it; one that stands alone is said first.
    verdict = best.verdict if kept and not best.opener else ""
    # A yes/no question too: the deciding clause often follows the rule it qualifies
    # ("… taşımak anlamına geliyor. … Takas çalma sayılmaz."); an FAQ answer that opens with
    # its verdict is complete as it is, unless it turns. (Measured: answer sentence dev2
    # 0.700 → 0.721, probe 0.750 → 0.769, probe4 0.859 → 0.872, paraphrase 0.720 → 0.740,
    # none lower.)
    # An FAQ answer is complete only with its verdict: where the verdict is not said, the
    # sentences after it say what the answer is ("… yalnızca oyun sonu tetiklenir. Turlar …
    # sürer, ardından herkes bir tur daha oynar.").
    explains = (q.how_why or q.what_if or q.kind == "other"
                or (q.yes_no and (not best.verdict or best.opener or turns or not kept))
                ) and not q.parts
    taken = {c.span for c in chosen}
    spans = bridged(merged([
        with_what_it_points_to(with_what_it_announces(with_its_lead_in(
            explained(c, taken, game_text, hits[c.rank].chunk.end,
                      beyond=hits[c.rank].chunk.kind != "faq")
            if explains or c.span in explain_parts else c.span, game_text), game_text),
            game_text)
        for c in chosen]), game_text)
    # A verdict written into a sentence answers its FAQ's question: shown only where a
    # verdict is kept, read from the rule after it elsewhere ("Doğru, Nucleum'da tur sayısı
    # … yoktur" asked "tur var mı").
    openers = {c.span.start: c.opener for c in chosen if c.opener and not (kept and c is best)}
    spans = tuple(dict.fromkeys(Span(sp.start + openers[sp.start], sp.end)
                                if sp.start in openers else sp for sp in spans))
    core = tuple(with_what_it_announces(with_its_lead_in(c.span, game_text), game_text)
                 for c in chosen)
    return Choice(spans, verdict, best_cover, core)


def best_meaning(hits: tuple[Hit, ...], game_text: str, query_vector: np.ndarray | None,
                 vectors: Vectors | None) -> float:
    """The highest cosine similarity of the question to any candidate sentence (0 when the
    index has no sentence vectors)."""
    if query_vector is None or not vectors or not hits:
        return 0.0
    game = hits[0].chunk.game
    rows = [vectors.get((game, c.span.start, c.span.end))
            for c in candidates(tuple(hits[:SENTENCE_POOL]), game_text)]
    found = [r for r in rows if r is not None]
    return float(max(np.stack(found) @ query_vector)) if found else 0.0


def best_coverage(hits: tuple[Hit, ...], game_text: str, terms: AbstractSet[str],
                  idf: Callable[[str], float]) -> float:
    """The highest share of the question's terms any candidate sentence carries."""
    return max((coverage(terms, c.text, idf)
                for c in candidates(tuple(hits[:SENTENCE_POOL]), game_text)), default=0.0)
