"""What a number question counts, and whether any fact of the game mentions it at all.

What it does: finds the thing a "how many" question counts (the noun after "kaç", else the
words before it: "RAM limiti kaç"; the noun after "how many") and looks for its words among
the game's facts. Every number the texts state is a fact or is excused as not a rule
(``tests/test_facts.py`` holds the table to that), so a counted thing that no fact of the
game mentions is a strong sign the rules give no such number — one signal of the
answerability model, not a verdict. What it does not do: judge whether a fact that does
mention the thing answers the question (that needs a model that reads both), or rank facts
(``factsearch``). (The moment-specific rules that used to live here — the start of the game,
winning, the box, clock units — were deleted: they helped the questions they were written
for and nothing on sets written after them.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from .facts import Fact
from .factsearch import word_features
from .text import STOPWORDS, fold, words

_HOW_MANY = frozenset(("kac", "kacar", "kacinci"))
# "kaçı aşınca", "kaça kadar": a verb or postposition follows; what is counted comes before.
_HOW_MANY_BEFORE = frozenset(("kaci", "kaca", "kacta", "kactir", "kacti"))
# Words that say how a thing is counted, or pad the question, not what is counted: "kaç tane
# kart", "en fazla kaç", "tam olarak kaç".
_COUNTING = frozenset(fold(w) for w in re.findall(r"\S+", """
tane adet çeşit toplam toplamda en fazla az max maks maksimum min minimum ortalama ortalamada
yaklaşık aşağı yukarı daha sayı sayısı tam olarak acaba peki sadece yalnızca many much how
total maximum minimum average about exactly"""))
# "kaç kez/kere": how often an action may be taken. The action is a verb ("yer
# değiştirebilir", "mulligan yapabilir"), worded too freely to look up among the facts.
_TIMES = frozenset(("kez", "kere", "defa", "sefer", "times"))
# A verb of being or having, or a number, ends the counted phrase: "kaç tane olunca".
_ENDS = re.compile(r"(ol(ur|ursa|unca|dugunda|masi|mali|abilir|uyor|sun)?|var(sa|dir|mi)?"
                   r"|yok(sa|tur)?|lazim|gerek(ir|li|iyor)?|\d.*)")
# A verb in the present tense, as typed or as said ("alıyor", "alıyo", "çekiyoz", "oluyomu"):
# what is counted is never a verb, and slang forms the corpus does not use read as unknown
# things ("kaç teknoloji oluyo" asks about technologies, not about "oluyo").
_PRESENT = re.compile(r"\w+[iu]yo(?:r|m|n|z|ruz|rum|rsun|lar|sun|sunuz)?(?:m[iu]\w*)?")
@dataclass(frozen=True)
class Asked:
    """The counted thing of a number question: its words as typed."""

    words: tuple[str, ...] = ()  # casefolded, Turkish letters as typed

    def label(self) -> str:
        return " ".join(self.words)


def asked_for(question: str, known: Callable[[str], bool]) -> Asked | None:
    """The thing ``question`` asks a number of, or None when it asks no number (or the
    counted words cannot be told: verbs or slang that ``known``, the corpus's vocabulary,
    does not hold)."""
    for typed in (words(c) for c in re.split(r"[,;:.?!]+", question)):
        folded = [fold(w) for w in typed]
        for i, token in enumerate(folded):
            english = token in ("many", "much") and i > 0 and folded[i - 1] == "how"
            if not (token in _HOW_MANY or english or token in _HOW_MANY_BEFORE):
                continue
            if token not in _HOW_MANY_BEFORE:
                after = _phrase(typed, range(i + 1, len(typed)))
                if after and fold(after[0]) in _TIMES:
                    return None
                if any(known(w) for w in after):
                    return Asked(tuple(w for w in after if known(w)))
            before = [w for w in _phrase(typed, range(i - 1, -1, -1)) if known(w)]
            return Asked(tuple(before[::-1])) if before else None
    return None


def _phrase(typed: list[str], order: Iterable[int]) -> list[str]:
    """Up to two words beside "kaç", read in ``order``, that name what is counted: counting
    words next to "kaç" are skipped; a function word, a verb of being or a number ends it."""
    out: list[str] = []
    for j in order:
        word = fold(typed[j])
        if not out and word in _COUNTING:
            continue
        if word in STOPWORDS or _ENDS.fullmatch(word) or _PRESENT.fullmatch(word) \
                or word in _HOW_MANY:
            break
        out.append(typed[j])
        if len(out) == 2:
            break
    return out


@lru_cache(maxsize=4096)  # facts are frozen: their words are gathered once
def _fact_features(fact: Fact) -> frozenset[tuple[str, str]]:
    text = " ".join((fact.subject, " ".join(fact.keywords), fact.effect, fact.unit,
                     fact.value_unit, fact.quote))
    return frozenset(f for w in words(text) for f in _features(w))


def _features(word: str) -> frozenset[tuple[str, str]]:
    return frozenset(word_features(word).items())  # matched as facts are ranked


def unstated(asked: Asked, facts: Iterable[Fact], translate: Callable[[str], str]) -> bool:
    """True when no fact of ``facts`` (one game's) mentions any word of the counted thing.
    ``translate`` gives the corpus's Turkish for an English word ("" if none), so "how many
    points" meets "puan"; English plurals are translated as their singular."""
    stated: set[tuple[str, str]] = set()
    for fact in facts:
        stated |= _fact_features(fact)
    forms = [f for w in asked.words
             for f in (w, *words(translate(w) or translate(w.removesuffix("s"))))]
    return not any(_features(f) & stated for f in forms)
