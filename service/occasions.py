"""Counts told occasion by occasion: "ilkinde en öndeydim, ikincisinde hem en ileri hem ikinci
en ileri benimdi, üçüncüsünde ikinciydim", and "3 kere … belirtecimi '0' alanına koydum".

What it does: finds a situation told as two or more occasions named by ordinals in the
locative ("ilkinde", "ilk King's Day'de", "ikincisinde", "üçüncüde", "sonuncusunda") and
counts, per quantity told so (``per_occasion``), the occasions in which a thing of it is
said of the speaker ("bendeydi", "benimdi", "ikinciydim", "sıradaydım") — one per
occasion, so the rule is applied once per occasion and the results add up (2 first places,
2 second places above). A thing said of someone else ("en ileri belirteç rakipteydi",
"ikinci Ali'ydi") or denied ("ben değildim") counts nothing; occasions said together
("ikincisinde ve üçüncüsünde ikinciydim") share what is said of them. Also a number of
times ("3 kere", "iki kez") counts the thing done further on in its clause, and a number of
occasions in the locative ("ikisinde en öndeydim", "iki King's Day'de en ileri bendeydi")
counts what is done on each (or, with nothing named, the rule's number of times).

What it does not do: read numbers said of an occasion ("ilk rauntta 3 küp, ikincisinde 5"
is the binder's, ``bind``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .bind_words import (
    CLAUSE_ENDS,
    FILLER,
    LOCATIVE,
    LOCATIVE_NUMBER,
    LOCATIVE_SUFFIX,
    MINE,
    OCCASION_GAP,
    SENTENCE_ENDS,
    SEPARATORS,
    TIMES,
    WINDOW,
)
from .formulas import Quantity
from .mentions import Mention, Token, mentions
from .numbers import is_digit_rank
from .text import APOSTROPHES, fold

# An ordinal occasion in one word, folded: "ilkinde", "ikincisinde", "üçüncüde",
# "sonuncusunda"; "ilk"/"ikinci" alone before the occasion named in the locative.
_ORDINAL = r"(?:ilk|birinci|ikinci|ucuncu|dorduncu|besinci|altinci|sonuncu)"
# "birinde … birinde …": each "in one of them" is an occasion of its own
_IN_ONE = re.compile(r"(?:" + _ORDINAL + r"(?:s?[iu]n)?|birin)[dt][ae]")
_ALONE = re.compile(_ORDINAL)
NAME_GAP = 3  # words of the occasion's name between the ordinal and its locative ending
# "turunda", "gününde", "seferinde": a possessive noun in the locative (not "sırada", a rank)
_NAMED_IN = re.compile(r"\w{3,}n[dt][ae]")
# The speaker's: ``MINE`` ("benim", "bende"); the first person's copula ("sıradaydım",
# "ikinciydim", "öndeydim", "bendim", "eşittik": a tie, we), folded.
_FIRST_PERSON = re.compile(r"\w+(?:y?[dt][iu][mk]|y[iu][mz])$")
# Someone else's: the third person's past copula ("rakipteydi", "ondaydı"); denied: "değil…",
# a negative verb ("olamadım", "olmadım").
_OTHERS = re.compile(r"\w+(?:y?[dt][iu])$")
_DENIED = re.compile(r"degil\w*|\w+(?:m[ae]|[ae]m[ae])[dt][iu][mkz]?$")
# A name with its copula after an apostrophe, folded: "Ali'ydi", "Ayşe'deydi".
_NAME_COPULA = re.compile(r"\w*y?[dt][iu]\b")


def _occasion_at(question: str, toks: list[Token], j: int) -> int | None:
    """The last token of an ordinal occasion starting at ``j``, or None."""
    text = toks[j].text
    if _IN_ONE.fullmatch(text):
        return j
    if not _ALONE.fullmatch(text):
        return None
    for k in range(j + 1, min(len(toks), j + 1 + NAME_GAP)):
        if toks[k].number is not None or toks[k].text in SENTENCE_ENDS | CLAUSE_ENDS:
            return None
        after = question[toks[k].end : toks[k].end + 5]
        if (after[:1] in APOSTROPHES and LOCATIVE_SUFFIX.match(fold(after[1:]))) or (
                _NAMED_IN.fullmatch(toks[k].text)):
            return k  # "ilk King's Day'de", "ilk kral gününde", "ilk turunda"
    return None


def _whose(question: str, tok: Token) -> bool | None:
    """The word says the thing is the speaker's (True), someone else's or denied (False),
    or neither (None)."""
    after = question[tok.end : tok.end + 8]
    if after[:1] in APOSTROPHES and _NAME_COPULA.match(fold(after[1:])):
        return False  # "ikinci Ali'ydi"
    if _DENIED.fullmatch(tok.text):
        return False
    if tok.text in MINE or _FIRST_PERSON.fullmatch(tok.text):
        return True
    return False if _OTHERS.fullmatch(tok.text) else None


def _of_speaker(question: str, toks: list[Token], m: Mention) -> bool:
    """The thing named is said of the speaker: the first word from its own last one that
    says whose it is, is the speaker's ("ikinciydim"); with no such word, the verb is the
    one said before ("ilkinde en öndeydim, ikincisinde ikinci")."""
    for t in toks[m.last :]:
        whose = _whose(question, t)
        if whose is not None:
            return whose
    return True


def told_in_order(question: str, toks: list[Token], quantities: Iterable[Quantity]
                  ) -> dict[str, tuple[float, tuple[tuple[int, int], ...]]]:
    """Per quantity told occasion by occasion, the occasions in which one of it is the
    speaker's, and where they are said (the first of them; the number of occasions, when
    said before them); {} unless the situation is told as two or more ordinal occasions
    stating no number."""
    qs = [q for q in quantities if q.per_occasion]
    starts: list[tuple[int, int]] = []  # (first, last) token of each ordinal occasion
    j = 0
    while qs and j < len(toks):
        last = _occasion_at(question, toks, j)
        if last is not None:
            starts.append((j, last))
            j = last
        j += 1
    if len(starts) < 2:
        return {}
    # "3 kral günü oldu: ilkinde …": how many occasions there were is read, not left out
    said = [(t.start, t.end) for t in toks[: starts[0][0]]
            if t.number == len(starts) and not t.text]
    aliases = [(q.name, a) for q in qs for a in q.aliases]
    counted: list[set[str]] = []
    for k, (_, last) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else next(
            (i for i in range(last + 1, len(toks)) if toks[i].text in SENTENCE_ENDS), len(toks))
        part = toks[last + 1 : end]
        if any(t.number is not None and not t.text for t in part):
            return {}  # an occasion with numbers of its own is the binder's
        # (the part's own names: the ordinal "ikincisinde" is no "ikinci")
        counted.append({m.quantity for m in mentions(part, aliases)
                        if _of_speaker(question, part, m)})
        if not part or all(t.text in SEPARATORS for t in part):
            counted[-1] = {"…"}  # "ikincisinde ve üçüncüsünde …": what the next one says
    for k in range(len(counted) - 2, -1, -1):
        if counted[k] == {"…"}:
            counted[k] = counted[k + 1]
    out: dict[str, tuple[float, tuple[tuple[int, int], ...]]] = {}
    for (first, last), names in zip(starts, counted, strict=True):
        for name in sorted(names - {"…"}):
            n, spans = out.get(name, (0.0, ((toks[first].start, toks[last].end), *said)))
            out[name] = (n + 1, spans)
    return out


def times_counted(question: str, toks: list[Token], numbers: list[int], found: list[Mention],
                  owner: dict[int, str], named_by: dict[int, Mention], used: set[int]) -> None:
    """"3 kere yeniden şarjda belirtecimi '0' alanına koydum": a number of times counts the
    thing done each time, named further on in its clause (past a number that names a
    space: "'0' alanına", "0'a")."""
    for n in numbers:
        if n in owner or n + 1 >= len(toks) or toks[n + 1].text not in TIMES:
            continue
        for j in range(n + 2, len(toks)):
            if toks[j].text in SENTENCE_ENDS | CLAUSE_ENDS or (
                    toks[j].number is not None and not _names_space(question, toks, j)):
                break
            if j in owner:  # "3 kez 0'a belirteç": the 0 names the space, the 3 counts
                named = named_by.pop(j, None)
                del owner[j]
                if named is not None:
                    used.discard(found.index(named))
            hit = next((k for k, m in enumerate(found) if m.first == j), None)
            if hit is not None:
                if hit not in used:
                    owner[n], named_by[n] = found[hit].quantity, found[hit]
                    used.add(hit)
                break


# After a number, the dative or locative of a space: "0'a", "0'da" (folded).
_TO_SPACE = re.compile(r"(?:y?[ae]|[dt][ae])\b")


def _names_space(question: str, toks: list[Token], j: int) -> bool:
    """The number at ``j`` names a space ("'0' alanına", "0'a"), counting nothing."""
    after = question[toks[j].end : toks[j].end + 4]
    return (j + 1 < len(toks) and toks[j + 1].text.startswith("alan")) or (
        after[:1] in APOSTROPHES and bool(_TO_SPACE.match(fold(after[1:]))))


# "iki ayrı raundda", "iki farklı Recharge'da": the occasions are told apart, still counted.
_APART = frozenset(("ayri", "farkli", "separate", "different"))


def _occasion_noun(question: str, toks: list[Token], n: int) -> int | None:
    """The noun after a number that may be its occasions: the first word after it that is
    not filler, or a name of a few capitalised words ending in the locative ("iki King's
    Day'de", "iki ayrı Yeniden Şarj'da"); a lower-case phrase is no name ("dört kişilik
    oyunda": players)."""
    j = n + 1
    while j < len(toks) and j < n + WINDOW and (toks[j].text in FILLER
                                                or toks[j].text in _APART):
        j += 1
    if j >= len(toks) or toks[j].text in FILLER:
        return None
    for k in range(j, min(j + 3, len(toks))):
        if not question[toks[k].start : toks[k].start + 1].isupper() \
                or toks[k].number is not None:
            break
        if _locative(question, toks[k], False):
            return k
    return j


_GENITIVE = re.compile(r"[iu]n$")  # folded, with what follows an apostrophe: "santral'imin"


def _only_times(question: str, toks: list[Token], n: int, at: int,
                done: tuple[int, Mention] | None) -> bool:
    """Occasions named by a noun ("iki ayrı Yeniden Şarj'da", not "ikisinde": two of them)
    on which the speaker did something ("koydum", "kaldım") the rule names nothing of in the
    clause: the rule's number of times. Not after a genitive ("Santral'imin ikisinde")."""
    end = next((j for j in range(at + 1, len(toks))
                if toks[j].text in SEPARATORS or toks[j].text in SENTENCE_ENDS
                or toks[j].text in CLAUSE_ENDS), len(toks))
    return (at != n and (done is None or done[1].first >= end)
            and any(_FIRST_PERSON.match(t.text) for t in toks[at + 1 : end])
            and not (n and _GENITIVE.search(
                fold(question[toks[n - 1].start : toks[n].start]).rstrip())))


def occasions_counted(question: str, toks: list[Token], numbers: list[int],
                      found: list[Mention], qs: dict[str, Quantity], owner: dict[int, str],
                      named_by: dict[int, Mention], used: set[int]) -> None:
    """"iki Recharge'da token'ımı 0'a koydum", "ikisinde çizelgede en öndeydim": a number of
    occasions (its noun, or the number itself, in the locative) counts the thing done on
    each, named a few words on in the same clause: 2 tokens, 2 first places; with nothing
    of the rule's named in the clause, the number of times it was done (``_only_times``)."""
    times = next((q.name for q in qs.values() if any(fold(a) in TIMES for a in q.aliases)),
                 None)
    for n in numbers:
        if n in owner or is_rank_token(question, toks[n]):
            continue  # ("5. roundda enerjim 9": the fifth round is one occasion, named)
        # the number itself, or the first word after it that is not filler ("iki kere
        # Recharge'da"); "dört kişilik oyunda" counts players, not occasions
        at = n if _locative(question, toks[n], True) else _occasion_noun(question, toks, n)
        if at is None or (at != n and not _locative(question, toks[at], False)):
            continue
        done = next(((k, m) for k, m in enumerate(found) if m.first > at), None)
        if times is not None and times not in owner.values() \
                and _only_times(question, toks, n, at, done):
            owner[n] = times  # "iki ayrı Yeniden Şarj'da … koydum": the times it was done
            continue
        if done is None or done[0] in used or done[1].first - at > OCCASION_GAP or any(
                t.number is not None or t.text in SEPARATORS or t.text in SENTENCE_ENDS
                for t in toks[n + 1 : done[1].first]):
            continue
        owner[n] = done[1].quantity
        named_by[n] = done[1]
        used.add(done[0])


def is_rank_token(question: str, tok: Token) -> bool:
    """The number is a rank: a rank word ("ikinci") or a digit with the ordinal dot ("2.
    türbinim")."""
    return bool(tok.text) or is_digit_rank(question, tok.start, tok.end)


def _locative(question: str, tok: Token, is_number: bool) -> bool:
    """The token is in the locative: its ending after an apostrophe ("Recharge'da"), or its
    own ("gününde"); for the number itself, only its own ("ikisinde", never "2'de", a
    place on a track)."""
    said = fold(question[tok.start : tok.end])
    if is_number:
        return tok.text == "" and bool(LOCATIVE_NUMBER.search(said))
    after = question[tok.end : tok.end + 5]
    if after[:1] in APOSTROPHES:
        return bool(LOCATIVE_SUFFIX.match(fold(after[1:])))
    return bool(tok.text) and tok.number is None and bool(LOCATIVE.fullmatch(tok.text))
