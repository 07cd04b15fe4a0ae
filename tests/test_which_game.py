"""A question naming no game that fits several: each close game's answer under its name."""

from __future__ import annotations

from hakem.answer import Answer, AnswerSpan
from hakem.which_game import ASK_GAME, NAME_IT, all_games


def _answer(game: str, text: str, *, hedged: bool = False, abstained: bool = False) -> Answer:
    return Answer(question="oyun ne zaman biter", game=game, game_source="request",
                  abstained=abstained, answer=text,
                  answer_span=None if abstained else AnswerSpan(game, 0, len(text)),
                  passages=(), facts=(),
                  spans=() if abstained else (AnswerSpan(game, 0, len(text)),),
                  hedged=hedged)


def _first(answer: Answer) -> Answer:
    from dataclasses import replace
    return replace(answer, game_source="content")


def test_each_close_game_is_answered_under_its_name(tiny_engine):
    first = _first(_answer("kale-oyunu", "Oyun 8 turda biter."))
    joined = all_games(first, [_answer("zar-savasi", "Canı 0'a düşen kaybeder.")],
                       tiny_engine.corpus)
    lines = joined.answer.split("\n")
    assert lines == [ASK_GAME, "Kale Oyunu: Oyun 8 turda biter.",
                     "Zar Savaşı: Canı 0'a düşen kaybeder.", NAME_IT]
    assert joined.game == "kale-oyunu" and joined.other_games == ("zar-savasi",)
    assert joined.game_source == "content"  # still a guess from the question's words
    assert {s.game for s in joined.spans} == {"kale-oyunu", "zar-savasi"}
    assert joined.facts == () and joined.calculation is None


def test_a_game_whose_rules_do_not_answer_is_left_out(tiny_engine):
    first = _first(_answer("kale-oyunu", "Oyun 8 turda biter."))
    alone = all_games(first, [_answer("zar-savasi", "Bulunamadı.", abstained=True)],
                      tiny_engine.corpus)
    assert alone == first


def test_a_hedged_answer_gives_way_to_an_outright_one(tiny_engine):
    first = _first(_answer("kale-oyunu", "En yakın kural: ...", hedged=True))
    sure = _answer("zar-savasi", "Canı 0'a düşen kaybeder.")
    picked = all_games(first, [sure], tiny_engine.corpus)
    assert picked.game == "zar-savasi" and picked.answer == sure.answer
    assert picked.game_source == "content" and picked.other_games == ()
    both_hedged = all_games(first, [_answer("zar-savasi", "En yakın: ...", hedged=True)],
                            tiny_engine.corpus)
    assert both_hedged.other_games == ("zar-savasi",) and both_hedged.hedged


def test_an_abstaining_first_game_is_not_replaced_by_another(tiny_engine):
    # Of the read sets' 16 close questions whose likeliest game's rules had no answer,
    # 15 were unanswerable: another game's nearest rule would be a wrong answer.
    first = _first(_answer("kale-oyunu", "Bulunamadı.", abstained=True))
    other = _answer("zar-savasi", "Canı 0'a düşen kaybeder.")
    assert all_games(first, [other], tiny_engine.corpus) == first


def test_retrieval_ranks_every_game_only_when_it_picks_from_content(tiny_engine):
    r = tiny_engine.retriever
    guessed = r.search("canı biten oyuncu kaybeder mi", None, 3)
    assert guessed.game_source == "content"
    assert guessed.game_scores[0][0] == guessed.game
    assert sorted(g for g, _ in guessed.game_scores) == ["kale-oyunu", "zar-savasi"]
    scores = [s for _, s in guessed.game_scores]
    assert scores == sorted(scores, reverse=True)
    assert r.search("Zar Savaşı can", None, 3).game_scores == ()
    assert r.search("can", "zar-savasi", 3).game_scores == ()


def test_a_game_less_question_that_fits_several_real_games_is_answered_for_each(real_engine):
    answer = real_engine.ask("oyun nasil bitiyor")
    assert not answer.abstained and answer.other_games
    games = (answer.game, *answer.other_games)
    names = [real_engine.corpus.game(g).name for g in games]
    body = answer.answer.split("\n")
    assert body[0] == ASK_GAME and body[-1] == NAME_IT
    for name in names:
        assert any(line.startswith(f"{name}:") for line in body)
    assert {s.game for s in answer.spans} == set(games)  # each answer cites its own rules
    for s in answer.spans:
        assert real_engine.corpus.game(s.game).text[s.start:s.end].strip()


def test_the_api_names_the_other_games(real_engine):
    from hakem.answer import answer_json
    from hakem.schemas import AskResponse

    body = answer_json(real_engine.ask("oyun nasil bitiyor"))
    assert body["other_games"] and body["game"] not in body["other_games"]
    assert AskResponse(**body).other_games == body["other_games"]


def test_only_the_default_fusion_answers_for_several_games(real_engine):
    # The margin is fitted on the hybrid scores; dense scores sit much closer together.
    assert real_engine.ask("oyun nasil bitiyor", mode="dense").other_games == ()
