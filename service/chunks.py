"""Cut each rule text into citable passages, per game and section.

What it does: classifies the lines of a flattened rulebook (headings, paragraphs, junk),
tracks the section path ("Bileşenler > Zar (Die)"), and emits ``Chunk``s whose
``text == file_text[start:end]`` exactly. Long paragraphs are split at sentence boundaries
so no passage exceeds ``max_chars``. What it does not do: embedding, ranking, or any
knowledge of a particular game: the same rules apply to every text in ``corpus/``.

The texts come in two layouts, and both are handled by the same rules:
- one paragraph per line, headings as bare lines in Title Case ("Puan Hesaplama",
  "Kriz Kartı (Crisis Card)");
- paragraphs separated by blank lines, headings as short lines standing alone.
A sub-heading (a heading that is not one of the canonical rulebook sections) owns the
paragraph right after it; in the one-line-per-paragraph layout, later paragraphs without a
heading of their own belong to the enclosing section again (the texts lost the headings of
such intro paragraphs, and guessing one would be inventing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .corpus import Game
from .text import Span, fold, sentence_spans

# Canonical top-level sections of a rulebook, by folded heading, and their kinds.
CANONICAL_SECTIONS = {
    fold(name): kind
    for name, kind in [
        ("Oyun Hakkında", "about"), ("Bileşenler", "components"),
        ("Oyun Hazırlığı", "setup"), ("Kurulum", "setup"), ("Oyun Akışı", "flow"),
        ("Puan Hesaplama", "scoring"), ("Oyun Bitiş Koşulları", "end"),
        ("Varyantlar", "variants"), ("Sık Sorulan Sorular", "faq"),
    ]
}
# Kinds of other headings, by a word they contain (folded prefixes).
_KIND_WORDS = [("kurulum", "setup"), ("hazirlik", "setup"), ("puan", "scoring"),
               ("bitis", "end"), ("varyant", "variants"), ("bilesen", "components"),
               ("materyal", "components"), ("sik sorulan", "faq")]
# FAQ entries lost their questions: the answers open with a verdict word.
_FAQ_OPENING = re.compile(r"^(Evet|Hayır|Doğru|Yanlış|Normalde (evet|hayır))\b")
_JUNK = re.compile(r"^\S*(%[0-9A-Fa-f]{2}|\.(jpe?g|png|gif|webp|svg)\b)\S*$")
_HEADING_MAX = 80


@dataclass(frozen=True)
class Chunk:
    """A citable passage: ``text`` is exactly the game file's text at ``[start, end)``."""

    id: str
    game: str
    section: str  # heading path, " > "-joined; "" when the text has no heading above it
    kind: str  # about, components, setup, flow, scoring, end, variants, faq, rules
    start: int
    end: int
    text: str
    heading: str = ""  # the sub-heading this passage sits under, if any


@dataclass(frozen=True)
class ChunkSettings:
    target_chars: int = 450
    max_chars: int = 800


@dataclass(frozen=True)
class _Line:
    start: int
    end: int
    text: str


def _lines(text: str) -> list[_Line]:
    out, pos = [], 0
    for raw in text.splitlines(keepends=True):
        body = raw.rstrip("\r\n")
        lead = len(body) - len(body.lstrip())
        out.append(_Line(pos + lead, pos + len(body.rstrip()), body.strip()))
        pos += len(raw)
    return out


def is_junk(line: str) -> bool:
    """Leftovers of scraping: URL or image-file fragments, or lines with no word in them."""
    return bool(_JUNK.match(line)) or not re.search(r"[^\W\d_]{2}", line)


def _title_like(line: str) -> bool:
    # Title Case in Turkish headings: most content words are capitalised.
    content = [w for w in re.findall(r"[^\W\d_]+", line) if len(w) >= 4]
    if not content:
        return bool(re.search(r"[^\W\d_]", line)) and line[:1].isupper()
    return sum(w[0].isupper() for w in content) / len(content) >= 0.6


def _is_heading(lines: list[_Line], i: int, blank_layout: bool) -> bool:
    line = lines[i].text
    if not line or len(line) > _HEADING_MAX or line.startswith("- "):
        return False
    if line[-1] in ".!?:;,…" or is_junk(line):
        return False
    if blank_layout:
        prev_blank = i == 0 or not lines[i - 1].text
        next_blank = i + 1 >= len(lines) or not lines[i + 1].text
        return prev_blank and next_blank
    return _title_like(line)


def section_kind(heading: str) -> str:
    folded = fold(heading)
    if folded in CANONICAL_SECTIONS:
        return CANONICAL_SECTIONS[folded]
    for word, kind in _KIND_WORDS:
        if word in folded:
            return kind
    return "rules"


def chunk_game(game: Game, settings: ChunkSettings = ChunkSettings()) -> list[Chunk]:
    """All passages of one game's text, in document order."""
    lines = _lines(game.text)
    nonblank = [ln for ln in lines if ln.text]
    blank_layout = len(nonblank) < len(lines) * 0.75
    top = ""  # current top-level section
    top_kind = "rules"
    sub: _Line | None = None  # pending sub-heading, owns the next paragraph
    sub_text = ""  # sub-heading of the passage being cut
    chunks: list[Chunk] = []
    for i, line in enumerate(lines):
        if not line.text or is_junk(line.text):
            continue
        if _is_heading(lines, i, blank_layout):
            folded = fold(line.text)
            is_title = folded not in CANONICAL_SECTIONS and (i == 0 or folded == fold(game.name))
            if folded in CANONICAL_SECTIONS or is_title or not top or blank_layout:
                top, sub = line.text, None
                top_kind = "rules" if is_title else section_kind(line.text)
            else:
                sub = line
            continue
        start = sub.start if sub else line.start
        sub_text = sub.text if sub else ""
        section = f"{top} > {sub_text}" if sub_text else top
        kind = top_kind
        if sub_text and section_kind(sub_text) != "rules":
            kind = section_kind(sub_text)
        if _FAQ_OPENING.match(line.text):
            kind = "faq"
        for s, e in _pieces(game.text, start, line.end, settings):
            chunks.append(Chunk(id=f"{game.id}:{s}-{e}", game=game.id, section=section,
                                kind=kind, start=s, end=e, text=game.text[s:e],
                                heading=sub_text))
        sub = None
    return chunks


def _pieces(text: str, start: int, end: int, settings: ChunkSettings) -> list[tuple[int, int]]:
    """Pack the sentences of ``text[start:end]`` into pieces of about ``target_chars``."""
    if end - start <= settings.max_chars:
        return [(start, end)]
    sentences = []
    for span in sentence_spans(text[start:end], offset=start):
        sentences.extend(_hard_split(text, span.start, span.end, settings.max_chars))
    pieces: list[tuple[int, int]] = []
    cur_start, cur_end = sentences[0]
    for s, e in sentences[1:]:
        if e - cur_start <= settings.target_chars or (
            cur_end - cur_start < settings.target_chars // 3 and e - cur_start <= settings.max_chars
        ):
            cur_end = e
        else:
            pieces.append((cur_start, cur_end))
            cur_start, cur_end = s, e
    pieces.append((cur_start, cur_end))
    return pieces


def _hard_split(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """A sentence longer than ``limit``: cut at the last "; " or ", " or space before it."""
    out = []
    while end - start > limit:
        window = text[start : start + limit]
        cut = max(window.rfind("; "), window.rfind(", "))
        if cut < limit // 2:
            cut = window.rfind(" ")
        if cut <= 0:
            cut = limit - 1
        out.append((start, start + cut + 1))
        start += cut + 1
        while start < end and text[start].isspace():
            start += 1
    out.append((start, end))
    return out


def chunk_corpus(games: tuple[Game, ...], settings: ChunkSettings = ChunkSettings()) -> list[Chunk]:
    return [chunk for game in games for chunk in chunk_game(game, settings)]


def chunk_sentences(chunk: Chunk, game_text: str) -> list[Span]:
    """The sentences of a passage, offsets into the game's text; a sub-heading line that
    opens the passage ("4. Zar Gerektiren Aksiyonlar") is a name, not a sentence."""
    spans = sentence_spans(game_text[chunk.start : chunk.end], offset=chunk.start)
    if chunk.heading and game_text.startswith(chunk.heading, chunk.start):
        body = [sp for sp in spans if sp.start >= chunk.start + len(chunk.heading)]
        spans = body or spans
    return spans
