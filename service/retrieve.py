"""Hybrid retrieval: dense (FAISS) + Turkish-aware BM25, fused, restricted to one game.

What it does: given a question and optionally a game, decides the game (the request, else a
name in the question, else the game of the best passages), ranks that game's passages by
the sum of the dense and lexical scores, each standardised (z-score) over that game's
passages, and returns them with the signals
the answer stage uses to decide whether the rules answer at all. What it does not do: write
the answer or decide abstention (see ``answer``).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any

import faiss
import numpy as np

from .chunks import Chunk
from .corpus import Game
from .detect import GameMention, find_games, without_mention
from .embed import Embedder
from .facts import Fact
from .lexical import FIELDS, LexicalIndex
from .players import count_in
from .text import sentence_spans

MODES = ("hybrid", "dense", "lexical")
RRF_K = 60


@dataclass(frozen=True)
class Hit:
    chunk: Chunk
    score: float  # fused score (higher is better); comparable only within one query
    dense: float  # cosine similarity of question and passage
    lexical: float  # BM25 score


@dataclass(frozen=True)
class Retrieval:
    question: str
    query: str  # what was ranked: the question without the game's name
    mentions: tuple[GameMention, ...]  # games named in the question
    game: str | None
    game_source: str  # "request" | "name" | "content" | "none"
    hits: tuple[Hit, ...]
    query_vector: np.ndarray | None = None  # the embedded query (None in lexical mode)
    requested_game: str | None = None  # the game the caller asked for, when the question
    # names another one (which wins: "Soruda Dead of Winter geçiyor")
    # A game chosen from content only: every game with its score (the sum of its best three
    # fused passage scores), best first; () otherwise. See ``engine.GAME_MARGIN``.
    game_scores: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True)
class RetrievalConfig:
    mode: str = "hybrid"
    rrf_k: int = RRF_K
    dense_weight: float = 1.0
    lexical_weight: float = 1.0
    strip_game_name: bool = True
    glossary: bool = True  # English terms in the query translated by the corpus glossary
    normalise: bool = True  # diacritics restored from the corpus's own spellings
    fields: tuple[str, ...] = FIELDS  # lexical fields used
    fusion: str = "score"  # score (z-scores, summed) | rrf (reciprocal-rank fusion)
    tie_break: float = 1e-4


class Retriever:
    """Holds the loaded index pieces; ``search`` is a pure function of its inputs."""

    def __init__(self, chunks: tuple[Chunk, ...], vectors: faiss.Index, embedder: Embedder,
                 games: tuple[Game, ...], config: RetrievalConfig = RetrievalConfig()) -> None:
        self.chunks = chunks
        self.vectors = vectors
        self.embedder = embedder
        self.games = games
        self.config = config
        self.lexical = LexicalIndex([f"{c.heading} {c.text}" if c.heading else c.text
                                     for c in chunks])
        self._game_of = np.array([c.game for c in chunks])
        self._game_ids = [g.id for g in games]

    def with_config(self, **changes: Any) -> Retriever:
        """The same loaded index and models with other settings (for ablations)."""
        clone = copy.copy(self)
        clone.config = replace(self.config, **changes)
        return clone

    def dense_scores(self, query_vector: np.ndarray) -> np.ndarray:
        """Cosine similarity of the query to every passage (exact search in FAISS)."""
        query = query_vector.reshape(1, -1).astype(np.float32)
        scores, ids = self.vectors.search(query, len(self.chunks))
        out = np.full(len(self.chunks), -1.0, dtype=np.float32)
        valid = ids[0] >= 0
        out[ids[0][valid]] = scores[0][valid]
        return out

    def search(self, question: str, game: str | None = None, k: int = 5,
               mode: str | None = None) -> Retrieval:
        mode = mode or self.config.mode
        source = "request" if game else "none"
        mentions = find_games(question, self.games)
        requested = None
        scores: tuple[tuple[str, float], ...] = ()
        if mentions and game not in {m.game for m in mentions}:
            # A game named in the question wins over the picked one: the player typed it.
            requested, game, source = game, mentions[0].game, "name"
        query = question
        if self.config.strip_game_name:
            for mention in mentions:
                if mention.game == game:
                    query = without_mention(question, mention) or question
        dense_query = self.lexical.vocab.restore_text(query) if self.config.normalise else query
        query_vector = self.embedder.query(dense_query) if mode != "lexical" else None
        dense = (self.dense_scores(query_vector) if query_vector is not None
                 else np.zeros(len(self.chunks)))
        cfg = self.config
        lexical = (self.lexical.scores(query, cfg.fields, cfg.glossary, cfg.normalise)
                   if mode != "dense"
                   else np.zeros(len(self.chunks), dtype=np.float32))
        if game is None:
            scores = self._game_scores(self._fuse(dense, lexical, mode))
            game, source = (scores[0][0], "content") if scores else (None, "none")
        # Ranks are fused among the game's own passages: another game's passages must not
        # push this game's down the lexical or dense list.
        ids = np.flatnonzero(self._game_of == game) if game else np.arange(len(self.chunks))
        fused = self._fuse(dense[ids], lexical[ids], mode)
        order = ids[np.argsort(-fused, kind="stable")][:k]
        score_of = dict(zip(ids.tolist(), fused.tolist(), strict=True))
        hits = tuple(Hit(self.chunks[i], float(score_of[i]), float(dense[i]),
                         float(lexical[i])) for i in order)
        return Retrieval(question=question, query=query, mentions=tuple(mentions), game=game,
                         game_source=source, hits=hits, query_vector=query_vector,
                         requested_game=requested, game_scores=scores)

    def _fuse(self, dense: np.ndarray, lexical: np.ndarray, mode: str) -> np.ndarray:
        if mode == "dense":
            return dense.astype(np.float32)
        if mode == "lexical":
            return lexical.astype(np.float32)
        if self.config.fusion == "score":
            return (self.config.dense_weight * _zscore(dense)
                    + self.config.lexical_weight * _zscore(lexical))
        fused = (self.config.dense_weight * _rrf(dense, self.config.rrf_k)
                 + self.config.lexical_weight * _rrf(lexical, self.config.rrf_k, zero_is_last=True))
        # Two passages at swapped ranks tie exactly under RRF; the finer-grained cosine
        # similarity breaks the tie instead of document order.
        return fused + self.config.tie_break * dense

    def _game_scores(self, fused: np.ndarray) -> tuple[tuple[str, float], ...]:
        """Each game with the sum of its best three passage scores, best first: one lucky
        passage in another game should not outvote several good ones."""
        best = {gid: float(np.sort(fused[self._game_of == gid])[::-1][:3].sum())
                for gid in self._game_ids if np.any(self._game_of == gid)}
        return tuple(sorted(best.items(), key=lambda gs: -gs[1]))


def fact_first(retrieval: Retrieval, fact: Fact | None, k: int) -> Retrieval:
    """The first ``k`` passages, the one that states ``fact`` promoted: to the top when it
    is among them, to second place when it was retrieved deeper (the top passage won on the
    whole question; the fact, on its subject and number). Facts are matched on their numbers,
    a finer signal for a number question than shared words, and the answer sentence is
    drawn from the top two passages, so the passage that gives the number gets cited."""
    hits = list(retrieval.hits)
    at = None if fact is None else next(
        (i for i, h in enumerate(hits)
         if h.chunk.game == fact.game and h.chunk.start <= fact.start < h.chunk.end), None)
    if at:  # None (no fact, or not retrieved) or 0 (already first) leave the order alone
        hits.insert(0 if at < k else 1, hits.pop(at))
    return replace(retrieval, hits=tuple(hits[:k]))


def _zscore(scores: np.ndarray) -> np.ndarray:
    std = float(scores.std())
    return ((scores - scores.mean()) / std if std > 1e-9 else scores * 0).astype(np.float32)


def _rrf(scores: np.ndarray, k: int, zero_is_last: bool = False) -> np.ndarray:
    """Reciprocal-rank fusion weight of each item's rank under ``scores`` (1-based ranks)."""
    ranks = np.empty(len(scores), dtype=np.float32)
    ranks[np.argsort(-scores, kind="stable")] = np.arange(1, len(scores) + 1)
    out = 1.0 / (k + ranks)
    if zero_is_last:
        out[scores <= 0] = 0.0  # no lexical match at all earns no lexical credit
    return out.astype(np.float32)


def for_players(retrieval: Retrieval, players: int | None) -> Retrieval:
    """The passages, those written for another player count than the one the question
    states moved after the rest ("2 kişiyiz" puts the "3 Oyuncu Standart Kurulum" row after
    the "2 Oyuncu" row): the words of two such rows match a question almost equally, and
    the count is what decides. A passage is written for a count when its first sentence is
    (``players.count_in``); the others keep their order."""
    if players is None:
        return retrieval

    def other_count(hit: Hit) -> bool:
        first = sentence_spans(hit.chunk.text)
        head = hit.chunk.text[first[0].start:first[0].end] if first else hit.chunk.text
        count = count_in(head)
        return count is not None and count != players

    hits = tuple(sorted(retrieval.hits, key=other_count))
    return retrieval if hits == retrieval.hits else replace(retrieval, hits=hits)
