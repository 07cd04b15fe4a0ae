from hakem.chunks import ChunkSettings, chunk_corpus, chunk_game, is_junk
from hakem.corpus import load_corpus


def test_every_real_chunk_round_trips_to_its_file(real_corpus):
    chunks = chunk_corpus(real_corpus.games)
    assert len(chunks) > 100
    for chunk in chunks:
        text = real_corpus.game(chunk.game).text
        assert text[chunk.start : chunk.end] == chunk.text
        assert chunk.text.strip() == chunk.text and chunk.text
        assert len(chunk.text) <= 800
        assert not is_junk(chunk.text)
    assert len({c.id for c in chunks}) == len(chunks)


def test_real_chunks_cover_every_non_heading_line(real_corpus):
    # No text a player could ask about is dropped: every line longer than a heading is in a chunk.
    for game in real_corpus.games:
        chunks = chunk_game(game)
        pos = 0
        for line in game.text.splitlines(keepends=True):
            body = line.strip()
            start = game.text.index(body, pos) if body else pos
            pos += len(line)
            if len(body) > 80:
                assert any(c.start <= start and start + len(body) <= c.end + 1 for c in chunks) or \
                    any(c.start <= start < c.end for c in chunks), body[:60]


def test_tiny_sections_kinds_and_junk(tiny_corpus_dir):
    corpus = load_corpus(tiny_corpus_dir)
    chunks = chunk_game(corpus.game("kale-oyunu"))
    sections = [c.section for c in chunks]
    assert "Bileşenler > Kale Parçası (Castle)" in sections
    castle = next(c for c in chunks if c.section.endswith("(Castle)"))
    assert castle.text.startswith("Kale Parçası (Castle)\n")  # the entry's name is cited with it
    assert castle.kind == "components"
    assert not any("Oyun Hazırlığı" in s for s in sections)  # empty section: no chunk
    assert not any("pic12345" in c.text for c in chunks)  # junk line dropped
    faq = [c for c in chunks if c.kind == "faq"]
    assert faq and faq[0].text.startswith("Evet.")


def test_blank_line_layout_headings(tiny_corpus_dir):
    corpus = load_corpus(tiny_corpus_dir)
    chunks = chunk_game(corpus.game("zar-savasi"))
    assert {c.section for c in chunks} == {"Zar Savaşı", "Kayıp ve kazanç kuralları",
                                           "Şüpheli durumlar"}


def test_long_paragraphs_split_at_sentences(tiny_corpus_dir):
    corpus = load_corpus(tiny_corpus_dir)
    chunks = chunk_game(corpus.game("zar-savasi"), ChunkSettings(target_chars=80, max_chars=120))
    long_section = [c for c in chunks if c.section == "Kayıp ve kazanç kuralları"]
    assert len(long_section) > 1
    for c in long_section:
        assert len(c.text) <= 120
        assert c.text[-1] in ".;," or c.text.endswith("kalır.")
