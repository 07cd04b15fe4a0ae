"""The assembled pipeline: load the corpus, embedder and verified index once, then ``ask``.

What it does: wires the stages together (corpus → index → retrieval → facts → answer) behind
one object that the API, the CLI and the eval harness share. What it does not do: HTTP,
argument parsing or printing; those are the edges (``api``, ``cli``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .answer import Answer, compose, evidence
from .corpus import Corpus, load_corpus
from .detect import unknown_names
from .embed import Embedder, make_embedder
from .errors import UnknownGame
from .factsearch import search_facts
from .index import LoadedIndex, load_index
from .retrieve import MODES, RetrievalConfig, Retriever
from .settings import Settings

FACTS_SHOWN = 3


@dataclass
class Engine:
    settings: Settings
    corpus: Corpus
    embedder: Embedder
    index: LoadedIndex
    retriever: Retriever

    @classmethod
    def load(cls, settings: Settings, embedder: Embedder | None = None) -> Engine:
        """Load everything; raises ``IndexNotReady`` (with the rebuild command) if it can't."""
        corpus = load_corpus(settings.corpus_dir)
        embedder = embedder or make_embedder(settings.embedder, settings.threads,
                                             settings.embed_instances)
        index = load_index(settings.index_dir, corpus, settings.corpus_dir, embedder)
        retriever = Retriever(index.chunks, index.vectors, embedder, corpus.games,
                              RetrievalConfig(mode=settings.mode))
        return cls(settings, corpus, embedder, index, retriever)

    def check_game(self, game: str | None) -> str | None:
        if game is not None and game not in self.corpus.ids:
            raise UnknownGame(game, self.corpus.ids)
        return game

    def ask(self, question: str, game: str | None = None, k: int | None = None,
            mode: str | None = None) -> Answer:
        game = self.check_game(game)
        if mode is not None and mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}")
        retrieval = self.retriever.search(question, game, k or self.settings.k, mode)
        vocab = self.retriever.lexical.vocab
        names = unknown_names(question, set(vocab.restore), self.corpus.games, vocab.correct)
        facts = tuple(search_facts(self.index.facts, question, retrieval.game,
                                   limit=FACTS_SHOWN)) if retrieval.game else ()
        text = self.corpus.game(retrieval.game).text if retrieval.game else None
        lexical = self.retriever.lexical
        ev = evidence(retrieval, facts, lexical.content_terms(retrieval.query), lexical.idf,
                      names)
        return compose(retrieval, facts, text, ev, lexical.idf)
