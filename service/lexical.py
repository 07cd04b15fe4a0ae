"""Turkish-aware lexical retrieval: BM25 over several token fields of each passage.

What it does: analyses passages and queries into three fields — Snowball Turkish stems
(folded), 5-letter folded prefixes (robust to suffixes and end-of-word typos), and whole
folded words — and scores them with BM25 (``bm25s``). Queries are normalised against the
corpus's own vocabulary first: a word typed without Turkish letters gets its diacritics back
("atiyoruz"→"atıyoruz") and a word with a typo is mapped to the nearest corpus word
("toplm"→"toplam"), so stems match. What it does not do: dense scoring or fusion (see
``retrieve``), or anything game-specific.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import bm25s
import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from .text import STOPWORDS, fold, prefix, stem, words

FIELDS = ("stem", "prefix", "word")


def analyse(tokens: list[str]) -> dict[str, list[str]]:
    """Field tokens for casefolded words (diacritics intact)."""
    kept = [w for w in tokens if fold(w) not in STOPWORDS]
    return {
        "stem": [fold(stem(w)) for w in kept],
        "prefix": [prefix(fold(w)) for w in kept],
        "word": [fold(w) for w in kept],
    }


@dataclass(frozen=True)
class Vocabulary:
    """The corpus's words: folded form → most frequent spelling with Turkish letters."""

    restore: dict[str, str]
    folded: tuple[str, ...] = field(default=())

    @classmethod
    def from_texts(cls, texts: list[str]) -> Vocabulary:
        counts: Counter[str] = Counter(w for t in texts for w in words(t))
        restore: dict[str, str] = {}
        for word, _ in counts.most_common():
            restore.setdefault(fold(word), word)
        return cls(restore=restore, folded=tuple(sorted(restore)))

    def normalise(self, word: str) -> str:
        """Restore diacritics, or correct a typo to the nearest corpus word (one edit)."""
        key = fold(word)
        if key in self.restore:
            return self.restore[key]
        if len(key) >= 5 and not key[:1].isdigit():
            # Only near-certain corrections: one edit, and the same first letter.
            hit = process.extractOne(key, self.folded, scorer=Levenshtein.distance,
                                     score_cutoff=1)
            if hit is not None and hit[0][:1] == key[:1]:
                return self.restore[hit[0]]
        return word


class LexicalIndex:
    """BM25 per field over a fixed list of passages; scores for all passages at once."""

    def __init__(self, texts: list[str], weights: dict[str, float] | None = None) -> None:
        self.vocab = Vocabulary.from_texts(texts)
        self.weights = weights or {"stem": 1.0, "prefix": 0.6, "word": 0.4}
        analysed = [analyse(words(t)) for t in texts]
        self._bm25: dict[str, bm25s.BM25] = {}
        for name in FIELDS:
            model = bm25s.BM25()
            model.index([a[name] or ["∅"] for a in analysed], show_progress=False)
            self._bm25[name] = model
        self.size = len(texts)

    def query_fields(self, query: str) -> dict[str, list[str]]:
        return analyse([self.vocab.normalise(w) for w in words(query)])

    def scores(self, query: str, fields: tuple[str, ...] = FIELDS) -> np.ndarray:
        """Weighted sum of per-field BM25 scores, one per passage (0 where nothing matches)."""
        total = np.zeros(self.size, dtype=np.float32)
        analysed = self.query_fields(query)
        for name in fields:
            tokens = analysed[name]
            if tokens:
                total += self.weights[name] * self._bm25[name].get_scores(tokens)
        return total
