"""What a matched fact leads the answer with (``lead.fact_lead`` and the lead's choice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hakem.corpus import load_corpus
from hakem.facts import Fact, FactHit, load_facts
from hakem.lead import echoes, fact_lead, lead_fact
from hakem.numbers import numbers_in
from hakem.question import analyse

CORPUS = Path(__file__).resolve().parents[1] / "corpus"

BAND = Fact(id="band", game="g", subject="oyunculu oyunda bir bant için küp", unit="oyuncu",
            min=4, max=4, value=20, value_unit="küp", effect="4 oyunculu oyunda 20 küp = 1 bant",
            quote="4 oyunculu bir oyunda 20 küp = 1 bant.", start=0, end=10, section="")
PENALTY = Fact(id="pen", game="g", subject="jeton", unit="jeton", min=4, max=7, value=None,
               value_unit="", effect="her raunt 1 daha az kart çek", quote="4-7 jeton: 1 az.",
               start=0, end=10, section="")


@pytest.fixture(scope="module")
def facts():
    return load_facts(CORPUS, load_corpus(CORPUS))


def test_a_case_the_question_states_leads_with_the_value_for_it():
    lead = fact_lead(FactHit(BAND, 1.0, in_range=True))
    assert numbers_in(lead)[0] == 20  # "20 küp — 4 oyunculu …", not "4 oyunculu … küp"


def test_without_the_case_stated_the_range_leads():
    assert fact_lead(FactHit(BAND, 1.0)).startswith("4 oyunculu")
    # A threshold band ("kaç jetonda …?") is answered by its range, whatever is stated.
    assert fact_lead(FactHit(PENALTY, 1.0, in_range=True)).startswith("4–7")


def test_the_value_is_in_the_lead_for_every_case_valued_fact(facts):
    for fact in facts:
        if fact.value is not None and (fact.min, fact.max) != (None, None) and fact.per is None:
            for stated in (True, None):  # the case stated or not: the value is shown
                lead = fact_lead(FactHit(fact, 1.0, in_range=stated))
                assert fact.value in numbers_in(lead), (fact.id, lead)




POINTS = Fact(id="pts", game="g", subject="Kral Günü", unit="ZP", min=None, max=None, value=6,
              value_unit="ZP", effect="en ileri olan 6 ZP kazanır", quote="6 ZP kazanır.",
              start=0, end=10, section="")
ONCE = Fact(id="once", game="g", subject="Turda hareket", unit="hareket", min=None, max=1,
            value=1, value_unit="hareket", effect="turda yalnızca bir kez hareket edebilir",
            quote="Turda yalnızca bir kez hareket edebilir.", start=0, end=10, section="")


def test_how_often_is_not_answered_by_points_or_cards():
    q = analyse("Kral Günü bir oyunda kaç kez yapılır?")
    assert lead_fact(q, (FactHit(POINTS, 2.0),)) is None
    # A fact that counts occasions answers it, even when it matched less well.
    assert lead_fact(q, (FactHit(POINTS, 2.0), FactHit(ONCE, 1.0))).fact is ONCE
    assert lead_fact(analyse("Kral Günü kaç ZP verir?"), (FactHit(POINTS, 2.0),)).fact is POINTS


def test_no_fact_leads_a_yes_no_or_how_question():
    for text in ("Kral Günü puan verir mi?", "Kral Günü nasıl puanlanır?"):
        assert lead_fact(analyse(text), (FactHit(POINTS, 2.0),)) is None


def test_a_which_question_is_led_by_a_number_only_when_it_names_what_it_counts():
    # "hangi oyuncu": the 6 ZP do not say which player; "hangi ZP ödülü": they do.
    which = analyse("Kral Günü'nde hangi oyuncu öne geçer?")
    assert lead_fact(which, (FactHit(POINTS, 2.0),)) is None
    hit = lead_fact(analyse("Kral Günü'nde en ileri olan hangi ZP ödülünü alır?"),
                    (FactHit(POINTS, 2.0),))
    assert hit is not None and hit.fact is POINTS


def test_naming_the_counted_thing_outside_the_which_word_does_not_ask_its_count():
    # "ZP'si eşitse kim kazanır" names ZP but asks who; "hangi ZP" / "ZP ödülü nedir" ask it.
    for text in ("İki oyuncunun ZP'si eşitse Kral Günü'nde kim kazanır?",
                 "Kral Günü ZP'leri ne işe yarar?"):
        assert lead_fact(analyse(text), (FactHit(POINTS, 2.0),)) is None, text
    for text in ("Kral Günü'nde hangi ZP ödülü verilir?", "Kral Günü ZP ödülü nedir?"):
        assert lead_fact(analyse(text), (FactHit(POINTS, 2.0),)) is not None, text


def test_a_count_the_rules_leave_open_does_not_lead():
    # "oyuncu sayısına göre 0 veya daha fazlası": no number for any case, so none leads.
    open_count = Fact(id="open", game="g", subject="Kurulumda karıştırılan hain kartı",
                      unit="kart", min=0, max=None, value=0, value_unit="kart",
                      effect="oyuncu sayısına göre 0 veya daha fazlası karıştırılır",
                      quote="0 veya daha fazlası karıştırılır.", start=0, end=10, section="")
    assert lead_fact(analyse("4 kişide kaç hain kartı karıştırılır?"),
                     (FactHit(open_count, 2.0),)) is None
    assert lead_fact(analyse("Kral Günü kaç ZP verir?"), (FactHit(POINTS, 2.0),)) is not None


def test_a_number_the_player_typed_does_not_lead():
    # "kaç jeton olunca 2 kart eksik çekiyorum": a fact whose number is the player's 2
    # answers another question; put first, it reads as the answer.
    two = Fact(id="two", game="g", subject="Kriz kartına sıkıştırma kısıtı", unit="kısıt",
               min=None, max=None, value=2, value_unit="kısıt", effect="iki kısıt vardır",
               quote="Önemli iki kısıt vardır.", start=0, end=10, section="")
    assert echoes(analyse("Kaç jeton olunca 2 kart eksik çekiyorum?"), FactHit(two, 2.0))
    assert not echoes(analyse("Sıkıştırmanın kaç kısıtı var?"), FactHit(two, 2.0))
    # A rank is no number typed as a count ("ikinci olan", "1. sıra").
    assert not echoes(analyse("İkinci olan kaç kısıt alır?"), FactHit(two, 2.0))
    # The value for the case the question states is its answer, not an echo.
    assert not echoes(analyse("4 oyunculu oyunda kaç küp 1 bant?"), FactHit(BAND, 1.0, True))
    # A rate's lead is its unit count: "her kaç kartta moral 1 düşer" is answered by 10.
    waste = Fact(id="w", game="g", subject="Atık kartı başına moral", unit="kart", min=None,
                 max=None, value=1, value_unit="moral", effect="her 10 kart için 1 moral",
                 quote="Her 10 kart için moral 1 düşer.", start=0, end=10, section="", per=10)
    assert not echoes(analyse("Her kaç kartta moral 1 düşer?"), FactHit(waste, 2.0))


def test_a_fact_counting_what_kac_asks_leads_over_a_close_one_counting_something_else():
    castles = Fact(id="castles", game="g", subject="Oyuncu başına kale parçası", unit="parça",
                   min=None, max=None, value=12, value_unit="kale", effect="oyuncu başına 12",
                   quote="Dört oyuncu renginde, oyuncu başına 12 adet.", start=0, end=10,
                   section="")
    tiles = Fact(id="tiles", game="g", subject="Oyuncu başına oyun karosu", unit="karo",
                 min=None, max=None, value=36, value_unit="karo", effect="oyuncu başına 36",
                 quote="oyuncu başına 36 karo", start=20, end=30, section="")
    q = analyse("her oyuncu renginde kac karo var")
    assert lead_fact(q, (FactHit(castles, 2.0), FactHit(tiles, 1.9))).fact is tiles
    # far below in score, or when nothing is named after "kaç", the ranking stands
    assert lead_fact(q, (FactHit(castles, 2.0), FactHit(tiles, 1.0))).fact is castles
    q_bare = analyse("her oyuncuya kaç tane")
    assert lead_fact(q_bare, (FactHit(castles, 2.0), FactHit(tiles, 1.9))).fact is castles


TOTAL = Fact(id="all", game="g", subject="Eşya kartı (lokasyon desteleri)", unit="kart",
             min=None, max=None, value=120, value_unit="eşya kartı",
             effect="6 lokasyon = 120 eşya kartı", quote="6 lokasyon = 120 eşya kartı",
             start=0, end=10, section="")
EACH = Fact(id="each", game="g", subject="Lokasyon destesi başına eşya kartı", unit="kart",
            min=None, max=None, value=20, value_unit="kart",
            effect="her lokasyon destesinde 20 kart", quote="her lokasyon destesinde 20 kart",
            start=0, end=10, section="")
OTHER_EACH = Fact(id="other", game="g", subject="Raund başına talep artışı", unit="talep",
                  min=None, max=None, value=3, value_unit="talep", effect="raund başına +3",
                  quote="raund başına +3", start=0, end=10, section="")


def test_a_count_for_each_one_leads_over_the_total_over_all_of_them():
    hits = (FactHit(TOTAL, 2.6), FactHit(EACH, 2.4))
    assert lead_fact(analyse("her lokasyonun eşya destesinde kaç kart var"), hits).fact is EACH
    # asked for the total, the total
    assert lead_fact(analyse("toplam kaç eşya kartı var"), hits).fact is TOTAL
    # a per-round fact does not displace a close count that is no total of it (2 vs 3)
    solo = Fact(id="solo", game="g", subject="Solo oyunda talep artışı", unit="talep",
                min=None, max=None, value=2, value_unit="talep", effect="solo +2",
                quote="solo +2", start=0, end=10, section="")
    hits = (FactHit(solo, 1.9), FactHit(OTHER_EACH, 1.6))
    assert lead_fact(analyse("solo oyunda talep her raunt ne kadar artıyor"), hits).fact is solo


def _points(fid: str, value: int, subject: str) -> Fact:
    return Fact(id=fid, game="g", subject=subject, unit="ZP", min=None, max=None, value=value,
                value_unit="ZP", effect=subject, quote=subject, start=0, end=10, section="")


BOTH = _points("both", 8, "Kral Günü: hem birinci hem ikinci sıra")
FIRST = _points("first", 6, "Kral Günü: en ileri belirteç (birinci sıra)")
SECOND = _points("second", 2, "Kral Günü: ikinci en ileri belirteç (ikinci sıra)")
OTHER = _points("other", 2, "Başkasının türbinini kullanma ücreti")


@pytest.mark.parametrize(("question", "scores", "led"), [
    # the best-matched part, not the sum of both places
    ("ikinci olan kaç ZP alır", (2.0, 1.7, 1.99), "second"),
    ("birinci ve ikinci kaç ZP alır", (2.0, 1.8, 1.6), "first"),
    # the total's own case asked: the sum answers it
    ("hem birinci hem ikinci olursam kaç ZP", (2.0, 1.8, 1.6), "both"),
])
def test_a_fact_that_sums_other_matched_facts_leads_only_when_its_case_is_asked(
        question, scores, led):
    hits = tuple(sorted((FactHit(f, s) for f, s in zip((BOTH, FIRST, SECOND), scores,
                                                        strict=True)), key=lambda h: -h.score))
    top = lead_fact(analyse(question), hits)
    assert top is not None and top.fact.id == led


def test_numbers_that_happen_to_add_up_are_no_parts_of_a_fact_about_something_else():
    # 8 = 6 + 2, but the turbine fee is about another thing: the sum keeps the lead.
    hits = (FactHit(BOTH, 2.0), FactHit(FIRST, 1.9), FactHit(OTHER, 1.8))
    question = analyse("birinci ve ikinci kaç ZP alır")
    top = lead_fact(question, hits)
    assert top is not None and top.fact.id == "both"


def test_asking_how_a_number_is_worked_out_is_answered_by_the_rule_not_a_number():
    # the rule (its formula) answers "nasıl hesaplanıyor"; a matched number put first
    # answers another question
    for text in ("Kral Günü'nde kaç ZP aldığımı nasıl hesaplıyorum?",
                 "Kral Günü puanı hangi değerlerden hesaplanır?"):
        assert analyse(text).asks_method
        assert lead_fact(analyse(text), (FactHit(POINTS, 2.0),)) is None
    # a clause asking the count alone still wants it
    both = analyse("Kral Günü kaç ZP verir, nasıl hesaplanıyor?")
    assert not both.asks_method
    assert lead_fact(both, (FactHit(POINTS, 2.0),)) is not None
