"""Choosing the answer at sentence level, on hand-made passages (no index, no model)."""

from __future__ import annotations

import numpy as np

from hakem.candidates import Candidate
from hakem.choose import choose, same_say, terms_of
from hakem.chunks import Chunk
from hakem.facts import Fact
from hakem.question import analyse
from hakem.retrieve import Hit
from hakem.text import Span

TEXT = ("Kurallar\n"
        "Ana Hedef (Main Objective): grubun ortak hedefidir. "
        "Krizi çözmek için her oyuncu kart koyar. Kartlar karıştırılır ve açılır. "
        "Eşleşen her kart bir puan verir. Örneğin 4 kart koyarsanız 4 puan alırsınız. "
        "Tur sonunda yiyecek harcanır.\n"
        "SSS\n"
        "Hayır. Kriz kartı yeniden çekilemez. "
        "Her oyuncu turda en fazla 3 kez hareket edebilir.")


def _hit(start: int, end: int, rank_score: float) -> Hit:
    chunk = Chunk(id=f"g:{start}-{end}", game="g", section="", kind="rules", start=start,
                  end=end, text=TEXT[start:end])
    return Hit(chunk, rank_score, 0.9, 1.0)


RULES = _hit(TEXT.index("Ana"), TEXT.index("\nSSS"), 2.0)
FAQ = _hit(TEXT.index("Hayır"), len(TEXT), 1.0)


def _pick(question: str, hits=(RULES, FAQ), fact=None, **kw):
    q = analyse(question)
    choice = choose(q, hits, TEXT, frozenset(terms_of(question)), lambda _t: 1.0, fact,
                    lambda part: terms_of(part), **kw)
    return choice, [TEXT[s.start : s.end] for s in choice.spans]


def test_a_two_part_question_gets_one_sentence_per_part_and_none_twice():
    _, said = _pick("krizi çözmek için kim kart koyar, tur sonunda ne harcanır?")
    assert len(said) == 2
    assert "her oyuncu kart koyar" in said[0] and "yiyecek harcanır" in said[1]
    assert len(set(said)) == len(said)


def test_a_glossary_line_loses_to_a_rule_sentence_for_a_how_question():
    _, said = _pick("oyuncu hedef için nasıl kart koyar?")
    assert said[0].startswith("Krizi çözmek için her oyuncu kart koyar")
    _, what = _pick("ortak hedef nedir?")  # what a term is: its definition answers
    assert what[0].startswith("Ana Hedef (Main Objective):")


def test_a_how_question_is_answered_with_the_sentences_that_follow_the_best_one():
    _, said = _pick("krizi çözmek için ne yapılır?")
    assert said[0].startswith("Krizi çözmek için her oyuncu kart koyar.")
    assert "Kartlar karıştırılır ve açılır." in said[0]
    # the rulebook's worked example is not part of the explanation
    assert "Örneğin" not in said[0]


def test_a_yes_no_question_gets_the_sentences_that_follow_its_rule_too():
    # The deciding clause often follows the rule it qualifies ("Takas … taşımak demektir.
    # Takas çalma sayılmaz."): a yes/no answer quotes the rule with what follows it.
    _, said = _pick("krizi çözmek için kart koymak zorunlu mu?")
    assert said[0].startswith("Krizi çözmek için her oyuncu kart koyar.")
    assert "Kartlar karıştırılır ve açılır." in said[0]


def test_a_worked_example_is_not_chosen_over_the_rule_it_illustrates():
    _, said = _pick("eşleşen kart kaç puan verir?")
    assert said[0].startswith("Eşleşen her kart bir puan verir")


def test_the_faq_verdict_is_kept_for_a_yes_no_question_about_that_faq_only():
    choice, said = _pick("kriz kartı yeniden çekilebilir mi?", hits=(FAQ, RULES))
    assert choice.verdict == "Hayır" and said[0] == "Kriz kartı yeniden çekilemez."
    other, _ = _pick("kriz kartı nasıl çekilir?", hits=(FAQ, RULES))
    assert other.verdict == ""


def test_an_faq_answer_that_turns_keeps_no_verdict_and_quotes_the_turn():
    text = ("SSS\nHayır. Kapanan kartın aksiyonu kullanılamaz. Ancak kapanan kartın etiketleri "
            "sayılmaya devam eder.")
    start = text.index("Hayır")
    chunk = Chunk(id="g:faq", game="g", section="", kind="faq", start=start, end=len(text),
                  text=text[start:])
    q = analyse("kapanan kartın aksiyonu kullanılabilir mi?")
    choice = choose(q, (Hit(chunk, 1.0, 0.9, 1.0),), text, frozenset(terms_of(q.text)),
                    lambda _t: 1.0)
    assert choice.verdict == ""  # "Hayır" answers the action, not the tags
    assert "Ancak kapanan kartın etiketleri" in text[choice.spans[0].start:choice.spans[0].end]


def _faq_choice(text: str, question: str):
    start = text.index("SSS\n") + 4
    chunk = Chunk(id="g:faq", game="g", section="", kind="faq", start=start, end=len(text),
                  text=text[start:])
    q = analyse(question)
    choice = choose(q, (Hit(chunk, 1.0, 0.9, 1.0),), text, frozenset(terms_of(q.text)),
                    lambda _t: 1.0)
    return choice, [text[s.start : s.end] for s in choice.spans]


def test_a_verdict_beside_what_cannot_be_done_answers_its_own_question_not_the_players():
    # "Evet. … soldan sağa doldurulur … Sırasını seçemezsiniz.": the "Evet" affirms the
    # restriction; asked "istediğim yuvaya koyabilir miyim" it would say the opposite.
    text = ("SSS\nEvet. Yuvalar soldan sağa doldurulur; karo daima en soldaki boş yuvaya "
            "konur. Yuvaların sırasını seçemezsiniz.")
    choice, said = _faq_choice(text, "karoyu istediğim boş yuvaya koyabilir miyim?")
    assert choice.verdict == ""
    assert "seçemezsiniz" in " ".join(said)  # the deciding clause is quoted instead


def test_a_verdict_written_into_its_sentence_is_shown_only_where_a_verdict_is_kept():
    text = "SSS\nEvet — ama aynı kademeye yalnızca bir belirtecinizi koyabilirsiniz."
    choice, said = _faq_choice(text, "aynı kademeye iki belirteç koyabilir miyim?")
    # It turns ("— ama"): read from the rule after it, which says no.
    assert choice.verdict == "" and said[0].startswith("aynı kademeye yalnızca bir")
    plain = "SSS\nDoğru, bu oyunda tur sayısı veya faz yoktur."
    _, what = _faq_choice(plain, "bu oyunda tur sayısı neye göre belirlenir?")
    assert what[0].startswith("bu oyunda tur sayısı")  # not a yes/no question: no verdict
    _, asked = _faq_choice(plain, "bu oyunda tur sayısı veya faz yok mu?")
    assert asked[0].startswith("Doğru, bu oyunda")  # its own question: kept


def test_a_label_announcing_a_bulleted_list_keeps_its_items():
    from hakem.lists import with_what_it_announces
    from hakem.text import Span
    text = ("Zar şu sonuçları verir: - Boş: Hiçbir şey olmaz. - Yara: 1 yara koy. "
            "- Isırık: Karakter ölür. Her ölüm morali düşürür.")
    label = text.index("Zar")
    span = with_what_it_announces(Span(label, text.index(":") + 1), text)
    said = text[span.start:span.end]
    assert said.endswith("Karakter ölür.") and "Yara: 1 yara koy." in said


def test_a_label_cut_after_its_first_marker_takes_its_list():
    # A passage ended right after "1.": the label and the marker alone answer nothing.
    from hakem.lists import with_what_it_announces
    from hakem.text import Span
    text = ("Kaybetme Koşulları (herhangi biri gerçekleşirse): 1. Termometre 2,0°C'ye "
            "ulaşırsa 2. Bir oyuncu 12 jeton biriktirirse 3. Geri Çekilme sağlanamazsa. "
            "Sonra oyun biter.")
    span = with_what_it_announces(Span(0, text.index("1.") + 2), text)
    said = text[span.start:span.end]
    assert said.startswith("Kaybetme Koşulları") and "2. Bir oyuncu 12 jeton" in said
    assert said.endswith("sağlanamazsa.")


def test_a_span_holding_a_lists_first_items_takes_the_rest_of_the_list():
    from hakem.lists import with_what_it_announces
    from hakem.text import Span
    numbered = ("Oyun şu durumlarda biter: 1. Moral 0'a düşerse. 2. Tur izi biterse. "
                "3. Ana Hedef tamamlanırsa. Sonra gizli hedefler kontrol edilir.")
    first_two = Span(0, numbered.index("3."))
    got = with_what_it_announces(first_two, numbered)
    said = numbered[got.start:got.end]
    assert said.endswith("3. Ana Hedef tamamlanırsa.")  # and no further
    bulleted = ("Bu aksiyonlar zar harcamaz: - Eşya oynama. - Hareket: bir karakteri taşı. "
                "Turda bir kez yapılır. - Oylama başlatma.\nSaldırı zar harcar.")
    first = Span(0, bulleted.index(" - Hareket"))
    got = with_what_it_announces(first, bulleted)
    said = bulleted[got.start:got.end]
    assert said.endswith("- Oylama başlatma.")  # items of several sentences, to its line end
    ranks = "- Orta yerleşim: 1. sıra 5 puan. - Büyük yerleşim: 1. sıra 8 puan."
    item = Span(0, ranks.index(" - Büyük"))
    assert with_what_it_announces(item, ranks) == item  # "1. sıra" is a rank, no list
    plain = "Moral 0 olursa oyun biter. 2. tur başlar."
    assert with_what_it_announces(Span(0, 26), plain) == Span(0, 26)


def test_for_a_number_question_the_sentence_stating_the_matched_fact_wins():
    at = TEXT.index("Her oyuncu turda en fazla 3")
    fact = Fact(id="f", game="g", subject="hareket", unit="kez", min=None, max=3, value=None,
                value_unit="", effect="", quote="en fazla 3 kez", start=at + 17,
                end=at + 31, section="SSS")
    _, said = _pick("kart kaç kez koyulur?", fact=fact)
    assert said[0].startswith("Her oyuncu turda en fazla 3 kez")


def test_meaning_breaks_ties_between_sentences_sharing_no_word():
    from hakem.chunks import chunk_sentences

    near, far = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    spans = chunk_sentences(RULES.chunk, TEXT)
    last = spans[-1]
    assert TEXT[last.start : last.end] == "Tur sonunda yiyecek harcanır."
    vectors = {("g", s.start, s.end): near if s == last else far for s in spans}
    _, said = _pick("akşam hangisi", hits=(RULES,), query_vector=near, vectors=vectors)
    assert said[0].startswith("Tur sonunda yiyecek harcanır.")
    _, without = _pick("akşam hangisi", hits=(RULES,))
    assert not without[0].startswith("Tur sonunda")


def test_a_part_whose_best_sentence_is_taken_gets_the_sentence_for_the_rest_of_it():
    # Both parts are best matched by the crisis sentence; the second also asks whether the
    # cards are shuffled, which only the next sentence says.
    _, said = _pick("krizi çözmek için kim kart koyar, "
                    "krizi çözmek için kart koyunca karıştırılır mı?")
    assert said[0].startswith("Krizi çözmek için her oyuncu kart koyar")
    assert len(said) == 2 and said[1].startswith("Kartlar karıştırılır")


def test_a_bare_list_item_is_read_with_the_sentence_that_announces_its_list():
    from hakem.lists import with_its_lead_in
    from hakem.text import Span

    text = ("Giriş.\nHer oyuncu talebini artırır: - Kuzey: +1 - Güney: +2 Bu artış büyümeyi "
            "yansıtır.\nKurallar: - Uzun bir madde, kendi başına ne olduğunu söyleyen cümle.")
    bare = Span(text.index("- Güney"), text.index("+2") + 2)
    whole = with_its_lead_in(bare, text)
    assert text[whole.start : whole.end] == "Her oyuncu talebini artırır: - Kuzey: +1 - Güney: +2"
    long_item = Span(text.index("- Uzun"), len(text))
    assert with_its_lead_in(long_item, text) == long_item  # says what it is about itself
    plain = Span(0, 6)
    assert with_its_lead_in(plain, text) == plain


ORDER_TEXT = ("Kurulum\n"
              "Zarlarınızı fixer alanına yerleştirirsiniz ve zarlar orada bekler. "
              "Fixer alanındaki zarlar kart etkilerinden etkilenmez.\n"
              "Kurulum adımları\n"
              "Dördüncü adımda zarlarınızı fixer alanına koyarsınız.\n"
              "Zarlar dizilirken aşağıdan yukarıya doğru sırasıyla d4, d6 ve en üste d20 gelir.")


def _order_hit(start: int, end: int) -> Hit:
    chunk = Chunk(id=f"g:{start}-{end}", game="g", section="", kind="setup", start=start,
                  end=end, text=ORDER_TEXT[start:end])
    return Hit(chunk, 1.0, 0.9, 1.0)


def test_an_order_question_is_answered_by_the_sentence_that_states_an_order():
    first = _order_hit(ORDER_TEXT.index("Zarlarınızı"), ORDER_TEXT.index("\nKurulum adımları"))
    other = _order_hit(0, 8)
    steps = _order_hit(ORDER_TEXT.index("Dördüncü"), len(ORDER_TEXT))
    question = "fixer alanına zarları hangi sırayla diziyoruz"
    q = analyse(question)
    assert q.asks_order
    choice = choose(q, (first, other, steps), ORDER_TEXT, frozenset(terms_of(question)),
                    lambda _t: 1.0)
    said = ORDER_TEXT[choice.spans[0].start : choice.spans[0].end]
    assert "aşağıdan yukarıya doğru sırasıyla" in said
    # Without asking for an order, the topic's own sentence answers.
    plain = "fixer alanına zarları nereye koyuyoruz"
    choice = choose(analyse(plain), (first, other, steps), ORDER_TEXT,
                    frozenset(terms_of(plain)), lambda _t: 1.0)
    assert "sırasıyla" not in ORDER_TEXT[choice.spans[0].start : choice.spans[0].end]


def test_a_part_is_matched_by_its_own_meaning_as_well_as_the_whole_question():
    # The second part shares no word with any sentence; the whole question's meaning leans
    # to the first part's sentence, the part's own meaning to the food sentence.
    from hakem.chunks import chunk_sentences

    e1, e2, e3 = np.eye(3)
    spans = chunk_sentences(RULES.chunk, TEXT)

    def vec(s):
        said = TEXT[s.start : s.end]
        return e1 if said.startswith("Krizi çözmek") else e2 if said.startswith("Tur") else e3

    vectors = {("g", s.start, s.end): vec(s) for s in spans}
    whole = np.array([1.0, 0.3, 0.0]) / np.linalg.norm([1.0, 0.3, 0.0])
    question = "krizi çözmek için kim kart koyar, akşam ne olur?"

    def part_vector(part: str) -> np.ndarray:
        return e2 if "akşam" in part else e1

    _, said = _pick(question, hits=(RULES,), query_vector=whole, vectors=vectors,
                    part_vector=part_vector)
    assert len(said) == 2
    assert said[0].startswith("Krizi çözmek") and said[1].startswith("Tur sonunda")
    _, without = _pick(question, hits=(RULES,), query_vector=whole, vectors=vectors)
    assert not any(s.startswith("Tur sonunda") for s in without)


def test_a_how_part_gets_the_sentences_that_follow_its_rule_a_what_part_does_not():
    _, said = _pick("ana hedef nedir, kriz nasıl çözülür?", hits=(RULES,))
    assert said[0].startswith("Ana Hedef") and said[0].endswith("ortak hedefidir.")
    assert said[1].startswith("Krizi çözmek için her oyuncu kart koyar. Kartlar karıştırılır")
    _, plain = _pick("ana hedef nedir, krizi çözmek için kim kart koyar?", hits=(RULES,))
    assert plain[1] == "Krizi çözmek için her oyuncu kart koyar."


COMPONENTS = ("Bileşenler\n"
              "Okyanus Jetonu\n"
              "Yüksek okyanus sayılarını takip etmek için\n"
              "Kurallar\n"
              "Okyanus kalmazsa her oyuncu bir ceza jetonu alır.\n")


def _components_pick(question: str) -> str:
    caption = Chunk(id="g:c", game="g", section="Bileşenler", kind="components",
                    start=COMPONENTS.index("Okyanus"), end=COMPONENTS.index("\nKurallar"),
                    text=COMPONENTS[COMPONENTS.index("Okyanus"):COMPONENTS.index("\nKurallar")])
    start = COMPONENTS.index("Okyanus kalmazsa")
    rule = Chunk(id="g:r", game="g", section="Kurallar", kind="rules", start=start,
                 end=len(COMPONENTS) - 1, text=COMPONENTS[start:-1])
    q = analyse(question)
    hits = (Hit(caption, 2.0, 0.9, 1.0), Hit(rule, 1.0, 0.9, 1.0))
    choice = choose(q, hits, COMPONENTS, frozenset(terms_of(question)), lambda _t: 1.0)
    return COMPONENTS[choice.spans[0].start : choice.spans[0].end]


def test_a_components_caption_does_not_answer_how_the_game_is_played():
    # The caption shares as many of the question's words and its passage ranks first; the
    # rule below it says what happens.
    assert _components_pick("yüksek okyanus kalmazsa ne olur?").startswith(
        "Okyanus kalmazsa her oyuncu")
    # Asked what a component is for, the caption is the answer.
    assert _components_pick("yüksek okyanus sayıları için hangi jeton var").startswith(
        "Yüksek okyanus")


def test_a_verdict_whose_own_words_say_the_opposite_for_the_asked_word_is_not_shown():
    # "Hayır, … isteğe bağlıdır" answers "zorunlu mu", a question the text does not show;
    # asked "isteğe bağlı mı" its "Hayır" would contradict the rule it opens.
    text = "SSS\nHayır, krize kart katkısı isteğe bağlıdır ve yüzü kapalı yapılır."
    choice, said = _faq_choice(text, "krize kart katkısı yapmak isteğe bağlı mı?")
    assert choice.verdict == "" and said[0].startswith("krize kart katkısı isteğe bağlıdır")
    _, same = _faq_choice(text, "krize kart katkısı yapmak zorunlu mu?")
    assert same[0].startswith("Hayır, krize kart")  # its own question: the verdict stays
    denied = "SSS\nEvet, kriz kartı bu turda yeniden çekilemez."
    turned, _ = _faq_choice(denied, "kriz kartı bu turda yeniden çekilir mi?")
    assert turned.verdict == "" and analyse("kriz kartı yeniden çekilir mi?").asked == "cekilir"
    # A restricted rule ("yalnızca … tetiklenir") does not say the verdict's opposite.
    only = "SSS\nHayır. Kart yalnızca koşulu aktif oyuncunun turunda gerçekleşirse tetiklenir."
    still, _ = _faq_choice(only, "kart her turda mutlaka tetiklenir mi?")
    assert still.verdict == "Hayır"


# One paragraph of a rule text cut into two passages, as the index cuts a long paragraph,
# and the same limit said again in the components list.
LIMIT_TEXT = ("Bileşenler\n"
              "Proje kartı: aynı anda en fazla 4 proje oyunda olabilir.\n"
              "Akış\n"
              "Oyuncular bir proje seçer. Aynı anda en fazla 4 proje oyunda olabilir. "
              "Hepsi doluyken yeni bir proje açmak isteyen oyuncular eski bir projeyi atar. "
              "Atılan projenin kartları da atılır.")


def _limit_hits() -> tuple[Hit, ...]:
    text = LIMIT_TEXT
    cut = text.index("Hepsi doluyken")

    def hit(start: int, end: int, score: float, kind: str) -> Hit:
        chunk = Chunk(id=f"g:{start}-{end}", game="g", section="", kind=kind, start=start,
                      end=end, text=text[start:end])
        return Hit(chunk, score, 0.9, 1.0)

    flow = hit(text.index("Oyuncular bir"), cut, 2.0, "rules")
    parts = hit(text.index("Proje kartı"), text.index("\nAkış"), 1.5, "components")
    rest = hit(cut, len(text), 0.5, "rules")
    return flow, parts, rest


def _limit_pick(question: str, hits: tuple[Hit, ...]) -> list[str]:
    q = analyse(question)
    choice = choose(q, hits, LIMIT_TEXT, frozenset(terms_of(question)), lambda _t: 1.0,
                    part_terms=lambda part: terms_of(part))
    return [LIMIT_TEXT[s.start : s.end] for s in choice.spans]


def test_a_how_question_is_explained_past_the_passage_the_index_cut():
    flow, _, _ = _limit_hits()
    said = _limit_pick("aynı anda en fazla kaç proje oyunda olabilir, nasıl açılır?", (flow,))
    # the sentence after the passage's end is the same paragraph's, and explains it
    assert "eski bir projeyi atar" in " ".join(said)


def test_a_limit_said_in_two_places_is_said_once():
    said = _limit_pick("aynı anda kaç proje olabilir, proje kartı en fazla kaç tane oyunda olur?",
                       _limit_hits()[:2])
    assert " ".join(said).count("en fazla 4 proje oyunda olabilir") == 1


def _candidate(text: str, start: int) -> Candidate:
    return Candidate(0, Span(start, start + len(text)), text, "")


def test_a_rule_said_again_in_other_words_is_the_same_and_another_case_is_not():
    said = "Koşul tetiklenmezse kart sessizce atılır ve hiçbir etkisi olmaz."
    again = "Koşul gerçekleşmezse kart sessizce atılır ve hiçbir etkisi olmaz."
    assert same_say(_candidate(said, 0), _candidate(again, 100))
    # the same words with another number are another case
    plus2 = "Enerji Talebi artışı her raunt başına +2 olur ve izleyici evi ilerler."
    plus3 = "Enerji Talebi artışı her raunt başına +3 olur ve izleyici evi ilerler."
    assert not same_say(_candidate(plus2, 0), _candidate(plus3, 100))
    # a heading that names a rule's terms is not that rule
    heading = "Krizde Topluluk Jetonu (Communities in Crisis Token)"
    rule = ("Herhangi bir oyuncu 12 veya daha fazla Krizde Topluluk (Communities in Crisis) "
            "jetonu biriktirirse oyunu hemen kaybedersiniz ve oyun sona erer.")
    assert not same_say(_candidate(heading, 0), _candidate(rule, 100))


def test_a_list_marker_before_a_lone_item_is_dropped_but_a_run_of_items_keeps_them():
    from hakem.answer import unmarked

    assert unmarked(["2. kriz kartları çözülür.", "Sonra sıra geçer."]) == \
        ["Kriz kartları çözülür.", "Sonra sıra geçer."]
    assert unmarked(["- ilk oyuncu başlar."]) == ["İlk oyuncu başlar."]
    run = ["1. Kart çek.", "2. Kart oyna."]
    assert unmarked(run) == run
    # A number that is the sentence's own subject is no marker.
    assert unmarked(["2 oyuncuda üç koşul gerekir."]) == ["2 oyuncuda üç koşul gerekir."]


def test_two_chosen_sentences_of_a_paragraph_read_with_the_one_between():
    from hakem.extent import bridged as _bridged
    from hakem.text import Span

    text = ("Oyun sonu tetiklenir. Herkes bir tur daha oynar. Sonra puanlama yapılır.\n"
            "Yeni paragraf.")
    first, last = Span(0, 21), Span(text.index("Sonra"), text.index("\n"))
    assert _bridged((last, first), text) == (Span(0, text.index("\n")),)
    # not across paragraphs, nor over two sentences between
    after = Span(text.index("Yeni"), len(text))
    assert _bridged((first, after), text) == (first, after)
    longer = "Bir. İki. Üç. Dört."
    assert _bridged((Span(0, 4), Span(14, 19)), longer) == (Span(0, 4), Span(14, 19))
    assert _bridged((Span(0, 4), Span(5, 9)), longer) == (Span(0, 4), Span(5, 9))


def test_a_components_line_asked_how_brings_the_rule_that_says_how():
    from dataclasses import replace as with_

    text = ("Bileşenler\nGürültü Jetonu: Koloni fazında gürültü jetonu için zar atılır.\n"
            "Akış\nHer jeton için bir zar atılır; 3 veya altıysa o lokasyona zombi eklenir.\n")
    parts = text.split("\n")
    caption_at, rule_at = text.index(parts[1]), text.index(parts[3])
    caption = Hit(Chunk(id="g:c", game="g", section="Bileşenler", kind="components",
                        start=caption_at, end=caption_at + len(parts[1]), text=parts[1]),
                  2.0, 0.9, 1.0)
    rule = Hit(with_(caption.chunk, id="g:r", section="Akış", kind="flow", start=rule_at,
                     end=rule_at + len(parts[3]), text=parts[3]), 1.0, 0.9, 1.0)
    question = "koloni fazında gürültü jetonu için zar nasıl atılır"
    choice = choose(analyse(question), (caption, rule), text, frozenset(terms_of(question)),
                    lambda _t: 1.0)
    said = [text[s.start : s.end] for s in choice.spans]
    assert any("3 veya altıysa" in s for s in said)
    # what it is, asked, is the caption's alone
    what = "gürültü jetonu nedir"
    only = choose(analyse(what), (caption, rule), text, frozenset(terms_of(what)),
                  lambda _t: 1.0)
    assert not any("3 veya altıysa" in text[s.start : s.end] for s in only.spans)


def test_two_parts_wanting_one_sentence_give_it_to_the_part_that_has_no_other():
    # Both parts are best matched by the points sentence. The first part's next best (who
    # controls) is nearly as good for it; the second part has nothing else. So the first
    # part takes the control sentence and the points sentence answers the second.
    text = ("Kale\nKaleyi en çok karosu olan oyuncu kontrol eder. "
            "Kontrol edilen her kale oyun sonunda 5 puan verir.")
    chunk = Chunk(id="g:5-len", game="g", section="", kind="rules", start=5, end=len(text),
                  text=text[5:])
    question = "kontrol edilen kale kimin olur, oyun sonunda kaç puan verir?"
    q = analyse(question)
    assert len(q.parts) == 2
    choice = choose(q, (Hit(chunk, 1.0, 0.9, 1.0),), text, frozenset(terms_of(question)),
                    lambda _t: 1.0, None, lambda part: terms_of(part))
    said = [text[s.start : s.end] for s in choice.spans]
    joined = " ".join(said)
    assert "en çok karosu olan oyuncu kontrol eder" in joined
    assert "5 puan verir" in joined
    assert joined.index("kontrol eder") < joined.index("5 puan")


def test_a_sentence_pointing_back_is_read_with_the_sentence_it_points_to():
    from hakem.extent import with_what_it_points_to
    text = "Kurallar\nOyun son karo konunca biter. Bu noktada kaleler puanlanır.\nAkış\n" \
           "Bu bölüm turu anlatır."
    at = text.index("Bu noktada")
    sp = with_what_it_points_to(Span(at, text.index(".", at) + 1), text)
    assert text[sp.start : sp.end] == "Oyun son karo konunca biter. Bu noktada kaleler puanlanır."
    # first in its paragraph: nothing before it in the paragraph to point to
    first = text.index("Bu bölüm")
    assert with_what_it_points_to(Span(first, len(text)), text) == Span(first, len(text))
    # no back-reference: as it is
    plain = Span(text.index("Oyun"), text.index(" Bu noktada"))
    assert with_what_it_points_to(plain, text) == plain
    # "this way" a few words in, or "Böyle …" opening it, points back too
    modes = "Modlar\n- İlk Oyun: Zorluk kartları olmadan oynanır. İlk oyununu bu şekilde " \
            "oynaman önerilir. Böyle oynanan oyun kısadır.\n"
    for said in ("İlk oyununu bu şekilde oynaman önerilir.", "Böyle oynanan oyun kısadır."):
        at = modes.index(said)
        sp = with_what_it_points_to(Span(at, at + len(said)), modes)
        assert modes[sp.start : sp.end].endswith(said) and sp.start < at, said
    # ("bu şekilde" later in a sentence refers within it)
    late = "Kurallar\nKart oynanır. Jetonları hiç harcamadan eldeki kartı bu şekilde oynarsın.\n"
    at = late.index("Jetonları")
    assert with_what_it_points_to(Span(at, len(late) - 1), late) == Span(at, len(late) - 1)


def test_a_how_answer_reads_on_into_a_paragraph_that_points_back_to_it():
    from hakem.extent import explained
    text = "Kurallar\nBilinen kartları ayırt edilebilir yapmalısınız.\n\n" \
           "Bunu bir pul koyarak yapabilirsiniz.\nSonraki kural burada.\n"
    at = text.index("Bilinen")
    c = _candidate(text[at : text.index(".", at) + 1], at)
    sp = explained(c, set(), text, text.index("\n\nBunu"))
    assert text[sp.start : sp.end].endswith("Bunu bir pul koyarak yapabilirsiniz.")
    # a next paragraph that does not point back is another rule
    other = text.replace("Bunu bir pul", "Kartlar bir pul")
    sp = explained(c, set(), other, other.index("\n\nKartlar"))
    assert other[sp.start : sp.end] == "Bilinen kartları ayırt edilebilir yapmalısınız."


def test_an_faq_answer_whose_verdict_is_not_said_is_read_on_to_what_happens_instead():
    text = ("Kurallar\nHer oyuncu sırayla bir hamle yapar.\n"
            "SSS\nHayır. İkinci koşul sağlandığında yalnızca oyun sonu tetiklenir. "
            "Turlar eşitlenene kadar sürer, ardından herkes bir tur daha oynar.\n"
            "Bunu yapan oyuncu kazandığı kartı hemen ıskartaya atar.")
    rules_start, faq_start = text.index("Her"), text.index("Hayır")
    rules = Chunk(id="g:r", game="g", section="", kind="rules", start=rules_start,
                  end=faq_start - 5, text=text[rules_start : faq_start - 5])
    faq_end = text.index("\nBunu")
    faq = Chunk(id="g:faq", game="g", section="", kind="faq", start=faq_start,
                end=faq_end, text=text[faq_start:faq_end])
    q = analyse("ikinci koşul sağlandığında oyun hemen bitiyor mu?")
    # The FAQ is the second passage: its "Hayır" answers its own question, not said here.
    choice = choose(q, (Hit(rules, 2.0, 0.9, 1.0), Hit(faq, 1.0, 0.9, 1.0)), text,
                    frozenset(terms_of(q.text)), lambda _t: 1.0)
    said = " ".join(text[s.start : s.end] for s in choice.spans)
    assert choice.verdict == ""
    # … to the end of its answer, not into the next entry that opens with "Bunu"
    assert said.startswith("İkinci koşul") and said.endswith("bir tur daha oynar.")
