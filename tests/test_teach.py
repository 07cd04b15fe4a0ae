"""Teaching steps, FAQ titles and search, suggestions and context: pure functions over chunks."""

from __future__ import annotations

import pytest

from hakem.chunks import chunk_game
from hakem.teach import (
    STAGE_LABELS,
    context,
    faq_entries,
    faq_title,
    search_faq,
    section_range,
    stage_of,
    suggestions,
)


def _all(corpus):
    return {g.id: (g, chunk_game(g)) for g in corpus.games}


def _stages(chunks):
    return set(stage_of(sorted(chunks, key=lambda c: c.start)))


def test_every_passage_has_a_teaching_stage(real_corpus):
    for game, chunks in _all(real_corpus).values():
        stages = stage_of(chunks)
        assert len(stages) == len(chunks) and set(stages) <= set(STAGE_LABELS), game.id
        assert stages[0] == "about", game.id


def test_stages_follow_the_text(real_corpus):
    games = _all(real_corpus)
    stages = {gid: _stages(ch) for gid, (_, ch) in games.items()}
    # daybreak's setup heading has no text under it: no setup passage.
    assert "setup" not in stages["daybreak"]
    assert {"about", "components", "flow", "scoring", "end", "variants", "faq"} <= stages[
        "daybreak"]
    # nucleum is a title and paragraphs: its first passage says what the game is.
    assert stages["nucleum"] == {"about", "rules", "faq"}
    # cyberpunk-tcg's own headings: materials and setup found, the rest are rules.
    assert {"about", "components", "setup", "rules"} == stages["cyberpunk-tcg"]
    # rebirth's untitled opening paragraphs belong to "what the game is".
    rebirth = games["rebirth"][1]
    assert stage_of(rebirth)[0] == "about" and rebirth[0].start < 100


def test_tiny_corpus_stages(tiny_corpus_dir):
    from hakem.corpus import load_corpus

    corpus = load_corpus(tiny_corpus_dir)
    assert _stages(chunk_game(corpus.game("kale-oyunu"))) == {
        "about", "components", "scoring", "faq"}  # "Oyun Hazırlığı" has no text
    assert _stages(chunk_game(corpus.game("zar-savasi"))) == {"about", "rules", "faq"}


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


def test_suggestions_are_whole_questions_about_other_headings(real_corpus):
    game, chunks = _all(real_corpus)["daybreak"]
    kriz = next(c for c in chunks if c.heading.startswith("Kriz Kartı"))
    found = suggestions(game.id, chunks, kriz.section, near=kriz.start,
                        exclude=frozenset({kriz.start}))
    assert 0 < len(found) <= 4
    for s in found:  # "Yerel Proje Kartı nasıl işler?": a heading, asked about
        assert s.label.endswith("?") and " nasıl " in s.label
        assert any(c.heading.startswith(s.label.split(" nasıl ")[0]) for c in chunks
                   if c.section.startswith("Bileşenler"))
    assert "Kriz Kartı nasıl işler?" not in {s.label for s in found}
    carbon = next(c for c in chunks if c.heading.startswith("Karbon Küpü"))
    labels = [s.label for s in suggestions(game.id, chunks, carbon.section, near=carbon.start,
                                           limit=10)]
    assert "Karbon Küpü nasıl işler?" in labels and len(labels) == len(set(labels))
    assert not any("değerli" in label for label in labels)
    # A passive verb heading is asked with its verb: "Kriz Kartı Açılır".
    dow, dchunks = _all(real_corpus)["dead-of-winter"]
    flow = next(c for c in dchunks if c.heading == "3. Aksiyon Zarları Atılır")
    labels = {s.label for s in suggestions(dow.id, dchunks, flow.section, near=flow.start)}
    assert "Kriz Kartı nasıl açılır?" in labels
    # A section without sub-headings offers no fragments at all.
    faq = [c for c in chunks if c.kind == "faq"]
    assert suggestions(game.id, chunks, faq[0].section, near=faq[0].start) == ()


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
