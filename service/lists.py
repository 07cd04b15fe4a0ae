"""A chosen sentence read with the list it belongs to.

What it does: widens a sentence's span so that a label ending in a colon takes the numbered or
bulleted list it announces, and a bare list item ("- Çin (China): +2") takes the sentence that
announces its list; alone, either reads as the answer to whatever was asked. What it does not
do: choose sentences (``choose``) or decide where sentences end (``text.sentence_spans``).
"""

from __future__ import annotations

import re

from .text import LEADING_MARK, LETTERS, Span, sentence_spans

ANNOUNCED_MAX = 900  # characters a widened span may reach
# An announcing colon and the list's first item inside one sentence: "1." or a bullet.
# ("yerleşim: 1. sıra 5" is a rank, no list: an item starts with a capital)
_STARTED_LIST = re.compile(r":\s+(?:(1)\.|[-•–])\s+(?=[\"“‘(]*[A-ZÇĞİÖŞÜ])")
_BULLET = re.compile(r"[-•–]\s")
_CUT_MARK = re.compile(r":\s+1\.$")  # a list's first marker with its item cut off
BARE_ITEM = 6


def with_what_it_announces(span: Span, game_text: str) -> Span:
    """A label that ends in a colon ("Kral Günü Puanlaması (King's Day Scoring):") is one
    unit with the sentence after it, even when a passage boundary falls between them. A
    sentence that announces a list and holds its first item ("sona erer: 1. Moral 0'a
    düştüğünde …", "zar harcamaz: - Eşya Oynama …") takes the rest of the list."""
    text = game_text[span.start : span.end]
    cut = _CUT_MARK.search(text)
    if cut:  # "Kaybetme Koşulları (…): 1.": a passage ended after the first item's marker
        span = Span(span.start, span.start + cut.start() + 1)
        text = text[: cut.start() + 1]
    started = None if text.endswith(":") else _STARTED_LIST.search(text)
    if not text.endswith(":") and not started:
        return span
    after = sentence_spans(game_text[span.end : span.end + 1200], offset=span.end)
    if not after:
        return span
    # A numbered list it announces is taken up to its last item ("sona erer: 1. Kazanma …
    # 2. Kaybetme …"), within ANNOUNCED_MAX characters.
    end, expected = after[0].end, 1
    if started:  # the items it holds are read already
        end = span.end
        numbered = re.findall(r"(?<![\d.])(\d{1,2})\.\s", text[started.start():])
        expected = int(numbered[-1]) + 1 if started.group(1) else 0
        if not started.group(1):
            # A bulleted list: to its paragraph's end (an item may run to several sentences:
            # "- Hareket (Move): … taşı. Zar HARCAMAZ, …"), when that is within reach.
            line_end = game_text.find("\n", span.end)
            line_end = len(game_text) if line_end < 0 else line_end
            return Span(span.start, line_end) if line_end - span.start <= ANNOUNCED_MAX \
                else span
    for k, sp in enumerate(after):
        if sp.end - span.start > ANNOUNCED_MAX:
            break
        piece = game_text[sp.start : sp.end]
        marker = LEADING_MARK.match(piece)
        if marker and piece.startswith(f"{expected}."):
            end, expected = sp.end, expected + 1
        elif piece.strip() == f"{expected}." and k + 1 < len(after) \
                and after[k + 1].end - span.start <= ANNOUNCED_MAX:
            end, expected = after[k + 1].end, expected + 1  # the marker split off its item
    # So is a bulleted one ("şu sonuçları verir: - Boş: … - Yara: … - Donma: …"), up to the
    # first sentence that is not an item.
    if _BULLET.match(game_text[after[0].start : after[0].end]):
        for sp in after[1:]:
            if sp.end - span.start > ANNOUNCED_MAX or not _BULLET.match(
                    game_text[sp.start : sp.end]):
                break
            end = max(end, sp.end)
    return Span(span.start, end)



def with_its_lead_in(span: Span, game_text: str) -> Span:
    """A list item ("- Çin (China): +2") is read with the sentence that announces its list
    ("Her oyuncu Enerji Talebi jetonunu … sağa kaydırır: - ABD …: +1 - … - Çin (China): +2"):
    alone, its bare number reads as the answer to whatever was asked. Only a bare item (a name
    and a number, at most BARE_ITEM words): a longer one says what it is about itself, and the
    list before it would bury it."""
    item = game_text[span.start : span.end]
    if not _BULLET.match(item) or len(LETTERS.findall(item)) > BARE_ITEM:
        return span
    line_start = game_text.rfind("\n", 0, span.start) + 1
    if span.end - line_start > ANNOUNCED_MAX:
        return span
    before = sentence_spans(game_text[line_start : span.start], offset=line_start)
    for sp in reversed(before):
        piece = game_text[sp.start : sp.end]
        if piece.rstrip().endswith(":"):
            return Span(sp.start, span.end)
        if not _BULLET.match(piece):
            break
    return span
