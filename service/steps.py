"""The steps of one phase, for "Koloni Fazı hangi adımlardan oluşur", "emisyon aşaması adım adım".

What it does: ``steps_request`` tells whether a question asks for the steps of something
("adım adım", "hangi adımlar", "sırayla neler yapılıyor", "what happens in the … phase");
``phase_steps`` finds the phase a passage belongs to — in the texts a phase is an untitled
paragraph of its section followed by passages under their own headings ("Enerji Talebi
Kontrolü", "Emisyon Ekleme", …) — and ``answer_steps`` answers with the headings of the phase
asked about in order, each with the sentences under it (within ``STEP_CHARS``) and its
place cited. The phase is the one whose opening and headings name it (an English name as
the glossary gives it), or else the one the first passages are in. What it does not do:
retrieve, or answer when no such run of headed passages fits (the ordinary pipeline then
answers).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from .answer import Answer, AnswerSpan
from .candidates import EXAMPLE, terms_of
from .chunks import Chunk
from .corpus import Corpus
from .lexical import analyse
from .question import Question
from .retrieve import Hit, Retrieval
from .text import fold, is_turkish, sentence_spans, words

# What asks for the steps of something, folded: "adımları", "hangi adımlardan", "adım adım",
# "steps"; not one step ("açlık adımında"), a count ("kaç adım"), or the order of one thing
# ("kriz kartları hangi sırayla çözülür": the rule says it, the phase's steps do not).
# Also "sırayla neler yapılıyor" (what is done, in order), and a phase's contents: "Büyüme
# Aşaması'nda neler yapılır", "what happens in the Global Phase".
_ASKS_STEPS = re.compile(r"\badimlar\w*|\badim adim\b|\bsteps\b|\bstep by step\b"
                         r"|\bsira(?:yla|siyla) ne\w*")
# (A phase named right before: "Kriz Aşaması'nda kartlar … her kart için neler yapılır" asks
# about the cards.)
# So does one phase's order: "Koloni Fazı hangi sırayla uygulanıyor" (its steps'); not the
# phases' ("fazlar hangi sırayla", "aşamaları hangi sırayla": the round's phases).
_ASKS_CONTENTS = re.compile(r"\b(?:asama|faz|phase)\w*(?: \w+)? neler (?:yapil|olu)\w*"
                            r"|\bwhat happens (?:in|during)(?: \w+){0,3} phase\b"
                            r"|\b(?:asamasi|fazi|phase) (?:hangi|ne) sira\w*")
_PHASE_WORD = re.compile(r"(?:asama|faz|phase)[\w'’]*")
MIN_STEPS = 3  # fewer headed passages are no procedure worth listing as one
# A step reads on past its first sentence, within its passage, up to this many characters:
# the first names what is done, the next often says what follows from it ("… kontrol eder.
# Karşılayamayan, açık kadar Krizde Topluluk jetonu alır."). At 300 the deciding clause was
# cut from a third of the steps (the noise roll, the crisis threshold, Drawdown); at 550,
# of 56 read steps answers that changed, readers preferred the longer in 54 (2 the same),
# correct 37 → 53.
STEP_CHARS = 550
_NUMBERED = re.compile(r"^\d{1,2}\.\s*")  # "1. Açlık": the answer numbers its steps itself


@dataclass(frozen=True)
class Step:
    title: str
    start: int  # the sentences under the heading (what is cited and shown)
    end: int
    # The end of the first of them: what the phase is recognised by (read further, a step
    # names other phases: "Bu kart, turun sonundaki Koloni Fazında …").
    first_end: int


def steps_request(q: Question) -> bool:
    """The question asks for a sequence of steps (and no number: "açlık adımında kaç
    yiyecek" is a calculation)."""
    said = " ".join(q.folded)
    return not q.how_many and bool(_ASKS_STEPS.search(said) or _ASKS_CONTENTS.search(said))


def phase_steps(chunks: tuple[Chunk, ...], around: Chunk, text: str) -> tuple[Step, ...]:
    """The headed passages of the phase ``around`` is in, in text order, one step per heading;
    () when ``around`` is in no run of at least MIN_STEPS headings."""
    own = sorted((c for c in chunks if c.game == around.game), key=lambda c: c.start)
    at = next((i for i, c in enumerate(own) if c.id == around.id), None)
    if at is None:
        return ()
    top = around.section.split(" > ")[0]
    # The phase: back to its untitled opening paragraph, on to the next untitled one.
    first = at
    while first > 0 and own[first].heading and own[first - 1].section.split(" > ")[0] == top:
        first -= 1
    if own[first].heading:
        return ()
    last = first + 1
    while last < len(own) and own[last].heading and own[last].section.startswith(top):
        last += 1
    steps: list[Step] = []
    for chunk in own[first + 1 : last]:
        title = _NUMBERED.sub("", chunk.heading)
        if steps and steps[-1].title == title:
            continue  # one heading split over several passages is one step
        body = text.find("\n", chunk.start, chunk.end) + 1 or chunk.start
        sentences = sentence_spans(text[body : chunk.end], offset=body)
        if sentences:
            end = sentences[0].end
            for sp in sentences[1:]:
                piece = text[sp.start : sp.end]
                if sp.end - sentences[0].start > STEP_CHARS or EXAMPLE.match(piece) \
                        or piece.rstrip().endswith("?"):
                    break
                end = sp.end
            steps.append(Step(title, sentences[0].start, end, sentences[0].end))
    return tuple(steps) if len(steps) >= MIN_STEPS else ()


def answer_steps(q: Question, retrieval: Retrieval, corpus: Corpus, chunks: tuple[Chunk, ...],
                 k: int = 5, terms: set[str] | None = None,
                 translate: Callable[[str], str | None] = lambda _w: None) -> Answer | None:
    """The steps of the phase the question asks about, or None (not a steps question, no
    game, or none of the first k passages is in a run of headed passages). Of the phases
    the first k passages are in, the one whose headings, first sentences and opening share
    most of ``terms``, the question's ("Koloni Fazı" names the colony phase's opening)."""
    if retrieval.game is None or not retrieval.hits or not steps_request(q):
        return None
    game = corpus.game(retrieval.game)
    # The question's terms as the corpus knows them (English ones translated), when given.
    terms = terms if terms is not None else set(terms_of(retrieval.query))
    pairs = _pairs(retrieval.query)
    named = _phase_name(q, game.text, translate)
    # Every phase of the game, not only those the first passages are in: "Oyuncu Turları
    # Fazı" is named in its first step, which need not be retrieved. A phase the passages are
    # in wins a tie.
    phases: dict[tuple[Step, ...], int] = {}
    for rank, hit in enumerate(retrieval.hits[:k]):
        phases.setdefault(phase_steps(chunks, hit.chunk, game.text), rank)
    for chunk in chunks:
        if chunk.game == game.id and not chunk.heading:
            phases.setdefault(phase_steps(chunks, chunk, game.text), k)
    best: tuple[float, int, tuple[Step, ...]] | None = None
    for found, rank in phases.items():
        if not found:
            continue
        opening = game.text[_opening(chunks, found, game.id)]
        said = " ".join([opening, *(f"{s.title} {game.text[s.start : s.first_end]}"
                                    for s in found)])
        # Words of the phase's name in the question's order count double: "Oyuncu Turları
        # Fazı" is not "oyuncular turlarını bitirdikten sonra Koloni Fazı".
        shared = len(terms & terms_of(said)) + 2 * len(pairs & _pairs(said))
        if rank == k and not named and not pairs & _pairs(said):
            continue  # a phase no passage is in must be named
        # "Büyüme Aşaması": a run whose opening and headings never say "büyüme" may be
        # another phase. (With no opening of its own, its first step says which phase it is:
        # "Oyuncu Turları Fazının başında …".)
        head = opening or game.text[found[0].start : found[0].first_end]
        if named:
            strength = _names(named, head, " ".join(s.title for s in found))
            if not strength:
                continue
            shared += 2 * strength
        if best is None or (shared, -rank) > (best[0], -best[1]):
            best = (shared, rank, found)
    if best is None:
        return None
    steps = best[2]
    lines = [f"{game.name}: {len(steps)} adım"]
    lines += [f"{i}. {s.title}: {' '.join(game.text[s.start : s.end].split())}"
              for i, s in enumerate(steps, 1)]
    spans = tuple(AnswerSpan(game.id, s.start, s.end) for s in steps)
    hits = tuple(Hit(c, 1.0, 0.0, 0.0) for c in chunks
                 if c.game == game.id and any(c.start <= s.start < c.end for s in steps))
    return Answer(question=retrieval.question, game=game.id, game_source=retrieval.game_source,
                  abstained=False, answer="\n".join(lines), answer_span=spans[0],
                  passages=hits[:k], facts=(), spans=spans, kind="how_why")


def _phase_name(q: Question, text: str, translate: Callable[[str], str | None]) -> set[str]:
    """The terms of the word naming the phase asked about ("Büyüme" of "Büyüme Aşaması'nda",
    "Global" of "the Global Phase"); an English name as ``translate`` (the glossary) gives it
    ("Colony" is the "Koloni" of "Koloni Tahtası (Colony Board)"). Empty when no phase is
    named, or the name is no word of the rules: nothing to check a phase against."""
    for before, word in itertools.pairwise(words(q.text)):
        if _PHASE_WORD.fullmatch(fold(word)):
            name = before if is_turkish(before) else translate(before)
            named = set(terms_of(name)) if name else set()
            checkable = bool(named) and max(named, key=len) in fold(text)
            return named if checkable else set()
    return set()


def _names(named: set[str], head: str, titles: str) -> int:
    """How surely a phase's opening (``head``) and headings name the phase asked about: 3 when
    the opening says the name and a phase word ("… Koloni Fazı sırayla uygulanır"), 2 when
    a heading says it ("Emisyon Ekleme"), 1 when the opening only uses the word, 0 not at
    all."""
    said = [fold(w) for w in words(head)]
    name = max(named, key=len)
    if any(w.startswith(name) and _PHASE_WORD.fullmatch(n) for w, n in itertools.pairwise(said)):
        return 3
    return 2 if named & terms_of(titles) else 1 if named & terms_of(head) else 0


def _pairs(text: str) -> set[tuple[str, str]]:
    """Consecutive content words of a text, as folded 4-letter prefixes: typed with or
    without Turkish letters, "turlari fazinda" is "Turları Fazının"."""
    kept = [fold(w)[:4] for w in analyse(words(text))["word"]]
    return set(itertools.pairwise(kept))


def _opening(chunks: tuple[Chunk, ...], steps: tuple[Step, ...], game: str) -> slice:
    """Where the untitled paragraph that opens the steps' phase lies in the text; empty when
    that paragraph is its section's first, an overview of every phase in it ("Her tur iki
    fazdan oluşur: … Oyuncu Turları Fazı, ardından Koloni Fazı") rather than this one's."""
    own = [c for c in chunks if c.game == game]
    before = [c for c in own if not c.heading and c.end <= steps[0].start]
    last = max(before, key=lambda c: c.end, default=None)
    if last is None:
        return slice(0, 0)
    section = last.section.split(" > ")[0]
    first = min((c for c in own if c.section.split(" > ")[0] == section), key=lambda c: c.start)
    return slice(0, 0) if first.id == last.id else slice(last.start, last.end)
