"""Where a number is said decides whose it is, or that the rule leaves it out.

What it does: gives a number named by a name several quantities share to the one whose
places are said of it (``where``: "termometrede 15 küp vardı" against "Son Emisyonlar'a
31 küp geldi"); drops the numbers said where the rule does not count them (``not_where``,
said in the number's clause: "fixer alanındaki d20 17 gösteriyor") or said with what makes
one of it not count (``not_with``, said in the number's own noun phrase: "satış etiketi
olmayan 1 açık Legend"). A ``not_with`` phrase said of no number at all ("3 legend'ım var,
biri açık ve etiketi yok") leaves that quantity's count unclear: how many count is the
player's to say.

What it does not do: find which number counts what (``bind``).
"""

from __future__ import annotations

from .bind_words import CLAUSE_ENDS, SENTENCE_ENDS, SEPARATORS
from .formulas import Quantity
from .mentions import Mention, Token, mentions
from .text import fold

# Where a noun phrase starts: what ends the one before it ("2 kapalı legend ve …", "… ama").
_PHRASE_ENDS = SENTENCE_ENDS | CLAUSE_ENDS | SEPARATORS | frozenset(("ama", "fakat", "ancak"))


def left_out(toks: list[Token], numbers: list[int], found: list[Mention],
             qs: dict[str, Quantity], owner: dict[int, str],
             named_by: dict[int, Mention]) -> frozenset[str]:
    """Deletes from ``owner`` the numbers the rule does not count; returns the quantities
    whose count is left unclear."""
    for n in [n for n in owner if qs[owner[n]].not_where
              and _said_where(toks, n, qs[owner[n]].not_where)]:
        del owner[n]
    unclear = set()
    for q in [q for q in qs.values() if q.not_with
              and any(mentions(toks, [(p, p)]) for p in q.not_with)]:
        excluded = [n for n in numbers if _said_with(toks, n, named_by.get(n), found,
                                                     q.not_with)]
        for n in excluded:
            if owner.get(n) == q.name:
                del owner[n]
        if not excluded:
            unclear.add(q.name)
    return frozenset(unclear)


def placed(toks: list[Token], found: list[Mention], qs: dict[str, Quantity],
           owner: dict[int, str], named_by: dict[int, Mention]) -> None:
    """Gives each number named by a name several quantities share to the one whose places
    (``where``) are said of it, or else to one that needs no place ("termometrede 15 küp"
    and "Son Emisyonlar'a 31 küp" are two quantities' cubes); a number of a quantity that
    needs a place said nowhere is none of them."""
    for n in [n for n in owner if qs[owner[n]].where or n in named_by]:
        alias = named_by[n].alias if n in named_by else ""
        sharing = [q for q in qs.values() if alias in {fold(a) for a in q.aliases}] \
            if alias else [qs[owner[n]]]
        if len(sharing) < 2 and not qs[owner[n]].where:
            continue
        # (with its own case ending: "termometreye" is not "termometrede" one letter off)
        said = {t.text for t in _phrase_of(toks, n, named_by.get(n), found)}
        here = [q for q in sharing if q.where and any(
            w.startswith(p) for w in said for p in q.where)]
        anywhere = [q for q in sharing if not q.where]
        if here or anywhere:
            owner[n] = (here or anywhere)[0].name
        else:
            del owner[n]


def _said_where(toks: list[Token], n: int, places: tuple[str, ...]) -> bool:
    """A word of ``places`` in the clause of the number at ``n``, with any ending but its
    own letters ("termometreye" is no "termometrede" one letter off)."""
    ends = SENTENCE_ENDS | CLAUSE_ENDS
    start = next((j + 1 for j in range(n - 1, -1, -1) if toks[j].text in ends), 0)
    end = next((j for j in range(n + 1, len(toks)) if toks[j].text in ends), len(toks))
    return any(t.text.startswith(p) for t in toks[start:end] for p in places)


def _said_with(toks: list[Token], n: int, name: Mention | None, found: list[Mention],
               phrases: tuple[str, ...]) -> bool:
    """A phrase of ``phrases`` said in the noun phrase of the number at ``n``."""
    return any(mentions(_phrase_of(toks, n, name, found), [(p, p)]) for p in phrases)


def _phrase_of(toks: list[Token], n: int, name: Mention | None,
               found: list[Mention]) -> list[Token]:
    """The words said of the number at ``n``: from the end of what comes before it (a
    number, a name, a separator) through its name, and on to the end of its clause when no
    number follows there ("1 açık legend var ama etiketi yok")."""
    names = {j for m in found for j in range(m.first, m.last + 1)}
    start = next((j + 1 for j in range(n - 1, -1, -1) if toks[j].number is not None
                  or toks[j].text in _PHRASE_ENDS or j in names), 0)
    last = name.last if name is not None and name.first > n else n
    end = next((j for j in range(last + 1, len(toks))
                if toks[j].text in SENTENCE_ENDS | CLAUSE_ENDS), len(toks))
    if any(t.number is not None for t in toks[last + 1 : end]):
        end = last + 1  # the words before the next number are that number's
    return toks[start:end]
