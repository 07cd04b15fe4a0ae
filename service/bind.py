"""Bind the numbers a question states to the quantities of a formula.

What it does: takes the question's tokens and where each quantity's names occur in them
(``mentions``: "hayatta kalanım", "survivor'ım", "talebim" for "talep") and gives each
number the quantity it counts. In Turkish the noun a number counts follows it ("5 hayatta
kalan", "8 temiz 3 kirli", "2 kişiyiz"); a number may also follow its name ("talep 13",
"Enerji Talebim şu anda 11"); numbers listed together ("2 ve 4 katlık", "etki değeri 3 ve
2") count the same thing; "beş koşuldan ikisi" counts the part, "3 tane daha" adds, one
number said of all the things listed before it ("d4, d6 ve d8 hepsi 3", "ikisi de 5
puanlık") counts each of them, and numbers in parentheses adding up to the one before are
its breakdown; names each followed by their number ("talebim 13 toplam enerjim 10") pair
up; a number of times counts the thing done further on in its clause ("3 kere yeniden
şarjda belirtecimi '0' alanına koydum"). Counts of one said without a number ("bir bitiş
koşulu", "en ileri belirteç benim", "çoğunluk bende") are ``ones``; occasions told one
by one ("ilkinde …, ikincisinde …") are ``occasions``; numbers the rule leaves out ("fixer
alanındaki d20", "satış etiketi olmayan 1 Legend"), a "-lik" number's worth ("5'lik
görev kartı") and a count's named parts ("biri Katedral Bonusu") are ``bind_scope``; the
words it reads by are ``bind_words``; how the numbers are grouped first (lists, rates,
breakdowns, name-number pairs) is ``bind_groups``.

What it does not do: choose a formula or evaluate one (``calc``, ``working``), or guess a
number the question does not state.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .bind_groups import (
    breakdowns,
    counts_of_lists,
    each_of,
    glosses,
    pairs,
    parts_of_counts,
    rate_numbers,
    sizes_counted,
)
from .bind_scope import left_out, measures, placed
from .bind_words import (
    ABLATIVE,
    ALSO,
    ARTICLES,
    ELLIPSIS,
    FILLER,
    FILLER_WORD,
    GIVES,
    MINE,
    MORE,
    PLURAL,
    SELF,
    SEPARATORS,
    WINDOW,
)
from .formulas import Quantity
from .mentions import Mention, Token, mentions, tokens
from .occasions import is_rank_token, occasions_counted, times_counted, told_in_order
from .ones import bind_ones, first_said
from .text import fold

# "kolonide çaresizler dahil 7 kişi": what the count includes, named before "dahil", is
# no count's owner; the count belongs to what is named before the phrase.
_INCLUDED = frozenset(("dahil", "included", "including"))


def _counted_before(m: Mention, found: list[Mention], owner: dict[int, str]) -> bool:
    """The name has its number before it already, in Turkish order, itself or a name of the
    same quantity right before it ("2 ve 3 etki ikonlu iki karom"): a number after it
    counts something else ("iki karom")."""
    first = m.first
    while True:
        if owner.get(first - 1) == m.quantity:
            return True
        prev = next((o for o in found if o.last == first - 1 and o.quantity == m.quantity), None)
        if prev is None:
            return False
        first = prev.first


def _without_included(question: str, toks: list[Token], found: list[Mention],
                      names: list[tuple[str, str]]) -> tuple[list[Token], list[Mention]]:
    """The tokens with each "X dahil" phrase read as filler, and the mentions without X; a
    number of X ("1 çaresiz dahil 5 kişi") is part of the count after it, so the phrase
    with its number is no words at all, wherever it stands."""
    inside = [m for m in found if m.last + 1 < len(toks) and toks[m.last + 1].text in _INCLUDED]
    if not inside:
        return toks, found
    # (only a number right before X, of one X: "kolonide 7 (çaresiz dahil)" and "7 çaresizler
    # dahil" count the colony)
    counted = {j for m in inside if m.first > 0 and toks[m.first - 1].number is not None
               and not PLURAL.search(m.tail) and not toks[m.first - 1].text
               and _spaced(question, toks[m.first - 1], toks[m.first])
               for j in range(m.first - 1, m.last + 2)}
    if counted:
        toks = [t for j, t in enumerate(toks) if j not in counted]
        return _without_included(question, toks, mentions(toks, names), names)
    blank = {j for m in inside for j in range(m.first, m.last + 2)}
    return ([Token(FILLER_WORD, t.start, t.end) if j in blank else t
             for j, t in enumerate(toks)], [m for m in found if m not in inside])


def _plain_included(toks: list[Token]) -> list[Token]:
    """The tokens with "dahil" said the plain way: "1 çaresiz de dahil", "dahil olmak üzere
    5 kişi" read as "1 çaresiz dahil 5 kişi"."""
    drop: set[int] = set()
    for j, t in enumerate(toks):
        if t.text not in _INCLUDED:
            continue
        if j and toks[j - 1].text in ALSO:
            drop.add(j - 1)
        if [u.text for u in toks[j + 1 : j + 3]] == ["olmak", "uzere"]:
            drop |= {j + 1, j + 2}
    return [t for j, t in enumerate(toks) if j not in drop] if drop else toks



def _spaced(question: str, a: Token, b: Token) -> bool:
    """Only spaces between two tokens: "1 çaresiz", not "7 (çaresiz"."""
    return question[a.end : b.start].isspace()


def _mine_said(toks: list[Token], at: int) -> bool:
    """"benim" before ``at`` says "I am": "birinci benim, rakip ikinci", "birinci benim kaç
    puan"; not when denied ("birinci benim değil") or when it owns the word after it
    ("birinci benim rakibim oldu": "my rival")."""
    if at >= len(toks) or toks[at].number is not None:
        return True
    said = toks[at].text
    return not (said.startswith("degil") or (len(said) > 4 and _POSSESSED.search(said)))


_POSSESSED = re.compile(r"(?:[iu]m|[iu]m[iu]z)$")  # folded: "rakibim", "takımımız"


def _gap_ok(toks: list[Token], a: int, b: int) -> bool:
    """Tokens strictly between a and b: at most WINDOW words, all filler, no number."""
    between = toks[a + 1 : b]
    # ("0 gösteren bi d10": the article after what a die shows, not a count of its own)
    return len(between) <= WINDOW and all(
        t.number is None and (t.text in FILLER or (t.text in ARTICLES and j and between[j - 1]
                                                   .text in _SHOWN))
        for j, t in enumerate(between))


_ONE_OF = frozenset(("biri", "birisi"))  # "beş bitiş koşulundan biri": one of them
_SHOWN = frozenset(("gosteren", "gelen", "gelmis"))  # folded: "0 gösteren", "2 gelen"
# After a rank, "olan": the rank of the one asked about ("birinci olan kaç puan alır").
_OF_ONESELF = frozenset(("olan",))


@dataclass(frozen=True)
class Binding:
    values: dict[str, tuple[float, ...]]  # quantity → the numbers stated for it
    # and where the question states them; a quantity may also carry the spans of numbers
    # read for it and deliberately not counted (the rival's other dice, ``exchange``)
    spans: dict[str, tuple[tuple[int, int], ...]]
    # Quantities whose stated numbers may include ones the rule does not count: what makes
    # one not count is said, but of no number or part of them ("3 legend'ım var, açık
    # olanların etiketi yok"): how many count is the player's to say.
    unclear: frozenset[str] = frozenset()


def bind(question: str, quantities: Iterable[Quantity]) -> Binding:
    """Each number of the question given to the quantity it counts (if any)."""
    qs = {q.name: q for q in quantities}
    toks = tokens(question)
    aside = glosses(question, toks)
    toks = [t for j, t in enumerate(toks) if j not in aside]
    toks = _plain_included(toks)
    names = [(q.name, a) for q in qs.values() for a in q.aliases]
    toks, found = _without_included(question, toks, mentions(toks, names), names)
    in_names = {j for m in found for j in range(m.first, m.last + 1)}
    each, collective = each_of(question, toks, found, qs)
    sizes, counts = sizes_counted(question, toks, found, qs)
    collective |= counts
    owner: dict[int, str] = {n: name for n, (name, _) in each.items()} | sizes
    rates = rate_numbers(toks, found, owner)
    numbers = [i for i, t in enumerate(toks) if t.number is not None and i not in in_names
               and i not in collective and i not in rates
               and i not in breakdowns(question, toks)]
    named_by: dict[int, Mention] = {}  # the name right next to a number, when one is
    used: set[int] = set()
    # "beş bitiş koşulundan ikisi": the part after an ablative name counts it.
    starts = {m.first for m in found}
    for k, named in enumerate(found):
        n = named.last + 1
        # ("o türbinden 2 uranyum": the number has a name of its own right after it)
        part = n in numbers or (n < len(toks) and toks[n].text in _ONE_OF)
        if part and ABLATIVE.search(toks[named.last].text) and n + 1 not in starts:
            owner[n] = named.quantity  # "beş bitiş koşulundan biri": one, not five
            used.add(k)
    pairs(toks, found, numbers, owner, named_by, used)
    # The noun after the number first (Turkish order), then a name before it. A number with
    # its own noun may stand between: "iki tane 5 puanlık görev kartı" (2 cards of 5 points).
    for n in numbers:
        if n in owner:
            continue
        if question[: toks[n].start].rstrip().endswith(GIVES) and any(
                m.last == n - 1 for m in found):
            continue  # "d12=5 d20=5": the name before "=" owns it (bound below)
        if question[toks[n].end : toks[n].end + 1] == "." and any(
                m.last < n and _gap_ok(toks, m.last, n) for m in found):
            # "talebim şu an 10. Growth Phase'de …": a sentence ends after the number; the
            # name before it owns it, not the next sentence's first word (bound below)
            continue
        after = next((k for k, m in enumerate(found) if m.first > n), None)
        if after is not None and found[after].first == n + 1 \
                and ABLATIVE.search(toks[found[after].last].text) \
                and found[after].last + 1 < len(toks) \
                and _KAC.fullmatch(toks[found[after].last + 1].text):
            continue  # "beş bitiş koşulundan kaçı": the whole a part is asked of
        inner = n + 2 if n + 1 < len(toks) and toks[n + 1].text in FILLER else n + 1
        if after is not None and inner in numbers and found[after].first == inner + 1 \
                and after + 1 < len(found) and found[after + 1].first == found[after].last + 1 \
                and after + 1 not in used:
            owner[n] = found[after + 1].quantity
            used.add(after + 1)
            continue
        if after is not None and after not in used and _gap_ok(toks, n, found[after].first):
            owner[n] = found[after].quantity
            named_by[n] = found[after]
            used.add(after)
    occasions_counted(question, toks, numbers, found, qs, owner, named_by, used)
    times_counted(question, toks, numbers, found, owner, named_by, used)
    for n in numbers:
        if n in owner:
            continue
        before = [k for k, m in enumerate(found) if m.last < n and k not in used]
        if before and _gap_ok(toks, found[before[-1]].last, n) \
                and not _counted_before(found[before[-1]], found, owner):
            owner[n] = found[before[-1]].quantity
            named_by[n] = found[before[-1]]
            used.add(before[-1])
    # "öndekinde de 1 tane var": a count with no noun of its own counts what was last
    # named, when that is a sum of parts; "3 tane daha" adds to it whatever it is.
    more: set[int] = set()
    for n in numbers:
        follow = [t.text for t in toks[n + 1 : n + 3]]
        elided = bool(follow) and follow[0] in ELLIPSIS
        # (not "moral 6. daha önce …": a full stop after the number ends its clause)
        added = (MORE in follow[:1] or (elided and follow[1:] == [MORE])) \
            and question[toks[n].end : toks[n].end + 1] != "."
        if n in owner or not (elided or added):
            continue
        if any(m.first in (n + 1, n + 2, n + 3) for m in found):
            continue
        last = [m for m in found if m.last < n]
        if last and (added or qs[last[-1].quantity].summed):
            owner[n] = last[-1].quantity
            if added:
                more.add(n)
    # Numbers listed with a bound one ("2 ve 4 katlık") count the same summed quantity.
    changed = True
    while changed:
        changed = False
        for n in numbers:
            if n in owner:
                continue
            for m in (n - 2, n + 2):
                if m in owner and qs[owner[m]].summed and toks[(n + m) // 2].text in SEPARATORS:
                    owner[n] = owner[m]
                    changed = True
                    break
    # "ben birinciyim", "birinci benim": a rank said of oneself, with no name, is the rank;
    # so is the rank of the one asked about ("birinci olan kaç puan alır")
    ranked = [q.name for q in qs.values() if q.ranked]
    for n in numbers:
        then = toks[n + 1].text if n + 1 < len(toks) else ""
        if n not in owner and ranked and (
                SELF.search(fold(question[toks[n].start:toks[n].end]))
                or (is_rank_token(question, toks[n]) and (then in _OF_ONESELF or (
                    then in MINE and _mine_said(toks, n + 2))))):
            owner[n] = ranked[0]
    first_said(toks, found, qs, owner)  # "çoğunluk bende": the rank's first place
    for n in counts_of_lists(toks, owner, named_by, qs):
        del owner[n]
    for n in parts_of_counts(question, toks, owner, named_by, qs):
        del owner[n]
    if owner:  # "bir uranyum kaç elektrik" asks the rule, not a situation: no count is stated
        bind_ones(question, toks, found, qs, owner, used)
    values: dict[str, list[float]] = {}
    spans: dict[str, list[tuple[int, int]]] = {}
    # (a name that stands for one itself, "ikinciydim", is no rank of it)
    for n in [n for n in owner if qs[owner[n]].counted and is_rank_token(question, toks[n])
              and n not in in_names]:
        del owner[n]  # "2. türbinim": the second one, not two of them
    for n in [n for n in owner if not qs[owner[n]].ranked and toks[n].number is not None
              and n not in in_names
              and _ORDINAL.match(fold(question[toks[n].start:toks[n].end]))]:
        del owner[n]  # "birinciye ikinciye": an ordinal ranks ("birinci X", the first X)
    # whose each number is by where it is said ("termometrede 15 küp"), and the numbers
    # the rule does not count ("fixer alanındaki d20 17", "satış etiketi olmayan 1 Legend")
    placed(toks, found, qs, owner, named_by)
    unclear, less = left_out(question, toks, numbers, found, qs, owner, named_by)
    told = told_in_order(question, toks, qs.values())
    for n in [n for n in owner if owner[n] in told]:
        del owner[n]  # counted occasion by occasion instead
    measures(question, toks, found, qs, owner, less)
    for n in sorted(owner):
        name = owner[n]
        # "bir", "biri"; a name standing for one of itself ("ikinciydim": one second place)
        number = None if n in in_names and not qs[name].ranked else toks[n].number
        value = (1.0 if number is None else number) - less.get(n, 0.0)
        if value == 0 and qs[name].zero_counts:  # "0 gösteren bi d10" counts 10
            value = _zero_counts(n, name, found, named_by, dict(qs[name].zero_counts))
        copies = each[n][1] if n in each else 1
        if n in more and len(values.get(name, ())) == 1 and not qs[name].summed:
            values[name][0] += value  # 6 and 3 more: 9, not "6 or 3?"
        else:
            values.setdefault(name, []).extend([value] * copies)
        spans.setdefault(name, []).extend([(toks[n].start, toks[n].end)] * copies)
    for name, (count, where) in told.items():
        values[name], spans[name] = [count], list(where)
    return Binding({k: tuple(v) for k, v in values.items()},
                   {k: tuple(v) for k, v in spans.items()}, unclear)


# "kaçı", "kaç tanesi": the part asked of a whole (not "kaçtım", fled), folded.
_KAC = re.compile(r"kac(?:i|ini|inin|ina|ta|tane|tanesi)?")
# An ordinal said as a word ("birinci" reads as the number 1, see ``numbers``).
_ORDINAL = re.compile(r"(?:bir|iki|uc|dord|bes|alti|yedi|sekiz|dokuz|on)[iu]?nc[iu]")


def _zero_counts(n: int, name: str, found: list[Mention], named_by: dict[int, Mention],
                 zeros: dict[str, float]) -> float:
    """What a stated 0 counts: its name's own value for 0 (a d10's "0" is 10), the name
    being the one bound to it, or else the nearest of the quantity's names within a few
    words after it ("0 gösteren bi d10") or right before it ("d10 0 gösteriyor")."""
    near = [named_by[n]] if n in named_by else [
        m for m in found if m.quantity == name and (n < m.first <= n + 3 or m.last == n - 1)]
    return next((zeros[m.alias] for m in near if m.alias in zeros), 0.0)
