"""The rule calculator: formula kinds, binding the question's numbers, citations, the
answer leading with the result, and results that never use a number from nowhere."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hakem.answer import answer_json
from hakem.bind import bind
from hakem.calc import Calculator
from hakem.calc_answer import unread, with_calculation
from hakem.cli import main
from hakem.corpus import load_corpus
from hakem.expr import evaluate, expr_names_and_numbers, parse_expr
from hakem.formulas import FormulaError, Quantity, load_formulas, verify_formulas
from hakem.mentions import tokens, word_matches
from hakem.numbers import numbers_in
from hakem.settings import ROOT
from hakem.sums import work_out
from hakem.working import Calculation, calculate, calculation_json, matched

# A small rule text with one sentence per formula kind.
BANT_TEXT = """Bant Oyunu
Kurallar
Her oyuncu turunda 1 temel zar + kontrol ettiği her asker için 1 zar atar.
Her 2 asker için 1 ekmek harca (yukarı yuvarla).
Talep ile üretim arasındaki fark kadar ceza jetonu al.
Her oyuncu kırmızı jeton sayısı + mavi jeton sayısı kadar küp ekler.
Her oyuncu için 2 küp eklenir.
Ceza: - 0-3 jeton: ceza yok - 4-7 jeton: 1 daha az kart çek - 8-11 jeton: 2 daha az kart çek
Her oyuncu 5 kart çeker.
Her saldırı zarı için, sonuç 3 veya daha düşükse 1 yara al.
Kutuda 10 kırmızı ve 12 mavi jeton vardır.
Toplam puan oyuncu sayısına eşit veya fazlaysa saldırı durur.
Toplam, oyuncu sayısını 2 veya daha fazla aşarsa 1 moral kazanılır.
"""

BANT_RULES = """
[quantity.soldiers]
label = "asker"
aliases = ["asker", "soldier"]
[quantity.demand]
label = "talep"
aliases = ["talep", "talebi", "demand"]
[quantity.made]
label = "üretim"
aliases = ["üretim", "ürettik", "temiz", "kirli"]
summed = true
[quantity.red]
label = "kırmızı jeton"
aliases = ["kırmızı", "red"]
summed = true
default = 0
[quantity.blue]
label = "mavi jeton"
aliases = ["mavi", "blue"]
default = 0
[quantity.players]
label = "oyuncu"
aliases = ["oyuncu", "kişi", "player"]
[quantity.tokens]
label = "ceza jetonu"
aliases = ["ceza jetonu", "jeton", "token"]
[quantity.total]
label = "puan"
aliases = ["puan", "toplam"]

[[formula]]
id = "dice"
say = "zar sayısı"
unit = "zar"
moment = "each-turn"
expr = "temel + soldiers * 1"
given = { temel = 1 }
asks = ["zar", "dice"]
keywords = ["atıyorum", "atar", "roll", "tur"]
quote = "1 temel zar + kontrol ettiği her asker için 1 zar atar."

[[formula]]
id = "bread"
say = "harcanan ekmek"
unit = "ekmek"
moment = "each-round"
expr = "ceil(soldiers / 2) * 1"
asks = ["ekmek", "bread"]
keywords = ["harca", "asker"]
quote = "Her 2 asker için 1 ekmek harca (yukarı yuvarla)."

[[formula]]
id = "penalty"
say = "ceza jetonu"
unit = "ceza jetonu"
moment = "each-round"
expr = "max(0, demand - made)"
gives = "tokens"
asks = ["ceza jetonu", "jeton"]
keywords = ["talep", "fark", "üretim"]
quote = "Talep ile üretim arasındaki fark kadar ceza jetonu al."

[[formula]]
id = "cubes"
say = "eklenen küp"
unit = "küp"
moment = "each-round"
expr = "red * 1 + blue * 1"
asks = ["küp", "cube"]
keywords = ["kırmızı", "mavi", "ekle"]
quote = "Her oyuncu kırmızı jeton sayısı + mavi jeton sayısı kadar küp ekler."

[[formula]]
id = "player-cubes"
say = "oyuncu başına eklenen küp"
unit = "küp"
moment = "on-event"
expr = "players * 2"
asks = ["küp", "cube"]
keywords = ["her oyuncu", "oyuncu başına", "olay"]
quote = "Her oyuncu için 2 küp eklenir."

[[formula]]
id = "draw"
say = "çekilen kart"
unit = "kart"
moment = "each-round"
expr = "kart - band(tokens)"
given = { kart = 5 }
asks = ["kart", "card"]
keywords = ["çek", "çekerim"]
quote = ["Her oyuncu 5 kart çeker.",
         "- 0-3 jeton: ceza yok - 4-7 jeton: 1 daha az kart çek - 8-11 jeton: 2 daha az kart çek"]
bands = [{ low = 0, high = 3, value = 0, say = "0-3 jeton" },
         { low = 4, high = 7, value = 1, say = "4-7 jeton" },
         { low = 8, high = 11, value = 2, say = "8-11 jeton" }]

[quantity.rolls]
label = "zar sonucu"
aliases = ["zarlar", "sonuçlar", "rolls"]
summed = true

[[formula]]
id = "wounds"
say = "alınan yara"
unit = "yara"
moment = "on-event"
expr = "count_at_most(rolls, 3) * 1"
asks = ["yara", "wound"]
keywords = ["saldırı", "zar", "geldi"]
quote = "Her saldırı zarı için, sonuç 3 veya daha düşükse 1 yara al."

[[formula]]
id = "box-tokens"
say = "kutudaki jeton"
unit = "jeton"
moment = "setup"
expr = "kirmizi + mavi"
given = { kirmizi = { value = 10, label = "kırmızı" }, mavi = { value = 12, label = "mavi" } }
needs = ["kutu|box", "toplam|total"]
asks = ["jeton", "token"]
keywords = ["kutu", "toplam"]
quote = "Kutuda 10 kırmızı ve 12 mavi jeton vardır."

[[formula]]
id = "attack"
say = "saldırı puanı"
unit = "puan"
moment = "each-round"
expr = "total"
asks = ["puan", "durur"]
keywords = ["saldırı", "durur", "moral"]
quote = "Toplam puan oyuncu sayısına eşit veya fazlaysa saldırı durur."
  [[formula.verdict]]
  when = "value >= players"
  say = "saldırı durur"
  [[formula.verdict]]
  when = "value >= players + 2"
  say = "1 moral kazanılır"
  otherwise = "moral kazanılmaz"
  about = ["moral"]
  quote = "Toplam, oyuncu sayısını 2 veya daha fazla aşarsa 1 moral kazanılır."
"""


@pytest.fixture
def bant(tiny_corpus_dir: Path) -> tuple[Path, Calculator]:
    (tiny_corpus_dir / "bant-oyunu.txt").write_text(BANT_TEXT, encoding="utf-8")
    with (tiny_corpus_dir / "games.toml").open("a", encoding="utf-8") as f:
        f.write('\n[bant-oyunu]\nname = "Bant Oyunu"\naliases = ["Bant Oyunu"]\n')
    (tiny_corpus_dir / "rules" / "bant-oyunu.toml").write_text(BANT_RULES, encoding="utf-8")
    corpus = load_corpus(tiny_corpus_dir)
    return tiny_corpus_dir, Calculator.from_corpus(tiny_corpus_dir, corpus)


def _calc(calculator: Calculator, question: str, game: str = "bant-oyunu"):
    calc = calculator.calculate(question, game)
    assert calc is not None, question
    return calc


def _with_rules(corpus_dir: Path, sentence: str, rules: str) -> Calculator:
    """Bant Oyunu with one more rule sentence in its text (none when "": the rules quote the
    text as it is) and formulas in its rules file."""
    if sentence:
        with (corpus_dir / "bant-oyunu.txt").open("a", encoding="utf-8") as f:
            f.write(sentence + "\n")
    with (corpus_dir / "rules" / "bant-oyunu.toml").open("a", encoding="utf-8") as f:
        f.write(rules)
    return Calculator.from_corpus(corpus_dir, load_corpus(corpus_dir))


def test_base_plus_per_unit_leads_with_the_total(bant):
    calc = _calc(bant[1], "5 askerim var bu tur kaç zar atıyorum")
    assert calc.value == 6
    assert calc.result == "6 zar: 1 temel + 5 asker × 1 = 6"
    text = BANT_TEXT
    assert all(text[c.start : c.end] == c.quote for c in calc.citations)


def test_a_verb_as_said_matches_the_rules_written_form(bant):
    # "atıyom" is "atıyorum" as players say it; the formula's topic word is the written form.
    assert _calc(bant[1], "5 askerim var kac zar atiyom").value == 6


def test_ceiling(bant):
    assert _calc(bant[1], "7 asker için kaç ekmek harcıyoruz").value == 4


def test_difference_of_a_sum_and_never_below_zero(bant):
    assert _calc(bant[1], "talep 13, 8 temiz 3 kirli ürettik, kaç ceza jetonu").value == 2
    calc = _calc(bant[1], "talep 5, 8 temiz 3 kirli ürettik, kaç ceza jetonu")
    assert calc.value == 0 and "eksiye düşmez" in calc.result


def test_sum_of_listed_parts(bant):
    calc = _calc(bant[1], "2 kırmızı ve 1 kırmızı, 3 mavi jetonum var, kaç küp ekliyorum")
    assert calc.value == 6 and "(2 + 1) kırmızı jeton" in calc.result


def test_per_player_multiplier(bant):
    assert _calc(bant[1], "olay oldu, 3 kişiyiz her oyuncu için kaç küp").value == 6


def test_band_table(bant):
    calc = _calc(bant[1], "5 jetonum var, kaç kart çekerim")
    assert calc.value == 4 and "4-7 jeton" in calc.result
    assert _calc(bant[1], "9 jetonum var, kaç kart çekerim").value == 3


@pytest.mark.parametrize("question", ["9 jetonum var, kaç kart az çekerim",
                                      "9 jetonum var kaç kart eksik çekiyom"])
def test_a_question_about_the_drop_is_not_answered_with_the_count(bant, question):
    # The 3 cards drawn would read as the drop asked for (2); the band's fact answers it.
    assert bant[1].calculate(question, "bant-oyunu") is None


def test_a_row_read_from_a_table_shows_what_it_was_read_for_not_n_equals_n(bant):
    calculator = _with_rules(bant[0], "Oyun 2 koşul (2 oyuncuda 3) sağlanınca biter.", '''
[[formula]]
id = "end-count"
say = "oyunu bitiren koşul"
unit = "koşul"
moment = "any"
expr = "when(players == 2, 3, 2)"
asks = ["koşul"]
keywords = ["bitiş"]
quote = "Oyun 2 koşul (2 oyuncuda 3) sağlanınca biter."
''')
    calc = _calc(calculator, "2 kişiyiz bitiş için kaç koşul lazım")
    assert calc.value == 3 and calc.result.startswith("3 koşul (2 oyuncu)")
    assert "3 = 3" not in calc.result


def test_a_rule_of_the_drop_itself_answers_the_drop_with_its_row(bant):
    # "9 jetonum var, kaç kart eksik": a rule whose result is the penalty (needed words
    # "eksik|az") answers it; its working is the band row read, not "2: 2 (9: …) = 2".
    calculator = _with_rules(bant[0], "", '''
[[formula]]
id = "fewer"
say = "eksik çekilen kart"
unit = "kart eksik"
moment = "each-round"
expr = "band(tokens)"
needs = ["eksik|az"]
asks = ["kart", "card"]
keywords = ["eksik", "az", "çek"]
quote = "- 0-3 jeton: ceza yok - 4-7 jeton: 1 daha az kart çek - 8-11 jeton: 2 daha az kart çek"
bands = [{ low = 0, high = 3, value = 0, say = "0-3 jeton" },
         { low = 4, high = 7, value = 1, say = "4-7 jeton, 1 daha az kart" },
         { low = 8, high = 11, value = 2, say = "8-11 jeton, 2 daha az kart" }]
''')
    calc = _calc(calculator, "9 jetonum var kaç kart eksik çekiyom")
    assert calc.value == 2 and calc.result == "2 kart eksik (9: 8-11 jeton, 2 daha az kart)"
    # the count drawn is still the other rule's (the drop rule needs its words)
    assert _calc(calculator, "9 jetonum var, kaç kart çekerim").value == 3


def test_comparison_with_the_player_count(bant):
    calc = _calc(bant[1], "4 kişiyiz, toplam 6 puan çıktı, saldırı durur mu, kaç puan")
    assert calc.value == 6
    assert "saldırı durur" in calc.result and "1 moral kazanılır" in calc.result
    assert len(calc.citations) == 2  # the verdict's own rule is cited too
    calc = _calc(bant[1], "4 kişiyiz, toplam 5 puan çıktı, saldırı durur mu, kaç puan")
    assert "saldırı durur" in calc.result and "moral" not in calc.result


def test_a_ruling_asked_that_does_not_hold_is_answered_with_what_holds(bant):
    calc = _calc(bant[1], "4 kişiyiz, 5 puan çıktı, saldırı durur mu, moral kazanır mıyız?")
    assert "5 ≥ 4 oyuncu: saldırı durur" in calc.result
    assert "5 < 4 oyuncu + 2: moral kazanılmaz" in calc.result
    assert calc.rulings == ("saldırı durur", "moral kazanılmaz")
    # not asked, not said
    assert "moral" not in _calc(bant[1], "4 kişiyiz, 5 puan çıktı, saldırı durur mu").result


def test_a_verdicts_otherwise_comes_with_the_words_that_ask_it(bant):
    folder = bant[0]
    rules = folder / "rules" / "bant-oyunu.toml"
    rules.write_text(BANT_RULES.replace('  about = ["moral"]\n', ""), encoding="utf-8")
    with pytest.raises(FormulaError, match="otherwise"):
        load_formulas(folder, load_corpus(folder))


def test_a_ruling_asked_of_the_players_numbers_is_worked_out_without_a_number_asked(bant):
    calc = _calc(bant[1], "4 kişiyiz, 6 puan çıktı, saldırı durdu mu?")
    assert calc.value == 6 and calc.rulings == ("saldırı durur", "1 moral kazanılır")
    assert calculation_json(calc)["rulings"] == ["saldırı durur", "1 moral kazanılır"]
    # Asked no number and decided by no ruling ("3 < 4" holds none): no calculation, the
    # rule text answers; nor a formula without a ruling, nor one the question half gives.
    assert bant[1].calculate("4 kişiyiz, 3 puan çıktı, saldırı durdu mu?", "bant-oyunu") is None
    assert bant[1].calculate("5 askerim var, zar atabilir miyim?", "bant-oyunu") is None
    assert bant[1].calculate("6 puan çıktı, saldırı durdu mu?", "bant-oyunu") is None


def test_count_of_listed_results_at_most_a_threshold(bant):
    calc = _calc(bant[1], "saldırı zarlar 2, 5 ve 3 geldi, kaç yara alıyorum")
    assert calc.value == 2 and "2, 5, 3" in calc.result


def test_a_question_asking_an_input_of_the_rule_is_not_answered_with_its_result(bant):
    # asks the tokens at which 3 cards are drawn, not the cards drawn with 3 tokens (5)
    assert bant[1].calculate("kaç tane ceza jetonunda 3 kart çekeriz", "bant-oyunu") is None
    assert _calc(bant[1], "3 ceza jetonum var, kaç kart çekeriz").value == 5


def test_a_number_after_the_asked_noun_is_stated_not_asked(bant):
    # "kaç askere 1 ekmek gidiyor" asks the soldiers one loaf feeds (an input of the rule):
    # the "1 ekmek" after it is not what is asked, and is no count of soldiers either.
    assert bant[1].calculate("kaç askere 1 ekmek gidiyor", "bant-oyunu") is None
    assert _calc(bant[1], "7 asker için kaç ekmek harcıyoruz").value == 4


def test_a_formula_without_the_players_numbers_needs_its_phrases(bant):
    assert _calc(bant[1], "kutuda toplam kaç jeton var").value == 22
    assert bant[1].calculate("kaç kırmızı jeton var", "bant-oyunu") is None


def test_a_count_with_no_noun_counts_the_last_named_sum():
    qs = [Quantity("tags", "etiket", ("etiket",), summed=True)]
    assert bind("arkada 2 etiket var, öndekinde de 1 tane var", qs).values == {
        "tags": (2.0, 1.0)}


def test_missing_quantity_gives_the_formula_not_a_number(bant):
    calc = _calc(bant[1], "talep 13, kaç ceza jetonu alırım")
    assert calc.value is None and calc.missing == ("üretim",)
    assert "üretim" in calc.result and "13" not in calc.result.split(":")[0]


def test_several_numbers_for_a_quantity_the_rule_does_not_add_are_asked_about(bant):
    # "5 askerle başladım, 2 asker daha geldi": picking one number gave a confident wrong
    # total, and the working showed the sum while the value used the first.
    calc = _calc(bant[1], "5 askerle başladım, 2 asker daha geldi, bu tur kaç zar atıyorum")
    assert calc.value is None and calc.missing[0].startswith("asker")
    assert "5 ya da 2" in calc.working
    assert not numbers_in(calc.result.split(".")[0])  # no number first: none is a result


def test_no_formula_for_a_question_without_the_players_numbers(bant):
    assert bant[1].calculate("kaç zar atılır", "bant-oyunu") is None
    assert bant[1].calculate("5 asker var", "bant-oyunu") is None  # asks no number


@pytest.mark.parametrize("question", [
    "5 askerim var kaç zar atarım", "beş askerim var kaç zar atarım",
    "bes askerim var kac zar atarim", "5 soldier'ım var kaç zar atarım",
    "BEŞ ASKER VAR KAÇ ZAR ATARIM"])
def test_binding_digits_number_words_no_diacritics_and_english_nouns(bant, question):
    assert _calc(bant[1], question).value == 6


def test_binding_reads_what_each_number_counts():
    qs = [Quantity("demand", "talep", ("talep", "talebi")),
          Quantity("clean", "temiz", ("temiz",)), Quantity("dirty", "kirli", ("kirli",)),
          Quantity("players", "oyuncu", ("oyuncu", "kişi")),
          Quantity("tokens", "jeton", ("jeton",))]
    b = bind("talep 13, 8 temiz 3 kirli, 2 kişiyiz, 9 jetonum var", qs)
    assert b.values == {"demand": (13.0,), "clean": (8.0,), "dirty": (3.0,),
                        "players": (2.0,), "tokens": (9.0,)}
    assert bind("Enerji Talebim şu anda 11", qs).values == {"demand": (11.0,)}


def test_one_number_said_of_all_the_names_listed_before_it_counts_each():
    dice = [Quantity("dice", "zar değeri", ("d4", "d6", "d8", "d10", "d12"), summed=True)]
    assert bind("d4, d6 ve d10 hepsi 2 gösteriyor, d8 de 5", dice).values == {
        "dice": (2.0, 2.0, 2.0, 5.0)}
    assert bind("d4 d8 d10 ucu de 3, d6 da 5te", dice).values == {
        "dice": (3.0, 3.0, 3.0, 5.0)}
    # "dördü de" (all four) after three names: the count does not fit, no value is copied
    assert 3.0 not in bind("d4 d8 d10 dordu de 3", dice).values.get("dice", ())[:-1]
    assert bind("d4 ile d12 de 5 gösteriyo", dice).values == {"dice": (5.0, 5.0)}
    # the list, "var", then what all of them show
    assert bind("d6, d8, d10 ve d12 var, dördü de 4 gösteriyo", dice).values == {
        "dice": (4.0, 4.0, 4.0, 4.0)}
    assert bind("d4 3, d6 da 5", dice).values == {"dice": (3.0, 5.0)}  # one name each
    # names of different things are no list of one quantity's values
    mixed = [*dice, Quantity("tokens", "jeton", ("jeton",), summed=True)]
    assert bind("d4 ve jeton hepsi 3", mixed).values == {}


def test_a_number_with_the_lik_ending_measures_one_thing_not_counts_it():
    cards = [Quantity("cards", "kart", ("kart",))]
    assert bind("5 €$'lik kartı oynarım", cards).values == {}
    assert bind("3'lük kart, 4 kart", cards).values == {"cards": (4.0,)}
    # of a quantity of values, the number is the value: "4'lük ve 6'lık kademe"
    tiers = [Quantity("tiers", "kademe çarpanı", ("kademe",), summed=True)]
    assert bind("4'lük ve 6'lık kademelerde", tiers).values == {"tiers": (4.0, 6.0)}


def test_a_rate_counts_only_the_quantity_its_rate_word_names():
    tokens_q = Quantity("tokens", "jeton", ("jeton",))
    bands = Quantity("bands", "bant", ("bant", "band"))
    rate = Quantity("rate", "bant başına", ("başına",))
    # "her bant başına 1 jeton" states a rate, not the jetons taken
    assert bind("kart her bant başına 1 jeton veriyor, 5 bant var", [tokens_q, bands]).values \
        == {"bands": (5.0,)}
    assert bind("kart her bant başına 1 jeton veriyor, 5 bant var",
                [tokens_q, bands, rate]).values == {"bands": (5.0,), "rate": (1.0,)}
    assert bind("her band için 2 jeton, 3 jetonum var", [tokens_q]).values == {"tokens": (3.0,)}
    assert bind("2 jeton için 1 bant", [tokens_q, bands]).values == {  # no "her": no rate
        "tokens": (2.0,), "bands": (1.0,)}


def test_one_of_a_whole_counts_one_not_the_whole():
    met = [Quantity("met", "sağlanan koşul", ("bitiş koşulu",), default=0)]
    assert bind("beş bitiş koşulundan biri sağlandı", met).values == {"met": (1.0,)}
    assert bind("beş bitiş koşulundan ikisi sağlandı", met).values == {"met": (2.0,)}
    fled = [Quantity("z", "zombi", ("zombi",))]  # "kaçtım" (fled) is no "kaç"
    assert bind("3 zombiden kaçtım, kaç yara alırım", fled).values == {"z": (3.0,)}


def test_a_suffix_glued_to_a_digit_is_no_word():
    # "3ten" is 3 with its ablative ending, not 3 and the English "ten"
    assert [t.number for t in tokens("hepsi 3ten sayılıyo")] == [None, 3.0, None]


def test_a_lone_x_before_digits_is_the_times_sign_but_a_label_stays_a_name():
    tiers = [Quantity("multipliers", "kat", ("kademesinde", "kademede")),
             Quantity("units", "birim", ("laboratuvar",))]
    # typed on a keyboard: "x4" for "×4"
    assert bind("x4 kademesinde tek belirtecim var, 3 laboratuvarim var, kac ZP",
                tiers).values == {"multipliers": (4.0,), "units": (3.0,)}
    # a letter before the x, or a letter before the digits, makes a name: no number; "3x4"
    # is 3 times 4; a sign after the x is not read
    assert [t.number for t in tokens("d20 ile ax4 ve 3x4") if t.number] == [3.0, 4.0]
    assert numbers_in("X-1 kartı") == [1.0]


def test_kez_counts_what_follows_unless_the_formula_counts_occasions():
    tokens_only = [Quantity("tokens", "jeton", ("jeton",))]
    assert bind("2 kez jetonu kutuya koydum", tokens_only).values == {"tokens": (2.0,)}
    with_times = [*tokens_only, Quantity("times", "kez", ("kez",))]
    assert bind("2 kez jetonu kutuya koydum", with_times).values == {"times": (2.0,)}


def test_a_part_after_an_ablative_name_counts_it_not_the_whole_before_it():
    qs = [Quantity("met", "sağlanan koşul", ("bitiş koşulu", "koşul"), default=0),
          Quantity("players", "oyuncu", ("oyuncu", "kişi"))]
    assert bind("2 kişiyiz, beş bitiş koşulundan ikisi sağlandı", qs).values == {
        "players": (2.0,), "met": (2.0,)}
    assert bind("2 kişiyiz, bitiş koşullarından sadece biri sağlandı", qs).values == {
        "players": (2.0,), "met": (1.0,)}


def test_bir_counts_one_only_where_the_rule_would_assume_its_default():
    qs = [Quantity("met", "sağlanan koşul", ("bitiş koşulu", "koşul"), default=0),
          Quantity("deck", "destedeki kart", ("deste",)),
          Quantity("players", "oyuncu", ("oyuncu", "kişi"))]
    assert bind("2 kişiyiz, bir bitiş koşulu sağlandı", qs).values == {
        "players": (2.0,), "met": (1.0,)}
    # "bir de" is "and one … too"
    assert bind("2 kişiyiz, bir de bitiş koşulu sağlandı", qs).values == {
        "players": (2.0,), "met": (1.0,)}
    # The article: no default to replace, or no count stated at all.
    assert bind("2 kişiyiz, bir destede kaç kart", qs).values == {"players": (2.0,)}
    assert bind("bir bitiş koşulu kaç puan", qs).values == {}


def test_a_number_after_an_ablative_name_with_its_own_noun_counts_that_noun():
    qs = [Quantity("turbines", "türbin", ("türbin",)),
          Quantity("uranium", "uranyum", ("uranyum",))]
    assert bind("o türbinden 2 uranyum geçiriyom", qs).values == {"uranium": (2.0,)}


def test_a_counted_quantity_is_never_stated_by_a_rank():
    turbines = Quantity("turbines", "santraldeki türbin", ("türbin",), counted=True)
    uranium = Quantity("uranium", "uranyum", ("uranyum",))
    assert bind("2. türbinim açık, 3 uranyum taşıdım", [turbines, uranium]).values == {
        "uranium": (3.0,)}
    assert bind("ikinci türbinim açık", [turbines]).values == {}
    assert bind("santralde 2 türbin var", [turbines]).values == {"turbines": (2.0,)}
    # a rank still states a quantity that is not only counted
    rank = Quantity("rank", "sıra", ("sıra", "sıradayım"))
    assert bind("yerleşimde 1. sıradayım", [rank]).values == {"rank": (1.0,)}


def test_a_rank_word_is_a_name_where_a_quantity_is_called_by_it():
    qs = [Quantity("firsts", "birincilik", ("en ileri",), default=0),
          Quantity("seconds", "ikincilik", ("ikinci",), default=0),
          Quantity("rank", "sıra", ("sıra", "sıradayım"), ranked=True)]
    # "birinde ikinci en ilerideydim": one second place, not two first places.
    assert bind("3 Kral Günü'nün ikisinde en ileri bendim, birinde ikinci en ilerideydim",
                qs).values == {"firsts": (2.0,), "seconds": (1.0,)}
    # Where no quantity is called by it, a rank word is still a rank's number.
    assert bind("ikinci sıradayım", qs[2:]).values == {"rank": (2.0,)}


def test_a_number_of_occasions_counts_what_is_done_on_each():
    qs = [Quantity("firsts", "birincilik", ("en öndeydim", "en ileri"), default=0),
          Quantity("seconds", "ikincilik", ("ikinci",), default=0),
          Quantity("tokens", "belirteç", ("belirteç", "token"))]
    # "ikisinde" (in two of them), "Recharge'da" (in a recharge): the locative counts
    # occasions, and what is done on each, a few words on, is counted by it.
    assert bind("uc kral gunu oldu, ikisinde cizelgede en ondeydim birinde ikinciydim",
                qs).values == {"firsts": (2.0,), "seconds": (1.0,)}
    assert bind("iki kere Recharge'da en ileriydim", qs).values == {"firsts": (2.0,)}
    # "dört kişilik oyunda": the number counts players, the locative is the game's
    assert bind("dört kişilik oyunda termometrede kaç belirteç", qs).values == {}
    # the '0' names the space, not a count of tokens
    assert bind("İki Recharge'da token'ımı '0' alanına koydum", qs).values == {
        "tokens": (2.0,)}
    # not across a clause
    assert bind("iki turda kaldım, belirteç koydum", qs).values == {}
    # the occasions named by a few capitalised words ending in the locative, told apart or not
    assert bind("iki King's Day'de en ileri belirteç bendeydi", qs).values == {
        "firsts": (2.0,)}
    assert bind("iki ayrı Kral Günü'nde en öndeydim", qs).values == {"firsts": (2.0,)}
    # (a lower-case phrase is no name: "dört kişilik oyunda" above)
    assert bind("iki farklı oyun masasında en ileri bendeydi", qs).values == {}
    # with nothing named on each, a rule that counts times counts the occasions
    times = [Quantity("times", "kez", ("kez", "kere", "defa"))]
    assert bind("iki ayrı Yeniden Şarj'da belirtecimi '0' alanına koydum", times
                ).values == {"times": (2.0,)}
    # not "ikisinde" (two of them), nor after a genitive, nor where nothing is told done
    for said in ("5 kartımın ikisinde yıldız var, belirteç koydum",
                 "Santral'imin iki Yeniden Şarj'da kömürü bitti, aldım",
                 "3 Asker Kale'de duruyor"):
        assert bind(said, times).values == {}, said
    # (a rule that counts the token put there counts that, as "İki Recharge'da" above)
    assert bind("iki ayrı Yeniden Şarj'da belirtecimi '0' alanına koydum", qs).values == {
        "tokens": (2.0,)}


def test_a_name_counted_before_it_takes_no_number_after_it():
    # Turkish order: "2 ve 3 etki ikonlu" counts the influence; "iki karom" after the
    # adjective counts tiles, not a third influence. A name with its number after it still
    # reads that number ("etki değeri 3 ve 2").
    qs = [Quantity("influence", "etki değeri", ("etki değeri", "etki", "ikonlu"), summed=True),
          Quantity("castles", "kale", ("kale",))]
    assert bind("dolmamış yerleşimde 2 ve 3 etki ikonlu iki karom var, 2 kale kontrol "
                "ediyorum", qs).values == {"influence": (2.0, 3.0), "castles": (2.0,)}
    assert bind("etki değeri 3 ve 2 olan karolarım var", qs).values == {
        "influence": (3.0, 2.0)}


def test_a_number_with_its_own_noun_may_stand_between_a_count_and_its_noun():
    qs = [Quantity("cards", "görev kartı", ("görev kartı",), default=0),
          Quantity("each", "kartın puanı", ("puanlık",)),
          Quantity("castles", "kale", ("kale",))]
    assert bind("3 kale, iki tane 5 puanlık görev kartım var", qs).values == {
        "castles": (3.0,), "cards": (2.0,), "each": (5.0,)}
    # "bir" before a plural is no count of one; a full stop before a capital ends a sentence
    assert bind("3 kale, bir görev kartlarım var", qs).values == {"castles": (3.0,)}
    ahead = [*qs, Quantity("firsts", "birincilik", ("en ileri",), default=0)]
    assert bind("3 kale, bir kez en ileri bendim", ahead).values == {  # "ileri" is no plural
        "castles": (3.0,), "firsts": (1.0,)}
    full_stop = [Quantity("morale", "moral", ("moral",)), Quantity("hunger", "açlık", ("açlık",))]
    assert bind("moral 7. Açlık adımında", full_stop).values == {"morale": (7.0,)}


def test_n_more_adds_to_what_was_last_named():
    qs = [Quantity("tokens", "jeton", ("jeton",))]
    assert bind("6 jetonum vardı, bu raunt 3 tane daha aldım", qs).values == {"tokens": (9.0,)}
    assert bind("6 jetonum var, 3 daha alırsam", qs).values == {"tokens": (9.0,)}


def test_a_count_of_listed_values_is_not_one_more_value():
    # "çarpanı 2 ve 4 olan iki tier'da": two multipliers, 2 and 4, not three (2 + 4 + 2).
    qs = [Quantity("multipliers", "kat", ("çarpan", "tier"), summed=True),
          Quantity("units", "birim", ("lab",))]
    assert bind("çarpanı 2 ve 4 olan iki tier'da token'ım var, 5 lab'ım var", qs).values == {
        "multipliers": (2.0, 4.0), "units": (5.0,)}
    # Three listed values and a count of two: the count is no count of that list.
    assert bind("çarpanı 2, 3 ve 4 olan iki tier", qs).values["multipliers"] == (
        2.0, 3.0, 4.0, 2.0)


def test_names_each_followed_by_their_number_are_read_in_pairs():
    # "talebim 13 toplam enerjim 10": in Turkish order 13 would count "toplam enerji" and
    # 10 nothing; the last number, with no name after it, shows the player's order.
    qs = [Quantity("demand", "talep", ("talep", "talebim")),
          Quantity("total", "toplam enerji", ("toplam enerji", "toplam enerjim"))]
    assert bind("talebim 13 toplam enerjim 10, 6 jetonum var", qs).values == {
        "demand": (13.0,), "total": (10.0,)}
    made = [Quantity("demand", "talep", ("talep",)), Quantity("clean", "temiz", ("temiz",)),
            Quantity("dirty", "kirli", ("kirli",))]
    assert bind("talep 13 temiz 8 kirli 3", made).values == {
        "demand": (13.0,), "clean": (8.0,), "dirty": (3.0,)}
    # Turkish order stays where the last name has no number after it.
    assert bind("8 temiz 3 kirli ürettik, talep 13", made).values == {
        "clean": (8.0,), "dirty": (3.0,), "demand": (13.0,)}


def test_what_a_count_includes_is_not_what_it_counts():
    # "kolonide çaresizler dahil 7 kişi": 7 in the colony, helpless ones among them.
    qs = [Quantity("colony", "kolonideki", ("kolonide",)),
          Quantity("helpless", "çaresiz", ("çaresiz",), default=0),
          Quantity("outside", "dışarıda", ("okulda",), summed=True, default=0)]
    assert bind("kolonide çaresizler dahil 7 kişi var, okulda 2 karakterim var", qs).values == {
        "colony": (7.0,), "outside": (2.0,)}
    assert bind("kolonide 5 kişi var, 2 çaresiz", qs).values == {  # stated apart: both
        "colony": (5.0,), "helpless": (2.0,)}
    # "2'si çaresiz", "(1'i helpless)": a part of the count before it, already in it
    assert bind("kolonide 7 kişi var, 2'si çaresiz", qs).values == {"colony": (7.0,)}
    assert bind("kolonide 6 kişi var (1'i çaresiz), okulda 2", qs).values == {
        "colony": (6.0,), "outside": (2.0,)}
    # a number of what is included is part of the count after it, not a count of its own
    assert bind("kolonide 1 çaresiz dahil 5 kişi var, okulda 2 karakterim var", qs).values == {
        "colony": (5.0,), "outside": (2.0,)}
    assert bind("kolonide 7 (çaresiz dahil), okulda 2 karakterim var", qs).values == {
        "colony": (7.0,), "outside": (2.0,)}
    # said the longer ways: "de dahil", "dahil olmak üzere"
    for said in ("1 çaresiz de dahil 5 kişi", "1 çaresiz dahil olmak üzere 5 kişi",
                 "çaresizler dahil olmak üzere 5 kişi"):
        assert bind(f"kolonide {said} var, okulda 2 karakterim var", qs).values == {
            "colony": (5.0,), "outside": (2.0,)}, said


def test_a_rank_said_of_oneself_in_any_of_its_forms():
    rank = [Quantity("rank", "sıra", ("sıra", "sıradayım", "oldum", "ilk sıra"), ranked=True,
                     first=("ilk sira",))]  # folded, as the loader keeps it
    for question, place in [("yerleşimde birinci benim, rakip ikinci", 1.0),
                            ("yerleşimde ikinciyim", 2.0), ("üçüncüydüm", 3.0),
                            ("2 altıgenli yerleşimde ilk sıradayım", 1.0),
                            ("ikinci oldum", 2.0)]:
        assert bind(question + ". kaç puan", rank).values == {"rank": (place,)}, question
    assert bind("2 altıgenli yerleşimde ilk sırada mıyım", rank).values == {}  # asked
    # "benim" of something else, or denied, says no rank; with no comma it still does
    assert bind("birinci benim rakibim oldu, ben ikinci oldum. kaç puan", rank).values == {
        "rank": (2.0,)}
    assert bind("yerleşimde birinci benim rakip ikinci. kaç puan", rank).values == {
        "rank": (1.0,)}
    assert bind("2 altıgenli yerleşimde birinci benim değil", rank).values == {}
    # a name standing for one of itself counts one, though it is an ordinal word
    places = [Quantity("firsts", "birincilik", ("en öndeki", "birinci"), default=0),
              Quantity("seconds", "ikincilik", ("ikinci",), default=0)]
    assert bind("ilk ikisinde en öndeki bendim, üçüncüde ikinciydim", places).values == {
        "firsts": (2.0,), "seconds": (1.0,)}


def test_sizes_listed_before_a_count_of_them_are_each_ones_size():
    clusters = [Quantity("clusters", "küme", ("karoluk", "küme", "kümem"), summed=True)]
    assert bind("3 karoluk ve 2 karoluk iki kümemi birleştirdi", clusters).values == {
        "clusters": (3.0, 2.0)}
    # only a quantity named by its size: two Legends are two, whatever they are worth
    # only its own size words: "4 kişilik" is no size of a cluster
    assert bind("4 kişilik oyunda 3 karoluk ve 2 karoluk iki kümemi birleştirdi",
                clusters).values == {"clusters": (3.0, 2.0)}
    legends = [Quantity("legends", "Legend", ("legend",), summed=True)]
    assert bind("5'lik ve 3'lük iki legend'ım var", legends).values == {"legends": (2.0,)}
    assert bind("3'lük ve 2'lik iki enerji tarlası kümemi birleştirdi", clusters).values == {
        "clusters": (3.0, 2.0)}
    assert bind("3'lük, 2'lik ve 4'lük üç kümemi birleştirdi", clusters).values == {
        "clusters": (3.0, 2.0, 4.0)}
    # "(ikisi de benim rengim)": both of them, no count of its own
    assert bind("4 karoluk kümemle 2 karoluk kümemin (ikisi de benim rengim) arasına karo "
                "koyup birleştirdim", clusters).values == {"clusters": (4.0, 2.0)}
    # as many sizes as the count says, or they are not its sizes
    assert bind("3'lük ve 2'lik üç kümemi birleştirdi", clusters).values != {
        "clusters": (3.0, 2.0)}


def test_a_part_is_dropped_only_when_named_after_it_and_the_rule_adds_it():
    conditions = [Quantity("players", "oyuncu", ("kişi",)),
                  Quantity("met", "sağlanan bitiş koşulu", ("koşul",), default=0)]
    # the whole named before, in the ablative: the part is what is counted
    assert bind("2 kişiyiz, 5 koşuldan 2'si sağlandı", conditions).values == {
        "players": (2.0,), "met": (2.0,)}
    cards = [Quantity("matching", "eşleşen", ("eşleşen",)),
             Quantity("unmatched", "eşleşmeyen", ("eşleşmeyen",), default=0)]
    # two parts of one whole: neither a part of the other
    assert bind("6'sı eşleşen 2'si eşleşmeyen", cards).values == {
        "matching": (6.0,), "unmatched": (2.0,)}


def test_a_full_stop_after_a_number_ends_its_clause():
    qs = [Quantity("food", "yiyecek", ("yiyecek",))]
    # "moral 6. daha önce …" is no "6 more" of the food named before it
    assert bind("stokta 2 yiyecek var, moral 6. daha once hic aclik yok", qs).values == {
        "food": (2.0,)}
    assert bind("stokta 2 yiyecek var, 3 tane daha buldum", qs).values == {"food": (5.0,)}


def test_a_compound_name_with_another_ending_in_place_of_its_possessive():
    # "yerleşim ikonlu", "yerleşim ikonları" are forms of the alias "yerleşim ikonu".
    qs = [Quantity("influence", "etki değeri", ("yerleşim ikonu",), summed=True)]
    assert bind("2 ve 3 yerleşim ikonlu iki karom var", qs).values == {
        "influence": (2.0, 3.0)}
    assert bind("3 yerleşim ikonları var", qs).values == {"influence": (3.0,)}
    assert bind("3 ikonlu karom", qs).values == {}  # the head alone is no compound


def test_word_forms_and_tokens():
    assert word_matches("talebim", "talep") and word_matches("kalanlarim", "kalan")
    assert word_matches("toplulk", "topluluk")  # one letter off in a long word
    assert word_matches("kosullarindan", "kosul")  # a long chain of endings
    assert not word_matches("kal", "kalan") and not word_matches("zarf", "zarar")
    assert [t.number for t in tokens("survivor'ım 5, on iki zar, two players")
            if t.number is not None] == [5.0, 12.0, 2.0]


def test_a_quote_not_in_the_text_or_a_number_it_does_not_state_is_refused(bant):
    corpus_dir, _ = bant
    path = corpus_dir / "rules" / "bant-oyunu.toml"
    corpus = load_corpus(corpus_dir)
    path.write_text(BANT_RULES.replace("1 ekmek harca", "2 ekmek harca"), encoding="utf-8")
    with pytest.raises(FormulaError, match="quote not found"):
        load_formulas(corpus_dir, corpus)
    path.write_text(BANT_RULES.replace("ceil(soldiers / 2) * 1", "ceil(soldiers / 3) * 1"),
                    encoding="utf-8")
    with pytest.raises(FormulaError, match="numbers its quotes do not state"):
        load_formulas(corpus_dir, corpus)
    path.write_text(BANT_RULES.replace("ceil(soldiers / 2)", "__import__('os')"),
                    encoding="utf-8")
    with pytest.raises(FormulaError):
        load_formulas(corpus_dir, corpus)


def test_a_running_total_passing_a_mark_says_its_ruling(real_corpus, bant):
    # Rebirth's score token turns at 100 (and 200, 300): a worked score past one says so
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    passed = calculator.calculate("skorum 94'teydi, orta yerleşimin iki boşluğunu da tek "
                                  "başıma doldurdum, skorum kaç oldu", "rebirth")
    assert passed is not None and passed.value == 102
    assert passed.rulings == ("skor başarımı jetonunu çevirirsiniz",)
    assert "94 < 100 ≤ 102: skor başarımı jetonunu çevirirsiniz" in passed.result
    text = real_corpus.game("rebirth").text
    assert all(text[c.start : c.end] == c.quote for c in passed.citations)
    below = calculator.calculate("skorum 40, 2 kale kontrol ediyorum, yeni skorum kaç",
                                 "rebirth")
    assert below is not None and below.value == 50 and below.rulings == ()
    from hakem.sums import work_out

    def rulings(question: str) -> tuple[float | None, tuple[str, ...]]:
        calc = work_out(calculator, question, "rebirth")
        assert calc is not None, question
        return calc.value, calc.rulings
    # "200'ü geçince": reaching 200 is not passing it; "300'e ulaşınca": reaching it is
    assert rulings("skorum 190, 2 kale kontrol ediyorum, yeni skorum kaç") == (200, ())
    assert rulings("skorum 195, 2 kale kontrol ediyorum, yeni skorum kaç") == (
        205, ("skor başarımı jetonunu 200 yüzüne çevirirsiniz",))
    assert rulings("skorum 295, 1 kale kontrol ediyorum, yeni skorum kaç") == (
        300, ("skor başarımı jetonunu yeniden çevirirsiniz",))
    # checked on the whole change, once: two gains together, a move and its port's point
    flip = ("skor başarımı jetonunu çevirirsiniz",)
    for n in (93, 97):
        assert rulings(f"skorum {n}, 1 kale kontrol ediyorum, bir de 3 etki değerli "
                       "tamamlanmamış yerleşim karom var, toplam yeni skorum kaç olur"
                       ) == (n + 8, flip)
    assert rulings("Skorum 91. 3 altıgenli büyük yerleşimin son boşluğu liman sembollüydü, "
                   "oraya yerleşim karomu koydum, yerleşimde başka oyuncu da var ama "
                   "çoğunluk bende (1. sıradayım). Skorum kaç oluyo") == (100, flip)
    # a mark is a comparison of the total before and after, with one quote stating its numbers
    corpus_dir, _ = bant
    for when, quote, error in (("value >= 1", "1 temel", "only before and after"),
                               ("after", "1 temel", "a comparison"),
                               ("after >= 1", "", "one `quote`"),
                               ("after >= 7", "1 temel", "do not state")):
        (corpus_dir / "rules" / "bant-oyunu.toml").write_text(BANT_RULES, encoding="utf-8")
        with pytest.raises(FormulaError, match=error):
            _with_rules(corpus_dir, "", '\n[quantity.skor]\nlabel = "skor"\n'
                        f'[[quantity.skor.mark]]\nwhen = "{when}"\nsay = "x"\n'
                        f'quote = "{quote}"\n')


def test_verify_counts_the_formulas(bant):
    corpus_dir, calculator = bant
    assert verify_formulas(corpus_dir, load_corpus(corpus_dir)) == len(calculator.formulas)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 60), m=st.integers(0, 60), k=st.integers(1, 14),
       which=st.sampled_from(["dice", "bread", "penalty", "draw", "attack", "cubes",
                              "wounds"]))
def test_results_use_only_numbers_of_the_question_and_the_cited_rules(tmp_path_factory, n, m,
                                                                      k, which):
    calculator = _BANT_CALCULATOR.get("c")
    if calculator is None:
        pytest.skip("fixture not built")
    question = {"dice": f"{n} askerim var kaç zar atarım",
                "bread": f"{n} asker için kaç ekmek harcıyoruz",
                "penalty": f"talep {n}, {m} temiz {k} kirli ürettik, kaç ceza jetonu",
                "draw": f"{k} jetonum var, kaç kart çekerim",
                "attack": f"{k} kişiyiz, toplam {n} puan çıktı, saldırı durur mu, kaç puan",
                "cubes": f"{n} kırmızı ve {m} mavi jetonum var, kaç küp ekliyorum",
                "wounds": f"saldırı zarlar {n}, {m} ve {k} geldi, kaç yara alıyorum"}[which]
    calc = calculator.calculate(question, "bant-oyunu")
    assert calc is not None
    allowed = set(numbers_in(question)) | {x for c in calc.citations
                                           for x in numbers_in(c.quote)} | {0.0, 1.0}
    if calc.value is not None:
        allowed.add(calc.value)
    assert {abs(x) for x in numbers_in(calc.result)} <= {abs(x) for x in allowed}, calc.result


_BANT_CALCULATOR: dict[str, Calculator] = {}


@pytest.fixture(autouse=True)
def _keep_bant(request):
    if "test_results_use_only" in request.node.name and not _BANT_CALCULATOR:
        _BANT_CALCULATOR["c"] = request.getfixturevalue("bant")[1]


def test_the_answer_leads_with_the_result_and_carries_it(tiny_engine):
    answer = tiny_engine.ask("Kale Oyunu'nda 4 kale kontrol ediyorum, oyun sonunda kaç puan?")
    assert answer.answer.startswith("12 puan: 4 kale × 3 = 12. ")
    out = answer_json(answer)["calculation"]
    assert out["value"] == 12 and out["missing"] == []
    assert out["unit"] == "puan" and out["rulings"] == []  # no verdict in this formula
    text = tiny_engine.corpus.game("kale-oyunu").text
    c = out["citations"][0]
    assert text[c["start"] : c["end"]] == ("Kontrol ettiğiniz her kale oyun sonunda 3 puan "
                                           "kazandırır.")
    plain = tiny_engine.ask("Kale Oyunu'nda kale kaç puan?")
    assert answer_json(plain)["calculation"] is None
    assert with_calculation(plain, None) is plain


def test_calculate_is_pure_for_a_formula(bant):
    formula = next(f for f in bant[1].formulas if f.id == "dice")
    b = bind("3 asker", formula.quantities)
    assert calculate(formula, "3 asker", b) == calculate(formula, "3 asker", b)


def test_cli_calc_and_draft(tiny_built, capsys):
    args = ["--corpus-dir", str(tiny_built.corpus_dir), "--index-dir", str(tiny_built.index_dir),
            "--embedder", "fake"]
    assert main([*args, "calc", "Kale Oyunu 3 kale var kaç puan", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "kale-oyunu" and out["calculation"]["value"] == 9
    assert main([*args, "calc", "3 kale var kaç puan"]) == 1  # no game named
    assert "no game" in capsys.readouterr().err
    assert main([*args, "facts", "draft", "zar-savasi"]) == 0
    draft = capsys.readouterr().out
    assert "numeric sentences" in draft and "quote = " in draft
    assert main([*args, "facts", "draft", "yok-oyun"]) == 1
    assert main([*args, "verify", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["formulas"] == 2


def test_post_ask_returns_the_calculation(tiny_built):
    from fastapi.testclient import TestClient

    from hakem.api import create_app

    with TestClient(create_app(tiny_built)) as client:
        body = client.post("/ask", json={"question": "Kale Oyunu'nda 4 kale kontrol "
                                                     "ediyorum, oyun sonunda kaç puan?"}).json()
        assert body["answer"].startswith("12 puan:")
        assert body["calculation"]["value"] == 12
        assert body["calculation"]["citations"][0]["game"] == "kale-oyunu"
        plain = client.post("/ask", json={"question": "Kale Oyunu'nda kale kaç puan?"}).json()
        assert plain["calculation"] is None


def test_a_worked_result_quotes_and_cites_the_rule_it_was_worked_out_from(tiny_engine):
    # An answer whose sentences were chosen for the question's words (the tie rule) gets,
    # with the result, the rule the number rests on, and the passage holding it first.
    other = tiny_engine.ask("Kale Oyunu'nda eşitlikte kim kazanır?")
    assert other.calculation is None
    assert tiny_engine.calculator is not None
    calc = tiny_engine.calculator.calculate("Kale Oyunu'nda 4 kale kontrol ediyorum, oyun "
                                            "sonunda kaç puan?", "kale-oyunu")
    text = tiny_engine.corpus.game("kale-oyunu").text
    answer = with_calculation(other, calc, text)
    rule = "Kontrol ettiğiniz her kale oyun sonunda 3 puan kazandırır."
    assert answer.answer == f"12 puan: 4 kale × 3 = 12. {rule}"
    assert [text[sp.start : sp.end] for sp in answer.spans] == [rule]
    first = answer.passages[0].chunk
    assert first.start <= answer.spans[0].start < first.end
    assert {h.chunk.id for h in answer.passages} == {h.chunk.id for h in other.passages}


def test_a_quantity_the_question_does_not_state_is_worked_out_first(bant):
    # The cards drawn depend on the penalty tokens, which the question gives only as demand
    # and production: the penalty is worked out first, every step shown and cited.
    calc = _calc(bant[1], "talep 15 ama üretim 9, ceza sonrası kaç kart çekerim")
    assert calc.formula == "draw" and calc.value == 4
    assert calc.result.startswith("4 kart: ")
    assert "(6 ceza jetonu: 15 talep − 9 üretim (eksiye düşmez) = 6)" in calc.result \
        or "(6 ceza jetonu: 15 talep − 9 üretim = 6)" in calc.result
    quotes = {c.quote for c in calc.citations}
    assert "Talep ile üretim arasındaki fark kadar ceza jetonu al." in quotes
    assert "Her oyuncu 5 kart çeker." in quotes
    # Stated outright, the tokens are not worked out again.
    assert "talep" not in _calc(bant[1], "6 ceza jetonum var kaç kart çekerim").result


def test_gives_must_name_another_quantity_of_the_file(bant):
    folder = bant[0]
    rules = folder / "rules" / "bant-oyunu.toml"
    rules.write_text(BANT_RULES.replace('gives = "tokens"', 'gives = "demand"'), encoding="utf-8")
    with pytest.raises(FormulaError, match="gives"):
        load_formulas(folder, load_corpus(folder))


def test_what_is_asked_sits_before_kac_when_only_a_verb_follows():
    from hakem.asks import asked_nouns

    def asked(question: str) -> list[str]:
        return [t.text for t in asked_nouns(tokens(question))]
    assert "moral" in asked("açlıktan sonra moral kaç düşer")
    assert "talebim" in asked("iki tur sonra talebim kaça çıkar")
    assert asked("kaç zar atarım") == ["zar", "atarim"]  # a noun follows: it is what is asked
    assert asked("bu tur kaç zar") == ["zar"]


def test_a_total_over_parts_adds_each_part_worked_out_by_its_own_rule(bant):
    from hakem.sums import sum_of_parts
    calculator = bant[1]
    total = sum_of_parts(calculator, "3 kırmızı jetonum var, bir de 4 oyuncuyuz ve olay oldu; "
                                     "toplam kaç küp ekleriz", "bant-oyunu")
    assert total is not None and total.value == 11  # 3 red jetons + 4 players × 2
    assert total.result.startswith("11 küp: 3 + 8 = 11 (")
    assert {c.quote for c in total.citations} == {
        "Her oyuncu kırmızı jeton sayısı + mavi jeton sayısı kadar küp ekler.",
        "Her oyuncu için 2 küp eklenir."}
    # Not a total; one quantity told in two clauses (worked out apart, the base would count
    # twice); a clause no rule works out: no sum.
    for question in ("3 kırmızı jetonum var, bir de 4 oyuncuyuz ve olay oldu; kaç küp ekleriz",
                     "3 askerim var, bir de 2 askerim var; toplam kaç zar atarım",
                     "3 kırmızı jetonum var, hava 20 derece; toplam kaç küp"):
        assert sum_of_parts(calculator, question, "bant-oyunu") is None, question


def test_a_list_of_numbers_is_one_part_not_one_part_per_comma(bant):
    # "noise zarları 2, 5, 3 geldi": the commas join one list, they end no clause
    from hakem.sums import sum_of_parts
    question = "3, 2 ve 4 kırmızı jetonum var, bir de 4 oyuncuyuz ve olay oldu; toplam kaç küp"
    total = sum_of_parts(bant[1], question, "bant-oyunu")
    assert total is not None and total.value == 17  # (3 + 2 + 4) + 4 × 2


def test_sentences_telling_different_rules_situations_are_added(bant):
    # One rule's numbers across a sentence's clauses, another rule's in the next sentence:
    # "…, kademe çarpanları 2 ve 4, 6 fabrikam var. Bi de '0' alanında 1 belirtecim var."
    from hakem.sums import sum_of_parts
    question = "3 kırmızı, 2 mavi jetonum var. Bir de 4 oyuncuyuz ve olay oldu. Toplam kaç küp?"
    total = sum_of_parts(bant[1], question, "bant-oyunu")
    assert total is not None and total.value == 13  # (3 + 2) + 4 × 2


def test_sentences_are_the_parts_when_they_read_more_than_the_clauses(real_corpus):
    # "iki King's Day'de …, birinde ikinci en ileri bendim; bir de …": the second clause
    # alone reads nothing, its sentence reads both places; by clauses the second place was
    # left out of the total.
    from hakem.sums import sum_of_parts
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    total = sum_of_parts(calculator, "iki King's Day'de en ileri belirteç bendeydi, birinde "
                                     "ikinci en ileri bendim; bir de '0' alanında 1 belirtecim "
                                     "var. Bunlardan net kaç ZP?", "nucleum")
    assert total is not None and total.value == 11  # 2 × 6 + 2 − 3
    assert total.result.startswith("11 ZP: 14 − 3 = 11")


def test_each_number_asked_is_worked_out_by_its_own_rule_in_the_order_asked(bant):
    from hakem.asks import asked_parts
    from hakem.sums import each_asked, work_out
    calculator = bant[1]
    question = "5 askerim var, kaç zar atarım, kaç ekmek harcarım?"
    assert [[t.text for t in part] for part in asked_parts(tokens(question))] == [
        ["zar", "atarim"], ["ekmek", "harcarim"]]
    both = work_out(calculator, question, "bant-oyunu")
    assert both is not None and both.value == 6  # the first asked
    assert both.result.startswith("6 zar: 1 temel + 5 asker × 1 = 6. 3 ekmek: ")
    assert {c.quote for c in both.citations} == {
        "1 temel zar + kontrol ettiği her asker için 1 zar atar.",
        "Her 2 asker için 1 ekmek harca (yukarı yuvarla)."}
    # One ask; two asks one rule works out; an ask no rule works out: not several results.
    for one in ("5 askerim var, kaç zar atarım",
                "5 askerim var, kaç zar atarım, toplam kaç zar eder",
                "5 askerim var, kaç zar atarım, kaç kale var"):
        assert each_asked(calculator, one, "bant-oyunu") is None, one
    assert work_out(calculator, "5 askerim var, kaç zar atarım, kaç kale var",
                    "bant-oyunu").value == 6


def test_values_listed_with_commas_and_no_spaces_are_each_a_number():
    # "3,3,3,5,5 gösteren zarlar" was read as no number at all (no decimal has two commas).
    assert numbers_in("3,3,3,5,5 gösteren zarlar") == [3.0, 3.0, 3.0, 5.0, 5.0]
    assert numbers_in("3,5 puan") == [3.5] and numbers_in("2,0°C") == [2.0]


def test_birinci_is_the_ordinal_one():
    assert numbers_in("büyük yerleşimde birinci oldum, o turda birinciydim") == [1.0, 1.0]
    assert numbers_in("bir kart") == [] and numbers_in("birincil hedef") == []


def test_hakem_calc_shows_a_total_over_parts(tiny_built, capsys):
    # The CLI works a question out as the engine does (``sums.work_out``).
    args = ["--corpus-dir", str(tiny_built.corpus_dir), "--index-dir", str(tiny_built.index_dir),
            "--embedder", "fake"]
    assert main([*args, "calc", "Kale Oyunu 3 kale var kaç puan", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["calculation"]["value"] == 12 - 3


LOSS_RULES = """
[quantity.hits]
label = "isabet"
aliases = ["isabet"]
[quantity.morale]
label = "moral"
aliases = ["moral"]

[[formula]]
id = "hit-morale"
say = "isabetlerden moral kaybı"
unit = "moral"
moment = "on-event"
expr = "hits * 1"
lowers = "morale"
asks = ["moral"]
keywords = ["isabet"]
quote = "Her isabet için moral 1 düşer."
"""


def test_a_loss_is_taken_from_the_stated_quantity_when_the_question_asks_what_it_becomes(
        bant):
    corpus_dir, _ = bant
    calculator = _with_rules(corpus_dir, "Her isabet için moral 1 düşer.", LOSS_RULES)
    assert _calc(calculator, "3 isabet aldık, kaç moral kaybederiz").value == 3
    after = _calc(calculator, "Moral 5'ti. 3 isabet aldık, moral kaç olur?")
    assert after.value == 2 and after.result.startswith("2 moral: 5 moral − 3 = 2")
    # what it becomes, with the morale before it not stated: that is what is missing
    unstated = _calc(calculator, "3 isabet aldık, moral kaç olur?")
    assert unstated.value is None and unstated.missing == ("moral",)


def test_lowers_must_name_a_quantity_of_the_file(bant):
    corpus_dir, _ = bant
    with pytest.raises(FormulaError, match="lowers"):
        _with_rules(corpus_dir, "Her isabet için moral 1 düşer.",
                    LOSS_RULES.replace('lowers = "morale"', 'lowers = "mood"'))


GAIN_RULES = """
[quantity.hits]
label = "isabet"
aliases = ["isabet"]
[quantity.score]
label = "önceki skor"
aliases = ["skorum", "skor"]

[[formula]]
id = "hit-points"
say = "isabetlerden puan"
unit = "puan"
moment = "on-event"
expr = "hits * 1"
raises = "score"
asks = ["puan"]
keywords = ["isabet"]
quote = "Her isabet için moral 1 düşer."
"""


def test_a_gain_is_added_to_the_stated_score_when_the_question_asks_what_it_becomes(bant):
    corpus_dir, _ = bant
    calculator = _with_rules(corpus_dir, "Her isabet için moral 1 düşer.", GAIN_RULES)
    after = _calc(calculator, "Skorum 10. 3 isabet aldım, yeni skorum kaç?")
    assert after.value == 13 and after.result.startswith("13 puan: 10 önceki skor + 3 = 13")
    assert unread("Skorum 10. 3 isabet aldım, yeni skorum kaç?", after) == ()  # read, not left out
    # the gain itself is asked: the score stated does not change it
    assert _calc(calculator, "Skorum 10. 3 isabet aldım, kaç puan kazandım?").value == 3
    # what it becomes, with no score stated: the gain, not a missing score
    assert _calc(calculator, "3 isabet aldım, kaç puanım olur?").value == 3


def test_a_result_is_a_loss_or_a_gain_not_both(bant):
    corpus_dir, _ = bant
    with pytest.raises(FormulaError, match="lowers"):
        both = LOSS_RULES.replace('lowers = "morale"', 'lowers = "morale"\nraises = "mood"')
        _with_rules(corpus_dir, "Her isabet için moral 1 düşer.",
                    both.replace("[[formula]]", '[quantity.mood]\nlabel = "ruh"\n\n[[formula]]'))


def test_a_step_gives_its_amount_not_what_the_question_asks_it_becomes(real_corpus):
    # Ocean Acidification removes one Ocean per player; the Oceans the board lacks are taken
    # as tokens, added to the 10 the player holds. "kaç oldu" asks the tokens, not the Oceans
    # left after the removal (the step's own "what is left").
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("4 kişiyiz, Okyanus Asitlenmesi tetiklendi ama tahtada sadece "
                                "2 okyanus kaldı. bende zaten 10 krizde topluluk jetonu var. "
                                "kaç jetona çıkıyom", "daybreak")
    assert calc is not None and calc.value == 12
    assert "(4 kaldırılması gereken jeton − 2 tahtada kalan jeton)" in calc.result


def test_a_zero_stated_for_a_die_that_counts_it_otherwise():
    # "d10 zarında 0 rakamı 10 değerini temsil eder": the rules' value for that face.
    dice = [Quantity("gig", "Gig zarı değeri", ("d4", "d10"), summed=True,
                     zero_counts=(("d10", 10.0),))]
    assert bind("d4=3 ve 0 gösteren bi d10 var", dice).values == {"gig": (3.0, 10.0)}
    assert bind("d10 0 gösteriyor, d4 de 3te", dice).values == {"gig": (10.0, 3.0)}
    assert bind("d4 0 gösteriyor, d10 5", dice).values == {"gig": (0.0, 5.0)}
    # the die's own noun between its name and what it shows: "d10 zarında 0 yazıyor"
    assert bind("d10 zarında 0 yazıyor, d4 de 2", dice).values == {"gig": (10.0, 2.0)}
    # "3 zarım var" counts dice: "zarım" is no filler between a count and the next die
    assert bind("Gig alanımda 3 zarım var: d4 2, d10 5", dice).values == {"gig": (2.0, 5.0)}


def test_zero_counts_must_name_an_alias_and_be_a_number_the_rules_state(bant):
    corpus_dir, _ = bant
    path = corpus_dir / "rules" / "bant-oyunu.toml"
    corpus = load_corpus(corpus_dir)
    path.write_text(BANT_RULES.replace('aliases = ["asker", "soldier"]',
                                       'aliases = ["asker", "soldier"]\nzero_counts = { er = 10 }'),
                    encoding="utf-8")
    with pytest.raises(FormulaError, match="zero_counts"):
        load_formulas(corpus_dir, corpus)
    path.write_text(BANT_RULES.replace('aliases = ["asker", "soldier"]',
                                       'aliases = ["asker", "soldier"]\n'
                                       'zero_counts = { asker = 97 }'), encoding="utf-8")
    with pytest.raises(FormulaError, match="numbers its quotes do not state"):
        load_formulas(corpus_dir, corpus)


KULE_RULES = """
[quantity.towers]
label = "kule"
aliases = ["kule"]
counted = true

[[formula]]
id = "dice-capped"
needs = ["kule"]
say = "kulelerle sınırlı zar sayısı"
unit = "zar"
moment = "each-turn"
expr = "min(temel + soldiers * 1, towers)"
given = { temel = 1 }
asks = ["zar", "dice"]
keywords = ["atıyorum", "atar", "roll", "tur", "kule"]
quote = ["1 temel zar + kontrol ettiği her asker için 1 zar atar.",
         "Atılabilecek zar sayısı kule sayısıyla sınırlıdır."]
"""


def test_a_limit_applies_only_where_the_question_counts_it(bant):
    corpus_dir, _ = bant
    with (corpus_dir / "bant-oyunu.txt").open("a", encoding="utf-8") as f:
        f.write("Atılabilecek zar sayısı kule sayısıyla sınırlıdır.\n")
    rules = corpus_dir / "rules" / "bant-oyunu.toml"
    plain = rules.read_text(encoding="utf-8")
    rules.write_text(plain + KULE_RULES, encoding="utf-8")
    calculator = Calculator.from_corpus(corpus_dir, load_corpus(corpus_dir))
    assert _calc(calculator, "3 askerim var, 2 kulem var, kaç zar atarım").value == 2
    # "2. kulemdeyim" ranks, it does not count: the limit is not the player's, and it
    # neither stands against the plain rule nor asks for a count of towers.
    calc = _calc(calculator, "3 askerim var, 2. kulemdeyim, kaç zar atarım")
    assert calc.value == 4 and not calc.missing
    rules.write_text(plain + KULE_RULES.replace("counted = true", 'counted = "evet"'),
                     encoding="utf-8")
    with pytest.raises(FormulaError, match="counted"):
        Calculator.from_corpus(corpus_dir, load_corpus(corpus_dir))


PAIR_RULES = """
[quantity.faces]
label = "zar değeri"
aliases = ["zarım", "zarlarım", "zar"]
summed = true

[[formula]]
id = "pairs"
say = "değer çifti"
unit = "değer çifti"
moment = "any"
expr = "pairs(faces)"
asks = ["çift"]
keywords = ["çift", "aynı değer"]
quote = "Aynı değeri gösteren 2 zar bir değer çifti olur; her zar yalnızca bir çiftte sayılır."
"""


def _with_pairs(bant: tuple[Path, Calculator]) -> Calculator:
    """The tiny corpus's calculator with the value-pair rule added."""
    corpus_dir, _ = bant
    with (corpus_dir / "bant-oyunu.txt").open("a", encoding="utf-8") as f:
        f.write("Aynı değeri gösteren 2 zar bir değer çifti olur; her zar yalnızca bir çiftte "
                "sayılır.\n")
    with (corpus_dir / "rules" / "bant-oyunu.toml").open("a", encoding="utf-8") as f:
        f.write(PAIR_RULES)
    calculator = Calculator.from_corpus(corpus_dir, load_corpus(corpus_dir))
    return calculator


STORM_RULES = """
[[formula]]
id = "storm"
say = "fırtınada alınan ceza jetonu"
unit = "ceza jetonu"
moment = "on-event"
expr = "players * 3"
gives = "tokens"
asks = ["ceza jetonu", "jeton"]
keywords = ["fırtına"]
quote = "Fırtına çıkarsa her oyuncu için 3 ceza jetonu alınır."
"""


def test_a_step_is_worked_out_by_the_rule_about_the_questions_topic(bant):
    corpus_dir, _ = bant
    calculator = _with_rules(corpus_dir, "Fırtına çıkarsa her oyuncu için 3 ceza jetonu alınır.",
                             STORM_RULES)
    # Both rules give the tokens the draw bands; the question is about the storm, and the
    # storm's tokens (3 players x 3 = 9: 8-11, two cards fewer) decide, not the deficit (6).
    # (Worded so that no word of the deficit rule's topic is in the question.)
    calc = _calc(calculator, "demand 9, 3 temiz, 3 kişiyiz, fırtına çıktı, kaç kart çekerim")
    assert calc.value == 3 and dict(calc.inputs)["tokens"] == 9
    calc = _calc(calculator, "demand 9, 3 temiz, 3 kişiyiz, kaç kart çekerim")
    assert calc.value == 4 and dict(calc.inputs)["tokens"] == 6  # the file's order


SCORE_RULES = """
[quantity.cards]
label = "görev kartı"
aliases = ["görev kartı", "görev"]
default = 0
[quantity.card_points]
label = "görev kartının puanı"
aliases = ["puanlık"]

[[formula]]
id = "score"
say = "oyun sonu puanı"
unit = "puan"
moment = "end"
expr = "soldiers * 2 + cards * card_points"
asks = ["puan"]
keywords = ["oyun sonu"]
quote = "Oyun sonunda her asker 2 puan, her görev kartı üstünde yazan puanı verir."
"""


def test_a_number_the_result_does_not_turn_on_is_not_asked_for(bant):
    corpus_dir, _ = bant
    calculator = _with_rules(corpus_dir, "Oyun sonunda her asker 2 puan, her görev kartı "
                             "üstünde yazan puanı verir.", SCORE_RULES)
    # no mission card: any card's points times 0 cards is 0, so they are not needed
    calc = _calc(calculator, "oyun sonu 3 askerim var, kaç puan alırım")
    assert calc.value == 6 and calc.result.startswith("6 puan: 3 asker × 2 = 6")  # no "0 × 0"
    # "max(0, talep − 9)" is 0 for every demand up to 9, but the demand still counts: no
    # "0 jetons" for a question that does not state it
    calc = calculator.calculate("9 temiz ürettik, kaç ceza jetonu alırım", "bant-oyunu")
    assert calc is None or calc.value is None
    # two cards: their points are needed, and the calculator asks for them
    calc = _calc(calculator, "oyun sonu 3 askerim ve 2 görev kartım var, kaç puan alırım")
    assert calc.value is None and calc.missing == ("görev kartının puanı",)


def test_pairs_counts_pairs_of_equal_values_each_value_in_one_pair(bant):
    calculator = _with_pairs(bant)
    calc = _calc(calculator, "zarlarım 3, 3, 3, 5, 5 ve 6, kaç değer çiftim var")
    assert calc.value == 2  # 3+3 and 5+5; the third 3 and the 6 pair with nothing
    assert calc.result.startswith("2 değer çifti (3, 3, 3, 5, 5, 6 içinde")  # not "2: 2 (…) = 2"
    assert "zar değeri = (3, 3, 3, 5, 5, 6)" in calc.working  # listed, not added up
    assert _calc(calculator, "zarlarım 3, 4 ve 6, kaç değer çiftim var").value == 0


def test_a_rule_is_about_the_topic_of_the_quantity_another_rule_gives_it(bant):
    # "penalty" gives the tokens that "draw" bands: "talep 9, 3 ürettik" is about the
    # card draw though the question never says "jeton".
    calc = _calc(bant[1], "talep 9, 3 ürettik, sonraki tur kaç kart alırım")
    assert calc.formula == "draw" and calc.value == 4  # 6 tokens: 4-7, one card fewer


def test_pairs_are_not_counted_when_more_things_are_named_than_values_read(bant):
    calculator = _with_pairs(bant)
    # three dice named, two values read: no count of pairs from the two
    calc = _calc(calculator, "zarım 3, zarım 4 ve zarım da, kaç değer çiftim var")
    assert calc.value is None and calc.missing == ("zar değeri (her biri için ayrı ayrı)",)


def test_a_number_of_the_players_the_result_leaves_out_is_named_beside_it(bant):
    from hakem.calc_answer import unread

    question = "5 askerim var, skorum 87, kaç zar atarım"
    calc = _calc(bant[1], question)
    assert calc.value == 6 and unread(question, calc) == ("“skorum 87”",)
    # A rank, a range's end, the rule's own number and numbers the result read are no part
    # left out.
    for question in ("2. turdayım, 5 askerim var, kaç zar atarım",
                     "5 askerim var, 1-6 arası zar, kaç zar atarım",
                     "5 askerim var, 1 temel zar da dahil kaç zar atarım"):
        assert unread(question, _calc(bant[1], question)) == (), question


def test_the_answer_says_which_of_the_players_numbers_its_result_left_out(tiny_engine):
    from hakem.calc_answer import with_calculation
    from hakem.formulas import Citation
    from hakem.working import Calculation

    answer = tiny_engine.ask("kaç kart çekilir?")
    calc = Calculation("f", answer.game or "", 6.0, "6 zar: 1 + 5 × 1 = 6", "", (),
                       (Citation(answer.game or "", 0, 5, "x"),), read=((0, 1),))
    shown = with_calculation(replace(answer, question="5 asker ve 87 puan"), calc).answer
    assert shown.startswith("Sorudaki “87 puan” hariç hesap: 6 zar: 1 + 5 × 1 = 6.")


def test_each_ask_is_worked_out_by_the_rule_of_its_own_clause(bant):
    from hakem.sums import work_out

    # Both asks are about cubes; the clause of each says which rule: the red and blue
    # tokens' cubes first, then the cubes each player adds on the event.
    question = ("3 kişiyiz. 2 kırmızı 1 mavi jetonum için kaç küp ekliyom, "
                "olay olunca oyuncu başına kaç küp?")
    calc = work_out(bant[1], question, "bant-oyunu")
    assert calc is not None and calc.formula == "cubes&player-cubes", calc
    assert calc.result.startswith("3 küp") and ". 6 küp" in calc.result


def test_a_rule_s_one_number_for_a_case_is_added_to_the_stated_score(real_corpus):
    # Rebirth: "tek oyuncu doldurursa 13" — no rank to read, the case's number; the
    # player's score before it is stated, so the new score is asked.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("Skorum 50, büyük yerleşimi tek başıma doldurdum, yeni skorum "
                                "kaç?", "rebirth")
    assert calc is not None and calc.value == 63
    assert calc.result.startswith("63 puan: 50 önceki skor + 13 = 63 (13 puan (tek oyuncunun")
    alone = calculator.calculate("büyük yerleşimi tek başıma doldurdum kaç puan", "rebirth")
    assert alone is not None and alone.value == 13


def test_a_value_after_an_equals_sign_is_the_name_before_it():
    # "d12=5 d20=5": each die's value follows it; read in Turkish order ("5 d20") the first
    # 5 went to d20 and the last was lost.
    dice = [Quantity("gig", "Gig zarı değeri", ("d4", "d12", "d20"), summed=True)]
    assert bind("d4=3 d12=5 d20=5 var", dice).values == {"gig": (3.0, 5.0, 5.0)}
    assert bind("d12: 4, d20: 7", dice).values == {"gig": (4.0, 7.0)}


def test_a_cluster_counted_with_the_new_tile_is_the_points(real_corpus):
    # "küme 5 karo oldu": the count already holds the tile just placed; "4 karoluk kümeye
    # bağladım" is the cluster before it (+1).
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    after = calculator.calculate("tarla karomu koydum, küme yeni karoyla birlikte 7 karo oldu, "
                                 "kaç puan", "rebirth")
    before = calculator.calculate("tarla karomu 4 karoluk kümeye bağladım kaç puan", "rebirth")
    assert after is not None and after.value == 7
    assert before is not None and before.value == 5


def test_a_number_ending_a_sentence_is_the_name_before_it():
    # "talebim şu an 10. Growth Phase'de …": not the 10th Growth Phase.
    qs = [Quantity("demand", "Enerji Talebi", ("talebim", "talep")),
          Quantity("rounds", "raunt", ("growth phase", "raunt"))]
    assert bind("talebim şu an 10. growth phase'den sonra kaç olur", qs).values == {
        "demand": (10.0,)}
    assert bind("3 raunt sonra talep kaç", qs).values == {"rounds": (3.0,)}


def test_gig_values_listed_without_the_dice_named(real_corpus):
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("gig alanımda değerleri 4, 4, 6, 6 ve 2 olan zarlar var, kaç "
                                "dost değer çiftim var", "cyberpunk-tcg")
    assert calc is not None and calc.value == 2


def test_a_rank_said_of_oneself_and_a_bare_now_what_after_the_score(real_corpus):
    # "ben birinciyim" is the rank; "skorum 80di, şimdi kaç?" asks the score after the gain;
    # the two-player case of a sprawling settlement is the rule the words name.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("İrlanda'da 4 altıgenli geniş yerleşim doldu, içinde sadece 2 "
                                "oyuncu var, ben birinciyim. Skorum 60tı, şimdi kaç?", "rebirth")
    assert calc is not None and calc.value == 77  # 60 + 17
    # "aramızda kaç puan fark" asks a difference, which no scoring rule's number is
    assert calculator.calculate("geniş yerleşimde sadece ikimiz varız, ben birinciyim. "
                                "aramızda kaç puan fark var?", "rebirth") is None


def test_a_count_whose_noun_the_next_clause_says_is_read_with_it(real_corpus):
    # "okulda 2, hastanede 1 hayatta kalan": the noun said once counts both places
    from hakem.sums import work_out
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = work_out(calculator, "kolonide 5 hayatta kalan var, okulda 3, hastanede 2 karakter "
                                "var. 2 gürültü jetonu için zarlar 1, 6 geldi. toplam kaç zombi "
                                "eklenir?", "dead-of-winter")
    assert calc is not None and calc.value == 9  # ⌈5 / 2⌉ + 3 + 2, and the 1 rolled: 1


def test_the_crisis_penalty_is_asked_by_fewer_cards_not_by_at_least(real_corpus):
    from hakem.sums import work_out
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    fewer = work_out(calculator, "6 jetonum var, kaç kart az çekiyom", "daybreak")
    assert fewer is not None and fewer.value == 1 and "eksik" in fewer.result
    # "en az" (at least) asks for the cards drawn, never the penalty
    least = work_out(calculator, "10 jetonum var, en az kaç kart çekerim", "daybreak")
    assert least is None or "eksik" not in least.result


def test_a_rate_the_question_quotes_is_no_number_left_out(real_corpus):
    # "her dost Gig değer çifti için 1 kart çek": the card's rate, not part of the situation
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    question = ("gig alanımda değerleri 4, 4, 6 ve 6 olan zarlar var, unitim her dost gig değer "
                "çifti için 1 kart çek diyor, kaç kart çekerim")
    calc = calculator.calculate(question, "cyberpunk-tcg")
    assert calc is not None and calc.value == 2 and unread(question, calc) == ()


def test_a_case_a_formula_needs_said_not_to_hold_does_not_choose_it(bant):
    corpus_dir, _ = bant
    with (corpus_dir / "bant-oyunu.txt").open("a", encoding="utf-8") as f:
        f.write("Atılabilecek zar sayısı kule sayısıyla sınırlıdır.\n")
    rules = corpus_dir / "rules" / "bant-oyunu.toml"
    rules.write_text(rules.read_text(encoding="utf-8") + KULE_RULES, encoding="utf-8")
    calculator = Calculator.from_corpus(corpus_dir, load_corpus(corpus_dir))
    assert _calc(calculator, "3 askerim var, 2 kule var, kaç zar atarım").value == 2
    # "kule yok": the towers' limit is named only to be denied; the plain rule answers
    assert _calc(calculator, "3 askerim var, kule yok, kaç zar atarım").value == 4


def test_numbers_in_parentheses_that_add_up_to_the_one_before_are_its_breakdown():
    qs = [Quantity("tokens", "jeton", ("jeton",), summed=True),
          Quantity("dirty", "kirli", ("kirli",))]
    assert bind("5 kirli, 3 jeton (2 sanayi, 1 ulaşım) var", qs).values == {
        "dirty": (5.0,), "tokens": (3.0,)}
    # parts that do not add up to it are numbers of their own
    assert bind("3 jeton (2 kirli, 4 kirli) var", qs).values == {
        "tokens": (3.0,), "dirty": (2.0, 4.0)}


def test_a_singular_name_after_what_one_of_it_measures_counts_one():
    qs = [Quantity("missions", "görev kartı", ("görev kartı",), default=0),
          Quantity("points", "görev kartının puanı", ("puanlık",))]
    assert bind("5 puanlık görev kartım var", qs).values == {
        "points": (5.0,), "missions": (1.0,)}
    # the plural is no count of one; a count stated is the count
    assert bind("5 puanlık görev kartlarım var", qs).values == {"points": (5.0,)}
    assert bind("2 tane 5 puanlık görev kartım var", qs).values["missions"] == (2.0,)


EVENTS_RULES = LOSS_RULES + """
[quantity.wins]
label = "zafer"
aliases = ["zafer"]

[[formula]]
id = "win-morale"
say = "zaferlerden moral kazancı"
unit = "moral"
moment = "on-event"
expr = "wins * 2"
raises = "morale"
asks = ["moral"]
keywords = ["zafer"]
quote = "Her zafer için moral 2 artar."
"""


def test_every_change_the_question_works_out_is_applied_to_the_stated_total(bant):
    corpus_dir, _ = bant
    calculator = _with_rules(corpus_dir, "Her isabet için moral 1 düşer. Her zafer için "
                             "moral 2 artar.", EVENTS_RULES)
    calc = _calc(calculator, "Moral 5. 3 isabet aldık, 1 zafer kazandık, moral kaç olur?")
    assert calc.value == 4 and calc.result.startswith("4 moral: 5 moral")
    assert "− 3" in calc.result and "+ 2" in calc.result  # each change shown
    # one change alone: no joining
    assert _calc(calculator, "Moral 5. 3 isabet aldık, moral kaç olur?").value == 2
    # the change itself asked (no total stated): no joining, no total
    assert _calc(calculator, "3 isabet aldık, kaç moral kaybederiz").value == 3


def test_a_count_said_of_oneself_counts_one():
    qs = [Quantity("firsts", "birincilik", ("en ileri", "en öndeki"), default=0),
          Quantity("seconds", "ikincilik", ("ikinci",), default=0),
          Quantity("score", "skor", ("zp var",))]
    assert bind("14 ZP var, çizelgede en ileri belirteç benim", qs).values == {
        "score": (14.0,), "firsts": (1.0,)}
    assert bind("14 ZP var, birinde ikinciydim", qs).values["seconds"] == (1.0,)
    # someone else's, or denied: no count
    assert "firsts" not in bind("14 ZP var, en ileri belirteç Ayşe'de", qs).values
    assert "firsts" not in bind("14 ZP var, en ileri belirteç benim değil", qs).values


def test_a_crisis_changes_the_stated_morale_only_as_far_as_the_text_says(real_corpus):
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    prevented = calculator.calculate("3 kişiyiz, krize 6 eşleşen 1 eşleşmeyen kart konmuş, "
                                     "moral şu an 5. kriz çözümünden sonra moral kaç",
                                     "dead-of-winter")
    assert prevented is not None and prevented.value == 6  # 5 ≥ 3 + 2: +1
    # a crisis not prevented costs what its card says: that is asked for, not guessed
    failed = calculator.calculate("4 kişiyiz, krize 2 eşleşen 1 eşleşmeyen kart konmuş, "
                                  "moral şu an 5. kriz çözümünden sonra moral kaç",
                                  "dead-of-winter")
    assert failed is None or failed.value is None


def test_a_breakdown_in_parentheses_is_not_a_number_the_result_left_out():
    calc = Calculation("x", "bant-oyunu", 3.0, "3 jeton", "", (), (), read=((0, 2),))
    assert unread("11 üretim (7 temiz 4 kirli), kaç jeton", calc) == ()


def test_sections_told_one_per_sentence_are_each_worked_out_and_a_loss_subtracted(real_corpus):
    from hakem.sums import sum_of_parts

    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    question = ("Oyun sonu. Bir bölümde 4 ve 2 çarpanlı kademelerde belirtecim var, koşul "
                "konut, 3 konutum var. Diğer bölümde 3 çarpanlı kademede belirtecim var, koşul "
                "fabrika, 2 fabrikam var. Bir belirtecim de '0' alanında. Net kaç ZP?")
    total = sum_of_parts(calculator, question, "nucleum")
    assert total is not None and total.value == 18 + 6 - 3
    assert total.result.startswith("21 ZP: 18 + 6 − 3 = 21")
    # a sentence of the situation that no rule reads: no total that leaves it out
    unread = question.replace("Bir belirtecim de '0' alanında.", "Bir de 2 Thalerim var.")
    assert sum_of_parts(calculator, unread, "nucleum") is None


def test_hunger_tokens_join_the_waste_pile_the_next_step_counts(real_corpus):
    # Colony phase: step 1 puts a starvation token on the waste pile for each food missing,
    # step 2 costs 1 morale per 10 cards there; both together are what "açlık ve atık
    # yüzünden toplam kaç moral" asks (it was answered with the hunger part alone).
    from hakem.sums import work_out

    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = work_out(calculator, "kolonide 9 hayatta kalan var, stokta 3 yiyecek, atık "
                                "yığınında 14 kart. açlık ve atık yüzünden toplam kaç moral "
                                "kaybederiz?", "dead-of-winter")
    assert calc is not None and calc.value == 3  # 2 tokens, and ⌊(14 + 2) / 10⌋ = 1
    assert calc.result.startswith("3 moral: 2 açlık jetonu × 1 + ⌊(14 atık kartı + 2 açlık")


def test_one_count_said_twice_in_one_breath_is_one_count(real_corpus):
    # "2 zar harcayıp iki kere atık temizlersem": both numbers count the cleanings, the same
    # cleaning said twice; it was asked back ("toplamı mı, biri mi?").
    from hakem.sums import work_out

    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = work_out(calculator, "atıkta 14 kart var, iki zar harcayıp iki kere atık "
                                "temizlersem kaç kart kalıyo?", "dead-of-winter")
    assert calc is not None and calc.value == 8  # 14 − 2 × 3


def test_each_players_numbers_add_up_for_a_rule_each_player_applies_to_one_pool(bant):
    corpus_dir, calculator = bant
    question = "ben 3 kırmızı 2 mavi, arkadaşım 1 kırmızı 4 mavi jeton koydu, kaç küp ekleriz"
    # Blue is not summed: whose 2 or 4 counts is the player's to say ...
    assert calculator.calculate(question, "bant-oyunu") is None or _calc(
        calculator, question).value is None
    # ... until the rule says each player adds their own to one pool.
    path = corpus_dir / "rules" / "bant-oyunu.toml"
    path.write_text(BANT_RULES.replace('expr = "red * 1 + blue * 1"',
                                       'expr = "red * 1 + blue * 1"\neach_player = true'),
                    encoding="utf-8")
    calc = _calc(Calculator.from_corpus(corpus_dir, load_corpus(corpus_dir)), question)
    assert calc.formula == "cubes" and calc.value == 10
    assert "(2 + 4) mavi jeton" in calc.result


def test_each_player_is_only_for_a_sum_of_quantities(bant):
    # ceil(soldiers / 2) of the sums is not the sum of each player's ceil.
    corpus_dir, _ = bant
    path = corpus_dir / "rules" / "bant-oyunu.toml"
    path.write_text(BANT_RULES.replace('expr = "ceil(soldiers / 2) * 1"',
                                       'expr = "ceil(soldiers / 2) * 1"\neach_player = true'),
                    encoding="utf-8")
    with pytest.raises(FormulaError, match="each_player"):
        load_formulas(corpus_dir, load_corpus(corpus_dir))


def test_a_step_is_not_the_answer_when_the_rule_asked_about_is_half_given(real_corpus):
    # Thermometer cubes are the emissions less what the board absorbs: with the board's
    # trees and oceans unstated, the emissions added (a step) must not read as the answer.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    half = calculator.calculate("2 kisiyiz. ben 5 kirli + 2 emisyon jetonu, arkadasim 3 kirli "
                                "+ 1 emisyon. emilimden sonra termometreye kac kup gider?",
                                "daybreak")
    assert half is None or half.value is None
    whole = calculator.calculate("2 kisiyiz. ben 5 kirli + 2 emisyon jetonu, arkadasim 3 kirli "
                                 "+ 1 emisyon. tahtada 4 agac 2 okyanus var, DAC yok. emilimden "
                                 "sonra termometreye kac kup gider?", "daybreak")
    assert whole is not None and whole.value == 5  # (5 + 3) + (2 + 1) − (4 + 2)


def test_a_question_asking_a_constant_the_rule_states_is_not_given_the_rules_result(bant):
    # "kaç temel zar" asks the 1 the rule states, not the 4 it works out for 3 soldiers.
    calculator = bant[1]
    assert _calc(calculator, "3 askerim var, kaç zar atarım").value == 4
    asked = calculator.calculate("3 askerim var, kaç temel zar atarım", "bant-oyunu")
    assert asked is None or asked.formula != "dice"


def test_the_real_rules_say_the_tiles_returned_not_the_tiles_left(real_corpus):
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    returned = calculator.calculate("2 kisi oynuyoruz, havuzdan kac karo kutuya geri koyuyoruz",
                                    "rebirth")
    assert returned is None or returned.value == 9


def test_the_matching_cards_still_needed_count_the_cards_already_in(real_corpus):
    # +1 per matching card, −1 per unmatched one, prevented at the player count: each
    # unmatched card costs one more matching card, each matching card in counts.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    prevent = calculator.calculate("5 kişiyiz, krize 2 eşleşen 3 eşleşmeyen kart girdi. krizi "
                                   "önlemek için en az kaç eşleşen kart daha lazım",
                                   "dead-of-winter")
    assert prevent is not None and prevent.value == 6
    morale = calculator.calculate("5 kişiyiz, krize 2 eşleşen 3 eşleşmeyen kart girdi. moral "
                                  "kazanmak için en az kaç eşleşen kart daha lazım",
                                  "dead-of-winter")
    assert morale is not None and morale.value == 8


def test_a_number_said_of_a_place_the_rule_does_not_count_is_left_out(real_corpus):
    # "Fixer alanındaki Gig zarları … Street Cred toplamınıza dahil edilmiyor"
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("gig alanımda d4=2 ve d6=5 var; fixer alanındaki d20 9 "
                                "gösteriyor. street cred kaç", "cyberpunk-tcg")
    assert calc is not None and calc.value == 7


def test_a_number_said_with_what_the_rule_does_not_count_is_left_out():
    # "açık durumdaki bir Legend kartında satış etiketi bulunmuyorsa, o kartı 1 €$ üretmek
    # amacıyla harcayamıyorsunuz": the untagged face-up Legend is read and not counted.
    qs = [Quantity("eddies", "Eddie", ("eddie",)),
          Quantity("legends", "Legend", ("legend",), summed=True,
                   not_with=("etiket olmayan", "etiket yok"))]
    said = bind("4 eddie, 2 kapalı legend ve satış etiketi olmayan 1 açık legend var", qs)
    assert said.values == {"eddies": (4.0,), "legends": (2.0,)} and not said.unclear
    # the words before the next number are that number's, not the one before's
    after = bind("legendlarımda 2 kapalı legend bi de açık ama etiketi olmayan 1 legend", qs)
    assert after.values == {"legends": (2.0,)}
    # said after its name, to the end of its clause
    later = bind("1 açık legend var ama etiketi yok, 3 kapalı legend", qs)
    assert later.values == {"legends": (3.0,)} and not later.unclear
    # said of no number or part: how many count is the player's to say
    vague = bind("3 legend'ım var, açık olanların etiketi yok", qs)
    assert vague.values == {"legends": (3.0,)} and vague.unclear == {"legends"}
    # said of a part of a count named before, the part comes off the count
    for said in ("3 legend'ım var: ikisi kapalı, biri açık ve etiketi yok",
                 "3 legend'ım var: biri açık ve etiketi yok, ikisi kapalı",
                 "3 legend'ım var, 2'si kapalı, 1'i açık ama etiketi yok"):
        part = bind(said, qs)
        assert part.values == {"legends": (2.0,)} and not part.unclear, said
    assert bind("4 legend'ım var: üçü açık ve etiketi yok, biri kapalı", qs).values == {
        "legends": (1.0,)}
    # a part of no count before it in its sentence, or more parts left out than the count
    # has, or a part not read as one: the player says which count
    for said in ("3 legend'ım var. Biri açık ve etiketi yok.",
                 "1 legend'ım var: ikisi açık ve etiketi yok",
                 "3 legend'ım var, 2'sinin etiketi yok"):
        assert bind(said, qs).unclear == {"legends"}, said
    # said of another quantity's number, it says nothing of this one's
    other = bind("3 legend'ım var; biri açık, etiketi yok 4 eddie'm de var", qs)
    assert other.values == {"legends": (3.0,), "eddies": (4.0,)} and other.unclear == {
        "legends"}
    # not said: every number counts (face up or down)
    assert bind("2 kapalı legend ve 1 açık legend", qs).values == {"legends": (2.0, 1.0)}


def test_a_verdict_may_hold_on_a_range_of_a_band_table(real_corpus):
    node = parse_expr("4 <= value <= 7", "t")
    assert expr_names_and_numbers(node, "t", condition=True) == ({"value"}, {4.0, 7.0})
    assert evaluate(node, {"value": 5.0}, {}).value == 1.0
    assert evaluate(node, {"value": 5.0}, {}).text == "4 ≤ 5 ≤ 7"
    assert evaluate(node, {"value": 8.0}, {}).value == 0.0
    for bad in ("4 <= value > 7", "4 <= value <= 7 <= 9"):
        with pytest.raises(FormulaError):
            expr_names_and_numbers(parse_expr(bad, "t"), "t", condition=True)
    with pytest.raises(FormulaError):  # comparisons only in conditions
        expr_names_and_numbers(node, "t")
    # Daybreak: the new total's card penalty ("- 4-7 jeton: … 1 daha az Yerel Proje kartı")
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("talebim 14, 5 temiz 6 kirli enerjim var, zaten 2 krizde "
                                "topluluk jetonum var. kaç jetonum olur, ceza var mı",
                                "daybreak")
    assert calc is not None and calc.value == 5
    assert any("1 daha az Yerel Proje kartı" in r for r in calc.rulings)


def test_a_number_with_the_lik_ending_is_what_each_is_worth_and_parts_come_off():
    # "Koşulu sağlanan her … görev kartı belirtilen puanı verir (çoğu 5, Katedral Bonusu
    # koşulsuz 3)": "5'lik" is a card's worth, not a count; the Cathedral Bonus named as one
    # of the cards said is one of its own and not one of the others.
    qs = [Quantity("castles", "kale", ("kale",)),
          Quantity("missions", "görev kartı", ("görev kartı", "görev"), each_worth="points",
                   parts=("bonus",)),
          Quantity("points", "görev kartının puanı", ("puanlık",)),
          Quantity("bonus", "Katedral Bonusu", ("katedral bonusu",), default=0.0)]
    for said, values in (
            ("3 kale, 5'lik bi görev kartı", {"castles": (3.0,), "points": (5.0,)}),
            ("2 görev kartım tuttu (ikisi de 5lik), bir de katedral bonusu",
             {"missions": (2.0,), "points": (5.0,), "bonus": (1.0,)}),
            ("2 görev kartım tuttu: biri katedral bonusu, diğeri 5'erlik",
             {"missions": (1.0,), "bonus": (1.0,), "points": (5.0,)}),
            ("2 görev kartım tuttu (biri normal 5'lik, biri katedral bonusu)",
             {"missions": (1.0,), "bonus": (1.0,), "points": (5.0,)})):
        assert bind(said, qs).values == values, said
    # a part said with its article is that part, not one more ("biri bir Katedral Bonusu")
    assert bind("2 görev kartım tuttu: biri bir katedral bonusu, diğeri 5'lik", qs).values \
        == {"missions": (1.0,), "bonus": (1.0,), "points": (5.0,)}
    # a part in another sentence than the count is no part of it
    apart = bind("1 görev kartım tuttu. biri katedral bonusu", qs).values
    assert apart.get("missions") == (1.0,) and "bonus" not in apart
    # the "-lik" of the word after it is that thing's measure ("3'lük yerleşimi")
    assert "points" not in bind("2 görev kartım tuttu, 3'lük yerleşimi de doldurdum",
                                qs).values
    # a worth no quantity of the formula holds is left unread, not a crash
    assert bind("5'lik görev kartı", [Quantity("missions", "görev kartı", ("görev kartı",),
                                               each_worth="points")]).values == {}
    # without `each_worth`, a "-lik" number is still no count ("5 €$'lik kart")
    plain = [replace(q, each_worth="") for q in qs]
    assert "points" not in bind("3 kale, 5'lik bi görev kartı", plain).values


def test_rebirth_end_scoring_reads_mission_cards_by_worth_and_part(real_corpus):
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("oyun bitti, 3 kale kontrol ediyorum, 2 görev kartım tuttu "
                                "(biri Katedral Bonusu, diğeri normal 5'lik). oyun sonunda "
                                "kaç puan eklerim", "rebirth")
    assert calc is not None and calc.value == 3 * 5 + 5 + 3


def test_a_rank_s_own_name_said_of_oneself_is_the_first(real_corpus):
    # Rebirth: the majority of a settlement is its first place ("çoğunluk bende")
    from hakem.sums import work_out
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    for question, value in (
            ("2 altıgenli orta yerleşim doldu, çoğunluk bende. kaç puan alırım", 5),
            ("Liman sembollü boşluğa karomu koydum, 2 altıgenli orta yerleşimin son "
             "boşluğuydu, çoğunluk bende. toplam kaç puan alırım", 6),
            ("3 altıgenli büyük yerleşim doldu, çoğunlukta ikinci ben çıktım. kaç puan "
             "alırım", 5)):
        calc = work_out(calculator, question, "rebirth")  # (the port's point on top)
        assert calc is not None and calc.value == value, question
    # said of someone else, asked, or a name of the rank that is no first place ("sıra
    # bende": my turn): no rank of the player's
    for question in ("2 altıgenli orta yerleşim doldu, çoğunluk rakipte. kaç puan alırım",
                     "2 altıgenli orta yerleşim doldu, çoğunluk bende mi bilmiyorum. kaç "
                     "puan alırım",
                     "2 altıgenli orta yerleşim doldu, sıra bende. kaç puan alırım",
                     "2 altıgenli orta yerleşim doldu, çoğunluk rakipte ama ikincilik benim. "
                     "kaç puan alırım"):
        other = calculator.calculate(question, "rebirth")
        assert other is None or other.value is None, question


def test_two_tipping_points_in_one_crisis_remove_their_trees_together(real_corpus):
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    both = calculator.calculate("3 kişiyiz, merkezde 16 ağaç var. önce amazon çöküşü sonra "
                                "çölleşme tetiklendi, kaç ağaç kalır", "daybreak")
    assert both is not None and both.value == 16 - 3 - 3
    for question in ("3 kişiyiz, merkezde 16 ağaç var. çölleşme tetiklendi, kaç ağaç kalır",
                     "3 kişiyiz, merkezde 16 ağaç var. çölleşme tetiklenmedi ama amazon "
                     "çöküşü tetiklendi, kaç ağaç kalır",
                     "3 kişiyiz. geçen raunt amazon çöküşü olmuştu, şimdi merkezde 16 ağaç "
                     "var ve çölleşme tetiklendi. kaç ağaç kalır"):
        one = calculator.calculate(question, "daybreak")
        assert one is not None and one.value == 16 - 3, question


def test_what_a_d10_shows_said_past_its_die_word_or_its_top(real_corpus):
    # "d10 zarında 0 rakamı “10” değerini temsil eder", however the 0 is said of it
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    for question, value in (
            ("gig alanimda d10 zari 0 gosteriyor, d6 da 5 gosteriyor. street cred kac", 15),
            ("gig alanimda d4 3 gosteriyo, d10'un ustunde 0 yaziyo. street cred kac", 13),
            ("Gig alanımda d6 (4 gösteriyor) ve d10 (üstte 0 yazıyor) var. Street Cred'im "
             "kaç?", 14),
            # what it shows said before it, past an article ("0 gösteren bi d10")
            ("gig alanimda 0 gosteren bi d10 ile 5 gosteren d6 var street credim kac", 15),
            ("Gig alanımda 4 gösteren d6, 7 gösteren d8 ve 12 gösteren d20 var. Street "
             "Cred'im kaç?", 23)):
        calc = calculator.calculate(question, "cyberpunk-tcg")
        assert calc is not None and calc.value == value, question


def test_a_rank_s_first_place_names_must_be_its_aliases(bant):
    with pytest.raises(FormulaError, match="first"):
        _with_rules(bant[0], "", '''
[quantity.sira]
label = "sıra"
aliases = ["sıra"]
first = ["çoğunluk"]
ranked = true
''')


def test_each_worth_and_parts_must_name_other_quantities(bant):
    for field in ('each_worth = "nope"', 'parts = ["nope"]', 'each_worth = "kart_sayisi"'):
        rules = f'''
[quantity.kart_sayisi]
label = "kart"
aliases = ["kart"]
{field}
'''
        with pytest.raises(FormulaError, match="each_worth"):
            _with_rules(bant[0], "", rules)


def test_a_count_said_to_include_what_the_rule_leaves_out_asks_instead(real_corpus):
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    counted = calculator.calculate("5 eddie'm var, legends alanımda 2 kapalı legend ve satış "
                                   "etiketi olmayan 1 açık legend. kaç €$ ödeyebilirim",
                                   "cyberpunk-tcg")
    assert counted is not None and counted.value == 7
    vague = calculator.calculate("3 eddie'm, 3 legend'ım var; açık olanlarda sell etiketi "
                                 "yok. max kaç €$ ödeyebilirim", "cyberpunk-tcg")
    assert vague is not None and vague.value is None
    assert any("Legend" in m for m in vague.missing)


def test_occasions_told_in_order_count_once_each():
    # "O an çizelgede en ileri belirtece sahip oyuncu 6 ZP, ikinci en ileri oyuncu 2 ZP
    # kazanır": each King's Day applies the rule once; the counts add up over the days.
    ranks = [Quantity("firsts", "birincilik", ("en ileri", "en öndeydim", "birinci"), default=0,
                      per_occasion=True),
             Quantity("seconds", "ikincilik", ("ikinci en ileri", "ikinci"), default=0,
                      per_occasion=True)]
    told = bind("ilkinde en öndeydim, ikincisinde ikinci sıradaydım, üçüncüsünde hem birinci "
                "hem ikinci benimdi. toplam kaç ZP", ranks)
    assert told.values == {"firsts": (2.0,), "seconds": (2.0,)}
    # a place said of someone else counts nothing; "ilk King's Day'de" is an occasion too
    others = bind("ilk King's Day'de en ileri belirteç rakipteydi, ikinci en ileri bendim. "
                  "ikincisinde ben ve bi rakip en ileride eşittik", ranks)
    assert others.values == {"firsts": (1.0,), "seconds": (1.0,)}
    # how many occasions there were is read with them (not left out of the working)
    question = "2 kral günü oldu: ilkinde en öndeydim, ikincisinde ikinci sıradaydım"
    assert (0, 1) in bind(question, ranks).spans["firsts"]
    assert (0, 1) not in bind("3" + question[1:], ranks).spans["firsts"]  # one not told
    # the ordinal is no name of its own: "ikincisinde en ileri" is a first place
    again = bind("ilkinde en ileri bendim, ikincisinde en ileri yine bendim, üçüncüsünde "
                 "ikinci en ileri bendim", ranks)
    assert again.values == {"firsts": (2.0,), "seconds": (1.0,)}
    # denied, or someone else's by name: nothing counts
    denied = bind("ilkinde en ileri ben değildim, ikincisinde ikinci en ileri bendim", ranks)
    assert denied.values == {"seconds": (1.0,)}
    named = bind("ilkinde en ileri bendeydi, ikinci Ali'ydi. ikincisinde ikinci en ileri ben "
                 "oldum", ranks)
    assert named.values == {"firsts": (1.0,), "seconds": (1.0,)}
    # occasions said together share what is said of them; "ilk turunda" is an occasion
    together = bind("ilk turunda en öndeydim; ikincisinde ve üçüncüsünde ikinci sıradaydım",
                    ranks)
    assert together.values == {"firsts": (1.0,), "seconds": (2.0,)}
    # "birinde … birinde …": each "in one of them" is an occasion
    ones = bind("3 kral günü oldu: birinde en ileri bendim, birinde ikinci en ileri bendim, "
                "birinde de başka biriyle en önde berabereydik", [
                    replace(ranks[0], aliases=(*ranks[0].aliases, "en önde")), ranks[1]])
    assert ones.values == {"firsts": (2.0,), "seconds": (1.0,)}
    # a quantity not told occasion by occasion is left to the binder
    plain = [replace(q, per_occasion=False) for q in ranks]
    assert bind("ilkinde en öndeydim, ikincisinde ikinci sıradaydım", plain).values == {}
    # one occasion is no sequence: "en öndeydim" alone states no situation to count
    assert bind("ilk King's Day'de en öndeydim, kaç ZP aldım", ranks).values == {}
    # occasions with numbers of their own are read as numbers
    cubes = [Quantity("cubes", "küp", ("küp",), summed=True, default=0)]
    assert bind("ilk rauntta 3 küp, ikincisinde 5 küp geldi", cubes).values == {
        "cubes": (3.0, 5.0)}


def test_king_s_days_told_one_by_one_are_added_up(real_corpus):
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("3 kral günü oldu: ilkinde en ileri belirteç bendeydi, "
                                "ikincisinde ikinci en ileri bendim, üçüncüsünde hem en ileri "
                                "hem ikinci en ileri benimdi. toplam kaç ZP aldım", "nucleum")
    assert calc is not None and calc.value == 2 * 6 + 2 * 2


def test_a_number_of_times_counts_the_thing_done_further_on_in_its_clause():
    tokens_ = [Quantity("zero", "'0' alanındaki belirteç", ("belirteç", "token"), default=0)]
    assert bind("3 kere yeniden şarjda belirtecimi '0' alanına koydum, kaç ZP kaybederim",
                tokens_).values == {"zero": (3.0,)}
    assert bind("iki kere 0 alanına belirteç koydum", tokens_).values == {"zero": (2.0,)}
    # another count on the way ends it: the 5 counts the tokens, not the 3
    assert bind("3 kere 5 belirteç koydum", tokens_).values == {"zero": (5.0,)}
    assert bind("3 kez 0'a belirteç koydum", tokens_).values == {"zero": (3.0,)}


def test_numbers_of_one_name_go_to_the_quantity_whose_place_is_said():
    # "termometrede 13 küp" and "termometreye 9 küp": the same cubes by name, told apart by
    # where they are said; a number said nowhere goes to the one that needs no place.
    cubes = ("küp", "cube")
    recent = Quantity("recent", "Son Emisyonlar", cubes, summed=True,
                      not_where=("termometrede",))
    thermo = Quantity("thermo", "termometrede duran", cubes, where=("termometrede", "bölgesinde"))
    incoming = Quantity("incoming", "termometreye giden", cubes, where=("termometreye", "daha"))
    told = bind("termometrede şu anki bant bölgesinde 13 küp var ve bu raunt 9 küp daha "
                "termometreye gidiyor", [thermo, incoming])
    assert told.values == {"thermo": (13.0,), "incoming": (9.0,)}
    apart = bind("Son Emisyonlar'a 31 küp geldi. Termometrede önceden 15 küp vardı",
                 [recent, thermo])
    assert apart.values == {"recent": (31.0,), "thermo": (15.0,)}
    # a place one letter off is another place ("termometreye" is not "termometrede")
    assert bind("termometreye 22 küp gitti", [thermo]).values == {}
    # the words after a separator are the next number's: the 25 goes to the thermometer
    both = bind("bu raunt 25 küp termometreye gitti ve termometrede 15 küp vardı",
                [replace(recent, not_where=("termometre",)), thermo,
                 replace(incoming, where=("termometreye",))])
    assert both.values == {"incoming": (25.0,), "thermo": (15.0,)}


def test_cubes_that_fill_a_band_add_a_planetary_roll_for_four_players(real_corpus):
    # "bir bant bölgesi tamamen dolunca (4 oyuncuda 20 karbon küpü) … 1 Sıcaklık Bandı konur",
    # "Termometredeki her Sıcaklık Bandı için bir kez Gezegen Etkileri zarı atılır."
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    question = ("{} kişiyiz, termometrede 2 bant var, üstünde 6 küp duruyor. bu raunt "
                "termometreye 35 küp gitti. gezegen etkileri zarını kaç kere atarız")
    four = calculator.calculate(question.format(4), "daybreak")
    assert four is not None and four.value == 2 + (6 + 35) // 20
    two = calculator.calculate(question.format(2), "daybreak")  # the text sizes no 2p band
    assert two is not None and two.value == 2
    left = calculator.calculate("4 kişiyiz. son emisyonlara 30 küp geldi, tahtada 8 ağaç 4 "
                                "okyanus var, DAC yok. termometrede önceden 9 küp vardı. "
                                "bant konunca termometrede kaç küp kalır", "daybreak")
    assert left is not None and left.value == (9 + 30 - 12) % 20
    later = calculator.calculate("4 kişiyiz, termometrede 13 küp var, bu raunt termometreye "
                                 "9 küp daha gidiyor. bant konunca kaç küp kalacak", "daybreak")
    assert later is not None and later.value == 2
    # cubes said of Recent Emissions are none of the thermometer's
    recent = calculator.calculate("4 kişiyiz, termometrede 2 bant var. son emisyonlara 30 küp "
                                  "daha koyduk. gezegen zarını kaç kere atarız", "daybreak")
    assert recent is not None and recent.value == 2


def test_a_die_that_came_up_and_food_said_as_yemek(real_corpus):
    # "Yeterince yüksek zarın yoksa, koloni yiyecek stokundan yiyecek harcayarak bir zarı +1
    # artırabilirsin": "2 gelen zar" is a die showing 2; "yemek" is what players call food.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("arama değeri 5 olan karakterimle arayacağım ama elimde 3 "
                                "gelen zar var, kaç yemek harcamam lazım", "dead-of-winter")
    assert calc is not None and calc.value == 2


def test_the_whole_a_part_is_asked_of_is_no_count_of_the_player():
    # "beş bitiş koşulundan kaçı": five is how many there are, not how many are met.
    met = [Quantity("met", "sağlanan bitiş koşulu", ("bitiş koşulu", "koşul"))]
    assert bind("2 kişiyiz, beş bitiş koşulundan kaçı sağlanınca oyun biter", met).values == {}
    assert bind("beş bitiş koşulundan ikisi sağlandı", met).values == {"met": (2.0,)}
    fled = [Quantity("z", "zombi", ("zombi",))]  # "kaçtım" (fled) is no "kaç"
    assert bind("3 zombiden kaçtım, kaç yara alırım", fled).values == {"z": (3.0,)}


def test_a_rule_that_also_applies_to_the_move_is_added_once(real_corpus):
    # The port's 1 point comes on top of what the settlement tile placed on it scores.
    from hakem.sums import work_out

    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    plain = work_out(calculator, "iskoçyada tek altıgenli küçük yerleşime 2 ikonlu yerleşim "
                                 "karosu koydum, kaç puan alırım", "rebirth")
    assert plain is not None and plain.value == 2
    port = work_out(calculator, "iskoçyada tek altıgenli küçük yerleşimin boşluğu liman "
                                "sembollü, oraya 2 ikonlu yerleşim karosu koydum, kaç puan "
                                "alırım", "rebirth")
    assert port is not None and port.value == 3
    assert "liman" in port.result
    # not when denied, nor on top of a score counted at the game's end
    denied = work_out(calculator, "iskoçyada tek altıgenli küçük yerleşime 2 ikonlu yerleşim "
                                  "karosu koydum, liman yok, kaç puan alırım", "rebirth")
    assert denied is not None and denied.value == 2
    end = work_out(calculator, "limana karo koydum; oyun sonunda 3 kale kontrol ediyorum, "
                               "oyun sonunda kaç puan", "rebirth")
    assert end is not None and end.value == 15
    # a card sold this turn is one more Eddie, counted once
    sold = work_out(calculator, "bu tur 1 kart sattım, 3 legend kartım var, kaç €$ "
                                "ödeyebilirim", "cyberpunk-tcg")
    assert sold is not None and sold.value == 4


def test_an_ordinal_word_ranks_and_never_counts_the_next_name():
    # "birinci" reads as the number 1; before "ikinciye" it names the first, it counts nothing
    places = [Quantity("firsts", "birincilik", ("birinci", "en ileri"), default=0.0),
              Quantity("seconds", "ikincilik", ("ikinci",), default=0.0)]
    assert bind("kral günü kaç zp veriyor birinciye ikinciye", places).values == {}
    assert bind("2 kez ikinci oldum", places).values == {"seconds": (2.0,)}
    cards = [Quantity("cards", "kart", ("kart",))]
    assert bind("ikinci kartı oynadım", cards).values == {}
    assert bind("3 kart oynadım", cards).values == {"cards": (3.0,)}


def test_noise_rolls_are_read_after_the_verb_that_rolled_them(real_corpus):
    # "zar attık: 2, 4, 3, 6" and "2, 4, 3, 6 attık" list the rolls as "zarlar 2, 4, 3, 6"
    # does; "3 zar attık" says how many dice, not a roll, and works nothing out.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    for question in ("4 noise token için zar attık: 2, 4, 3, 6 geldi. kaç zombi geliyor",
                     "4 gürültü jetonu için 2, 4, 3, 6 attık, kaç zombi gelir"):
        calc = calculator.calculate(question, "dead-of-winter")
        assert calc is not None and calc.value == 2, question
    assert calculator.calculate("gürültü için 3 zar attık kaç zombi gelir",
                                "dead-of-winter") is None


SETUP_RULES = """
[quantity.trees]
label = "ağaç"
aliases = ["ağaç"]
setup = { 2 = 6, 3 = 9 }
setup_when = ["standart", "değişme|kaybetme"]
setup_quote = ["Standart kurulumda 2 oyuncuda 6 ağaç konur.",
               "Standart kurulumda 3 oyuncuda 9 ağaç konur."]

[quantity.smoke]
label = "duman küpü"
aliases = ["duman", "duman küpü"]
summed = true

[[formula]]
id = "after-trees"
say = "ağaçlardan sonra kalan duman küpü"
unit = "duman küpü"
expr = "max(0, smoke - trees * 1)"
asks = ["duman"]
keywords = ["kalan", "ağaç"]
quote = "Her ağaç 1 duman küpü emer."
"""
SETUP_TEXT = ("Standart kurulumda 2 oyuncuda 6 ağaç konur. Standart kurulumda 3 oyuncuda 9 ağaç "
              "konur. Her ağaç 1 duman küpü emer.")


def _no_number(calculator: Calculator, question: str) -> bool:
    calc = calculator.calculate(question, "bant-oyunu")
    return calc is None or calc.value is None


def test_a_count_still_as_set_up_is_the_setups_for_the_player_count(bant):
    corpus_dir, _ = bant
    calculator = _with_rules(corpus_dir, SETUP_TEXT, SETUP_RULES)
    calc = _calc(calculator, "3 kişiyiz, standart kurulumla başladık, ağaç hiç değişmedi. "
                             "12 duman küpü ekledik, kaç duman kalır")
    assert calc.value == 3 and "kurulumdaki gibi: 9 ağaç" in calc.result
    text = (corpus_dir / "bant-oyunu.txt").read_text(encoding="utf-8")
    # cited: the 3-player line, once, and not the 2-player one
    setup_quotes = [c.quote for c in calc.citations if "oyuncuda" in c.quote]
    assert setup_quotes == ["Standart kurulumda 3 oyuncuda 9 ağaç konur."]
    assert all(text[c.start : c.end] == c.quote for c in calc.citations)


@pytest.mark.parametrize("question", [
    # not said to be as set up, or how many play not said
    "3 kişiyiz, 12 duman küpü ekledik, kaç duman kalır",
    "standart kurulumla başladık, ağaç hiç değişmedi, 12 duman küpü ekledik, kaç duman kalır",
    # not a standard setup
    "3 kişiyiz, zor kurulumla başladık, ağaç hiç değişmedi, 12 duman küpü ekledik, kaç duman kalır",
    # unchanged said of something else, not of the trees
    "3 kişiyiz, standart kurulum, çadır hiç değişmedi, ağaç yandı. 12 duman küpü ekledik, kaç "
    "duman kalır",
    # a number of the question left unread would leave the total short
    "3 kişiyiz, standart kurulum, ağaç hiç değişmedi. Ali 5 Ayşe 7 duman küpü ekledi, kaç duman "
    "kalır",
])
def test_a_setup_count_is_not_assumed_without_its_case(bant, question):
    corpus_dir, _ = bant
    calculator = _with_rules(corpus_dir, SETUP_TEXT, SETUP_RULES)
    assert _no_number(calculator, question)


def test_setup_counts_must_be_stated_beside_their_player_count(bant):
    corpus_dir, _ = bant
    with pytest.raises(FormulaError, match="setup_quote"):
        _with_rules(corpus_dir, SETUP_TEXT, SETUP_RULES.replace("2 = 6, 3 = 9", "2 = 9, 3 = 6"))


def test_crisis_cards_said_as_fitting_or_not_are_matching_and_unmatched(real_corpus):
    # "5 uygun 1 uygunsuz", "6'sı istenen sembol": the crisis's matching cards and the rest,
    # as players say them.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    fits = calculator.calculate("4 kişiyiz, krizde 5 uygun 1 uygunsuz kart çıktı. kriz "
                                "önlendi mi", "dead-of-winter")
    assert fits is not None and fits.value == 4 and "1 eşleşmeyen" in fits.result
    wanted = calculator.calculate("3 kişiyiz moral 4. krize 6'sı istenen sembol olan 6 kart "
                                  "geldi. çözünce moral kaç olur", "dead-of-winter")
    assert wanted is not None and wanted.value == 5 and "6 eşleşen" in wanted.result
    # "değil" alone is no card count: "4 değil mi oyuncu sayısı" states no unmatched cards
    asked = calculator.calculate("4 kişiyiz, krize 5 eşleşen kart koyduk. 4 değil mi oyuncu "
                                 "sayısı? kriz önlendi mi", "dead-of-winter")
    assert asked is None or "4 eşleşmeyen" not in asked.result


RENEWING_RULES = '''
[quantity.rounds]
label = "tur"
aliases = ["tur"]
default = 1

[[formula]]
id = "grow-north"
say = "büyümeden sonra Kuzey'in talebi"
unit = "talep"
moment = "each-round"
expr = "demand + artis * rounds"
given = { artis = { value = 2, label = "artış (Kuzey)" } }
updates = "demand"
over = "rounds"
used_in = ["üretim", "üret"]
asks = ["talep"]
keywords = ["kuzey", "büyüme"]
quote = "Kuzey her tur talebini 2 artırır."

[[formula]]
id = "grow-south"
say = "büyümeden sonra Güney'in talebi"
unit = "talep"
moment = "each-round"
expr = "demand + artis * rounds"
given = { artis = { value = 3, label = "artış (Güney)" } }
updates = "demand"
over = "rounds"
used_in = ["üretim", "üret"]
asks = ["talep"]
keywords = ["güney", "büyüme"]
quote = "Güney her tur talebini 3 artırır."
'''


@pytest.fixture
def renewing(bant) -> Calculator:
    return _with_rules(bant[0], "Kuzey her tur talebini 2 artırır. Güney her tur talebini 3 "
                       "artırır.", RENEWING_RULES)


def test_a_quantity_stated_now_is_renewed_before_a_later_round(renewing):
    # Stated now, asked at the next round: the region's growth comes first (10 + 2 = 12).
    calc = _calc(renewing, "Kuzey'im, talep şu an 10. Sonraki turda üretim 9 olursa kaç ceza "
                           "jetonu alırım")
    assert calc.value == 3 and calc.formula == "penalty"
    assert "(12 talep: 10 talep + 2 artış (Kuzey) × 1 tur = 12)" in calc.result
    assert "Kuzey her tur talebini 2 artırır." in {c.quote for c in calc.citations}
    # Two round ordinals: the rounds between them pass (10 + 3 × 2 = 16).
    assert _calc(renewing, "Güney'im, şu an 2. turdayız, talep 10; 4. turda 9 üretim olursa "
                           "kaç ceza jetonu alırım").value == 7
    # Through a step: the renewed demand gives the tokens (14 − 9 = 5), the tokens the cards.
    calc = _calc(renewing, "Kuzey'im talep şu an 12, sonraki turda üretim 9. Kaç kart çekerim")
    assert calc.value == 4 and calc.formula == "draw"


def test_a_quantity_is_not_renewed_without_now_a_later_round_and_whose_rule(renewing):
    # No "now": the stated demand may already be the later round's.
    assert _calc(renewing, "Kuzey'im, talep 10, sonraki turda üretim 9 olursa kaç ceza "
                           "jetonu alırım").value == 1
    # No later round.
    assert _calc(renewing, "Kuzey'im, talep şu an 10, üretim 9, kaç ceza jetonu").value == 1
    # Which rule renews it is not said: no growth is guessed.
    assert _calc(renewing, "talep şu an 10. Sonraki turda üretim 9 olursa kaç ceza jetonu "
                           "alırım").value == 1
    # Two named: which one is the player's is not said either.
    assert _calc(renewing, "Kuzey'im, Güney arkadaşımda. talep şu an 10. Sonraki turda "
                           "üretim 9 olursa kaç ceza jetonu alırım").value == 1
    # The later round is not where the demand meets production.
    assert _calc(renewing, "Kuzey'im, talep şu an 10, üretim 9, sonraki turda kaç kart "
                           "çekerim").value == 5


def test_rounds_ahead():
    from hakem.chain import rounds_ahead
    used = ("emisyon", "emission")
    assert rounds_ahead("talebim şu an 11, bi sonraki raundun emisyonunda", used) == 1
    assert rounds_ahead("su an 3. roundun Local Phase'indeyiz, 5. roundun emission'inda",
                        used) == 2
    assert rounds_ahead("talebim 11, sonraki raundun emisyonunda", used) == 0  # no now
    assert rounds_ahead("şu an talebim 11, bu raundun emisyonunda", used) == 0
    # the later round must be where the quantity is used, and after now
    assert rounds_ahead("şu an talebim 11, sonraki raundda kaç kart çekerim", used) == 0
    assert rounds_ahead("şu an 5. rounddayız, 3. roundun emisyonunda", used) == 0
    assert rounds_ahead("şu an 1. tur, 99999999. turun emisyonunda", used) == 0
    # rounds counted from now, in digits or words, when what happens in that round follows
    assert rounds_ahead("talebim şu an 9, iki Büyüme Aşaması sonraki Emisyon Aşamasında",
                        used) == 2
    assert rounds_ahead("şu an 9, 3 raunt sonra emisyonda kaç jeton", used) == 3
    assert rounds_ahead("şu an 9, 3 raunt sonra kaç kart çekerim", used) == 0  # not used in
    assert rounds_ahead("şu an 9, 40 raunt sonra emisyonda", used) == 0
    assert rounds_ahead("şu an 9, 2 Büyüme Aşaması'ndan sonra emisyonda", used) == 2
    assert rounds_ahead("şu an 9, 2  raunt sonrasında emisyonda", used) == 2
    assert rounds_ahead("şu an 9, bi raunt sonra emisyonda", used) == 1
    # "daha geçince": when that many have passed
    assert rounds_ahead("şu an 8. iki Büyüme Aşaması daha geçince talep kaç olur, o "
                        "raundun emisyon aşamasında", used) == 2
    assert rounds_ahead("şu an 8, 2 raunt geçtikten sonra emisyonda", used) == 2
    # a rank, a decimal, a range, a sign, a digit of another script: no count; "on iki" is
    # twelve (not "iki"), more rounds than any game has
    for said in ("üçüncü raunttan sonraki", "2,5 raunt sonra", "2-3 raunt sonra",
                 "-2 raunt sonra", "on iki raunt sonra", "፩ raunt sonra"):
        assert rounds_ahead(f"şu an 2. rauntayız, {said} emisyonda", used) == 0, said


def test_updates_and_over_come_together(bant):
    folder = bant[0]
    with pytest.raises(FormulaError, match="updates"):
        _with_rules(folder, "Kuzey her tur talebini 2 artırır.",
                    RENEWING_RULES.replace('over = "rounds"\n', "", 1))


def test_a_gloss_between_a_name_and_its_number_is_no_name(real_corpus):
    # "toplam enerjim (temiz+kirli) 9": the 9 is the total, not the dirty energy.
    formulas = {f.id: f for f in Calculator.from_corpus(ROOT / "corpus", real_corpus).formulas
                if f.game == "daybreak"}
    question = "talebim 14 ama toplam enerjim (temiz+kirli) 9. Kaç CiC alırım"
    assert bind(question, formulas["cic-from-total"].quantities).values == {
        "demand": (14.0,), "total_energy": (9.0,)}
    assert "dirty" not in bind(question, formulas["cic-from-deficit"].quantities).values
    # An aside that states a number, stands before no number, or is one word (the name of
    # the number after it: "(kirli) 4") is no gloss.
    from hakem.bind_groups import glosses
    for said in ("talebim 11 (7 temiz 4 kirli) 3 jeton", "toplam enerjim 9 (temiz+kirli)",
                 "enerji (kirli) 4 ve (temiz) 5"):
        assert glosses(said, tokens(said)) == set()
    # A round's ordinal is no number of occasions: "5. roundda enerjim 9" is 9 energy.
    assert bind("talebim 11, 5. roundda toplam enerjim 9", formulas["cic-from-total"]
                .quantities).values == {"demand": (11.0,), "total_energy": (9.0,)}


def test_a_swap_of_dice_with_the_rival_is_worked_out_from_each_side_s_values(real_corpus):
    # Both sides' dice with their values, then which two are swapped: the player's total
    # after it, the rival's dice never counted as the player's.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("gig alanımda d6=5 ve d12=9 var, rakipte d8=7 ve d20=14. "
                                "Benim d6'yı rakibin d20'siyle takas ediyorum. Street "
                                "Cred'im kaç olur?", "cyberpunk-tcg")
    assert calc is not None and calc.value == 23
    assert calc.result.startswith("23 Street Cred: (5 + 9) Gig zarı değeri − 5 verilen zar "
                                  "+ 14 alınan zar = 23")
    quotes = " ".join(c.quote for c in calc.citations)
    assert "Gig takas etmek" in quotes and "değerler aynı kalıyor" in quotes
    # The value said as what a die shows, before it or after it; a d10's '0' is 10.
    for question, value in (
            ("d4=3 ve d10=8 var, fixer'da d20 duruyo. d4'ümü rakibin 5 gösteren d6'sıyla "
             "takas ediyorum. Street Cred'im kaç olur?", 13),
            ("Gig alanımda d4=3, d8=6, d12=6 var. Rakibin d10'u '0' gösteriyo. Benim d8'imi "
             "onun d10'uyla takas ediyorum. Yeni Street Cred'im kaç?", 19),
            ("bende d6=5 ve d10=8 var, rakipte d8=2 ve d20=14. benim d6 ile rakibin d20sini "
             "takas edersem street credim kac olur?", 22),
            # the player's own ending on the die wins over the rival named before it
            ("Gig alanımda d4=3 ve d10=8 var. Rakibin 5 gösteren d6'sı ile d4'ümü takas "
             "ettim. Street Cred'im kaç?", 13),
            ("gig alanimda d6=2 ve d12=9 var. rakibin d8=7 ile d6'mi takas ettim, street "
             "credim kac", 16)):
        calc = calculator.calculate(question, "cyberpunk-tcg")
        assert calc is not None and calc.value == value, question
    # A value said as where the die stands ("d20'si 17'de"), or in parentheses.
    calc = calculator.calculate("Gig alanımda sadece d8 (7) ve d12 (8) var. Rakibin d20'si "
                                "17'de. Kendi d8'imi onun d20'siyle takas edersem Street "
                                "Cred'im kaç olur?", "cyberpunk-tcg")
    assert calc is not None and calc.value == 25
    # (where it stood, "17'deydi", too; "17'den" is no place it stands)
    calc = calculator.calculate("Gig alanımda d8 (7) ve d12 (8) var. Rakibin d20'si 17'deydi. "
                                "Kendi d8'imi onun d20'siyle takas ettim, Street Cred'im kaç?",
                                "cyberpunk-tcg")
    assert calc is not None and calc.value == 25
    calc = calculator.calculate("Gig alanımda d8 (7) ve d12 (8) var. Rakibin d20'si 17'den "
                                "büyük. Kendi d8'imi onun d20'siyle takas ettim, Street "
                                "Cred'im kaç?", "cyberpunk-tcg")
    assert calc is None or calc.value != 25
    # A die said where it does not count (the fixer area) is no die of either side.
    calc = calculator.calculate("gig alanımda d4=3 ve d10=8 var, fixer'da d20=11. d4'ümü "
                                "rakibin 5 gösteren d6'sıyla takas ediyorum. Street Cred'im "
                                "kaç olur?", "cyberpunk-tcg")
    assert calc is not None and calc.value == 13
    # Not read, so no number (the plain total would count the rival's dice): values said
    # without the dice named, two swaps, a die named twice, the rival's total asked.
    for question in (
            "benim giglerim 4 ve 8, rakibinkiler 6 ve 10. benim 4'ümü onun 10'uyla takas "
            "edersem street cred'im kaç olur?",
            "gig alanımda d6=5 ve d12=9 var, rakipte d8=7 ve d20=14. Benim d6'yı rakibin "
            "d20'siyle takas, sonra d12'mi rakibin d8'iyle takas ediyorum. Street Cred'im kaç?",
            "gig alanımda d6=3, d6=5, d12=9 var, rakipte d20=14. d12'yi rakibin d20'siyle "
            "takas ediyorum. Street Cred'im kaç olur?",
            "gig alanımda d6=5 ve d12=9 var, rakipte d8=7 ve d20=14. Benim d6'yı rakibin "
            "d20'siyle takas ediyorum. Rakibin Street Cred'i kaç olur?",
            # "d8mi": which die is asked, not the player's ending (the rival's d8 and d20)
            "gig alanımda d6=5 var, rakipte d8=7 ve d20=14. rakibin d8mi d20si mi takas "
            "edilsin, street cred'im kaç olur?"):
        calc = calculator.calculate(question, "cyberpunk-tcg")
        assert calc is None or calc.value is None, question


def test_exchange_names_three_quantities_and_needs_the_swap_said(bant):
    rules = '''
[[formula]]
id = "swap"
say = "takastan sonra"
unit = "puan"
moment = "any"
expr = "soldiers - red + blue"
exchange = ["soldiers", "red"]
needs = ["takas"]
quote = "Her oyuncu turunda 1 temel zar"
'''
    with pytest.raises(FormulaError, match="exchange"):
        _with_rules(bant[0], "", rules)


def test_a_die_s_ending_without_an_apostrophe_is_dropped():
    assert [t.text for t in tokens("rakibin d20sini, d6yı")] == ["rakibin", "d20", ",", "d6"]
    assert [t.text for t in tokens("d6, d8")] == ["d6", ",", "d8"]


def test_a_case_denied_after_the_noun_it_names():
    from hakem.mentions import said_not_denied
    assert not said_not_denied(tokens("Deney C türbini yok"), "deney c")
    assert not said_not_denied(tokens("Deney C yok"), "deney c")
    assert said_not_denied(tokens("Deney C var, kömür yok"), "deney c")
    assert said_not_denied(tokens("Deney C 2 türbin yok"), "deney c")  # a number between
    assert said_not_denied(tokens("Deney C kömür yok ama uranyum var"), "deney c")
    assert said_not_denied(tokens("Deney C aktif değil mi"), "deney c")  # asks, no denial
    from hakem.mentions import all_said
    assert not all_said(tokens("legendlar dahil midir"), ("dahil",))


def test_drawdown_removes_from_the_thermometer_what_absorption_has_left(real_corpus):
    # 10 + 5 + 1 absorb 14 cubes with 2 to spare: Drawdown, and 2 come off the thermometer
    # (not the 0 cubes that move to it).
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("Son Emisyonlar'a toplam 14 küp geldi, tahtada 10 ağaç, 5 "
                                "okyanus ve 1 DAC var. Drawdown olur mu, olursa termometreden "
                                "kaç küp sökeriz?", "daybreak")
    assert calc is not None and calc.value == 2 and "Geri Çekilme (Drawdown) olur" in calc.result
    # Asked what moves to the thermometer, the cubes left after absorption.
    calc = calculator.calculate("Son Emisyonlar'a toplam 14 küp girdi; tahtada 9 Ağaç, 3 "
                                "Okyanus ve 1 DAC var. Emilimden sonra termometreye kaç küp "
                                "gider?", "daybreak")
    assert calc is not None and calc.value == 1


def test_hunger_from_the_food_needed_and_the_stock(real_corpus):
    # "3 yiyecek lazım, stokta 1": 2 unmet, 2 hunger tokens; with the waste pile (21 + 2
    # tokens: 2), morale 6 falls to 2.
    from hakem.sums import work_out
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = work_out(calculator, "moral 6, daha önce açlık jetonu yok. Bu koloni fazında 3 "
                    "yiyecek lazım ama stokta 1 var. Atık yığınında da 21 kart var. Açlık ve "
                    "atık adımlarından sonra moral kaç olur?", "dead-of-winter")
    assert calc is not None and calc.value == 2
    assert "(2 Açlık Jetonu: 3 gereken yiyecek − 1 yiyecek = 2)" in calc.result


def test_energy_said_alone_is_the_total_energy(real_corpus):
    # "9 demand'e karşı 6 enerjim": 3 short, 6 + 3 = 9 tokens, two cards fewer.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("6 crisis tokenim var, bu round 9 demand'e karşı 6 enerjim var. "
                                "sonraki Local Phase'de kaç kart çekicem?", "daybreak")
    assert calc is not None and calc.value == 3
    # Clean and dirty energy named are still each their own.
    calc = calculator.calculate("enerji talebim 15, 6 temiz 5 kirli enerji üretiyorum. Kaç "
                                "Krizde Topluluk jetonu alırım?", "daybreak")
    assert calc is not None and calc.value == 4


def test_the_rank_of_the_one_asked_about(real_corpus):
    # "birinci olan kaç puan alır": the rank the question asks the points of.
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    calc = calculator.calculate("4 altıgenli geniş yerleşimde sadece iki oyuncu varsa birinci "
                                "olan kaç puan alır?", "rebirth")
    assert calc is not None and calc.value == 17
    calc = calculator.calculate("büyük yerleşimde 3. olan kaç puan alıyo", "rebirth")
    assert calc is not None and calc.value == 0


def test_a_case_asked_about_is_not_said(real_corpus):
    # "Legend'lar dahil mi": whether they are included is the question, so the total that
    # includes them is no answer (it led "43 kart" for the main deck's minimum of 40).
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    assert calculator.calculate("main deck en az kaç kart olmalı, legendlar buna dahil mi?",
                                "cyberpunk-tcg") is None
    calc = calculator.calculate("legendlar dahil toplam en az kaç kart", "cyberpunk-tcg")
    assert calc is not None and calc.value == 43


def test_a_needed_phrase_that_opens_with_a_number_is_said_in_digits_or_words(real_corpus):
    from hakem.mentions import all_said
    for said in ("2 altigenli yerleşim", "iki altıgenli yerleşim"):
        assert all_said(tokens(said), ("orta|2 altıgen",)), said
    assert not all_said(tokens("3 altıgenli yerleşim"), ("2 altıgen",))
    assert not all_said(tokens("ikinci altıgene koydum"), ("2 altıgen",))  # a rank
    # short words as said: "ikisi de benden önde" is not "ikisini de ben"
    assert not all_said(tokens("rakiplerin ikisi de benden önde"), ("ikisini de ben",))
    assert all_said(tokens("ikisini de ben doldurdum"), ("ikisini de ben",))
    # The medium settlement filled alone (every tile "da benim"), its port's point on top.
    from hakem.sums import work_out
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    shared = calculator.calculate("orta yerleşimi tamamladım, en çok etki de benim, kaç puan",
                                  "rebirth")
    assert shared is None or shared.value != 8  # "etki de benim" is no settlement alone
    calc = work_out(calculator, "iskoçyada liman sembollü boşluğa yerleşim karosu koydum, bu "
                    "2 altıgenli orta yerleşimin son boşluğu ve iki karo da benim. bu hamleden "
                    "toplam kaç puan?", "rebirth")
    assert calc is not None and calc.value == 9


def test_a_phrase_with_digits_names_the_number_said_with_its_noun():
    # "2 altıgenli": the two-hex settlement, told apart from the three-hex one by its number
    said = tokens("2 altıgenli yerleşimin son boşluğuydu")
    assert matched(said, ("2 altıgenli",)) == 1 and matched(said, ("3 altıgenli",)) == 0
    # a number alone is no phrase: "+1" is not said by every 1
    assert matched(tokens("1 kart çektim"), ("+1",)) == 0


@pytest.mark.parametrize(("question", "game", "value"), [
    # the settlement told by its size, the rank said of oneself, and the port's point
    ("liman sembollü boşluğa yerleşim karosu koydum; bu, 2 altıgenli yerleşimin son "
     "boşluğuydu ve yerleşimde birinci benim, rakip ikinci. Bu hamleden toplam kaç puan "
     "alırım?", "rebirth", 6),
    # the two-player sprawling settlement only when two are said to be in it
    ("İrlanda'da 4 altıgenli yerleşim doldu, yerleşimde 3 oyuncu var, sadece 1 karom var ve "
     "ben birinciyim, kaç puan?", "rebirth", 12),
    ("İrlanda'da 4 altıgenli geniş yerleşim doldu, içinde sadece 2 oyuncu var, birinci benim "
     "kaç puan alırım?", "rebirth", 17),
    # a tile joining two clusters scores the joined cluster
    ("yeni enerji tarlası karom, 3'lük ve 2'lik iki enerji tarlası kümemi birleştirdi. Kaç "
     "puan alırım?", "rebirth", 6),
    # each "birinde" a King's Day; a tie for first scores as first; the '0' token costs 3
    ("3 Kral Günü oldu: birinde en ileri bendim, birinde ikinci en ileri bendim, birinde de "
     "başka biriyle en önde berabereydik. Bir de 0 alanında 1 belirtecim var. Bunlardan net "
     "kaç ZP?", "nucleum", 11),
])
def test_the_players_own_scoring_moves_worked_out_on_the_real_rules(real_corpus, question,
                                                                     game, value):
    worked = work_out(Calculator.from_corpus(ROOT / "corpus", real_corpus), question, game)
    assert worked is not None and worked.value == value

def test_two_numbers_asked_in_turn_carry_the_first_into_the_second(real_corpus):
    # the demand two Growth Phases on is the one that round's Emissions check meets, and
    # the step is shown once, as the first answer
    calculator = Calculator.from_corpus(ROOT / "corpus", real_corpus)
    both = work_out(calculator, "Çin'im, şu an enerji talebim 8. İki Büyüme Aşaması daha "
                    "geçince talep kaç olur, o raundun emisyon aşamasında toplam enerjim 9 ise "
                    "kaç krizde topluluk jetonu alırım?", "daybreak")
    assert both is not None and both.value == 12
    assert "3 Krizde Topluluk jetonu: 12 Enerji Talebi − 9" in both.result
    assert both.result.count("8 Enerji Talebi + 2") == 1
