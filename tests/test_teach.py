"""Teaching steps, FAQ titles and search, suggestions and context: pure functions over chunks."""

from __future__ import annotations

import pytest

from hakem.chunks import chunk_game
from hakem.teach import (
    STAGE_LABELS,
    build_steps,
    context,
    faq_entries,
    faq_title,
    search_faq,
    section_range,
    suggestions,
)

STAGE_ORDER = list(STAGE_LABELS)


def _all(corpus):
    return {g.id: (g, chunk_game(g)) for g in corpus.games}


def test_every_passage_in_exactly_one_step_in_teaching_order(real_corpus):
    for game, chunks in _all(real_corpus).values():
        steps = build_steps(game.id, chunks)
        cited = [(p.start, p.end) for s in steps for p in s.passages]
        assert sorted(cited) == sorted((c.start, c.end) for c in chunks), game.id
        assert len(set(cited)) == len(cited)
        # Stages in teaching order, never blank, numbered 1..n, text exactly the file's.
        ranks = [STAGE_ORDER.index(s.stage) for s in steps]
        assert ranks == sorted(ranks), game.id
        assert [s.index for s in steps] == list(range(1, len(steps) + 1))
        for s in steps:
            assert s.passages and s.label == STAGE_LABELS[s.stage]
            for p in s.passages:
                assert game.text[p.start : p.end] == p.text and p.game == game.id
            starts = [p.start for p in s.passages]
            assert starts == sorted(starts)
        assert steps[0].stage == "about", game.id


def test_stages_follow_the_text(real_corpus):
    games = _all(real_corpus)
    stages = {gid: {s.stage for s in build_steps(gid, ch)} for gid, (_, ch) in games.items()}
    # daybreak has no setup section: skipped, not shown blank.
    assert "setup" not in stages["daybreak"]
    assert {"about", "components", "flow", "scoring", "end", "variants", "faq"} <= stages[
        "daybreak"]
    # nucleum is a title and paragraphs: its first passage says what the game is.
    assert stages["nucleum"] == {"about", "rules", "faq"}
    # cyberpunk-tcg's own headings: materials and setup found, the rest are rules.
    assert {"about", "components", "setup", "rules"} == stages["cyberpunk-tcg"]
    # rebirth's untitled opening paragraphs belong to "what the game is".
    rebirth = build_steps("rebirth", games["rebirth"][1])
    assert rebirth[0].stage == "about" and rebirth[0].passages[0].start < 100


def test_long_stages_are_split_into_titled_parts(real_corpus):
    game, chunks = _all(real_corpus)["daybreak"]
    flow = [s for s in build_steps(game.id, chunks) if s.stage == "flow"]
    assert len(flow) > 3
    assert flow[0].title == f"Bir tur nasıl geçer? (1/{len(flow)})"
    assert all(s.parts == len(flow) for s in flow)


def test_tiny_corpus_steps(tiny_corpus_dir):
    from hakem.corpus import load_corpus

    corpus = load_corpus(tiny_corpus_dir)
    kale = build_steps("kale-oyunu", chunk_game(corpus.game("kale-oyunu")))
    # "Oyun Hazırlığı" has no text: no setup step.
    assert [s.stage for s in kale] == ["about", "components", "scoring", "faq"]
    zar = build_steps("zar-savasi", chunk_game(corpus.game("zar-savasi")))
    assert [s.stage for s in zar] == ["about", "rules", "faq"]
    assert build_steps("no-such-game", chunk_game(corpus.game("zar-savasi"))) == ()


@pytest.mark.parametrize(("answer", "verdict", "title"), [
    ("Hayır. Geri Çekilme, Emisyon Aşaması sırasında tetiklenir. Ancak...", "Hayır",
     "Geri Çekilme, Emisyon Aşaması sırasında tetiklenir"),
    ("Normalde hayır -- Yerel Proje kartları yalnızca elden atılır.", "Normalde hayır",
     "Yerel Proje kartları yalnızca elden atılır"),
    ("Hayır. İkinci (2 oyuncuda üçüncü) koşul sağlandığında yalnızca oyun sonu tetiklenir.",
     "Hayır", "İkinci koşul sağlandığında yalnızca oyun sonu tetiklenir"),
    ("Evet — ama aynı kademeye yalnızca bir belirtecinizi koyabilirsiniz.", "Evet",
     "Ama aynı kademeye yalnızca bir belirtecinizi koyabilirsiniz"),
    ("Kriz Aşaması'nda her Sıcaklık Bandı için bir kez zar atılır.", "",
     "Kriz Aşaması'nda her Sıcaklık Bandı…"),
])
def test_faq_titles_come_from_the_answer(answer, verdict, title):
    assert faq_title(answer) == (verdict, title)


def test_faq_entries_are_the_faq_passages_with_short_titles(real_corpus):
    for game, chunks in _all(real_corpus).values():
        entries = faq_entries(game.id, chunks)
        assert len(entries) == sum(c.kind == "faq" for c in chunks)
        for e in entries:
            assert game.text[e.start : e.end] == e.text
            assert 0 < len(e.title.split()) <= 7
            # Every word of the title is a word of the answer (nothing invented).
            answer_words = set(e.text.replace("(", " ").replace(")", " ").split())
            assert {w.strip("…,") for w in e.title.split()} - {"Ama"} <= {
                w.strip(".,;:") for w in answer_words} | {w.capitalize() for w in answer_words}


def test_faq_search(real_corpus):
    game, chunks = _all(real_corpus)["daybreak"]
    entries = faq_entries(game.id, chunks)
    hits = search_faq(entries, "dayanıklılık jetonu atılır mı")
    assert hits and "dayanıklılık" in hits[0].text.lower()
    assert search_faq(entries, "   ") == entries
    assert search_faq(entries, "zzzz qqqq") == ()


def test_suggestions_are_other_passages_of_the_section(real_corpus):
    game, chunks = _all(real_corpus)["daybreak"]
    kriz = next(c for c in chunks if c.heading.startswith("Kriz Kartı"))
    found = suggestions(game.id, chunks, kriz.section, near=kriz.start,
                        exclude=frozenset({kriz.start}))
    assert 0 < len(found) <= 4
    headings = {c.heading for c in chunks if c.section.startswith("Bileşenler")}
    assert all(s.label in headings for s in found)
    assert kriz.heading not in {s.label for s in found}
    # A section without sub-headings: labels are the first words of its passages.
    faq = [c for c in chunks if c.kind == "faq"]
    labels = suggestions(game.id, chunks, faq[0].section, near=faq[0].start)
    assert all(any(c.text.startswith(s.label.rstrip("…")) for c in faq) for s in labels)


def test_context_and_section_range(real_corpus):
    game, chunks = _all(real_corpus)["dead-of-winter"]
    c = chunks[10]
    ctx = context(game.text, chunks, game.id, c.start, c.end)
    assert ctx.passage == c.text
    assert ctx.before + ctx.passage + ctx.after == game.text[ctx.context_start : ctx.context_end]
    assert ctx.context_start < c.start and ctx.context_end > c.end
    top, s, e = section_range(chunks, game.id, c.start + 5, c.start + 20)
    assert top == "Bileşenler" and s <= c.start and e >= c.end
    # A range on no passage (a heading line) still gets the text around it.
    heading = game.text.index("Bileşenler")
    ctx = context(game.text, chunks, game.id, heading, heading + len("Bileşenler"))
    assert ctx.passage == "Bileşenler" and ctx.after
