"""The assembled pipeline: load the corpus, embedder and verified index once, then ``ask``.

What it does: wires the stages together (question analysis → retrieval → facts → evidence →
answerability → sentence choice → answer, with the setup checklist, follow-ups and the rule
calculator on the way) behind one object that the API, the CLI and the eval harness share,
each heavy part (index, embedder, answerability and sentence models, formulas) loaded once.
What it does not do: HTTP, argument parsing or printing; those are the edges (``api``, ``cli``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from .answer import Answer, Evidence, compose, evidence, no_words, with_hedge
from .answerability import Model, load_model
from .asked import asked_for, unstated
from .calc import Calculator
from .calc_answer import with_calculation, without_unworked_number
from .candidates import PRIOR, SentenceModel, load_sentence_model
from .corpus import Corpus, load_corpus
from .detect import distinctive_terms, unknown_names
from .embed import Embedder, make_embedder
from .errors import InvalidRequest, UnknownGame
from .facts import FactHit
from .factsearch import search_facts
from .followup import rewrite
from .headcount import answer_headcount
from .index import LoadedIndex, load_index
from .players import stated_players
from .question import Question, analyse
from .retrieve import MODES, Retrieval, RetrievalConfig, Retriever, fact_first, for_players
from .settings import MAX_K, Settings
from .setup import answer_lesson_part, answer_setup
from .steps import answer_steps
from .sums import work_out
from .text import fold, is_english, is_turkish, run_on_bases, words
from .which_game import all_games

FACTS_SHOWN = 3
FACT_POOL = 20  # passages searched for the one that states the best fact
# A game-less question is answered for every game whose content score
# (``Retrieval.game_scores``) is within this margin of the best one. Measured on the 1,252
# answerable game-less questions of the read sets: 16 picked the wrong game, 10 of them
# with the runner-up within 2.0, where 9 right picks also fall. When the best game's rules
# do not answer, the others are not asked: of 16 such questions there, 15 were unanswerable.
GAME_MARGIN = 2.0
MAX_GAMES = 3  # more answers side by side would not fit a phone screen
# A question using this many names that only one game's rules use is about that game: an
# unfamiliar proper noun in it is a player or a thing ("Stirling Ayşe'de"), not another
# game. Measured on the read sets' 43 questions with a name taken for an unknown game:
# 2 of the 4 answerable ones have two such words, none of the 39 unanswerable ones has
# (one has one: "zombi").
TERMS_OF_GAME = 2


@dataclass
class Engine:
    settings: Settings
    corpus: Corpus
    embedder: Embedder
    index: LoadedIndex
    retriever: Retriever
    model: Model
    calculator: Calculator | None = None
    ranker: SentenceModel = PRIOR  # ranks the candidate answer sentences
    # Each game's words, folded (``detect.distinctive_terms``).
    game_words: Mapping[str, frozenset[str]] = field(default_factory=dict)

    @classmethod
    def load(cls, settings: Settings, embedder: Embedder | None = None,
             model: Model | None = None) -> Engine:
        """Load everything; raises ``IndexNotReady`` (with the rebuild command) if it can't.
        ``model`` replaces the shipped answerability model (calibration passes a neutral one)."""
        corpus = load_corpus(settings.corpus_dir)
        embedder = embedder or make_embedder(settings.embedder, settings.threads,
                                             settings.embed_instances)
        index = load_index(settings.index_dir, corpus, settings.corpus_dir, embedder)
        retriever = Retriever(index.chunks, index.vectors, embedder, corpus.games,
                              RetrievalConfig(mode=settings.mode))
        # The dictionaries load now, not on the first question.
        is_turkish("oyun")
        is_english("game")
        model = model or load_model(settings.answerability_file)
        return cls(settings, corpus, embedder, index, retriever, model,
                   Calculator.from_corpus(settings.corpus_dir, corpus),
                   load_sentence_model(settings.sentence_model_file),
                   {g.id: frozenset(fold(w) for w in words(g.text)) for g in corpus.games})

    def check_game(self, game: str | None) -> str | None:
        if game is not None and game not in self.corpus.ids:
            raise UnknownGame(game, self.corpus.ids)
        return game

    def ask(self, question: str, game: str | None = None, k: int | None = None,
            mode: str | None = None, context: str | None = None) -> Answer:
        """Answer one question: cited passages, facts, the answer sentences, or "not in the
        rules". ``context`` is the previous question: a follow-up to it ("peki 2 kişiysek?")
        is answered as the full question. Raises ``UnknownGame`` or ``InvalidRequest``."""
        self._check(game, k, mode)
        follow = rewrite(context, question) if context else None
        q = analyse(follow.question if follow else question)
        if not q.has_content:
            return no_words(q)
        answer, retrieval = self._answer(q, game, k, mode)
        # The margin is on the scale of the default fusion (summed z-scores); the other
        # modes' scores are not comparable with it, so they keep the single best game.
        fitted = ((mode or self.settings.mode) == "hybrid"
                  and self.retriever.config.fusion == "score")
        close = [g for g, score in retrieval.game_scores[1:MAX_GAMES]
                 if fitted and retrieval.game_scores[0][1] - score < GAME_MARGIN]
        if retrieval.game_source == "content" and close and not answer.abstained:
            # No game named or picked, and the content fits several games about equally
            # ("oyun ne zaman bitiyo"): a guess answers from the wrong rules half the time,
            # so each close game's answer is shown under its name, each answered as if that
            # game were picked (its lesson's end of game for "ne zaman biter").
            first = self._answer(q, retrieval.game_scores[0][0], k, mode)[0]
            answer = all_games(replace(answer if first.abstained else first,
                                       game_source="content"),
                               [self._answer(q, g, k, mode)[0] for g in close], self.corpus)
        return answer

    def _answer(self, q: Question, game: str | None, k: int | None,
                mode: str | None) -> tuple[Answer, Retrieval]:
        retrieval, facts, ev = self.evidence(q, game, k, mode)
        lexical = self.retriever.lexical

        def is_topic(word: str) -> bool:  # a word the rules use, or one they translate
            return lexical.knows(word) or bool(lexical.glossary.expand(word))

        count = answer_headcount(retrieval, self.corpus, self.index.chunks, self.index.facts)
        if count is not None:  # "rebirth kaç kişiyle oynanır": the game's player range
            return count, retrieval
        setup = answer_setup(retrieval, self.corpus, self.index.chunks, self.index.facts,
                             self.settings.k if k is None else k, is_topic)
        if setup is not None:  # "2 kişi kurulum": the lesson's checklist for that count
            return setup, retrieval
        section = answer_lesson_part(retrieval, self.corpus, self.index.chunks,
                                     self.index.facts, self.settings.k if k is None else k,
                                     is_topic)
        if section is not None:  # "sıram gelince ne yapıyorum", "oyun ne zaman biter"
            return section, retrieval
        steps = answer_steps(q, retrieval, self.corpus, self.index.chunks,
                             self.settings.k if k is None else k,
                             set(ev.terms) if ev.terms is not None else None,
                             self.retriever.lexical.glossary.word)
        if steps is not None:  # "Koloni Fazı hangi adımlardan oluşur"
            return steps, retrieval
        text = self.corpus.game(retrieval.game).text if retrieval.game else None
        calculating = bool(self.calculator and retrieval.game and not ev.unknown_names)
        situation = bool(calculating and self.calculator and retrieval.game
                         and self.calculator.situation(q.text, retrieval.game))
        answer = compose(q, retrieval, facts, text, ev, self.model, lexical.idf,
                       lexical.content_terms, self.index.sentence_vectors,
                       self.embedder.query, self.ranker, situation)
        if calculating and self.calculator and retrieval.game:
            calc = work_out(self.calculator, q.text, retrieval.game)
            answer = with_calculation(answer, calc, text) if calc else without_unworked_number(
                answer) if situation else answer
        return with_hedge(answer), retrieval

    def _check(self, game: str | None, k: int | None, mode: str | None) -> None:
        self.check_game(game)
        if k is not None and not 1 <= k <= MAX_K:
            raise InvalidRequest(f"k must be between 1 and {MAX_K}")
        if mode is not None and mode not in MODES:
            raise InvalidRequest(f"mode must be one of {', '.join(MODES)}")

    def evidence(self, question: str | Question, game: str | None = None, k: int | None = None,
                 mode: str | None = None) -> tuple[Retrieval, tuple[FactHit, ...], Evidence]:
        """Retrieval, matching facts and the signals that decide abstention (also what
        ``hakem_eval.calibrate`` fits the model on, so it cannot drift from ``ask``)."""
        q = question if isinstance(question, Question) else analyse(question)
        self._check(game, k, mode)
        k = self.settings.k if k is None else k
        # Deeper than k, so that the passage stating the matched fact can be cited (below).
        retrieval = self.retriever.search(q.text, game, max(k, FACT_POOL), mode)
        lexical = self.retriever.lexical

        def is_corpus_term(w: str) -> bool:
            return fold(w) in lexical.vocab.restore or bool(lexical.glossary.expand(w))

        def is_word(w: str) -> bool:  # never a game's name: see detect.unknown_names
            # A corpus term with a Turkish ending run on ("legendlar"); English words are
            # not tried so: "wingspanda", "pandemicte" name games.
            # A rules word mistyped by one letter ("frosbite") is no name either.
            return (is_turkish(w) or is_english(w) or is_corpus_term(w)
                    or fold(lexical.vocab.correct(w)) in lexical.vocab.restore
                    or any(is_corpus_term(base) for base in run_on_bases(w)))

        # Any name-like word the corpus does not use, English or not ("Ticket to Ride'da",
        # "In Wingspan"): a signal for the model. Those that are not English words either
        # are real evidence of a game not in the corpus ("Catan'da"); a game named or picked
        # is never overridden by such a guess.
        loose = [] if retrieval.mentions else unknown_names(
            q.text, lexical.vocab.restore, self.corpus.games, lexical.vocab.correct,
            is_word, leading=not q.english, is_term=is_corpus_term)
        about_it = bool(loose) and game is None and len(distinctive_terms(
            q.text, self.game_words, lambda w: is_turkish(w) or is_english(w),
        ).get(retrieval.game or "", ())) >= TERMS_OF_GAME
        names = [] if game is not None or about_it else [
            n for n in loose if not is_english(n.split()[0])]
        facts = tuple(search_facts(
            self.index.facts, q.text, retrieval.game, limit=FACTS_SHOWN,
            glossary=lexical.glossary, query_vector=retrieval.query_vector,
            fact_vectors=self.index.fact_vectors)) if retrieval.game else ()
        asked = asked_for(retrieval.query, lexical.knows) if retrieval.game else None
        # A number question: the passage that states the best-matching fact is cited first
        # (measured: recall@1 and answer_span up on dev and on both blind sets).
        retrieval = fact_first(retrieval, facts[0].fact if asked and facts else None, k)
        missing = asked is not None and unstated(
            asked, (f for f in self.index.facts if f.game == retrieval.game),
            lexical.glossary.expand)
        text = self.corpus.game(retrieval.game).text if retrieval.game else None
        ev = evidence(q, retrieval, facts,
                      None if q.english else lexical.content_terms(retrieval.query),
                      lexical.idf, text, names, asked.label() if asked and missing else "",
                      1.0 if q.english else lexical.known_share(retrieval.query),
                      lexical.missing_rarity(retrieval.query,
                                             [h.chunk.text for h in retrieval.hits[:3]]),
                      0 if about_it else len(loose), self.index.sentence_vectors)
        # The count orders the passages the answer is chosen from; the signals above are
        # read before it, as the answerability model was fitted on them.
        return for_players(retrieval, stated_players(q.text)), facts, ev
