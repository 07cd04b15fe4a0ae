"""What a number question counts, and whether the rules state any number of it at all.

What it does: finds the thing a "how many / how much / how long" question counts (the noun
after "kaç", else the words before it: "RAM limiti kaç"; the noun after "how many"; a clock
unit; or the game's length, for "ne kadar sürer" and "how long") and looks for it in the
game's facts. Every number the texts state is a fact or is excused as not a rule
(``tests/test_facts.py`` holds the table to that), so a counted thing that no fact of the
game mentions is a number the rules do not give, and saying so beats answering with another
number. ("bir" and "tek" are not in the table: they are mostly articles, so "kaç yığın"
against "tek bir yığın halinde" is a known miss.) What it does not do: judge whether a
fact that does mention the thing answers the question ("kutuda toplam kaç Yerel Proje
kartı" against "her raunt 5 Yerel Proje kartı çekilir": that needs a model that reads
both), or rank facts (``factsearch``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from .chunks import section_kind
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
# Clock units as players type them (folded: "dakika", "dakikada", "dakka", "dk", "saat"):
# general words, not the corpus's, since a rules text need not use them to be asked them.
_CLOCK = re.compile(r"(?P<dakika>dakika\w{0,3}|dakka\w{0,3}|dk|minutes?)"
                    r"|(?P<saat>saat(?:te|e|i)?|hours?)|(?P<saniye>saniye\w{0,3}|seconds?)")


def _clock(word: str) -> str:
    m = _CLOCK.fullmatch(fold(word))
    return next(unit for unit, hit in m.groupdict().items() if hit) if m else ""


# How a fact says how long the game lasts ("Oyun süresi", "6 raunt sürer").
_LENGTH_WORDS = frozenset(("sure", "suresi", "surer", "suruyor", "dakika", "saat"))
# "bir raunt ne kadar sürer" asks how long a part of the game lasts, not the game.
_PART = re.compile(r"\b(?:raunt|round|tur|asama|faz|phase)\w*")
_LASTS = re.compile(r"\bne kadar (?:zaman(?:da)? )?sur(?!gun)|\bhow long\b")
# A number may be asked for one moment of the game: its start, or winning it. Only a fact
# that speaks of the same moment answers it (or, for the start, a component's count of the
# very thing: what the box holds per player is what a player starts with). Question words,
# fact words (folded), and how the answer names it. ("toplam" / "kutuda" was tried as a
# third, the whole box, and dropped: players say "toplam" of any sum, and it turned away
# answerable questions such as "toplam kaç yiyecek harcanır".)
_QUALIFIERS = MappingProxyType({
    # the game's own start: "oyuna … başlıyoruz", "kaç kartla başlanır", "başlangıçta",
    # "kurulumda"; not the start of something else ("Kral Günü başladığında")
    "start": (re.compile(r"\b(?:oyuna|maca)\b.*\bbasl|\bbasl\w* (?:oyun|mac)"
                         r"|(?:\bile|\w(?:la|le)) basl|\bbaslangic|\bkurulum|\bhazirlik"
                         r"|\bstart|\bsetup|\bbegin"),
              re.compile(r"\b(?:basl|basinda|kurulum|hazirlik|start|setup)"), "başlangıçta"),
    # winning the game: "maçı kazanmak için", "kazanmak için" with nothing else won before it;
    # "13 puan kazanmak için" and "kaç puan kazanırım" are earning
    "win": (re.compile(r"\b(?:oyun|mac)\w* kazan|^kazan(?:mak|abilmek|ma|masi)\b"
                       r"|\bwin(?:s|ning)?\b"),
            re.compile(r"\b(?:kazan(?!dir)|win|zafer)"), "kazanmak için"),
    # what the box holds: "kutuda kaç", "Daybreak kutusunda", "in the box" (not "toplam",
    # which players say of any sum)
    "box": (re.compile(r"\bkutu(?:da|sunda|nun|dan|ya)?\b|\bbox\b"),
            re.compile(r"\b(?:kutu|toplam|box|total)"), "kutuda"),
})


@dataclass(frozen=True)
class Asked:
    """The counted thing of a number question: its words as typed, or the game's length."""

    words: tuple[str, ...] = ()  # casefolded, Turkish letters as typed
    length: bool = False  # "ne kadar sürer", "how long", "kaç dakika"
    clock: str = ""  # the clock unit asked for ("dakika"), which rounds do not answer
    qualifiers: tuple[str, ...] = ()  # "start", "win", "box": see _QUALIFIERS

    def label(self) -> str:
        if self.length:
            return f"oyunun süresi ({self.clock})" if self.clock else "oyunun süresi"
        return " ".join([*(_QUALIFIERS[q][2] for q in self.qualifiers), *self.words])


def asked_for(question: str, known: Callable[[str], bool]) -> Asked | None:
    """The thing ``question`` asks a number of, or None when it asks no number (or the
    counted words cannot be told: verbs or slang that ``known``, the corpus's vocabulary,
    does not hold)."""
    flat = " ".join(fold(w) for w in words(question))
    if _LASTS.search(flat) and not _PART.search(flat):
        return Asked(length=True)
    clauses = [words(c) for c in re.split(r"[,;:.?!]+", question)]
    flats = [" ".join(fold(w) for w in typed) for typed in clauses]
    # Winning may be said in another sentence ("How do you win? How much Street Cred…");
    # the start is read only where the number is asked: "Kurulumu bitirdik, koloni fazında
    # kaç yiyecek…" asks about the colony phase.
    wins = any(_QUALIFIERS["win"][0].search(c) for c in flats)
    for typed, flat_clause in zip(clauses, flats, strict=True):
        folded = [fold(w) for w in typed]
        starts = bool(_QUALIFIERS["start"][0].search(flat_clause))
        boxed = bool(_QUALIFIERS["box"][0].search(flat_clause))
        qualifiers = tuple(q for q, on in (("start", starts), ("win", wins), ("box", boxed))
                           if on)
        for i, token in enumerate(folded):
            english = token in ("many", "much") and i > 0 and folded[i - 1] == "how"
            if not (token in _HOW_MANY or english or token in _HOW_MANY_BEFORE):
                continue
            if token not in _HOW_MANY_BEFORE:
                after = _phrase(typed, range(i + 1, len(typed)))
                if after and fold(after[0]) in _TIMES:
                    return None
                if after and _clock(after[0]):
                    return Asked(length=True, clock=_clock(after[0]))
                if any(known(w) for w in after):
                    return Asked(tuple(w for w in after if known(w)), qualifiers=qualifiers)
            before = [w for w in _phrase(typed, range(i - 1, -1, -1)) if known(w)]
            return Asked(tuple(before[::-1]), qualifiers=qualifiers) if before else None
    return None


def _phrase(typed: list[str], order: Iterable[int]) -> list[str]:
    """Up to two words beside "kaç", read in ``order``, that name what is counted: counting
    words next to "kaç" are skipped; a function word, a verb of being or a number ends it."""
    out: list[str] = []
    for j in order:
        word = fold(typed[j])
        if not out and word in _COUNTING:
            continue
        if word in STOPWORDS or _ENDS.fullmatch(word) or word in _HOW_MANY:
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
    """True when no fact of ``facts`` (one game's) mentions the counted thing (no word of
    it): the rules give no such number. ``translate`` gives the corpus's Turkish for an
    English word ("" if none), so "how many points" meets "puan"."""
    facts = list(facts)
    stated: set[tuple[str, str]] = set()
    for fact in facts:
        stated |= _fact_features(fact)
    if asked.clock:
        return ("w", asked.clock) not in stated
    if asked.length:
        return not any(("w", w) in stated for w in _LENGTH_WORDS)
    # For the existence of a number, any word of the counted phrase will do ("kaç zafer
    # puanı" meets a fact in "puan"): this catches things the facts never mention.
    # English plurals are translated as their singular: "cards" as "card" → "kart".
    forms = {w: [w, *words(translate(w) or translate(w.removesuffix("s")))]
             for w in asked.words}
    if not any(_features(f) & stated for fs in forms.values() for f in fs):
        return True
    # For a moment, the fact must be about the whole thing ("Yerel Proje", not any
    # "Proje") and speak of that moment. The whole thing is the phrase's words that facts
    # use as names (subject, unit, keywords): a verb ("kaç karo alır") is not what is counted.
    named: set[tuple[str, str]] = set()
    for fact in facts:
        named |= _name_features(fact)
    nouns = [fs for fs in forms.values() if any(_features(f) & named for f in fs)]
    about = [fact for fact in facts
             if all(any(_features(f) & _fact_features(fact) for f in fs) for fs in nouns)]
    phrase = [f for fs in nouns for f in fs]
    return any(not any(_speaks_of(fact, q, phrase) for fact in about)
               for q in asked.qualifiers)


@lru_cache(maxsize=4096)
def _name_features(fact: Fact) -> frozenset[tuple[str, str]]:
    text = " ".join((fact.subject, " ".join(fact.keywords), fact.unit, fact.value_unit))
    return frozenset(f for w in words(text) for f in _features(w))


def _speaks_of(fact: Fact, qualifier: str, phrase: list[str]) -> bool:
    """The fact is about the qualifier's moment, or (start, box) it is a component's count
    of the asked thing itself: what the box holds per player is what a player starts with."""
    text = " ".join(fold(w) for w in words(" ".join(
        (fact.subject, " ".join(fact.keywords), fact.effect, fact.quote, fact.section))))
    if _QUALIFIERS[qualifier][1].search(text):
        return True
    if qualifier == "win" or section_kind(fact.section.split(" > ")[0]) != "components":
        return False
    # The fact counts the thing itself (its unit, or its subject when the unit is a bare
    # counter), or a player's share of it ("Oyuncu başına skor işaretçisi"); a component's
    # value ("Kirli Enerji jetonu değeri") is not a supply.
    counted = f"{fact.unit} {fact.value_unit}"
    if _PER_PLAYER.search(fold(fact.subject)) or fold(fact.unit) in _COUNTERS:
        counted += f" {fact.subject}"  # "30 adet" of "Zombi standee ve jetonu"
    # "kartı" counts what "kart" counts: one is a prefix of the other, of 4 letters or more.
    return any(a == b or (min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a)))
               for a in map(fold, phrase) for b in map(fold, words(counted)))


_COUNTERS = frozenset(("adet", "tane", "parca", "kopya"))  # units that count the subject
_PER_PLAYER = re.compile(r"\boyuncu basina\b|\bher oyuncu")
