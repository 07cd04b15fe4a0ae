"""Counts told occasion by occasion, in order: "ilkinde en öndeydim, ikincisinde hem en ileri
hem ikinci en ileri benimdi, üçüncüsünde ikinciydim".

What it does: finds a situation told as two or more occasions named by ordinals in the
locative ("ilkinde", "ilk King's Day'de", "ikincisinde", "üçüncüde", "sonuncusunda"), each
in its own clause, and counts, per quantity, the occasions in which a thing of it is said
of the speaker ("bendeydi", "benimdi", "ikinciydim", "sıradaydım") — one per occasion, so
the rule is applied once per occasion and the results add up (2 first places, 2 second
places above). A thing said of someone else ("en ileri belirteç rakipteydi") counts nothing.

What it does not do: read numbers. A situation whose occasions state numbers of their own
("ilk rauntta 3 küp, ikincisinde 5") is the binder's (``bind``), and so is one told with
counts of occasions ("ikisinde en öndeydim, birinde ikinciydim").
"""

from __future__ import annotations

import re

from .bind_words import CLAUSE_ENDS, LOCATIVE_SUFFIX, SENTENCE_ENDS
from .mentions import Mention, Token
from .text import APOSTROPHES, fold

# An ordinal occasion in one word, folded: "ilkinde", "ikincisinde", "üçüncüde",
# "sonuncusunda"; "ilk"/"ikinci" alone before the occasion named in the locative.
_ORDINAL = r"(?:ilk|birinci|ikinci|ucuncu|dorduncu|besinci|altinci|sonuncu)"
_IN_ONE = re.compile(_ORDINAL + r"(?:s?[iu]n)?[dt][ae]")
_ALONE = re.compile(_ORDINAL)
NAME_GAP = 3  # words of the occasion's name between the ordinal and its locative ending
# The speaker's: "benim", "bende", "bendeydi"; the first person's copula ("sıradaydım",
# "ikinciydim", "öndeydim", "bendim", "eşittik": a tie, we), folded.
_MINE = frozenset(("benim", "bende", "bendeydi", "benimdi", "bendim", "mine"))
_FIRST_PERSON = re.compile(r"\w+(?:y?[dt][iu][mk]|y[iu][mz])$")  # "ilerideydik": a tie, we
# Someone else's: the third person's past copula ("rakipteydi", "ondaydı") or "değil".
_OTHERS = re.compile(r"\w+(?:y?[dt][iu]|degil\w*)$")


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
                k > j + 1 and re.fullmatch(r"\w{3,}n[dt][ae]", toks[k].text)):
            return k  # "ilk King's Day'de", "ilk kral gününde"
    return None


def _of_speaker(toks: list[Token], m: Mention, end: int) -> bool:
    """The thing named is said of the speaker: the first word after it, before ``end``,
    that says whose it is, is the speaker's (its own ending counts: "ikinciydim"); with no
    such word, the clause's verb is the one said before ("ilkinde en öndeydim,
    ikincisinde ikinci")."""
    if _FIRST_PERSON.fullmatch(toks[m.last].text):
        return True
    for t in toks[m.last + 1 : end]:
        if t.text in _MINE or _FIRST_PERSON.fullmatch(t.text):
            return True
        if _OTHERS.fullmatch(t.text):
            return False
    return True


def told_in_order(question: str, toks: list[Token], found: list[Mention],
                  counts: frozenset[str]
                  ) -> dict[str, tuple[float, tuple[tuple[int, int], ...]]]:
    """Per quantity of ``counts``, the occasions in which one of it is the speaker's, and
    where they are said (the first of them; the number of occasions, when said before
    them); {} unless the situation is told as two or more ordinal occasions stating no
    number."""
    starts: list[tuple[int, int]] = []  # (first, last) token of each ordinal occasion
    j = 0
    while j < len(toks):
        last = _occasion_at(question, toks, j)
        if last is not None and (not starts or any(
                t.text in CLAUSE_ENDS | SENTENCE_ENDS for t in toks[starts[-1][1] : j])):
            starts.append((j, last))
            j = last
        j += 1
    if len(starts) < 2:
        return {}
    # "3 kral günü oldu: ilkinde …": how many occasions there were is read, not left out
    said = [(t.start, t.end) for t in toks[: starts[0][0]]
            if t.number == len(starts) and not t.text]
    out: dict[str, tuple[float, tuple[tuple[int, int], ...]]] = {}
    for k, (first, last) in enumerate(starts):
        end = starts[k + 1][0] if k + 1 < len(starts) else next(
            (i for i in range(last + 1, len(toks)) if toks[i].text in SENTENCE_ENDS), len(toks))
        named = [m for m in found if last < m.first and m.last < end]
        if any(t.number is not None and not t.text for t in toks[last + 1 : end]):
            return {}  # an occasion with numbers of its own is the binder's
        for name in dict.fromkeys(m.quantity for m in named if m.quantity in counts
                                  and _of_speaker(toks, m, end)):
            n, spans = out.get(name, (0.0, ((toks[first].start, toks[last].end), *said)))
            out[name] = (n + 1, spans)
    return out
