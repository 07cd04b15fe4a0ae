"""Sentences and paragraphs of a rule text, and their readable places.

What it does: splits a game's passages into whole sentences, each with its teaching stage,
top-level section, sub-heading and paragraph number (a paragraph is a line of the file), and
names a place the way a reader does: "Kurulum bölümü, 3. paragraf" instead of character
offsets. What it does not do: choose sentences for a lesson (``lesson``) or serve them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .chunks import Chunk
from .teach import stage_of, top_section
from .text import sentence_spans


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    text: str
    stage: str  # teaching stage of its passage (``teach.STAGES`` keys)
    section: str
    heading: str
    paragraph: int  # 1-based paragraph number inside its top-level section
    first: bool  # first sentence of its paragraph


def sentences(text: str, chunks: list[Chunk]) -> list[Sentence]:
    """Every sentence of a game's passages, in document order, with its section and place.
    A paragraph is a whole line of the file (a long one spans several passages; it is split
    into sentences as a whole); heading lines are not paragraphs."""
    stages = stage_of(chunks)
    out: list[Sentence] = []
    counts: dict[str, int] = {}
    done: set[int] = set()
    for chunk, stage in zip(chunks, stages, strict=True):
        pos = text.rfind("\n", 0, chunk.start) + 1
        while pos < chunk.end:
            nl = text.find("\n", pos)
            line_end = len(text) if nl < 0 else nl
            line_start, body = pos, text[pos:line_end]
            pos = line_end + 1
            if line_start in done or not body.strip() or (
                    chunk.heading and body.strip() == chunk.heading):
                continue
            done.add(line_start)
            top = top_section(chunk.section)
            counts[top] = counts.get(top, 0) + 1
            for i, span in enumerate(sentence_spans(body.rstrip("\r"), offset=line_start)):
                # A "- " list bullet is layout, not part of the rule sentence.
                start = span.start + 2 if text.startswith("- ", span.start) else span.start
                out.append(Sentence(start, span.end, text[start:span.end], stage,
                                    top, chunk.heading, counts[top], i == 0))
    return out


def paragraph_at(section: str, paragraph: int, game_name: str) -> str:
    name = section or game_name
    return f"{name} bölümü, {paragraph}. paragraf"
