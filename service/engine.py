"""The assembled pipeline: load the corpus, embedder and verified index once, then ``ask``.

What it does: wires the stages together (corpus → index → retrieval → facts → answer) behind
one object that the API, the CLI and the eval harness share. What it does not do: HTTP,
argument parsing or printing; those are the edges (``api``, ``cli``).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .answer import Answer, Evidence, compose, evidence
from .asked import asked_for, unstated
from .calc import Calculator, with_calculation, without_unworked_number
from .corpus import Corpus, load_corpus
from .detect import unknown_names
from .embed import Embedder, make_embedder
from .errors import InvalidRequest, UnknownGame
from .facts import FactHit
from .factsearch import search_facts
from .index import LoadedIndex, load_index
from .retrieve import MODES, Retrieval, RetrievalConfig, Retriever, fact_first
from .settings import MAX_K, Settings
from .text import fold, is_turkish

FACTS_SHOWN = 3
FACT_POOL = 20  # passages searched for the one that states the best fact


@dataclass
class Engine:
    settings: Settings
    corpus: Corpus
    embedder: Embedder
    index: LoadedIndex
    retriever: Retriever
    calculator: Calculator | None = None

    @classmethod
    def load(cls, settings: Settings, embedder: Embedder | None = None) -> Engine:
        """Load everything; raises ``IndexNotReady`` (with the rebuild command) if it can't."""
        corpus = load_corpus(settings.corpus_dir)
        embedder = embedder or make_embedder(settings.embedder, settings.threads,
                                             settings.embed_instances)
        index = load_index(settings.index_dir, corpus, settings.corpus_dir, embedder)
        retriever = Retriever(index.chunks, index.vectors, embedder, corpus.games,
                              RetrievalConfig(mode=settings.mode))
        is_turkish("oyun")  # loads the Turkish dictionary now, not on the first question
        return cls(settings, corpus, embedder, index, retriever,
                   Calculator.from_corpus(settings.corpus_dir, corpus))

    def check_game(self, game: str | None) -> str | None:
        if game is not None and game not in self.corpus.ids:
            raise UnknownGame(game, self.corpus.ids)
        return game

    def ask(self, question: str, game: str | None = None, k: int | None = None,
            mode: str | None = None) -> Answer:
        """Answer one question: cited passages, facts, the answer sentence, or "not in the
        rules". Raises ``UnknownGame`` or ``InvalidRequest`` for bad arguments."""
        retrieval, facts, ev = self.evidence(question, game, k, mode)
        text = self.corpus.game(retrieval.game).text if retrieval.game else None
        lexical = self.retriever.lexical
        answer = compose(retrieval, facts, text, ev, lexical.idf)
        if self.calculator and retrieval.game and not ev.unknown_names:
            calc = self.calculator.calculate(question, retrieval.game)
            answer = with_calculation(answer, calc) if calc else without_unworked_number(
                answer) if self.calculator.situation(question, retrieval.game) else answer
        return answer

    def evidence(self, question: str, game: str | None = None, k: int | None = None,
                 mode: str | None = None) -> tuple[Retrieval, tuple[FactHit, ...], Evidence]:
        """Retrieval, matching facts and the signals that decide abstention (also what
        ``hakem_eval.calibrate`` measures, so it cannot drift from what ``ask`` does)."""
        game = self.check_game(game)
        k = self.settings.k if k is None else k
        if not 1 <= k <= MAX_K:
            raise InvalidRequest(f"k must be between 1 and {MAX_K}")
        if mode is not None and mode not in MODES:
            raise InvalidRequest(f"mode must be one of {', '.join(MODES)}")
        # Text pasted from some systems arrives decomposed ("I" + combining dot); the corpus
        # and every word list here are composed.
        question = unicodedata.normalize("NFC", question)
        # Deeper than k, so that the passage stating the matched fact can be cited (below).
        retrieval = self.retriever.search(question, game, max(k, FACT_POOL), mode)
        lexical = self.retriever.lexical
        # A question in English names an unknown game as "In Wingspan", never "wingspanda".
        english = lexical.content_terms(question) is None
        names = [] if retrieval.mentions else unknown_names(
            question, lexical.vocab.restore, self.corpus.games, lexical.vocab.correct,
            None if english else lambda w: (is_turkish(w) or fold(w) in lexical.vocab.restore
                                             or bool(lexical.glossary.expand(w))))
        facts = tuple(search_facts(
            self.index.facts, question, retrieval.game, limit=FACTS_SHOWN,
            glossary=lexical.glossary, query_vector=retrieval.query_vector,
            fact_vectors=self.index.fact_vectors)) if retrieval.game else ()
        asked = asked_for(retrieval.query, lexical.knows) if retrieval.game else None
        # A number question: the passage that states the best-matching fact is cited first
        # (measured: recall@1 and answer_span up on dev and on both blind sets).
        retrieval = fact_first(retrieval, facts[0].fact if asked and facts else None, k)
        missing = asked is not None and unstated(
            asked, (f for f in self.index.facts if f.game == retrieval.game),
            lexical.glossary.expand)
        ev = evidence(retrieval, facts, lexical.content_terms(retrieval.query), lexical.idf,
                      names, asked.label() if asked and missing else "",
                      1.0 if english else lexical.known_share(retrieval.query))
        return retrieval, facts, ev
