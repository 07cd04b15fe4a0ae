"""What a question asks a number of: "kaç zar", "moral kaç düşer", "how many trees".

What it does: finds whether a question asks for a number at all ("kaç", "ne kadar", "how
many", "toplam") and the words each ask is about, one list per ask for a question that asks
two things ("kaç jetonum olur, sonraki raunt kaç kart çekerim"). What it does not do: bind
the question's numbers to quantities (``bind``) or choose a formula (``calc``).
"""

from __future__ import annotations

import itertools
import re

from .mentions import Token, tokens

_SENTENCE_ENDS = frozenset(".!?")  # tokens of their own
_CLAUSE_ENDS = frozenset(",;")


_ASK = ("kac", "kaci", "kaca", "kacar", "kacta")


def asked_window(question: str) -> tuple[list[Token], bool]:
    """The question's tokens and whether it asks for a number at all ("kaç", "ne kadar",
    "how many", "toplam")."""
    toks = tokens(question)
    words = [t.text for t in toks]
    asks = any(w in _ASK for w in words) or "toplam" in words or "total" in words or any(
        (a, b) in {("ne", "kadar"), ("how", "many"), ("how", "much")}
        for a, b in itertools.pairwise(words))
    return toks, asks


# A verb closing the question right after "kaç" ("moral kaç düşer", "talep kaça çıkar",
# "kaç olur"): an aorist or present tense, folded.
_CLOSING_VERB = re.compile(r"\w{2,}(?:[aeiu]r|[iu]yor?)")


def asked_nouns(toks: list[Token]) -> list[Token]:
    """The words right after "kaç" / "how many" / "ne kadar": what a number is asked of;
    or, when only a verb follows ("moral kaç düşer"), the two words before it."""
    return [t for part in _asked(toks, own_clause=False) for t in part]


def asked_parts(toks: list[Token]) -> list[list[Token]]:
    """What each "kaç" of the question asks, one list per ask, each ending at the next ask
    or the end of its clause: "kaç jetonum olur, sonraki raunt kaç kart çekerim" asks two
    things (``sums.work_out`` works each out)."""
    return _asked(toks, own_clause=True)


def _is_ask(words: list[str], i: int) -> bool:
    w = words[i]
    return w in _ASK or (w in ("many", "much", "kadar") and i > 0
                         and words[i - 1] in ("how", "ne"))


def _asked(toks: list[Token], own_clause: bool) -> list[list[Token]]:
    out: list[list[Token]] = []
    words = [t.text for t in toks]
    for i in range(len(words)):
        if not _is_ask(words, i):
            continue
        after: list[Token] = []
        for j in range(i + 1, min(i + 5, len(toks))):
            next_ask = _is_ask(words, j) or (j + 1 < len(words) and _is_ask(words, j + 1)
                                             and words[j] in ("how", "ne"))
            if words[j] in _SENTENCE_ENDS or (own_clause and (words[j] in _CLAUSE_ENDS
                                                              or next_ask)):
                break
            if toks[j].number is not None and after:
                # "kaç hayatta kalana 1 yiyecek gidiyor": past a number, a quantity the
                # player states, not what is asked.
                break
            after.append(toks[j])
        part: list[Token] = []
        if not after or (len(after) == 1 and _CLOSING_VERB.fullmatch(after[0].text)):
            part.extend(toks[max(0, i - 2) : i])
        out.append(part + after)
    return out
