"""Teaching stages of passages, FAQ entries, suggestions and citations in context.

What it does: pure functions from a game's passages (``Chunk``s in document order) to frozen
dataclasses: the teaching stage of each passage (``stage_of``: what the game is, components,
setup, flow, other rules, scoring, end, variants, FAQ), the FAQ answers with a short title
cut from each answer's own first clause (``faq_entries``, ``search_faq``), whole questions
about the other sub-headings of a section (``suggestions``), and the text around a cited
range (``context``, ``section_range``). Every title is a piece of the rule text itself.
What it does not do: the lesson (``lesson``), retrieval, HTTP or printing (``web``,
``chat``); it never writes a rule the text does not contain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .chunks import Chunk
from .text import STOPWORDS, casefold_tr, fold, prefix, stem, words

# Teaching order and the Turkish label of each stage. "rules" (passages under a heading the
# chunker could not classify, or under the document title) comes after the turn: in texts
# without canonical headings (nucleum, cyberpunk-tcg) it *is* how the game is played.
STAGES = (
    ("about", "Oyun nedir?"), ("components", "Bileşenler"), ("setup", "Kurulum"),
    ("flow", "Bir tur nasıl geçer?"), ("rules", "Kurallar"), ("scoring", "Puanlama"),
    ("end", "Oyun nasıl biter?"), ("variants", "Varyantlar"), ("faq", "Sık sorulan sorular"),
)
STAGE_LABELS = dict(STAGES)
TITLE_WORDS = 7
# The verdict word an FAQ answer opens with (the question itself was lost from the texts).
VERDICT = re.compile(
    r"^(Normalde (?:evet|hayır)|Evet|Hayır|Doğru|Yanlış)\b\s*(?:[.,:;!—–]|--)?\s*")
# Where a first clause ends: sentence end, semicolon, colon, dash. Asides in parentheses are
# dropped from a title ("İkinci (2 oyuncuda üçüncü) koşul" → "İkinci koşul").
_CLAUSE_END = re.compile(r"[.;:!?]|\s[—–-]{1,2}\s")
_ASIDE = re.compile(r"\s*\([^()]*\)")


@dataclass(frozen=True)
class FaqEntry:
    game: str
    start: int
    end: int
    verdict: str  # "Evet", "Hayır", "Normalde hayır", ... or "" when the answer has none
    title: str  # a few words of the answer's own first clause
    text: str
    section: str


@dataclass(frozen=True)
class Suggestion:
    label: str  # a heading of the section, or the first words of a passage in it
    game: str
    start: int
    end: int
    section: str


@dataclass(frozen=True)
class Context:
    game: str
    start: int
    end: int
    section: str
    context_start: int
    context_end: int
    before: str
    passage: str
    after: str


def top_section(section: str) -> str:
    return section.split(" > ")[0]


def game_chunks(chunks: tuple[Chunk, ...] | list[Chunk], game: str) -> list[Chunk]:
    """One game's passages in document order (the index keeps all games together)."""
    return sorted((c for c in chunks if c.game == game), key=lambda c: c.start)


# ---------------------------------------------------------------- teaching

def stage_of(chunks: list[Chunk]) -> list[str]:
    """The teaching stage of each passage (same order). A text that lost its "about" heading
    still opens with what the game is: leading unclassified passages before the first
    "about" passage, or the very first passage when there is none, teach that."""
    stages = [c.kind if c.kind in STAGE_LABELS else "rules" for c in chunks]
    first_about = stages.index("about") if "about" in stages else None
    if first_about is None:
        if stages and stages[0] == "rules":
            stages[0] = "about"
    else:
        for i in range(first_about):
            if stages[i] != "rules":
                break
            stages[i] = "about"
    return stages


# ---------------------------------------------------------------- FAQ

def _few_words(text: str, limit: int = TITLE_WORDS) -> str:
    """The first ``limit`` words; when cut, trailing function words and signs go too, so a
    title never ends on "bir…" or "+…"."""
    tokens = text.split()
    if len(tokens) <= limit:
        return " ".join(tokens).rstrip(",;:—–-+ ")
    kept = tokens[:limit]
    while len(kept) > 1 and (fold(kept[-1].strip(",;:")) in STOPWORDS
                             or not re.search(r"\w", kept[-1])):
        kept.pop()
    return " ".join(kept).rstrip(",;:—–-+ ") + "…"


def faq_title(answer: str) -> tuple[str, str]:
    """(verdict, title) of an FAQ answer: the verdict word it opens with, and the first
    clause after it trimmed to a few words ("Hayır. Geri Çekilme, Emisyon Aşaması sırasında
    tetiklenir. ..." → ("Hayır", "Geri Çekilme, Emisyon Aşaması sırasında tetiklenir"))."""
    text = " ".join(answer.split())
    m = VERDICT.match(text)
    verdict = m.group(1) if m else ""
    rest = text[m.end():] if m else text
    rest = _ASIDE.sub("", rest)
    end = _CLAUSE_END.search(rest)
    clause = rest[: end.start()] if end and end.start() > 0 else rest
    title = _few_words(clause.strip())
    return verdict, (title[:1].upper() + title[1:]) if title else verdict


def faq_entries(game: str, chunks: tuple[Chunk, ...] | list[Chunk]) -> tuple[FaqEntry, ...]:
    out = []
    for c in game_chunks(chunks, game):
        if c.kind == "faq":
            verdict, title = faq_title(c.text)
            out.append(FaqEntry(game, c.start, c.end, verdict, title, c.text, c.section))
    return tuple(out)


def _terms(text: str) -> set[str]:
    # Stems and 5-letter prefixes: "kartı" finds "kartın", "zarlar" finds "zarı".
    out = set()
    for w in words(text):
        if fold(w) in STOPWORDS:
            continue
        out.add(fold(stem(w)))
        if len(w) >= 4:
            out.add("~" + prefix(fold(w)))
    return out


def search_faq(entries: tuple[FaqEntry, ...], query: str) -> tuple[FaqEntry, ...]:
    """Entries sharing words with ``query``, most shared first (document order on ties)."""
    wanted = _terms(query)
    if not wanted:
        return entries
    scored = []
    for i, e in enumerate(entries):
        shared = len(wanted & _terms(e.text))
        if shared:
            scored.append((-shared, i, e))
    return tuple(e for _, _, e in sorted(scored, key=lambda t: (t[0], t[1])))


# ---------------------------------------------------------------- suggestions and context

def _question(topic: str) -> str:
    """A heading as a question: "Kriz Kartı Açılır" → "Kriz Kartı nasıl açılır?" (a passive
    verb at its end is asked about), "Kriz Kartı" → "Kriz Kartı nasıl işler?"."""
    *rest, last = topic.split()
    if rest and re.search(r"(l|n)(ı|i|u|ü)r$", last):
        return f"{' '.join(rest)} nasıl {casefold_tr(last)}?"
    return f"{topic} nasıl işler?"


def suggestions(game: str, chunks: tuple[Chunk, ...] | list[Chunk], section: str,
                near: int | None = None, exclude: frozenset[int] = frozenset(),
                limit: int = 4) -> tuple[Suggestion, ...]:
    """Whole questions about the other sub-headings of the same top-level section ("Kriz
    Kartı nasıl işler?"), nearest to offset ``near`` first; passages starting at ``exclude``
    are left out (already on screen). A passage without a heading of its own offers no
    question: its first words would be a fragment, not something a player asks."""
    top = top_section(section)
    seen: set[str] = set()
    out = []
    pool = [c for c in game_chunks(chunks, game)
            if top_section(c.section) == top and c.start not in exclude and c.heading]
    if near is not None:
        pool.sort(key=lambda c: abs(c.start - near))
    for c in pool:
        # "3. Aksiyon Zarları Atılır", "Karbon Küpü (Carbon Cube) - 5 değerli": the topic only.
        topic = _ASIDE.sub("", re.sub(r"^\d{1,2}\.\s+", "", c.heading)).split(" - ")[0]
        topic = topic.strip(" -–:")
        if not topic or fold(topic) in seen:
            continue
        seen.add(fold(topic))
        out.append(Suggestion(_question(topic), game, c.start, c.end, c.section))
        if len(out) == limit:
            break
    return tuple(out)


def context(text: str, chunks: tuple[Chunk, ...] | list[Chunk], game: str, start: int,
            end: int) -> Context:
    """``text[start:end]`` with the passages around it: from the passage before the first one
    it touches to the passage after the last, within the same top-level section (a range
    outside every passage, e.g. on a heading, gets the lines around it)."""
    ordered = game_chunks(chunks, game)
    touched = [i for i, c in enumerate(ordered) if c.start < end and start < c.end] or [
        i for i, c in enumerate(ordered) if c.start <= start <= c.end]
    section = ordered[touched[0]].section if touched else ""
    if touched:
        lo, hi = touched[0], touched[-1]
        top = top_section(section)
        if lo > 0 and top_section(ordered[lo - 1].section) == top:
            lo -= 1
        if hi + 1 < len(ordered) and top_section(ordered[hi + 1].section) == top:
            hi += 1
        c_start, c_end = min(ordered[lo].start, start), max(ordered[hi].end, end)
    else:
        c_start = text.rfind("\n", 0, max(0, start - 300)) + 1
        nl = text.find("\n", min(len(text), end + 300))
        c_end = len(text) if nl < 0 else nl
    return Context(game, start, end, section, c_start, c_end, text[c_start:start],
                   text[start:end], text[end:c_end])


def section_range(chunks: tuple[Chunk, ...] | list[Chunk], game: str, start: int,
                  end: int) -> tuple[str, int, int]:
    """(top-level section, start, end) of the whole section holding ``[start, end)``: the
    run of consecutive passages sharing its top-level section."""
    ordered = game_chunks(chunks, game)
    touched = [i for i, c in enumerate(ordered) if c.start < end and start < c.end]
    if not touched:
        return "", start, end
    top = top_section(ordered[touched[0]].section)
    lo = hi = touched[0]
    while lo > 0 and top_section(ordered[lo - 1].section) == top:
        lo -= 1
    while hi + 1 < len(ordered) and top_section(ordered[hi + 1].section) == top:
        hi += 1
    return top, min(ordered[lo].start, start), max(ordered[hi].end, end)
