"""What a number question counts, and "the rules give no such number" when no fact has it."""

from __future__ import annotations

import pytest

from hakem.asked import Asked, asked_for, unstated
from hakem.facts import Fact

KNOWN = {"kart", "ram", "limiti", "enerji", "talebi", "mulligan", "karo", "puan", "zar",
         "points", "yerel", "proje", "topluluk", "jetonu"}


def known(word: str) -> bool:
    return word in KNOWN


@pytest.mark.parametrize(("question", "expected"), [
    ("Her turda kaç tane kart çekilir?", Asked(("kart",))),
    ("her turda KAC kart cekiliyo", Asked(("kart",))),
    ("el ram limiti kaçtı ya", Asked(("ram", "limiti"))),  # the counted thing comes first
    ("Enerji Talebi kaçı aşınca uzatma alınır?", Asked(("enerji", "talebi"))),
    ("toplam kaç yerel proje kartı var", Asked(("yerel", "proje"))),
    # "olunca" ends the phrase after "kaç", so the counted thing is the one before it
    ("krizde topluluk jetonu kaç tane olunca kart eksik çekilir",
     Asked(("topluluk", "jetonu"))),
    ("RAM limit tam olarak kaç, bir kartın RAM'i nasıl hesaplanır?", Asked(("ram",))),
    ("how many points does a castle give?", Asked(("points",))),
    ("tek parti kaç dakika alıyor", Asked(length=True, clock="dakika")),
    ("how many minutes is a game", Asked(length=True, clock="dakika")),
    ("bir oyun ortalma kaç dakka sürüyo", Asked(length=True, clock="dakika")),
    ("oyun ne kadar sürer", Asked(length=True)),
    ("bi oyun ortalama ne kadar suruyo", Asked(length=True)),
    ("how long does a game take?", Asked(length=True)),
    ("oyuna kaç kart ile başlıyoz", Asked(("kart",), qualifiers=("start",))),
    ("how many points do I need to win", Asked(("points",), qualifiers=("win",))),
    ("oyunu kazanmak için kaç puan gerekir", Asked(("puan",), qualifiers=("win",))),
    ("kale kaç puan kazandırır", Asked(("puan",))),  # earning points is not winning
    ("kutuda kaç zar var", Asked(("zar",), qualifiers=("box",))),
    ("toplam kaç kart çekilir", Asked(("kart",))),  # "toplam" is any sum, not the box
])
def test_what_a_number_question_counts(question, expected):
    assert asked_for(question, known) == expected


@pytest.mark.parametrize("question", [
    "Kart çekmek zorunlu mu?",  # no number asked
    "kaç tane olabiliyo",  # the counted word is slang the corpus does not know
    "bir turda kaç kere mulligan hakkım var",  # how often an action: not looked up
    "ne kadar sürgün oyuncu olabilir",  # "sürgün" (exile) is not "sürer"
    "bir raunt ne kadar sürer",  # a part of the game, not the game
])
def test_no_counted_thing_means_no_judgement(question):
    assert asked_for(question, known) is None


def test_labels_name_the_thing_for_the_player():
    assert Asked(("ram", "limiti")).label() == "ram limiti"
    assert Asked(length=True, clock="dakika").label() == "oyunun süresi (dakika)"
    assert Asked(("thaler",), qualifiers=("start",)).label() == "başlangıçta thaler"


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


def test_a_number_for_a_moment_needs_a_fact_about_that_moment(tiny_engine):
    # The rules say a castle earns ("kazandırır") 3 points and the most points win: no
    # number of points wins the game.
    win = tiny_engine.ask("Kale Oyunu'nu kazanmak için kaç puan gerekir?")
    assert win.abstained and "kazanmak için puan" in win.answer
    tiles = tiny_engine.ask("2 oyunculu Kale Oyunu'nda kaç karo ile başlanır?")
    assert not tiles.abstained and "12" in tiles.answer


def _fact(subject: str, unit: str, quote: str, section: str) -> Fact:
    return Fact(id=subject, game="g", subject=subject, unit=unit, min=None, max=None,
                value=1, value_unit="", effect="", quote=quote, start=0, end=len(quote),
                section=section)


def no_translation(_word: str) -> str:
    return ""


def test_unstated_by_moment_and_by_whole_phrase():
    cost = _fact("Kömür fiyatı", "Thaler", "Kömür 3 Thaler'e kadar artar", "Akış")
    setup = _fact("Başlangıç kartı", "kart", "Her oyuncu 5 kartla başlar", "Kurulum")
    supply = _fact("Oyuncu başına karo", "karo", "oyuncu başına 36 karo", "Bileşenler > Karo")
    global_ = _fact("Küresel Proje", "proje", "4 Küresel Proje", "Akış")
    zombies = _fact("Zombi standee ve jetonu", "adet", "30 zombi standee", "Bileşenler > Zombi")
    tags = _fact("Yerel Proje kartındaki etiket", "etiket", "1-3 etiket", "Bileşenler > Kart")
    facts = [cost, setup, supply, global_, zombies, tags]
    start = ("start",)
    assert unstated(Asked(("thaler",), qualifiers=start), facts, no_translation)
    assert not unstated(Asked(("thaler",)), facts, no_translation)  # a price is given
    assert not unstated(Asked(("kart",), qualifiers=start), facts, no_translation)
    # a component's count of the very thing is what each player starts with
    assert not unstated(Asked(("karo",), qualifiers=start), facts, no_translation)
    # A word no fact uses ("yerel") drops out; "proje" is there, but never at the start.
    # For existence alone one shared word is enough.
    assert unstated(Asked(("yerel", "proje"), qualifiers=start), facts, no_translation)
    assert not unstated(Asked(("yerel", "proje")), facts, no_translation)
    assert unstated(Asked(("dakika",), length=True, clock="dakika"), facts, no_translation)
    # the box: a component that counts the thing (its unit, or its subject under "adet")
    box = ("box",)
    assert not unstated(Asked(("zombi",), qualifiers=box), facts, no_translation)
    assert not unstated(Asked(("karo",), qualifiers=box), facts, no_translation)
    # a component that counts something else about it (tags on a card) is no box total
    assert unstated(Asked(("yerel", "proje"), qualifiers=box), facts, no_translation)


@pytest.mark.parametrize(("word", "unit"), [
    ("dakika", "dakika"), ("dakikada", "dakika"), ("dakka", "dakika"), ("dk", "dakika"),
    ("saat", "saat"), ("minutes", "dakika"), ("saatlik", ""), ("kart", ""),
])
def test_clock_units_as_players_type_them(word, unit):
    from hakem.asked import _clock

    assert _clock(word) == unit


@pytest.mark.parametrize("question", [
    "Kral Günü başladığında en öndeki kaç puan alır",  # the start of something else
    "kurulumu bitirdik, koloni fazında kaç yiyecek gider",  # the start is another clause
])
def test_the_start_of_something_else_is_not_the_start_of_the_game(question):
    asked = asked_for(question, lambda w: True)
    assert asked is not None and "start" not in asked.qualifiers


def test_earning_points_is_not_winning():
    asked = asked_for("13 puan kazanmak için kaç kuleye komşu olmak gerekir", lambda w: True)
    assert asked is not None and "win" not in asked.qualifiers
