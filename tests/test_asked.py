"""What a number question counts, and whether any fact of the game mentions it."""

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
])
def test_what_a_number_question_counts(question, expected):
    assert asked_for(question, known) == expected


def test_a_present_tense_verb_is_never_the_counted_thing():
    # The corpus's vocabulary corrects "aliyo" and "oluyo" to words it knows, so they read as
    # known; as said, they are verbs, and the counted thing is the known noun beside "kaç".
    def knows(word: str) -> bool:
        return word in KNOWN | {"aliyo", "oluyo", "cekiyoz"}
    assert asked_for("kral gününde en öndeki kac puan aliyo", knows) == Asked(("puan",))
    assert asked_for("her zar kaç teknolji oluyo", knows) == Asked(("zar",))
    assert asked_for("kaç kart cekiyoz", knows) == Asked(("kart",))


@pytest.mark.parametrize("question", [
    "Kart çekmek zorunlu mu?",  # no number asked
    "kaç tane olabiliyo",  # the counted word is slang the corpus does not know
    "bir turda kaç kere mulligan hakkım var",  # how often an action: not looked up
])
def test_no_counted_thing_means_no_judgement(question):
    assert asked_for(question, known) is None


def test_labels_name_the_thing_for_the_player():
    assert Asked(("ram", "limiti")).label() == "ram limiti"


def _fact(subject: str, unit: str, quote: str) -> Fact:
    return Fact(id=subject, game="g", subject=subject, unit=unit, min=None, max=None,
                value=1, value_unit="", effect="", quote=quote, start=0, end=len(quote),
                section="Akış")


def test_unstated_when_no_fact_mentions_any_word_of_the_thing():
    facts = [_fact("Kömür fiyatı", "Thaler", "Kömür 3 Thaler'e kadar artar"),
             _fact("Küresel Proje", "proje", "4 Küresel Proje")]
    assert not unstated(Asked(("thaler",)), facts, lambda _w: "")
    assert not unstated(Asked(("yerel", "proje")), facts, lambda _w: "")  # one word will do
    assert unstated(Asked(("ram", "limiti")), facts, lambda _w: "")
    # an English word meets the facts through its translation, plural as singular
    assert not unstated(Asked(("projects",)), facts, {"project": "proje"}.get)
