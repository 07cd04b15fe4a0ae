"""What a number question counts, and "the rules give no such number" when no fact has it."""

from __future__ import annotations

import pytest

from hakem.asked import Asked, asked_for

KNOWN = {"kart", "ram", "limiti", "enerji", "talebi", "mulligan", "karo", "puan", "zar",
         "points", "yerel", "proje", "topluluk", "jetonu"}


def known(word: str) -> bool:
    return word in KNOWN


@pytest.mark.parametrize(("question", "expected"), [
    ("Her turda kaç tane kart çekilir?", Asked(("kart",))),
    ("her turda KAC kart cekiliyo", Asked(("kart",))),
    ("RAM limiti kaç abi?", Asked(("ram", "limiti"))),  # the counted thing comes first
    ("Enerji Talebi kaçı aşınca uzatma alınır?", Asked(("enerji", "talebi"))),
    ("toplam kaç yerel proje kartı var", Asked(("yerel", "proje"))),
    # "olunca" ends the phrase after "kaç", so the counted thing is the one before it
    ("krizde topluluk jetonu kaç tane olunca kart eksik çekilir",
     Asked(("topluluk", "jetonu"))),
    ("RAM limit tam olarak kaç, bir kartın RAM'i nasıl hesaplanır?", Asked(("ram",))),
    ("how many points does a castle give?", Asked(("points",))),
    ("Bir oyun ortalama kaç dakika sürer?", Asked(length=True, clock="dakika")),
    ("how many minutes is a game", Asked(length=True, clock="dakika")),
    ("oyun ne kadar sürer", Asked(length=True)),
    ("Rebirth bir oyun ortlama ne kadar sürüyr?", Asked(length=True)),
    ("how long does a game take?", Asked(length=True)),
])
def test_what_a_number_question_counts(question, expected):
    assert asked_for(question, known) == expected


@pytest.mark.parametrize("question", [
    "Kart çekmek zorunlu mu?",  # no number asked
    "kaç tane olabiliyo",  # the counted word is slang the corpus does not know
    "açılışta kaç kere mulligan yapabiliyoz?",  # how often an action: not looked up
    "ne kadar sürgün oyuncu olabilir",  # "sürgün" (exile) is not "sürer"
])
def test_no_counted_thing_means_no_judgement(question):
    assert asked_for(question, known) is None


def test_labels_name_the_thing_for_the_player():
    assert Asked(("ram", "limiti")).label() == "ram limiti"
    assert Asked(length=True, clock="dakika").label() == "oyunun süresi (dakika)"


def test_number_no_fact_mentions_is_not_in_the_rules(tiny_engine):
    # The text uses "ışıklı" but states no number of them: say so, don't answer with 2-4.
    answer = tiny_engine.ask("Kale Oyunu'nda kaç ışıklı şehir var?")
    assert answer.abstained and answer.answer_span is None
    assert "“ışıklı şehir”" in answer.answer and "ışıklı şehir" in answer.reason


def test_play_time_in_minutes_is_not_in_the_rules_but_its_length_in_turns_is(tiny_engine):
    minutes = tiny_engine.ask("Kale Oyunu ortalama kaç dakika sürer?")
    assert minutes.abstained and "oyunun süresi (dakika)" in minutes.answer
    turns = tiny_engine.ask("Kale Oyunu ne kadar sürer?")
    assert not turns.abstained and "8 tur" in turns.answer


def test_a_counted_thing_the_facts_give_is_answered(tiny_engine):
    answer = tiny_engine.ask("Kale Oyunu'nda her kale kaç puan kazandırır?")
    assert not answer.abstained and "3 puan" in answer.answer
