"""How the numbers of a question are grouped: what ``bind`` reads before it gives each
number its quantity.

What it does: finds one number said of each of several names ("d4, d6 ve d10 hepsi 2"),
rate numbers ("her band için 2"), numbers in parentheses that break down the one before
("11 (7 temiz 4 kirli)"), a gloss in parentheses between a name and its number
("toplam enerjim (temiz+kirli) 9"), names each followed by their number ("talebim 13 toplam enerjim
10"), numbers that count a list rather than add to it ("2 ve 4 olan iki tier"), and parts
of a count already in it ("7 hayatta kalan var, 2'si çaresiz"), sizes listed before a count
of them ("3'lük ve 2'lik iki kümem"). What it
does not do: give the remaining numbers their quantities (``bind``).
"""

from __future__ import annotations

import itertools
import re

from .bind_words import (
    ALSO,
    CLAUSE_ENDS,
    EVERY,
    MEASURE,
    RATE_WORDS,
    SENTENCE_ENDS,
    SEPARATORS,
)
from .formulas import Quantity
from .mentions import Mention, Token, word_matches
from .text import APOSTROPHES, fold

# "d4, d6 ve d10 hepsi 2", "d8 ile d12 ikisi de 5", "d10 ile d12 de 5", "her biri 3": one
# number said of each of the things listed right before it. "ikisi", "dördü" (folded) say
# how many things, not a count.
_ALL = frozenset(("hepsi", "hepsinde", "tumu", "tamami", "all", "both", "each"))
_ALL_OF_N = {"ikisi": 2, "ucu": 3, "dordu": 4, "besi": 5, "altisi": 6, "yedisi": 7,
             "sekizi": 8, "dokuzu": 9}
_THERE = frozenset(("var", ","))


def each_of(question: str, toks: list[Token], found: list[Mention],
             qs: dict[str, Quantity]) -> tuple[dict[int, tuple[str, int]], set[int]]:
    """Numbers said of each of several names of one summed quantity: number → (quantity,
    how many names), and the tokens that only say how many ("ikisi de", "dördü de")."""
    each: dict[int, tuple[str, int]] = {}
    collective: set[int] = set()
    for n, t in enumerate(toks):
        j = n - 1 - (n > 0 and toks[n - 1].text in ALSO)
        if t.number is None or j < 0:
            continue
        said = fold(question[toks[j].start : toks[j].end])
        if toks[j].text in _ALL or (toks[j].text == "biri" and j and toks[j - 1].text == "her"):
            j -= toks[j].text == "biri"
            told = 0
        elif j == n - 2 and said in _ALL_OF_N:  # "ikisi de", "ucu de" (also a word: a tip)
            told = _ALL_OF_N[said]
        elif j == n - 2:  # "d10 ile d12 de 5": the names themselves, then "de"
            j, told = n - 1, 0
        else:
            continue
        names: list[Mention] = []
        at = j
        while at > 0 and toks[at - 1].text in _THERE:
            at -= 1  # "d6, d8 ve d12 var, hepsi 4 gösteriyo": the list, then what it shows
        for m in reversed(found):
            if m.last >= at:
                continue
            if m.last != at - 1 and not (m.last == at - 2 and toks[at - 1].text in SEPARATORS):
                break
            names.append(m)
            at = m.first
        same = {m.quantity for m in names}
        if len(names) < 2 or len(same) != 1 or not qs[names[0].quantity].summed \
                or (told and told != len(names)):
            continue
        each[n] = (names[0].quantity, len(names))
        if told:
            collective.add(j)
    # "ikisi de benim rengim": "both of them", with no number after it, counts nothing either
    collective.update(n for n, t in enumerate(toks[:-1]) if t.number is not None
                      and fold(question[t.start:t.end]) in _ALL_OF_N
                      and toks[n + 1].text in ALSO)
    return each, collective


# "her Sıcaklık Bandı başına 1 jeton", "her band için 2": a number after a rate word, with
# "her" before it, is a rate; it counts only a quantity named by the rate word itself.
def rate_numbers(toks: list[Token], found: list[Mention], owner: dict[int, str]) -> set[int]:
    """The rate numbers ("her X başına N"), each given to the quantity its rate word names
    (in ``owner``), if any."""
    rates = set()
    for n, t in enumerate(toks):
        if t.number is None or n < 2 or toks[n - 1].text not in RATE_WORDS \
                or not any(w.text in EVERY for w in toks[max(0, n - 5) : n - 1]):
            continue
        rates.add(n)
        named = next((m for m in found if m.last == n - 1), None)
        if named is not None:
            owner[n] = named.quantity
    return rates


_PARENS = re.compile(r"\(([^()]*)\)")


def breakdowns(question: str, toks: list[Token]) -> set[int]:
    """Numbers in parentheses that add up to the number just before them: "3 emisyon
    jetonu (2 Sanayi, 1 Ulaşım)" states 3 tokens, told by kind, not 3 + 2 + 1."""
    out: set[int] = set()
    for group in _PARENS.finditer(question):
        inside = [i for i, t in enumerate(toks) if t.number is not None
                  and group.start() < t.start < group.end()]
        before = [i for i, t in enumerate(toks) if t.end <= group.start()]
        whole = next((i for i in reversed(before) if toks[i].number is not None), None)
        if len(inside) < 2 or whole is None or any(
                t.text in SENTENCE_ENDS or t.text in CLAUSE_ENDS
                for t in toks[whole + 1 : before[-1] + 1]):
            continue
        if abs(sum(toks[i].number or 0.0 for i in inside) - (toks[whole].number or 0.0)) < 1e-9:
            out.update(inside)
    return out


def pairs(toks: list[Token], found: list[Mention], numbers: list[int], owner: dict[int, str],
           named_by: dict[int, Mention], used: set[int]) -> None:
    """"talebim 13 toplam enerjim 10, …": names each followed by their number, two or more
    in a row, the last number with no name after it. Read in Turkish order, 13 would count
    "toplam enerji" and 10 nothing; the run's last pair shows the player's order."""
    starts = {m.first: k for k, m in enumerate(found)}
    k = 0
    while k < len(found):
        run = [k]  # mentions in the run, each followed by its number
        while (found[run[-1]].last + 1 in numbers
               and found[run[-1]].last + 2 in starts):
            run.append(starts[found[run[-1]].last + 2])
        last = found[run[-1]].last + 1
        if len(run) >= 2 and last in numbers and last + 1 not in starts \
                and not any(found[j].last + 1 in owner or j in used for j in run):
            for j in run:
                owner[found[j].last + 1] = found[j].quantity
                named_by[found[j].last + 1] = found[j]
                used.add(j)
        k = run[-1] + 1


def counts_of_lists(toks: list[Token], owner: dict[int, str],
                     named_by: dict[int, Mention], qs: dict[str, Quantity]) -> list[int]:
    """Numbers that count a list of a summed quantity's values rather than add one to it:
    "çarpanı 2 ve 4 olan iki tier'da" states two multipliers, 2 and 4, not three."""
    out = []
    for n, name in owner.items():
        named = named_by.get(n)
        count = toks[n].number
        if not qs[name].summed or named is None or named.first <= n or count is None:
            continue
        listed = sorted(m for m, other in owner.items() if other == name and m != n)
        joined = all(all(t.text in SEPARATORS for t in toks[a + 1 : b])
                     for a, b in itertools.pairwise(listed))
        if count >= 2 and len(listed) == count and joined:
            out.append(n)
    return out


# "7 hayatta kalan var (2'si çaresiz)", "6 kişi var, 1'i helpless": a number with the
# possessive ending names a part of the count before it.
_PART_OF = re.compile(rf"[{APOSTROPHES}]?s?[iıuüIİUÜ]\b", re.IGNORECASE)


def parts_of_counts(question: str, toks: list[Token], owner: dict[int, str],
                    named_by: dict[int, Mention], qs: dict[str, Quantity]) -> list[int]:
    """Numbers said as a part of the count just before them ("7 hayatta kalan var, 2'si
    çaresiz") of a quantity the rule adds to that count when stated (one with a default):
    the part is already in the count, so it is not counted again. ("6'sı eşleşiyor 2'si
    eşleşmiyor": two parts of one whole, neither a part of the other; "5 koşuldan 2'si
    sağlandı": the part of a whole named before it, not after.)"""
    parts = []
    for n in owner:
        tok = toks[n]
        if tok.text or not _PART_OF.match(question, tok.end) or qs[owner[n]].default is None \
                or n not in named_by or named_by[n].first < n:
            continue
        before = [m for m in owner if m < n]
        if not before:
            continue
        m = max(before)
        if owner[m] == owner[n] or toks[m].text or _PART_OF.match(question, toks[m].end) \
                or any(t.text in SENTENCE_ENDS for t in toks[m + 1 : n]):
            continue
        parts.append(n)
    return parts


_PARENTHESES = re.compile(r"\([^()]*\)")


def glosses(question: str, toks: list[Token]) -> set[int]:
    """The tokens of each aside in parentheses, of two or more words and no number, right
    between a word and a number: "toplam enerjim (temiz+kirli) 9" says what the words
    before it are made of; the number is theirs, and the aside's own words ("kirli") are no
    names of it."""
    out: set[int] = set()
    for p in _PARENTHESES.finditer(question):
        inside = [j for j, t in enumerate(toks) if p.start() <= t.start < p.end()]
        if len(inside) < 2 or inside[0] == 0 or inside[-1] + 1 >= len(toks):
            continue  # one word in parentheses names the number after it: "(kirli) 4"
        if toks[inside[0] - 1].number is None and toks[inside[-1] + 1].number is not None \
                and all(toks[j].number is None for j in inside):
            out.update(inside)
    return out


_SIZED = re.compile(r"\w+l[ıiuü]k$")  # "karoluk": a thing named by its size
NAME_WORDS = 3  # words between a count and its name ("iki enerji tarlası kümemi")


def sizes_counted(question: str, toks: list[Token], found: list[Mention],
                  qs: dict[str, Quantity]) -> tuple[dict[int, str], set[int]]:
    """"3'lük ve 2'lik iki kümemi birleştirdi": "-lik" numbers ("3'lük", "3 karoluk")
    listed right before a count of the name of a summed quantity named by its size (an
    alias in "-lik": "karoluk"), as many as it counts, are the size of each (number →
    quantity); the count only says how many there are (its token, in the set)."""
    sizes: dict[int, str] = {}
    counts: set[int] = set()
    for m in found:
        # only a quantity of sizes ("karoluk": named by its size), not one of things counted
        # ("5'lik ve 3'lük iki legend'ım" are two Legends, each paying 1 €$)
        sized = [fold(a) for a in qs[m.quantity].aliases if _SIZED.search(a)]
        if not qs[m.quantity].summed or not sized:
            continue
        j = m.first - 1
        while j >= 0 and toks[j].number is None and m.first - j <= NAME_WORDS \
                and toks[j].text not in SEPARATORS | SENTENCE_ENDS | CLAUSE_ENDS:
            j -= 1
        if j < 0 or toks[j].number is None or toks[j].text or m.first - j > NAME_WORDS:
            continue
        listed: list[int] = []
        k = j - 1
        while k >= 0:
            # "3'lük", or "3 karoluk": the size's word after it
            if k and toks[k].number is None and any(word_matches(toks[k].text, a)
                                                     for a in sized):
                k -= 1
            elif toks[k].number is None or not MEASURE.match(question, toks[k].end):
                break
            if toks[k].number is None or toks[k].text:
                break
            listed.append(k)
            if k < 2 or toks[k - 1].text not in SEPARATORS:
                break
            k -= 2
        if len(listed) >= 2 and len(listed) == toks[j].number:
            counts.add(j)
            sizes.update({k: m.quantity for k in listed})
    return sizes, counts
