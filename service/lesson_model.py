"""What a lesson is made of: its parts in teaching order, their titles and notes, and the
frozen ``Lesson`` / ``Part`` / ``Item`` values that the lesson builder returns and the page,
the chat and the setup answers read. What it does not do: build a lesson from a text
(``lesson``).
"""

from __future__ import annotations

from dataclasses import dataclass

PARTS = (
    ("about", "Oyun nedir, nasıl kazanılır?"), ("components", "Bileşenler"),
    ("setup", "Kurulum"), ("turn", "Bir tur nasıl oynanır?"), ("end", "Oyun nasıl biter?"),
    ("scoring", "Puanlama"),
    # FAQ rulings, corrections first: what the texts' FAQs say players get wrong. Not
    # numbered: a text may have fewer than five.
    ("mistakes", "Sık karıştırılan kurallar"),
)
PART_LABELS = dict(PARTS)
MISSING = {
    "about": "Metin oyunu tanıtan bir bölüm içermiyor.",
    "components": "Metinde bileşen listesi yok.",
    "setup": "Metinde kurulum adımları yok; aşağıdaki bölümlere ve kutudaki kitapçığa bakın.",
    "turn": "Metinde tur yapısı anlatılmıyor.",
    "end": "Metinde oyunun nasıl bittiği anlatılmıyor.",
    "scoring": "Metinde puanlama anlatılmıyor.",
    "mistakes": "Metinde sık sorulan sorular bölümü yok.",
}
LIMITS = {"about": 5, "components": 30, "setup": 18, "turn": 20, "end": 6, "scoring": 8,
          "mistakes": 5}


@dataclass(frozen=True)
class Item:
    """One line of the lesson: ``text`` is the game file's text at ``[start, end)``."""

    text: str
    game: str
    start: int
    end: int
    section: str  # top-level section of the text, "" before any heading
    where: str  # readable place: "Kurulum bölümü, 2. paragraf"
    label: str = ""  # a heading it sits under, a step name, an FAQ title
    fact: str = ""  # id of the fact this sentence states, if any


@dataclass(frozen=True)
class Part:
    key: str
    title: str
    items: tuple[Item, ...]
    note: str = ""  # why the part is empty or thin


@dataclass(frozen=True)
class Lesson:
    game: str
    name: str
    players: int | None  # the player count the setup is for, if one was chosen
    player_range: tuple[int, int] | None  # the game's player counts, from its facts
    parts: tuple[Part, ...]


def part(lesson: Lesson, key: str) -> Part:
    return next(p for p in lesson.parts if p.key == key)
