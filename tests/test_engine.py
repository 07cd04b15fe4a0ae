import numpy as np
import pytest

from hakem.detect import find_games, unknown_names
from hakem.errors import UnknownGame
from hakem.text import casefold_tr


def test_game_from_request_restricts_passages(tiny_engine):
    answer = tiny_engine.ask("kaç zar", game="kale-oyunu")
    assert answer.game == "kale-oyunu" and answer.game_source == "request"
    assert {h.chunk.game for h in answer.passages} == {"kale-oyunu"}


def test_game_named_in_question_with_typo_or_suffix(tiny_engine):
    games = tiny_engine.corpus.games
    assert find_games("Kale Oyununda kale kaç puan?", games)[0].game == "kale-oyunu"
    assert find_games("zar savasinda can", games)[0].game == "zar-savasi"
    assert find_games("KO'da kale", games)[0].game == "kale-oyunu"
    assert find_games("Zar Savşı kuralları", games)[0].game == "zar-savasi"
    # a typo and a suffix run on together
    assert find_games("zar savsında can", games)[0].game == "zar-savasi"
    assert find_games("hiçbir oyun adı yok", games) == []


def test_unknown_game_names_are_spotted(tiny_engine):
    vocab = set(tiny_engine.retriever.lexical.vocab.restore)
    assert unknown_names("Catan'da kaç puan?", vocab, tiny_engine.corpus.games) == ["Catan"]
    assert unknown_names("Kale Oyunu'nda kaç puan?", vocab, tiny_engine.corpus.games) == []
    # a friend joined to "bende" in the same case is a person, not a game
    games = tiny_engine.corpus.games
    assert unknown_names("en çok puan bende ve Ayşe'de, kim kazanır?", vocab, games) == []
    assert unknown_names("Mert'te ve bende 3 kale var", vocab, games) == []
    assert unknown_names("bende 3 kale var, Catan'da kim kazanır?", vocab, games) == ["Catan"]


def test_query_without_turkish_letters_finds_the_rule(tiny_engine):
    for mode in ("lexical", "hybrid"):
        formal = tiny_engine.ask("Canı 0'a düşerse oyunu kaybeder mi?", "zar-savasi", mode=mode)
        folded = tiny_engine.ask("CANI 0'A DUSERSE OYUNU KAYBEDER MI", "zar-savasi", mode=mode)
        assert formal.passages[0].chunk.id == folded.passages[0].chunk.id
        assert "0'a düşerse" in folded.passages[0].chunk.text


def test_the_dense_model_reads_a_query_typed_without_turkish_letters_as_spelt(tiny_engine,
                                                                              monkeypatch):
    # The embedder is given "ışıklı şehirler" for "isikli sehirler": the corpus's spelling.
    seen: list[str] = []
    embedder = tiny_engine.retriever.embedder

    def query(text: str) -> np.ndarray:
        seen.append(text)
        return embedder.query(text)

    monkeypatch.setattr(tiny_engine.retriever, "embedder",
                        type("Spy", (), {"query": staticmethod(query)})())
    tiny_engine.retriever.search("Isikli sehirler kac oyuncu", "kale-oyunu")
    assert seen == ["Işıklı şehirler kac oyuncu"]  # "kac" is no word of this corpus


def test_answer_span_is_a_sentence_inside_the_top_passages(tiny_engine):
    answer = tiny_engine.ask("Kale Oyunu'nda her kale kaç puan kazandırır?")
    assert not answer.abstained and answer.answer_span is not None
    text = tiny_engine.corpus.game(answer.answer_span.game).text
    sentence = text[answer.answer_span.start : answer.answer_span.end]
    assert "3 puan" in sentence
    assert sentence in answer.answer
    assert answer.facts and answer.facts[0].fact.id == "kale-puan"


def test_unknown_game_in_question_abstains(tiny_engine):
    answer = tiny_engine.ask("Catan'da en uzun yol kaç puan?")
    assert answer.abstained and answer.answer_span is None
    assert "Catan" in answer.answer


def test_unknown_game_id_is_an_error(tiny_engine):
    with pytest.raises(UnknownGame):
        tiny_engine.ask("kale", game="satranc")


def test_number_for_another_case_abstains_and_shows_what_is_known(tiny_engine):
    known = tiny_engine.ask("2 oyunculu Kale Oyunu'nda kaç karo ile başlanır?")
    assert not known.abstained and "12" in known.answer
    other = tiny_engine.ask("4 oyunculu Kale Oyunu'nda kaç karo ile başlanır?")
    assert other.abstained and other.answer_span is None
    assert "12" in other.answer  # it says what the rules do give
    assert other.facts and other.facts[0].in_range is False


def test_the_answerability_decision_reads_the_model_and_the_unknown_game_rule():
    from conftest import tiny_model

    from hakem.answer import Evidence
    from hakem.answerability import decide

    weak = Evidence(dense=0.70, coverage=0.05, unknown_names=(), out_of_range=False)
    strong = Evidence(dense=0.70, coverage=0.6, unknown_names=(), out_of_range=False,
                      sentence_coverage=0.5, terms=frozenset({"kale"}))
    assert decide(weak, tiny_model()).startswith("weak match")
    assert decide(strong, tiny_model()) == ""
    named = Evidence(dense=0.95, coverage=0.9, unknown_names=("Catan",), out_of_range=False)
    assert "Catan" in decide(named, tiny_model())


def test_a_picked_game_is_never_overridden_by_a_guessed_unknown_name(tiny_engine):
    picked = tiny_engine.evidence("Zorbax'ta kale kaç puan kazandırır?", game="kale-oyunu")[2]
    assert picked.unknown_names == ()
    answer = tiny_engine.ask("Zorbax'ta kale kaç puan kazandırır?", game="kale-oyunu")
    assert not answer.abstained and "3 puan" in answer.answer
    unpicked = tiny_engine.ask("Zorbax'ta kale kaç puan kazandırır?")
    assert unpicked.abstained and "Zorbax" in unpicked.answer
    # a known game named in the question wins over the unknown-looking word
    both = tiny_engine.ask("Kale Oyunu'nda Catan'daki gibi kale kaç puan?")
    assert not both.abstained


def test_typo_of_a_corpus_word_is_not_an_unknown_game(tiny_engine):
    vocab = tiny_engine.retriever.lexical.vocab
    games = tiny_engine.corpus.games
    assert unknown_names("Kalesii'nde kaç puan?", set(vocab.restore), games,
                         vocab.correct) == []


def test_decomposed_unicode_question_is_read_like_the_composed_one(tiny_engine):
    import unicodedata

    composed = "KALE OYUNU'NDA İKİ KALE KAÇ PUAN?"
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    a, b = tiny_engine.ask(composed), tiny_engine.ask(decomposed)
    assert a.game == b.game == "kale-oyunu"
    assert [h.chunk.id for h in a.passages] == [h.chunk.id for h in b.passages]


@pytest.mark.parametrize("k", [0, -1, 21])
def test_k_out_of_range_is_refused_by_the_engine(tiny_engine, k):
    from hakem.errors import InvalidRequest

    with pytest.raises(InvalidRequest, match="k must be between 1 and 20"):
        tiny_engine.ask("kale", k=k)


def test_answer_never_is_a_bare_sub_heading(tiny_engine):
    answer = tiny_engine.ask("Kale Oyunu'nda zar var mı?", game="kale-oyunu")
    assert not answer.abstained and answer.answer_span is not None
    text = tiny_engine.corpus.game("kale-oyunu").text
    assert text[answer.answer_span.start : answer.answer_span.end] != "Zar (Die)"


@pytest.mark.parametrize("question", ["Catan oyununda en uzun yol kaç puan?",
                                      "In Wingspan, how many eggs fit on a bird?",
                                      "Catan'da en uzun yol kaç puan?"])
def test_names_of_games_not_in_the_corpus_in_several_forms(tiny_engine, question):
    vocab = tiny_engine.retriever.lexical.vocab
    assert unknown_names(question, vocab.restore, tiny_engine.corpus.games, vocab.correct)


@pytest.mark.parametrize("question", ["hangi oyunda kale var?", "Kale Oyunu'nda kaç puan?",
                                      "In Kale Oyunu, how many points?",
                                      # a friend's name in a case other than the locative
                                      "Ayşe'nin kalesi kaç puan?", "Mert'in 3 kalesi var",
                                      "Ayşe'yle berabere kaldık, kale kaç puan?"])
def test_ordinary_words_are_not_taken_for_game_names(tiny_engine, question):
    vocab = tiny_engine.retriever.lexical.vocab
    assert unknown_names(question, vocab.restore, tiny_engine.corpus.games, vocab.correct) == []


def test_an_faq_verdict_leads_only_the_answer_to_a_yes_no_question(tiny_engine):
    answer = tiny_engine.ask("Zar Savaşı'nda yere düşen zar yeniden atılabilir mi?")
    assert answer.answer_span is not None
    text = tiny_engine.corpus.game(answer.answer_span.game).text
    sentence = text[answer.answer_span.start : answer.answer_span.end]
    assert "yeniden atılamaz" in sentence  # the rule sentence itself is cited
    assert answer.answer.startswith("Hayır.")  # the FAQ answer that is cited says so
    how = tiny_engine.ask("Zar Savaşı'nda yere düşen zar ne olur?")
    assert not how.answer.startswith("Hayır")  # a verdict answers a yes/no question only


@pytest.mark.parametrize(("question", "name"), [
    ("azulda kaç puan alınır", "azul"),  # suffix run on, lowercase
    ("abi azul da kaç puan var", "azul"),  # suffix typed apart, after a greeting
    ("monopolide kaç zar atılır", "monopoli"),
    ("zombicide oyununda kaç zar var", "zombicide"),  # lowercase, before "oyununda"
    ("catan'da kaç puan", "catan"),  # "çatan" is Turkish, but Turkish puts no apostrophe
])
def test_a_lowercase_foreign_name_opening_the_question_is_an_unknown_game(tiny_engine, question,
                                                                          name):
    answer = tiny_engine.ask(question)
    assert answer.abstained and name in casefold_tr(answer.answer)
    assert name.split()[0].capitalize() in answer.answer  # shown as a name: "Azul"


@pytest.mark.parametrize("question", [
    "masada kaç zar olur",  # a Turkish word with the same suffix
    "bugun de kac zar atiyoruz",  # a Turkish word typed without Turkish letters
    "kalede kaç puan var",  # a word of the rules
    "setupta kaç kart dağıtılır",  # an English game term players use ("setup" → kurulum)
    "Inside a round, how many dice do we roll?",  # an English question
    "SIMDIKI turda kaç zar atılır",  # all caps without Turkish letters: "şimdiki"
    "kale alanımda d6'nın değeri kaç",  # a word of the rules first; "d6'nın" is a die
    # English words are never names, with or without a suffix (they are game terms)
    "Growth Phase'de kaç kart çekilir",
    "Deck'te kaç kart kalır",
    "Opponent kaç zar atar",
    "abi root ta kaç aksiyon var",
    "Turn'umde kaç zar atarım",
    "castlelar haric elimde kac puan var",  # a rules term with a Turkish ending run on
])
def test_a_turkish_word_opening_the_question_is_not_a_game_name(tiny_engine, question):
    assert tiny_engine.evidence(question)[2].unknown_names == ()


def test_fact_first_moves_the_passage_that_states_the_fact_to_the_top(tiny_engine):
    from dataclasses import replace

    from hakem.retrieve import fact_first

    retrieval, facts, _ = tiny_engine.evidence("Kale Oyunu'nda kaç karo ile başlanır?")
    fact = next(f.fact for f in facts if f.fact.id == "karo-2p")
    holder = next(h for h in retrieval.hits if h.chunk.start <= fact.start < h.chunk.end)
    others = tuple(h for h in retrieval.hits if h is not holder)
    assert len(others) >= 2
    pool = replace(retrieval, hits=(*others, holder))
    # among the first k: first; retrieved deeper: second, the top passage keeps its place
    assert fact_first(pool, fact, len(pool.hits)).hits == (holder, *others)
    assert fact_first(pool, fact, 2).hits == (others[0], holder)
    # not retrieved, or no fact: the first k as they were
    assert fact_first(replace(retrieval, hits=others), fact, 2).hits == others[:2]
    assert fact_first(pool, None, 2).hits == others[:2]


def test_a_label_ending_in_a_colon_keeps_the_sentence_it_announces():
    from hakem.lists import with_what_it_announces
    from hakem.text import Span

    text = "Giriş. Kral Günü (King's Day):\n- Alan boşalınca tetiklenir. Sonra başka şey."
    label = Span(7, text.index("\n"))
    assert text[label.start : label.end].endswith(":")
    whole = with_what_it_announces(label, text)
    assert text[whole.start : whole.end].endswith("Alan boşalınca tetiklenir.")
    plain = Span(0, 6)
    assert with_what_it_announces(plain, text) == plain
    # a numbered list is taken up to its last item
    listed = "Oyun şu durumlarda biter: 1. Kazanma: A olur. Not. 2. Kaybetme: B olur. Son söz."
    head = Span(0, listed.index(":") + 1)
    whole = with_what_it_announces(head, listed)
    assert listed[whole.start : whole.end].endswith("2. Kaybetme: B olur.")


@pytest.mark.parametrize("question", ["yarın yağmur yağacak mı", "en iyi pizza nerede yenir",
                                      "merhaba nasılsın"])
def test_a_question_about_something_else_entirely_is_not_answered(tiny_engine, question):
    answer = tiny_engine.ask(question)
    assert answer.abstained and answer.reason.startswith("weak match")
    assert "oyunun adını yazarsanız" in answer.answer


def test_a_question_in_the_rules_words_without_a_game_name_is_answered(tiny_engine):
    answer = tiny_engine.ask("oyuncunun canı sıfıra düşerse ne olur?")
    assert not answer.abstained and answer.game == "zar-savasi"
    # the same words with the game picked are judged by the usual signals only
    picked = tiny_engine.evidence("merhaba nasılsın", game="zar-savasi")[2]
    assert picked.game_source == "request"


def test_a_name_in_a_question_full_of_one_games_own_names_is_not_another_game():
    from hakem.detect import distinctive_terms

    game_words = {"rebirth": frozenset({"stirling", "edinburgh", "kale", "puan"}),
                  "nucleum": frozenset({"thaler", "kale", "puan"})}
    question = "Edinburgh kimsede yok, Stirling Ayşe'de; kale puanı kimin?"
    in_dictionary = {"kale", "puan", "kimin", "kimsede"}.__contains__
    own = distinctive_terms(question, game_words, in_dictionary)
    assert own == {"rebirth": ["edinburgh", "stirling"]}  # "kale" is in both games
    # a word of the language is no game's own, even if one game's text alone uses it
    assert distinctive_terms("puan kimde", {"rebirth": frozenset({"puan"})},
                             in_dictionary) == {}


def test_a_player_named_beside_two_of_the_games_own_names_is_no_unknown_game(real_engine):
    _, _, ev = real_engine.evidence(
        "Mehmet'in türbinini enerjilendirirken yakıt onun demiryolundan geçti; "
        "Mehmet'e Thaler veriyor muyum?")
    assert ev.unknown_names == () and ev.foreign_names == 0
    _, _, catan = real_engine.evidence("Catan'da 7 gelince kaç kart atılır?")
    assert catan.unknown_names == ("Catan",)


def test_a_mistyped_rules_word_is_no_unknown_game(tiny_engine):
    # "frosbite gelnce ..." was refused as a game named "Frosbi" ("frosbi" + "te"): a word
    # one letter from a corpus word is a typo of it, not a game's name.
    _, _, typo = tiny_engine.evidence("esitlkte kim kazanır")
    assert typo.unknown_names == ()
    _, _, game = tiny_engine.evidence("azulda kaç puan var")
    assert game.unknown_names == ("azul",)


def test_vocabulary_repairs_only_words_no_dictionary_knows():
    from hakem.lexical import Vocabulary

    vocab = Vocabulary.from_texts(["Donma (frostbite) bir yara jetonudur.", "Kale ve kule."])
    assert vocab.repair("frosbite") == "frostbite"
    assert vocab.repair("kalem") == "kalem"  # a Turkish word, not a typo of "kale"
    assert vocab.repair("jetonudr") == "jetonudur"
    assert vocab.repair("azul") == "azul"  # too short to correct safely


def test_the_glossary_lists_one_term_s_translations_as_one_thing():
    from hakem.absent import same_thing
    assert {"raunt", "tur"} <= same_thing(["raunt"])  # both translate "round"
    assert {"raunt", "tur"} <= same_thing(["raund"])  # as players spell it
    assert "zafer" not in same_thing(["puan"])  # "zafer puanı" is one term, no alternative
    assert same_thing(["limiti"]) == set()  # the count itself is no counted thing


def test_only_a_denied_count_of_the_counted_thing_answers():
    from hakem.absent import absent_count
    from hakem.chunks import Chunk
    from hakem.retrieve import Hit

    def first(text: str, counted: list[str]) -> str | None:
        hit = Hit(Chunk("g:0", "g", "", "rules", 0, len(text), text), 1.0, 0.0, 0.0)
        span = absent_count((hit,), text, counted)
        return None if span is None else text[span.start : span.end]
    said = "Oyunda belirlenmiş tur sayısı veya faz yoktur."
    assert first(said, ["raunt"]) == said
    assert first("Elde tutulabilecek kart sayısında üst sınır bulunmuyor.", ["ram"]) is None
    # "yoksa" (otherwise) denies nothing; a number or a clause break between, another's
    assert first("Tur sınırına ulaşılırsa oyun biter, yoksa yeni tur başlar.", ["tur"]) is None
    assert first("Tur sayısı 6; sınır yoktur ama kart sınırı vardır.", ["tur"]) is None
    assert first(said, []) is None and absent_count((), said, ["tur"]) is None


@pytest.mark.model
def test_a_count_the_rules_say_does_not_exist_is_the_answer(real_engine):
    # Four blind sets asked it (p47, p52, p55, p56), each turned away for want of a number.
    answer = real_engine.ask("nucleum kac raunt suruyo")
    assert not answer.abstained
    assert answer.answer == "Nucleum'da belirlenmiş tur sayısı, tur sınırı veya faz yoktur."
    # A denied count of something else answers nothing: the RAM limit is not in the rules.
    assert real_engine.ask("cyberpunk tcg deck building'de RAM limiti kac").abstained
