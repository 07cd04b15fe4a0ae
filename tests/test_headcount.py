"""How many play: the game's player range answers "kaç kişiyle oynanır" (``headcount``)."""

from __future__ import annotations

from hakem.headcount import headcount_request

GAME = frozenset({"kale", "oyunu"})


def test_only_a_question_about_how_many_play_is_one():
    assert headcount_request("kaç kişiyle oynanır", GAME)
    assert headcount_request("en fazla kac kisiyle oynaniyo", GAME)
    assert headcount_request("5 kişi oynanabilir mi", GAME)
    assert headcount_request("tek başıma oynayabilir miyim", GAME)
    # a count stated for something else, or a count of people for a rule: another question
    assert not headcount_request("4 kişiyiz, kurulumda kaç karo koyuyoruz", GAME)
    assert not headcount_request("kolonide kaç kişiye 1 yiyecek gidiyor", GAME)
    assert not headcount_request("kaç kale var", GAME)


def test_the_range_answers_it_with_the_sentence_that_states_it(tiny_engine):
    text = tiny_engine.corpus.game("kale-oyunu").text
    plain = tiny_engine.ask("Kale Oyunu kaç kişiyle oynanır?")
    assert not plain.abstained and plain.answer.startswith("Kale Oyunu 2–4 oyuncuyla oynanır.")
    span = plain.answer_span
    assert span is not None and "2-4 oyuncunun" in text[span.start : span.end]
    assert tiny_engine.ask("Kale Oyunu 5 kişi oynanır mı?").answer.startswith(
        "Hayır — Kale Oyunu 2–4 oyuncuyla oynanır; 5 oyuncu için kural yok.")
    assert tiny_engine.ask("Kale Oyunu 3 kişi oynanır mı?").answer.startswith("Evet — ")
    assert tiny_engine.ask("Kale Oyunu en fazla kaç kişi?").answer.startswith("En fazla 4 oyuncu")
    # no game named: left to the ordinary pipeline (no range is guessed)
    assert not tiny_engine.ask("kaç kişiyle oynanır?").answer.startswith("Kale Oyunu 2–4")


def test_a_text_with_no_count_but_both_players_is_a_two_player_text():
    from hakem.players import two_player_sentence

    text = "Kartları dağıtın. Her iki oyuncu da 6 kart çeker. Oyun biter."
    span = two_player_sentence(text)
    assert span is not None and text[span[0] : span[1]] == "Her iki oyuncu da 6 kart çeker."
    assert two_player_sentence("Oyuncular sırayla oynar.") is None
