"""The structured-facts table: exact quotes, exact numbers, ranges, coverage of the corpus."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from hakem.corpus import load_corpus
from hakem.errors import FactsError
from hakem.facts import (
    coverage,
    excuse_matches,
    fact_numbers,
    load_excused,
    load_facts,
    read_sqlite,
    write_sqlite,
)
from hakem.factsearch import search_facts
from hakem.numbers import counts_in, numbers_in, numeric_sentences
from hakem.phrasing import fact_sentence
from hakem.text import fold, words

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(CORPUS)


@pytest.fixture(scope="module")
def facts(corpus):
    return load_facts(CORPUS, corpus)


def by_id(facts, game, fid):
    return next(f for f in facts if f.game == game and f.id == fid)


# ---------------------------------------------------------------- the table itself

def test_every_quote_is_exactly_at_its_offsets(corpus, facts):
    assert {f.game for f in facts} == set(corpus.ids)
    for f in facts:
        assert corpus.game(f.game).text[f.start : f.end] == f.quote, f.id


def test_every_fact_has_a_number_and_a_sane_range(facts):
    for f in facts:
        # "no upper limit", "no fixed number of rounds": a rule about a number, none to give
        assert fact_numbers(f) or re.search(r"sınır(sız| yok)|yoktur", f.effect), f.id
        if f.min is not None and f.max is not None:
            assert f.min <= f.max, f.id


def test_fact_numbers_are_stated_in_the_quote(facts):
    # Never invent a number. A value is stated in its quote: as digits (also inside a label
    # like "d20"), as a number word, or as a word numbers_in deliberately does not read
    # ("bir kez", "tek", "solo"). A range bound may be the integer next to a stated one:
    # "moral > 0" is min 1, the band "4+" that ends where "8+" starts is max 7.
    one_words = {"bir", "birden", "tek", "solo"}
    for f in facts:
        stated = set(numbers_in(f.quote)) | {float(d) for d in re.findall(r"\d+", f.quote)}
        if one_words & {fold(w) for w in words(f.quote)}:
            stated.add(1.0)
        if f.value is not None:
            assert f.value in stated, (f.id, f.value, f.quote)
        for bound in (f.min, f.max):
            if bound is not None:
                assert {bound, bound - 1, bound + 1} & stated, (f.id, bound, f.quote)


def test_keywords_are_words_the_text_uses(corpus, facts):
    for f in facts:
        text_words = {fold(w) for w in words(corpus.game(f.game).text)}
        for kw in f.keywords:
            for tok in (fold(t) for t in words(kw) if not t[:1].isdigit()):
                assert any(w.startswith(tok) or (len(tok) >= 5 and w[:5] == tok[:5])
                           for w in text_words), (f.id, kw)


def test_sections_come_from_the_chunker(facts):
    assert by_id(facts, "daybreak", "cic-8-11").section.startswith("Oyun Akışı")
    assert sum(1 for f in facts if f.section) > len(facts) * 0.8


def test_coverage_is_complete(corpus, facts):
    excused = load_excused(CORPUS)
    report = coverage(corpus, facts, excused)
    listing = "\n".join(f"  {g} @{off}: {text}" for g, off, text in report.uncovered)
    print(f"fact coverage: {report.covered} covered + {report.excused} excused "
          f"of {report.total} numeric sentences = {report.ratio:.0%}")
    assert report.total > 250
    assert not report.uncovered, f"numeric sentences with no fact or excuse:\n{listing}"
    assert report.ratio == 1.0


def test_every_excuse_names_a_numeric_sentence_no_fact_covers(corpus, facts):
    # A stale excuse (text changed, or a fact now covers it) must not linger.
    for e in load_excused(CORPUS):
        game = corpus.game(e.game)
        spans = [(f.start, f.end) for f in facts if f.game == e.game]
        hits = [(s, t) for s, t in numeric_sentences(game.text)
                if excuse_matches(e.quote, game.text[s:t])
                and not any(a < t and s < b for a, b in spans)]
        assert hits, f"excuse names no uncovered numeric sentence: {e}"


# ---------------------------------------------------------------- loading errors

def _tmp_corpus(tmp_path: Path, facts_toml: str, game: str = "daybreak") -> Path:
    root = tmp_path / "corpus"
    (root / "facts").mkdir(parents=True)
    shutil.copy(CORPUS / "daybreak.txt", root / "daybreak.txt")
    (root / "games.toml").write_text('[daybreak]\nname = "Daybreak"\n', encoding="utf-8")
    (root / "facts" / f"{game}.toml").write_text(facts_toml, encoding="utf-8")
    return root


FACT = """[[fact]]
id = "{id}"
subject = "Krizde Topluluk jetonu"
unit = "jeton"
min = 12
value = 12
effect = "oyunu kaybedersiniz"
quote = "{quote}"
{extra}
"""


def test_missing_quote_is_an_error_naming_the_fact(tmp_path):
    root = _tmp_corpus(tmp_path, FACT.format(id="lose", quote="13+ jeton: kaybedersiniz", extra=""))
    with pytest.raises(FactsError, match=r"lose.*not found"):
        load_facts(root, load_corpus(root))


def test_ambiguous_quote_is_an_error_unless_occurrence_given(tmp_path):
    quote = "Aynı anda en fazla 4 Küresel Proje oyunda olabilir."
    root = _tmp_corpus(tmp_path, FACT.format(id="gp", quote=quote, extra=""))
    with pytest.raises(FactsError, match=r"gp.*ambiguous"):
        load_facts(root, load_corpus(root))
    root2 = _tmp_corpus(tmp_path / "b", FACT.format(id="gp", quote=quote, extra="occurrence = 2"))
    corpus = load_corpus(root2)
    (fact,) = load_facts(root2, corpus)
    text = corpus.game("daybreak").text
    assert fact.start == text.rindex(quote) and text[fact.start : fact.end] == quote


def test_unknown_game_and_malformed_fields_are_errors(tmp_path):
    root = _tmp_corpus(tmp_path, FACT.format(id="x", quote="12+ jeton", extra=""), game="chess")
    with pytest.raises(FactsError, match="chess"):
        load_facts(root, load_corpus(root))
    bad = FACT.format(id="bad-min", quote="12+ jeton: Oyunu", extra="").replace("min = 12",
                                                                                 'min = "on iki"')
    root2 = _tmp_corpus(tmp_path / "b", bad)
    with pytest.raises(FactsError, match=r"bad-min.*min"):
        load_facts(root2, load_corpus(root2))


# ---------------------------------------------------------------- numbers

@pytest.mark.parametrize(("text", "expected"), [
    ("12+ jeton: oyunu kaybedersiniz", [12]),
    ("2,0°C'ye (8 Sıcaklık Bandı)", [2.0, 8]),
    ("Enerji Talebi 30'u aştığında", [30]),
    ("her bant 0,1°C", [0.1]),
    ("4-7 jeton", [4, 7]),
    ("EŞLEŞMEYEN her kart -1 puan", [-1]),
    ("on iki yüzlü ve yirmi yüzlü zar", [12, 20]),
    ("dört yüzlü, altı yüzlü", [4, 6]),
    ("dort kart, uc zar, bes puan, alti jeton", [4, 3, 5, 6]),
    ("2 oyuncuda üçü", [2, 3]),
    ("bir kart çek", []),  # "bir" is the article far more often than the number
    ("kartın altına sıkıştır, ona ver, ön yüzü, karonun bir ucu", []),
    ("A7 teknolojisi ve d20", []),  # labels, not quantities
    ("3 ve altı gelirse", [3]),
    ("on the board", []),
    ("talebim on. uc buyume", [10, 3]),  # a compound only when nothing stands between
    ("on, iki", [10, 2]),
])
def test_numbers_in(text, expected):
    assert numbers_in(text) == [float(x) for x in expected]


def test_numbers_are_exact_never_fuzzy():
    assert 2.0 not in numbers_in("12+ jeton")
    assert numbers_in("12") == [12.0] and numbers_in("120 kart") == [120.0]


# ---------------------------------------------------------------- SQLite

def test_sqlite_round_trip(tmp_path, facts):
    path = tmp_path / "facts.sqlite"
    write_sqlite(facts, path)
    assert read_sqlite(path) == facts
    write_sqlite(facts[:3], path)  # overwriting replaces
    assert read_sqlite(path) == facts[:3]


def test_sqlite_missing_or_foreign_file_is_an_error(tmp_path):
    with pytest.raises(FactsError):
        read_sqlite(tmp_path / "nope.sqlite")
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 10)
    with pytest.raises(FactsError):
        read_sqlite(junk)


# ---------------------------------------------------------------- search

def test_range_picks_the_penalty_band(facts):
    hits = search_facts(facts, "9 tane krizde topluluk jetonum var, kaç kart az çekerim?",
                        "daybreak")
    top = hits[0].fact
    assert (top.min, top.max, top.value) == (8, 11, 2)
    hits = search_facts(facts, "5 krizde topluluk jetonum var", "daybreak")
    assert (hits[0].fact.min, hits[0].fact.max) == (4, 7)
    hits = search_facts(facts, "13 krizde topluluk jetonu olursa ne olur", "daybreak")
    assert hits[0].fact.min == 12


def test_a_band_asked_by_its_effect_is_that_band(facts):
    # "2 kart" is what the band gives, not a count of tokens outside it
    for question, low in [("kaç krizde topluluk jetonu olunca 2 kart eksik çekmeye başlıyoruz",
                           8),
                          ("kac krizde topluluk jetonum olunca her raunt 1 kart eksik cekiyorum",
                           4)]:
        assert search_facts(facts, question, "daybreak")[0].fact.min == low, question
    # a count of what the range itself counts, named another way, is still compared with it
    hits = search_facts(facts, "aynı anda 5 küresel proje olabilir mi", "daybreak")
    assert hits[0].in_range is False
    # what a player-count fact gives, named in its subject too, is still what it gives:
    # "6 ağaç" is no player count out of the solo range
    hits = search_facts(facts, "solo oyunda 6 ağaç mı konur", "daybreak")
    assert hits[0].fact.id == "solo-trees" and hits[0].in_range is not False


def test_player_count_selects_the_setup(facts):
    hits = search_facts(facts, "3 kişi oynuyoruz, standart kurulumda kaç ağaç konur?", "daybreak")
    assert hits[0].fact.value == 16
    hits = search_facts(facts, "2 oyunculu nucleum'da kaç bitiş koşulu gerekir", "nucleum")
    assert hits[0].fact.value == 3
    # "kişilik" counts players too: the 4-player band size is in range, by that word alone
    hits = search_facts(facts, "4 kişilik oyunda bu durumda bir Sıcaklık Bandı kaç karbon küpü",
                        "daybreak")
    assert hits[0].in_range is True and hits[0].fact.min == 4


def test_no_diacritics_and_game_none(facts):
    hits = search_facts(facts, "kac jetonda kaybediyoruz krizde topluluk", None)
    assert hits and 12 in fact_numbers(hits[0].fact) and hits[0].fact.game == "daybreak"
    hits = search_facts(facts, "ana deste en fazla kac kart", None)
    assert 50 in fact_numbers(hits[0].fact)


def test_unrelated_question_gives_nothing(facts):
    assert search_facts(facts, "Bugün akşam yemeğinde makarna mı pişirelim, pilav mı?", None) == []
    assert search_facts(facts, "kaç?", "daybreak") == []
    assert search_facts(facts, "krizde topluluk", "no-such-game") == []


def test_limit_and_order(facts):
    hits = search_facts(facts, "kale puan", "rebirth", limit=3)
    assert 0 < len(hits) <= 3
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    assert all(h.fact.game == "rebirth" for h in hits)


# ---------------------------------------------------------------- wording

def test_fact_sentence(facts):
    assert fact_sentence(by_id(facts, "daybreak", "cic-12")) == (
        "12 veya daha fazla Krizde Topluluk jetonu: oyunu hemen kaybedersiniz")
    assert fact_sentence(by_id(facts, "daybreak", "cic-8-11")) == (
        "8–11 Krizde Topluluk jetonu: her rauntta 2 daha az kart çek")
    castle = fact_sentence(by_id(facts, "rebirth", "castle-points"))
    assert castle.startswith("5 puan") and ".0" not in castle
    assert fact_sentence(by_id(facts, "daybreak", "band-degrees")).startswith("0,1 °C")
    assert fact_sentence(by_id(facts, "cyberpunk-tcg", "copy-limit")).startswith("en fazla 3")


def test_rates_are_worked_out_for_the_count_the_question_states(facts):
    food = search_facts(facts, "kolonide 7 hayatta kalan var, kaç yiyecek harcanır?",
                        "dead-of-winter", limit=1)[0]
    assert food.fact.per == 2 and food.fact.rounding == "up"
    assert food.applied == (7, 4)  # her 2 hayatta kalan için 1, yukarı yuvarla: ceil(7/2)
    waste = search_facts(facts, "atık yığınında 25 kart var, moral kaç düşer?",
                         "dead-of-winter", limit=1)[0]
    assert waste.applied == (25, 2)  # her 10 kart için 1, aşağı yuvarla
    # "moral 1 düşer" states the rate's result, not a count of cards: nothing to work out
    rule = search_facts(facts, "her kaç kart için moral 1 düşer?", "dead-of-winter", limit=1)[0]
    assert rule.fact.id == waste.fact.id and rule.applied is None
    assert 10 in fact_numbers(rule.fact)


def test_rate_fields_round_trip_through_sqlite(facts, tmp_path):
    write_sqlite(facts, tmp_path / "f.sqlite")
    back = {f.id: f for f in read_sqlite(tmp_path / "f.sqlite") if f.game == "dead-of-winter"}
    assert back["food-consumption"].per == 2 and back["food-consumption"].rounding == "up"


def test_facts_are_also_matched_by_meaning(facts):
    import numpy as np

    pool = [f for f in facts if f.game == "rebirth"]
    vectors = np.eye(len(pool), dtype=np.float32)  # each fact its own direction
    target = 5
    hits = search_facts(pool, "zzz qqq", "rebirth", limit=3,
                        query_vector=vectors[target], fact_vectors=vectors)
    assert hits and hits[0].fact.id == pool[target].id  # no shared word, found by meaning
    assert search_facts(pool, "zzz qqq", "rebirth") == []  # words alone find nothing


def test_counts_leave_out_ranks():
    assert counts_in("ikinci olan 3 kart alır") == [3]
    assert counts_in("8. teknoloji ne işe yarar, 1. sıra kaç puan") == []
    assert counts_in("2 kart eksik, on iki jeton, 2,5 puan.") == [2, 12, 2.5]
    assert counts_in("moral 7. Açlık") == [7]  # a sentence's end, no rank
    assert counts_in("üç Kral Günü'nün ikisinde, dördünde") == [3, 2, 4]  # "in two of them"
