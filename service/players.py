"""What a game's text says about how many play.

What it does: reads the game's player counts (its facts table, else "2-4 oyuncu" in its
text), the one count a sentence is written for ("2 Oyuncu Standart Kurulum", "Solo Mod"), the
count a question states ("2 kişiyiz"), and what a lesson says when the text gives no count
at all. What it does not do: build the lesson (``lesson``), decide whether a question asks
for the setup (``setup``) or reorder passages by the count (``retrieve.for_players``).
"""

from __future__ import annotations

import re

from .facts import Fact
from .numbers import is_rank, number_spans
from .places import Sentence
from .text import fold, sentence_spans

# "2 Oyuncu ...", "2 oyunculu oyunda", "Solo Mod (1 Oyuncu)": a sentence for one player count.
_COUNT = re.compile(r"(?<![\d–-])(\d)\s+(?:oyuncu(?:lu)?|kisi(?:lik|yle)?)\b(?!\s+(?:arasi|icin))")
_SOLO = re.compile(r"\bsolo\b|\btek basina\b")


def count_in(sentence: str) -> int | None:
    """The one player count a sentence is written for ("2 Oyuncu Standart Kurulum", "Solo
    Mod"), None when it is for every count."""
    folded = fold(sentence)
    if _SOLO.search(folded):
        return 1
    m = _COUNT.search(folded)
    return int(m.group(1)) if m else None


# "ikimiz", "üçümüz", "dördümüz" (the two / three / four of us), folded: the players.
WE_COUNT = {"ikimiz": 2, "ucumuz": 3, "dordumuz": 4, "besimiz": 5}


# After a number, the player count a question states: "2 kişi", "3 oyunculu", "iki
# oyuncuyuz", "2 kişi için"; not "2 oyuncu arasında", "2 oyuncudan fazla" (a comparison),
# nor "2 oyuncuya kart verir" (the players something is given to).
_STATED = re.compile(r"(?:kisi|oyuncu|player)(?!\w*\s+arasi)(?!\w*dan\b|\w*den\b)"
                     r"(?!ya\b|ye\b|lara?\b)")


def stated_players(question: str) -> int | None:
    """The player count a question states: "2 kişi", "iki oyuncuyuz", "ikimiz", "solo";
    never an ordinal ("ikinci oyuncu", "2. oyuncu")."""
    found = stated_players_at(question)
    return None if found is None else found[0]


def stated_players_at(question: str) -> tuple[int, tuple[int, int] | None] | None:
    """``stated_players`` with where the number is said (None for a word like "solo" or
    "ikimiz", which states no number)."""
    folded = fold(question)
    if _SOLO.search(folded) or re.search(r"\btek bas[iı]m|\btek kisi", folded):
        return 1, None
    for word in re.findall(r"[a-z]+", folded):
        if word.startswith(tuple(WE_COUNT)):  # "ikimiz", "ikimizde", "üçümüz de"
            return next(v for k, v in WE_COUNT.items() if word.startswith(k)), None
    for start, end, value in number_spans(question):
        # "ikinci oyuncu", "2. oyuncu": which player, not how many.
        if is_rank(question[start:end]) or question[end:end + 1] == ".":
            continue
        after = fold(question[end:end + 24]).lstrip(" '’")
        if _STATED.match(after) and value.is_integer():
            return int(value), (start, end)
    return None


_TEXT_RANGE = re.compile(r"(\d)\s*[-–]\s*(\d)\s+oyuncu", re.IGNORECASE)


def player_range(facts: list[Fact], text: str) -> tuple[int, int] | None:
    """The game's player counts: its facts table, else "2-4 oyuncu" in its text."""
    found = player_range_at(facts, text)
    return None if found is None else (found[0], found[1])


def player_range_at(facts: list[Fact], text: str) -> tuple[int, int, int] | None:
    """The game's player counts and where the text states them (the fact's quote, else the
    "2-4 oyuncu" it found), as (lowest, highest, offset)."""
    for f in facts:
        if (f.unit == "oyuncu" and f.min is not None and f.max is not None and f.min < f.max
                and "oyuncu sayisi" in fold(f.subject + " " + " ".join(f.keywords))):
            return int(f.min), int(f.max), f.start
    m = _TEXT_RANGE.search(text)
    return (int(m.group(1)), int(m.group(2)), m.start()) if m else None


# "Her iki oyuncu da …", "iki oyuncu da", "both players": a text written for two players.
_BOTH = re.compile(r"\b(?:her iki oyuncu\w*|iki oyuncu da|both players)\b")


def two_player_sentence(text: str) -> tuple[int, int] | None:
    """Where a text with no player count first speaks of both players ("Her iki oyuncu da
    …"): the sentence's span, or None."""
    return next(((sp.start, sp.end) for sp in sentence_spans(text)
                 if _BOTH.search(fold(text[sp.start : sp.end]))), None)


def no_player_count(rules: list[Sentence], players: int | None = None) -> str:
    """What the lesson says when the text gives no player count: that it does not, and,
    when its rules speak of both players, that they are written for two (quoted), so a
    lesson asked for another count says there is no rule for it."""
    both = next((s for s in sorted(rules, key=lambda s: (s.stage != "setup", s.start))
                 if _BOTH.search(fold(s.text))), None)
    if both is None:
        return "Metin kaç kişiyle oynandığını yazmıyor."
    quote = both.text if len(both.text) <= 120 else both.text[:117].rsplit(" ", 1)[0] + " …"
    said = f"Metin oyuncu sayısını ayrıca yazmıyor, ama kuralları iki oyuncu için: “{quote}”"
    return said if players in (None, 2) else f"{said} {players} oyuncu için kural yok."
