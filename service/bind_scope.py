"""Where a number is said decides whose it is, or that the rule leaves it out.

What it does: gives a number named by a name several quantities share to the one whose
places are said of it (``where``: "termometrede 15 küp vardı" against "Son Emisyonlar'a
31 küp geldi"); drops the numbers said where the rule does not count them (``not_where``:
"fixer alanındaki d20 17 gösteriyor") or said with what makes one of it not count
(``not_with``: "satış etiketi olmayan 1 açık Legend") — each read in the words said of the
number (``_phrase_of``). Said of a part of a count named before ("3 legend'ım var: ikisi
kapalı, biri açık ve etiketi yok"), the part comes off the count (2); said of no number or
part ("açık olanların etiketi yok"), it leaves that quantity's count unclear: how many
count is the player's to say. A number with the "-lik" ending said of a thing whose worth
another quantity states ("5'lik bi görev kartı") is that worth (``worth_of_each``); a thing
of another quantity named as a part of a count ("2 görev kartım tuttu: biri Katedral
Bonusu") counts one of its own and comes off the count (``named_parts``).

What it does not do: find which number counts what (``bind``).
"""

from __future__ import annotations

import re

from .bind_words import ARTICLES, CLAUSE_ENDS, MEASURE, SENTENCE_ENDS, SEPARATORS
from .formulas import Quantity
from .mentions import Mention, Token, mentions
from .text import fold

# Where a noun phrase starts: what ends the one before it ("2 kapalı legend ve …", "… ama").
_PHRASE_ENDS = SENTENCE_ENDS | CLAUSE_ENDS | SEPARATORS | frozenset(("ama", "fakat", "ancak"))


def left_out(question: str, toks: list[Token], numbers: list[int], found: list[Mention],
             qs: dict[str, Quantity], owner: dict[int, str], named_by: dict[int, Mention]
             ) -> tuple[frozenset[str], dict[int, float]]:
    """Deletes from ``owner`` the numbers the rule does not count; returns the quantities
    whose count is left unclear, and what to take off a whole for a part of it the rule
    does not count ("3 legend'ım var: ikisi kapalı, biri açık ve etiketi yok": 3 − 1)."""
    for n in [n for n in owner if qs[owner[n]].not_where and _said_in(
            _phrase_of(toks, n, named_by.get(n), found), qs[owner[n]].not_where)]:
        del owner[n]
    unclear = set()
    less: dict[int, float] = {}
    parts = [j for j, t in enumerate(toks) if t.text in _ONE_OF]
    for q in [q for q in qs.values() if q.not_with
              and any(mentions(toks, [(p, p)]) for p in q.not_with)]:
        # (a number of another quantity says nothing of this one's)
        excluded = [n for n in sorted(numbers + parts) if owner.get(n, q.name) == q.name
                    and _said_with(toks, n, named_by.get(n), found, q.not_with)]
        for n in excluded:
            part = _part(question, toks[n])
            whole = next((w for w in range(n - 1, -1, -1) if owner.get(w) == q.name
                          and w not in excluded), None) if part else None
            if whole is not None and any(t.text in SENTENCE_ENDS for t in toks[whole:n]):
                whole = None
            if whole is not None:
                less[whole] = less.get(whole, 0.0) + part
            elif part or owner.get(n) != q.name:
                # a part of no count said before it, or a number read as no count of this
                # quantity ("2'sinin etiketi yok"): which ones count is the player's to say
                unclear.add(q.name)
            owner.pop(n, None)
        if not excluded:
            unclear.add(q.name)
        for w in [w for w in less if owner.get(w) == q.name
                  and less[w] > (toks[w].number or 1.0)]:
            del less[w]  # more parts left out than the count has: not a count to trust
            unclear.add(q.name)
    return frozenset(unclear), less


# One of a whole named before: "3 legend'ım var: biri açık ve etiketi yok".
_ONE_OF = frozenset(("biri", "birisi"))
# A number in digits with the possessive of a part ("2'si", "1'i"), folded; a number word
# with it ("ikisi", "üçü", "dördü", "sekizi"): one ending in i/u that no bare number word has.
_PART_SUFFIX = re.compile(r"'?s?[iu]\b")
_BARE_IN_IU = frozenset(("iki", "alti", "yedi"))


def _part(question: str, tok: Token) -> float:
    """How many of a whole the token names as a part of it, or 0 when it is no part."""
    if tok.text in _ONE_OF:
        return 1.0
    if tok.number is None or tok.text:
        return 0.0
    word = fold(question[tok.start : tok.end])
    if word.isdigit():
        return tok.number if _PART_SUFFIX.match(fold(question[tok.end : tok.end + 4])) else 0.0
    return tok.number if word[-1:] in "iu" and word not in _BARE_IN_IU else 0.0


def placed(toks: list[Token], found: list[Mention], qs: dict[str, Quantity],
           owner: dict[int, str], named_by: dict[int, Mention]) -> None:
    """Gives each number named by a name several quantities share to the one whose places
    (``where``) are said of it, or else to one that needs no place ("termometrede 15 küp"
    and "Son Emisyonlar'a 31 küp" are two quantities' cubes); never to one whose
    ``not_where`` is said of it. A number no quantity fits is left to ``left_out``."""
    names = {q.name: {fold(a) for a in q.aliases} for q in qs.values()}
    for n in [n for n in owner if qs[owner[n]].where or n in named_by]:
        alias = named_by[n].alias if n in named_by else ""
        sharing = [q for q in qs.values() if alias in names[q.name]] \
            if alias else [qs[owner[n]]]
        if len(sharing) < 2 and not qs[owner[n]].where:
            continue
        said = _phrase_of(toks, n, named_by.get(n), found)
        fits = [q for q in sharing if not _said_in(said, q.not_where)]
        here = [q for q in fits if q.where and _said_in(said, q.where)]
        anywhere = [q for q in fits if not q.where]
        if here or anywhere:
            owner[n] = (here or anywhere)[0].name
        elif qs[owner[n]].where:
            del owner[n]


def _said_in(said: list[Token], places: tuple[str, ...]) -> bool:
    """A word of ``places`` among the words said, with any ending but its own letters
    ("termometreye" is no "termometrede" one letter off)."""
    return any(t.text.startswith(p) for t in said for p in places)


def _said_with(toks: list[Token], n: int, name: Mention | None, found: list[Mention],
               phrases: tuple[str, ...]) -> bool:
    """A phrase of ``phrases`` said in the noun phrase of the number at ``n``."""
    return any(mentions(_phrase_of(toks, n, name, found), [(p, p)]) for p in phrases)


def _phrase_of(toks: list[Token], n: int, name: Mention | None,
               found: list[Mention]) -> list[Token]:
    """The words said of the number at ``n``: back from it (or from its name, when the name
    comes first: "fixer alanındaki d20 17") to the end of what comes before (a number, a
    name, a separator, "ama"), through its name, and on to the end of its clause — up to
    the last separator before the next number, whose words those are ("25 küp termometreye
    gitti ve termometrede 15 küp"; "1 açık legend var ama etiketi yok")."""
    names = {j for m in found for j in range(m.first, m.last + 1)}
    first = name.first if name is not None and name.last < n else n
    start = next((j + 1 for j in range(first - 1, -1, -1) if toks[j].number is not None
                  or toks[j].text in _PHRASE_ENDS or j in names), 0)
    last = name.last if name is not None and name.first > n else n
    end = next((j for j in range(last + 1, len(toks))
                if toks[j].text in SENTENCE_ENDS | CLAUSE_ENDS), len(toks))
    following = next((j for j in range(last + 1, end) if toks[j].number is not None
                      or toks[j].text in _ONE_OF), None)
    if following is not None:
        ends = [j for j in range(last + 1, following) if toks[j].text in _PHRASE_ENDS]
        end = ends[-1] if ends else last + 1
    return toks[start:end]


def measures(question: str, toks: list[Token], found: list[Mention],
             qs: dict[str, Quantity], owner: dict[int, str], less: dict[int, float]) -> None:
    """What a "-lik" number measures, and the parts named of a count: a worth said of a
    thing whose worth is a quantity is that worth (``worth_of_each``); otherwise it is no
    count ("5 €$'lik kart", though "4'lük kademe" is a value of a summed quantity); a
    thing named as a part of a count comes off it (``named_parts``, added to ``less``)."""
    worth_of_each(question, toks, found, qs, owner)
    worths = {q.each_worth for q in qs.values()}
    for n in [n for n in owner if not qs[owner[n]].summed and owner[n] not in worths
              and MEASURE.match(question, toks[n].end)]:
        del owner[n]
    for n, off in named_parts(toks, found, qs, owner).items():
        less[n] = less.get(n, 0.0) + off


def worth_of_each(question: str, toks: list[Token], found: list[Mention],
                  qs: dict[str, Quantity], owner: dict[int, str]) -> None:
    """Gives a number with the "-lik" ending ("5'lik", "5lik", "5'erlik") to the worth
    (``each_worth``) of the nearest thing in its sentence that has one: "5'lik bi görev
    kartı", "2 görev kartım (ikisi de 5'lik)", "2 görev kartım tuttu (biri Katedral
    Bonusu, diğeri normal 5'lik)" — however far, as the part it is said of may stand
    between; not when a word of something else follows it ("3'lük yerleşimi")."""
    worthy = {q.name: q.each_worth for q in qs.values() if q.each_worth in qs}
    if not worthy:
        return
    starts = {m.first: m for m in found}
    for n, t in enumerate(toks):
        if t.number is None or t.text or not MEASURE.match(question, t.end) or (
                n in owner and owner[n] not in worthy):
            continue
        # (the "-lik" of the word after it, "3'lük yerleşimi", is that thing's measure)
        nxt = n + 1 + (n + 1 < len(toks) and toks[n + 1].start == t.end)  # ("5lik": its own)
        while nxt < len(toks) and toks[nxt].text in ARTICLES:
            nxt += 1
        if nxt < len(toks) and toks[nxt].text.isalpha() and (
                nxt not in starts or starts[nxt].quantity not in worthy):
            continue
        near = [m for m in found if m.quantity in worthy and _same_sentence(toks, n, m)]
        if near:
            nearest = min(near, key=lambda m: min(abs(m.first - n), abs(m.last - n)))
            owner[n] = worthy[nearest.quantity]


def named_parts(toks: list[Token], found: list[Mention], qs: dict[str, Quantity],
                owner: dict[int, str]) -> dict[int, float]:
    """For a thing of another quantity named as a part of a count said before it in its
    sentence ("2 görev kartım tuttu: biri Katedral Bonusu, diğeri 5'lik"): gives it one of
    its own (the part word's token) and returns what comes off the count (token → 1)."""
    less: dict[int, float] = {}
    for q in [q for q in qs.values() if q.parts]:
        for m in [m for m in found if m.quantity in q.parts]:
            word = m.first - 1
            while word >= 0 and toks[word].text in _FILLER_PART:
                word -= 1
            # (an article right before the part's name bound it as one already: "biri bir
            # Katedral Bonusu" is that part, not another one)
            article = [j for j in range(word + 1, m.first)
                       if toks[j].text in ARTICLES and owner.get(j) == m.quantity]
            if word < 0 or toks[word].text not in _PART_WORDS or word in owner or (
                    m.quantity in owner.values() and not article):
                continue
            whole = next((w for w in range(word - 1, -1, -1) if owner.get(w) == q.name
                          and toks[w].number is not None), None)
            if whole is None or any(t.text in SENTENCE_ENDS for t in toks[whole:word]) \
                    or less.get(whole, 0.0) + 1 > (toks[whole].number or 0.0):
                continue
            less[whole] = less.get(whole, 0.0) + 1
            for j in article:
                del owner[j]
            owner[word] = m.quantity
    return less


# Words that name one of a whole said before ("biri", "diğeri", "öbürü", "üçüncüsü"),
# folded; what may stand between such a word and the part's name.
_PART_WORDS = frozenset(("biri", "birisi", "digeri", "oburu", "ikincisi", "ucuncusu",
                         "dorduncusu"))
_FILLER_PART = frozenset(("de", "da", "ise", "normal")) | ARTICLES


def _same_sentence(toks: list[Token], n: int, m: Mention) -> bool:
    a, b = sorted((n, m.first))
    return not any(t.text in SENTENCE_ENDS for t in toks[a:b])
