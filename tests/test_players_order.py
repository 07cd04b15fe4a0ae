"""A question stating a player count: the rows written for another count come after."""

from __future__ import annotations

import pytest

from hakem.chunks import Chunk
from hakem.players import stated_players
from hakem.retrieve import Hit, Retrieval, for_players


def _hit(i: int, text: str) -> Hit:
    return Hit(Chunk(f"g:{i}", "g", "Varyantlar", "variants", i * 100, i * 100 + len(text),
                     text), 1.0 - i / 10, 0.0, 0.0)


ROWS = (_hit(0, "- 3 Oyuncu Standart Kurulum: A ve B kullanılır (16 Ağaç)."),
        _hit(1, "- Solo Mod (1 Oyuncu): tek bir güç seçilir."),
        _hit(2, "- 2 Oyuncu Standart Kurulum: C ve B kullanılır (11 Ağaç)."),
        _hit(3, "Zorluk, güç seçimiyle ayarlanır. 4 oyunculu oyunda da aynıdır."))


def _order(players: int | None) -> list[str]:
    r = Retrieval("q", "q", (), "g", "name", ROWS)
    return [h.chunk.id for h in for_players(r, players).hits]


def test_rows_for_another_count_come_after_the_rest_in_their_order():
    assert _order(2) == ["g:2", "g:3", "g:0", "g:1"]  # g:3 is for every count: its first
    assert _order(3) == ["g:0", "g:3", "g:1", "g:2"]  # sentence names none
    assert _order(None) == ["g:0", "g:1", "g:2", "g:3"]


@pytest.mark.parametrize(("question", "players"), [
    ("2 kişi oynucaz, hangi güçler", 2),
    ("iki kisiyiz kurulum", 2),
    ("ucumuz oynuyoz", 3),
    ("solo oynarken ne değişir", 1),
    ("4 oyuncuyla kaç ağaç", 4),
    ("kaç ağaç konur", None),
    ("2 kart çekiyorum", None),  # a number, but no player count
    ("2 kişi için kurulum", 2),
    ("tek başıma oynuyom", 1),
    ("ikimizde kaç kart var", 2),
    # an ordinal, a comparison, the players something is given to: no count stated
    ("ikinci oyuncu ne yapar", None),
    ("2. oyuncu kaç kart çeker", None),
    ("üçüncüyüm oyuncu sırasında, kaç kart çekerim", None),  # an ordinal said of oneself
    ("2 oyuncudan fazlaysak", None),
    ("2 oyuncu arasında eşitlik", None),
    ("3 oyuncuya kart verir mi", None),
])
def test_the_player_count_a_question_states(question, players):
    assert stated_players(question) == players
