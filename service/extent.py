"""How far an answer reads: a chosen sentence with the sentences that explain it, and the
chosen spans joined where they overlap or where one sentence lies between them.

What it does: extends a sentence to the ones that follow it in its paragraph, and into the
next paragraph when that opens by pointing back ("Bunu … yapabilirsiniz") (within
``EXPLAIN_CHARS``, never into a worked example, a bare verdict, the next FAQ question or the
next list item past its passage); reads a sentence that opens by pointing back ("Bu noktada
…") with the one before it; joins overlapping spans, and reads two spans of one paragraph
with the one sentence between them as one. What it does not do: choose sentences
(``choose``).
"""

from __future__ import annotations

import re

from .candidates import EXAMPLE, VERDICT, Candidate
from .text import Span, sentence_spans

# A how / what-happens / which question is answered by a few sentences of the rule, not by
# its first line: up to this many characters of the passage, from the chosen sentence on.
EXPLAIN_CHARS = 450


# A list item or numbered step ("3. Amazon Ormanı Çöküşü: …"). Past the passage's end it is
# the next rule of a long list, not the explanation of this one (read on the sets: items
# within the passage, as the exile rules' "- Sürgün edilen oyuncu artık: …", explain).
_ITEM = re.compile(r"(?:[-•–*]|\d{1,2}[.)])\s")


def explained(c: Candidate, taken: set[Span], game_text: str, passage_end: int,
              beyond: bool = True) -> Span:
    """The chosen sentence with the sentences that follow it in its passage, and on past
    the passage's end to the end of that paragraph, within EXPLAIN_CHARS: how a thing is
    done is rarely one sentence, and a passage boundary is the index's cut, not the rules'
    (the sentence after it, "4 proje zaten oyundayken …", still explains the one before).
    ``beyond``: whether the next paragraph may be read too when it points back; an FAQ
    answer's next paragraph is another entry's, whatever its first word."""
    paragraph_end = game_text.find("\n", passage_end)
    scope_end = max(passage_end, len(game_text) if paragraph_end < 0 else paragraph_end)
    # Split from the paragraph's start, as the passages were: the same sentences they have.
    start = game_text.rfind("\n", 0, c.span.start) + 1
    following = [sp for sp in sentence_spans(game_text[start:scope_end], offset=start)
                 if sp.start >= c.span.end]
    end = c.span.end
    for sp in following[:2]:
        text = game_text[sp.start:sp.end]
        if sp.end - c.span.start > EXPLAIN_CHARS or any(overlaps(sp, t) for t in taken) \
                or EXAMPLE.match(text) or VERDICT.fullmatch(text) \
                or (sp.start >= passage_end and _ITEM.match(text)) \
                or text.rstrip().endswith("?"):  # the next FAQ question explains nothing
            break
        end = sp.end
    # The paragraph after it may open by pointing back ("… ayırt edilebilir hale getirmeniz
    # gerekiyor." / "Bunu bir işaretleyici pul koyarak … yapabilirsiniz."): it says how.
    if beyond and not game_text[end:scope_end].strip():
        after = game_text[end:].lstrip("\n ")
        nxt = sentence_spans(after[:EXPLAIN_CHARS], offset=len(game_text) - len(after))
        said = game_text[nxt[0].start : nxt[0].end] if nxt else ""
        if said and _POINTS_BACK.match(said) and nxt[0].end - c.span.start <= EXPLAIN_CHARS \
                and not (EXAMPLE.match(said) or VERDICT.fullmatch(said)
                         or said.rstrip().endswith("?")) \
                and not any(overlaps(nxt[0], t) for t in taken):
            end = nxt[0].end
    return Span(c.span.start, end)


def merged(spans: list[Span]) -> tuple[Span, ...]:
    """The spans in the order chosen, one that overlaps an earlier one joined to it: a
    sentence read with its explanation or its list is not shown again on its own."""
    out: list[Span] = []
    for sp in spans:
        for k, o in enumerate(out):
            if overlaps(sp, o):
                out[k] = Span(min(o.start, sp.start), max(o.end, sp.end))
                break
        else:
            out.append(sp)
    return tuple(out)


def bridged(spans: tuple[Span, ...], game_text: str) -> tuple[Span, ...]:
    """Two chosen spans of one paragraph with one sentence between them read as one, in
    the text's order: the sentence between is what joins them (spans side by side stay
    apart, one per part of the question) ("… yalnızca oyun sonu tetiklenir. Turlar, tüm
    oyuncular eşit sayıda tur oynayana kadar sürer … Sonra oyun biter …")."""
    out = list(spans)
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(out):
            for j, b in enumerate(out):
                gap = game_text[a.end:b.start]
                if i == j or b.start < a.end or "\n" in gap \
                        or b.end - a.start > EXPLAIN_CHARS \
                        or len(sentence_spans(gap, offset=a.end)) != 1 \
                        or EXAMPLE.match(gap.strip()) or VERDICT.fullmatch(gap.strip()) \
                        or gap.rstrip().endswith("?"):
                    continue  # (what ``explained`` would not read on into either)
                out[i] = Span(a.start, b.end)
                del out[j]
                joined = True
                break
            if joined:
                break
    return tuple(out)


def overlaps(a: Span, b: Span) -> bool:
    return a.start < b.end and b.start < a.end


# A sentence that points back with a demonstrative ("Bu noktada …", "Bu işlemi yaparken …")
# adds to the sentence before it: alone, its "bu" points at nothing. (Not "Ardından …": the
# step before is another step, and read with it the answer was padded: "Her koloni dışı
# lokasyona … 1 zombi. Ardından gürültü çözülür …" asked which rolls add a zombie.)
# ("Böyle kullanılan jetonlar …", "İlk oyununu bu şekilde oynaman önerilir": "this way"
# within its first words points back too)
_POINTS_BACK = re.compile(r"(?:Bu|Bunu|Bunun|Buna|Bunlar\w*|Böyle|Böylece|Böylelikle)\b"
                          r"|(?:[^\s.!?:;]+\s+){1,3}bu şekilde\b")
ANTECEDENT_CHARS = 300  # a longer sentence before it is a rule of its own


def with_what_it_points_to(span: Span, game_text: str) -> Span:
    """A span opening with a back-reference, read from the sentence before it in its
    paragraph (never a worked example, a verdict or an FAQ question)."""
    if not _POINTS_BACK.match(game_text[span.start : span.end]):
        return span
    start = game_text.rfind("\n", 0, span.start) + 1
    before = sentence_spans(game_text[start : span.start], offset=start)
    if not before:
        return span
    prev = game_text[before[-1].start : before[-1].end]
    if len(prev) > ANTECEDENT_CHARS or EXAMPLE.match(prev) or VERDICT.fullmatch(prev) \
            or prev.rstrip().endswith("?"):
        return span
    return Span(before[-1].start, span.end)
