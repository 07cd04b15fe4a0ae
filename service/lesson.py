"""A lesson per game, built from its rule text and facts table: what a first-timer needs.

What it does: pure functions from one game's text, passages (``Chunk``s) and facts to a
frozen ``Lesson`` in teaching order: what the game is and how you win, components, setup
as a checklist for a chosen player count, the turn as numbered steps, the end of the game,
scoring, and the rules players most often get wrong (FAQ rulings, corrections first); and one
part read on its own (``lesson_part``: whole, though the full lesson teaches some of it in an
earlier part). Every item
is one or more *whole* sentences of the rule text (never a passage cut mid-sentence), cited
by game and character range with a readable place ("Bileşenler bölümü, 3. paragraf"); a
fact appears as the rule sentence that states it. A part the text does not cover stays
empty with a note saying so. What it does not do: retrieval, HTTP or printing (``web``,
``chat``), answering setup questions (``setup``), or writing any rule of its own.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .candidates import EXAMPLE
from .chunks import Chunk
from .facts import Fact
from .lesson_model import (
    LIMITS,
    MISSING,
    PART_LABELS,
    PARTS,
    Item,
    Lesson,
    Part,
)
from .places import Sentence, paragraph_at, sentences
from .players import count_in, no_player_count, player_range
from .steps import STEP_CHARS
from .teach import VERDICT, game_chunks
from .text import LEADING_MARK, fold

ITEM_CHARS = 60  # an FAQ answer's item runs on until it says at least this much
# Words (folded) that mark a sentence as being about one part, for texts without that section.
_CUES = {
    "about": re.compile(r"\b(amac|hedef|kazan)"),
    "setup": re.compile(r"kurulum|oyun(un)? basinda|macin basinda|\bbaslangic"
                        r"|(ile|canla|kartla|karoyla) baslar|baslamadan once|oyun oncesi"
                        r"|havuz olustur|hazirlig|yeni baslayan|ilk oyun(u|unu)?\b|oyuncuya dagit"),
    "turn": re.compile(r"\bsiraniz|oyuncular sirayla|\bturunda|\bturunuzda|\bher tur|\bhamle"
                       r"|\baksiyon(u|lar)? (yap|gercek)|\bfaz(in|i)?\b|\bana asama"),
    "end": re.compile(r"oyun(un)? (sona erer|biter)|bitis kosul|oyun sonu(nu)? tetik|son tur"
                      r"|oyunu (hemen )?kaybeder|kadar (devam eder|surer)|bir tur daha"),
    "scoring": re.compile(r"\bpuan|\bzp\b|en (cok|yuksek) puan"),
}
_ASIDE = re.compile(r"\s*\([^()]*\)")  # "Kale Parçası (Castle)" → "Kale Parçası"
_NEGATIVE = re.compile(r"^(Hayır|Yanlış|Normalde hayır)")


def _item(text: str, game: str, name: str, first: Sentence, last: Sentence | None = None,
          label: str = "") -> Item:
    last = last or first
    # The lesson numbers its items: the text's own list number read "1. 1. Ana Hedef", or
    # "4. 2. Kaybetme" where the item is fourth in the lesson.
    mark = LEADING_MARK.match(first.text)
    start = first.start + (mark.end() if mark and mark.end() < len(first.text) else 0)
    return Item(text[start:last.end], game, start, last.end, first.section,
                paragraph_at(first.section, first.paragraph, name), label)


def _run(pool: list[Sentence], i: int, chars: int) -> Sentence:
    """The last sentence of the run starting at ``pool[i]`` that says at least ``chars``
    characters, without leaving its paragraph."""
    j = i
    while (pool[j].end - pool[i].start < chars and j + 1 < len(pool)
           and not pool[j + 1].first and pool[j + 1].paragraph == pool[i].paragraph
           and pool[j + 1].section == pool[i].section):
        j += 1
    return pool[j]


def _within(pool: list[Sentence], i: int, chars: int) -> Sentence:
    """The last sentence of the run starting at ``pool[i]``, within its paragraph, that keeps
    the run within ``chars`` characters, before any example or question: a turn step is
    taught whole (the noise roll after the base zombies, the crisis threshold after the
    count), as far as a steps answer reads it (``steps.STEP_CHARS``, measured there)."""
    j = i
    while (j + 1 < len(pool) and not pool[j + 1].first
           and pool[j + 1].paragraph == pool[i].paragraph
           and pool[j + 1].section == pool[i].section
           and pool[j + 1].end - pool[i].start <= chars
           and not EXAMPLE.match(pool[j + 1].text) and not pool[j + 1].text.endswith("?")):
        j += 1
    return pool[j]


def _cued(sents: list[Sentence], cue: re.Pattern[str], stages: set[str]) -> list[Sentence]:
    # A bare verdict ("Hayır.", "Doğru, ...") is no rule on its own.
    # A short line ending in a colon only announces what follows.
    return [s for s in sents if s.stage in stages and cue.search(fold(s.text))
            and len(s.text) >= 25 and not (s.text.endswith(":") and len(s.text) < 60)]


def _with_facts(items: list[Item], facts: list[Fact]) -> list[Item]:
    out = []
    for it in items:
        ids = [f.id for f in facts if it.start <= f.start < it.end]
        out.append(Item(it.text, it.game, it.start, it.end, it.section, it.where, it.label,
                        ",".join(ids)) if ids else it)
    return out


# ---------------------------------------------------------------- the parts

def _about(text: str, game: str, name: str, sents: list[Sentence]) -> list[Item]:
    about = [s for s in sents if s.stage == "about"][:3]
    win = [s for s in _cued(sents, _CUES["about"], {"about", "scoring", "end"})
           if s not in about][:2]
    return [_item(text, game, name, s) for s in sorted(about + win, key=lambda s: s.start)]


def _components(text: str, game: str, name: str, sents: list[Sentence]) -> list[Item]:
    comps = [s for s in sents if s.stage == "components"]
    out: list[Item] = []
    seen: set[str] = set()
    for i, s in enumerate(comps):
        if s.heading and s.first and s.heading not in seen:
            seen.add(s.heading)
            out.append(_item(text, game, name, s, _run(comps, i, ITEM_CHARS), s.heading))
    if not out:  # no sub-headings: the section's own sentences
        out = [_item(text, game, name, s) for s in comps]
    return out


def _setup(text: str, game: str, name: str, sents: list[Sentence], facts: list[Fact],
           players: int | None, span: tuple[int, int] | None) -> tuple[list[Item], str]:
    rules = [s for s in sents if s.stage != "faq"]
    by_start = {s.start: s for s in rules}

    def sentence_at(offset: int) -> Sentence | None:
        return next((s for s in rules if s.start <= offset < s.end), None)

    chosen: dict[int, str] = {}  # sentence start → label
    counts: set[int] = set()  # the player counts the text writes setup lines for
    for f in facts:  # how many can play, then what each player gets
        s = sentence_at(f.start)
        if s is None:
            continue
        if span and f.unit == "oyuncu" and f.min == span[0] and f.max == span[1]:
            chosen.setdefault(s.start, "Oyuncu sayısı")
        elif s.stage == "components" and "oyuncu basina" in fold(f.subject + " " + s.text):
            heading = _ASIDE.sub("", s.heading).strip()
            chosen.setdefault(s.start, f"Her oyuncuya: {heading}" if heading
                              else "Her oyuncuya")
    for s in rules:
        count = count_in(s.text)
        wanted = (s.stage == "setup" or _CUES["setup"].search(fold(s.text))
                  or (count is not None and s.stage in {"variants", "setup", "components"}))
        if not wanted or len(s.text) < 25:
            continue
        if s.stage == "flow" and LEADING_MARK.match(s.heading or ""):
            continue  # a numbered step of the turn ("3. Aksiyon Zarları Atılır"), not setup
        if count is not None:
            counts.add(count)
        if count is not None and players is not None and count != players:
            continue  # written for another player count
        label = f"{count} oyuncu" if count and players is None else ""
        if not label and s.stage != "setup" and s.heading:  # what the sentence is about:
            label = _ASIDE.sub("", s.heading).strip()  # "ABD", not "Yüksek başlangıç …"
        chosen.setdefault(s.start, label)
    # How many play; for a player count, the rules written for that count ("2 Oyuncu: …
    # 9 karo kutuya iade eder", what "ikimiz oynıcaz, kurulumda ne değişiyo" asks); what
    # each player gets; then the setup section's own steps; then the rest.
    how_many = [st for st, lab in chosen.items() if lab.startswith("Oyuncu sayısı")]
    each = [st for st, lab in chosen.items() if lab.startswith("Her")]
    counted = [st for st in chosen if players is not None and st not in how_many + each
               and count_in(by_start[st].text) == players]
    first = sorted(how_many) + sorted(counted) + sorted(each)
    own = [st for st in chosen if by_start[st].stage == "setup" and st not in first]
    order = first + sorted(own) + sorted(st for st in chosen if st not in first and st not in own)
    items = [_item(text, game, name, by_start[st], label=chosen[st]) for st in order]
    notes = []
    if players is not None and span and not span[0] <= players <= span[1]:
        notes.append(f"{name} {span[0]}–{span[1]} oyuncu içindir; {players} oyuncu için kural "
                     "yok.")
    elif span is None:
        notes.append(no_player_count(rules, players))
    elif players is not None and counts and players not in counts:
        others = ", ".join(str(n) for n in sorted(counts))
        notes.append(f"Metinde {players} oyuncuya özel bir kurulum satırı yok (yalnızca "
                     f"{others} oyuncu için var).")
    if items and not any(s.stage == "setup" for s in rules):
        notes.append("Metinde ayrı bir kurulum bölümü yok: kurulumla ilgili kurallar metnin "
                     "farklı yerlerinden toplandı.")
    return items, " ".join(notes)


def _turn(text: str, game: str, name: str, sents: list[Sentence]) -> tuple[list[Item], str]:
    flow = [s for s in sents if s.stage == "flow"]
    if not flow:
        # Without a turn section: what you may do on your turn, from the rules, then from
        # the FAQ answers that explain it ("Karoyu oyuncu tahtanıza oynarsanız ...").
        cue = re.compile(_CUES["turn"].pattern + r"|\baksiyon|\boynars|\bdosers")
        rules = _cued(sents, cue, {"about", "rules", "components"})
        faq = sorted((s for s in _cued(sents, cue, {"faq"}) if not s.first),
                     key=lambda s: (-len(cue.findall(fold(s.text))), s.start))
        picked = sorted(rules[:12] + faq[:3], key=lambda s: (s.stage == "faq", s.start))
        note = "Metinde ayrı bir tur bölümü yok: turla ilgili kurallar toplandı." if picked else ""
        return [_item(text, game, name, s) for s in picked], note
    out: list[Item] = []
    for i, s in enumerate(flow):
        if not s.first:
            continue
        overview = not out
        last = _run(flow, i, 400) if overview else _within(flow, i, STEP_CHARS)
        label = LEADING_MARK.sub("", s.heading).strip() if s.heading else ""
        out.append(_item(text, game, name, s, last, label))
    return out, ""


def _end_or_scoring(key: str, text: str, game: str, name: str, sents: list[Sentence],
                    taken: set[int]) -> tuple[list[Item], str]:
    own = [s for s in sents if s.stage == key]
    if own:
        return [_item(text, game, name, s) for s in own], ""
    cued = [s for s in _cued(sents, _CUES[key], {"about", "rules", "components", "flow",
                                                  "variants", "faq", "end", "scoring"})
            if s.start not in taken]
    note = (f"Metinde ayrı bir {PART_LABELS[key].lower().rstrip('?')} bölümü yok: ilgili "
            "kurallar metnin farklı yerlerinden toplandı." if cued else "")
    return [_item(text, game, name, s) for s in cued], note


def _mistakes(text: str, game: str, name: str, sents: list[Sentence]) -> list[Item]:
    faq = [s for s in sents if s.stage == "faq"]
    entries = []
    for i, s in enumerate(faq):
        if not s.first:
            continue
        item = _item(text, game, name, s, _run(faq, i, ITEM_CHARS))
        # The texts' FAQs give answers only: a title made from the answer repeats it, and
        # its verdict word ("Hayır.") answers a question the lesson never shows. The item
        # is the ruling itself, its cited span starting after the verdict.
        verdict = VERDICT.match(item.text)
        cut = verdict.end() if verdict else 0
        if 0 < cut < len(item.text) and item.text[cut].isupper():  # not "Evet — ama …"
            start = item.start + cut
            item = replace(item, text=text[start:item.end], start=start)
        entries.append((not _NEGATIVE.match(s.text), s.start, item))
    return [it for _, _, it in sorted(entries, key=lambda e: (e[0], e[1]))]


def _parts_found(game: str, name: str, text: str, chunks: tuple[Chunk, ...] | list[Chunk],
                 facts: list[Fact], players: int | None, span: tuple[int, int] | None,
                 ) -> tuple[list[Sentence], dict[str, tuple[list[Item], str]]]:
    sents = sentences(text, game_chunks(chunks, game))
    found: dict[str, tuple[list[Item], str]] = {
        "about": (_about(text, game, name, sents), ""),
        "components": (_components(text, game, name, sents), ""),
        "setup": _setup(text, game, name, sents, facts, players, span),
        "turn": _turn(text, game, name, sents),
    }
    found["end"] = _end_or_scoring("end", text, game, name, sents, set())
    taken = {it.start for it in found["end"][0]}
    found["scoring"] = _end_or_scoring("scoring", text, game, name, sents, taken)
    found["mistakes"] = (_mistakes(text, game, name, sents), "")
    return sents, found


def _overlap(item: Item, start: int, end: int) -> bool:
    return start <= item.start < end or item.start <= start < item.end


def _part(key: str, title: str, items: list[Item], note: str, facts: list[Fact]) -> Part:
    items = _with_facts(items[:LIMITS[key]], facts)
    return Part(key, title, tuple(items), " ".join(n for n in ("" if items else MISSING[key],
                                                                note) if n))


def build_lesson(game: str, name: str, text: str, chunks: tuple[Chunk, ...] | list[Chunk],
                 facts: tuple[Fact, ...] | list[Fact] = (),
                 players: int | None = None) -> Lesson:
    """The lesson of ``game`` for ``players`` (None: every player count's setup, labelled)."""
    own_facts = sorted((f for f in facts if f.game == game), key=lambda f: f.start)
    span = player_range(own_facts, text)
    sents, found = _parts_found(game, name, text, chunks, own_facts, players, span)
    # A sentence is taught once, in the part that needs it most: the setup before the
    # components list it draws on, the overview before a turn that repeats it.
    shown: list[tuple[int, int]] = []
    kept: dict[str, list[Item]] = {}
    for key in ("setup", "about", "turn", "end", "scoring", "components", "mistakes"):
        kept[key] = []
        for it in (_announced(it, text, sents) for it in found[key][0]):
            if not any(_overlap(it, a, b) for a, b in shown):
                kept[key].append(it)
                shown.append((it.start, it.end))
    parts = [_part(key, title, kept[key], found[key][1], own_facts) for key, title in PARTS]
    return Lesson(game, name, players, span, tuple(parts))


def lesson_part(game: str, name: str, text: str, chunks: tuple[Chunk, ...] | list[Chunk],
                facts: tuple[Fact, ...] | list[Fact], key: str) -> Part:
    """One part of the lesson read on its own ("sıram gelince ne yapıyorum"): whole, also
    what the full lesson teaches in an earlier part (the overview that opens a turn)."""
    own_facts = sorted((f for f in facts if f.game == game), key=lambda f: f.start)
    sents, found = _parts_found(game, name, text, chunks, own_facts, None,
                                player_range(own_facts, text))
    kept: list[Item] = []
    for it in (_announced(it, text, sents) for it in found[key][0]):
        if not any(_overlap(it, o.start, o.end) for o in kept):
            kept.append(it)
    return _part(key, PART_LABELS[key], kept, found[key][1], own_facts)


_LIST_MARK = re.compile(r"^\s*(?:[-•]|\d{1,2}[.)])\s*$")
ANNOUNCED_CHARS = 700


# "Bu aksiyonlar zar harcamaz: - Eşya Oynama (…): … - Kart Verme (…): …": a list run on in
# the line that announces it.
_INLINE_LIST = re.compile(r":\s+[-•]\s")
INLINE_LIST_CHARS = 1200  # Dead of Winter's five dice actions take 1,124


def _announced(item: Item, text: str, sents: list[Sentence]) -> Item:
    """A line that announces a list ("… cezalar uygulanır:") is taught with the list that
    follows it (its "- " or numbered items), or runs on in it, not cut at the colon or after
    the list's first entry."""
    end = item.end
    if _INLINE_LIST.search(text[item.start : item.end + 3]):  # the colon may end the item
        line_end = text.find("\n", item.start)
        line_end = len(text) if line_end < 0 else line_end
        end = max((s.end for s in sents if item.end <= s.end <= line_end
                   and s.end - item.start <= INLINE_LIST_CHARS), default=item.end)
        return item if end == item.end else Item(
            text[item.start:end], item.game, item.start, end, item.section, item.where,
            item.label, item.fact)
    if not (item.text.rstrip().endswith(":") or text[item.end : item.end + 1] == ":"):
        return item
    for s in sents:
        if s.start < item.end:
            continue
        between = text[end:s.start].lstrip(":")
        marked = _LIST_MARK.match(between) or (not between.strip() and LEADING_MARK.match(s.text))
        if not marked or s.end - item.start > ANNOUNCED_CHARS:
            break
        end = s.end
    if end == item.end:
        return item
    return Item(text[item.start:end], item.game, item.start, end, item.section, item.where,
                item.label, item.fact)
