"""Follow-up questions: "peki 2 kişiysek?", "ya 4 jetonum olsaydı?", "peki 9 olursa?".

What it does: ``rewrite`` decides whether a short line, read after a previous question, is a
follow-up that changes one number of it, and if so writes the full question: the number of
the previous question that counts the same thing (the noun after it: "kişi", "jeton") is
replaced with the new value; with no noun, the previous question's number is; when the
previous question states no such number, the new count is added to it. The previous
question's game name stays in it, so the game is kept. A line that is a question of its own
(it names what it asks about, or has no new number) is left alone. What it does not do:
remember anything (the callers keep the previous question) or answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .numbers import fmt_number, number_spans
from .text import LETTERS, fold

MAX_WORDS = 6  # a follow-up is short: "peki 2 kişiysek?" — longer lines stand alone
_OPENERS = frozenset({"peki", "ya", "ve", "o", "zaman", "oyleyse", "what", "and", "if"})
# A condition ending the line: "kişiysek", "olsaydı", "olursa", "ise", "iken".
_CONDITION = re.compile(r"(ysa|yse|ysak|ysek|ysam|ysem|saydi|seydi|sa|se|sak|sek|ise|iken"
                        r"|durumunda|halinde)$")
_PLAYERS = ("kisi", "oyun")  # "kişi" and "oyuncu" count the same thing


@dataclass(frozen=True)
class FollowUp:
    question: str  # the full question to answer
    previous: str
    value: float  # the new number


def _key(word: str) -> str:
    folded = fold(word)
    return "kisi" if folded.startswith(_PLAYERS) else folded[:3]


def _noun_after(text: str, end: int, n: int = 2) -> list[str]:
    """Keys of the (up to ``n``) words right after a number."""
    return [_key(m.group()) for m in LETTERS.finditer(text[end:end + 40])][:n]


def rewrite(previous: str, line: str) -> FollowUp | None:
    """The full question ``line`` stands for after ``previous``, or None if it stands alone."""
    words = line.split()
    if not previous.strip() or not words or len(words) > MAX_WORDS:
        return None
    folded = [fold(w.strip("?!.,;:")) for w in words]
    opener = folded[0] in _OPENERS
    condition = any(_CONDITION.search(w) for w in folded if len(w) > 3)
    numbers = number_spans(line)
    if not numbers or not (opener or condition):
        return None
    _, end, value = numbers[0]
    noun = _noun_after(line, end, 1)
    noun = [k for k in noun if not k.startswith(("olu", "ols", "ise", "ike"))]
    spans = number_spans(previous)
    target = None
    if noun:
        target = next((s for s in spans if noun[0] in _noun_after(previous, s[1])), None)
    elif len(spans) >= 1:
        # "peki 9 olursa?": the number the previous question turned on (its last one).
        target = spans[-1]
    new = fmt_number(value)
    if target is not None:
        a, b, _ = target
        question = previous[:a] + new + previous[b:]
    elif noun and noun[0] == "kisi":
        question = f"{previous.rstrip(' ?.!')}, {new} kişiyiz?"
    else:
        rest = " ".join(w for w, f in zip(words, folded, strict=True) if f not in _OPENERS)
        question = f"{previous.rstrip(' ?.!')}, {rest}"
    return FollowUp(question, previous, value)
