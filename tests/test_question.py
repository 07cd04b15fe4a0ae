"""The question analysed once: cleaning, words, numbers and the kind of answer it asks for."""

from __future__ import annotations

import pytest

from hakem.question import analyse, clean


def test_invisible_characters_are_removed_before_anything_reads_the_text():
    typed = "Day\u00adbreak\u200b'te kaç\u200e jeton\ufeff?"
    assert clean(typed) == "Daybreak'te kaç jeton?"
    assert analyse(typed).words == ("daybreak", "kaç", "jeton")


@pytest.mark.parametrize("typed", ["→→→", "🎲🎲", "   ", "?!", "\u200b"])
def test_a_question_with_no_letter_or_digit_has_no_content(typed):
    assert not analyse(typed).has_content


def test_a_question_with_no_words_is_not_answered(tiny_engine):
    answer = tiny_engine.ask("→→→ 🎲")
    assert answer.abstained and answer.reason == "no words" and not answer.passages


@pytest.mark.parametrize(("question", "kind"), [
    ("Kart çekmek zorunlu mu?", "yes_no"),
    ("kartlari saklamam gerekiyo mu acaba", "yes_no"),
    ("alanların yerini değiştirebilirmiyiz?", "yes_no"),  # the particle written on
    # … and more words after it, as players type it
    ("mulligan 2 kere yapabilirmiyim cyberpunkta", "yes_no"),
    ("surgun edilince oyuna devam ediyomuyuz dead of winterda", "yes_no"),
    # … but a request to Hakem, a closing request after a question word, and words that only
    # end like the particle ("premiyum") ask no yes/no question
    ("anlatırmısın cyberpunkta mulligan kuralını", "other"),
    ("oyun sonunda kaç puan alınır söylermisin bana", "how_many"),
    ("ekstra kartlar neler premiyum sürümde", "other"),
    ("rakibin elinde kaç kart olduğunu öğrenebiliyor muyum?", "yes_no"),  # closing particle
    # the bare particle written on the verb, as players type it
    ("oyun hemen bitiyormu yoksa devam ediyo", "yes_no"),
    ("fixer alanındaki zarlar sayılıyomu", "yes_no"),
    ("bi oyuncu iki ödülü de alabilirmi", "yes_no"),
    ("ayrı bir jetonu varmı?", "yes_no"),
    ("yirmi kart kaç puan", "how_many"),  # a number word, not a particle
    ("Can I discard from my play area?", "yes_no"),
    ("In the game, do my tokens carry over?", "yes_no"),
    ("kac zar atiyoruz", "how_many"),
    ("en fazla kaç kart tutabilirim?", "how_many"),
    ("legend kartlarından kaçını harcanmış yapıyor", "how_many"),  # "kaçını": which count
    ("How many dice do we roll?", "how_many"),
    ("bu aşamayı nasıl oynuyoruz?", "how_why"),
    ("neden hemen saldıramıyor", "how_why"),
    ("moral sıfıra inerse ne olur?", "what_if"),
    ("zombi gelirse noluyo", "what_if"),  # the spoken contraction of "ne oluyor"
    ("deste biterse napıyoz", "what_if"),  # of "ne yapıyoruz"
    ("kurulumu anlatır mısın", "yes_no"),
    ("oyunun kurulumu", "setup"),
    ("zar kuralları", "other"),
])
def test_the_kind_of_answer_a_question_asks_for(question, kind):
    assert analyse(question).kind == kind


def test_a_two_part_question_is_split_into_its_parts():
    q = analyse("kriz kartı nasıl çözülür, kaç kart çekilir?")
    assert q.parts == ("kriz kartı nasıl çözülür", "kaç kart çekilir")
    assert q.how_many
    assert q.parts_explain == (True, False)  # how it is done takes more than one sentence
    # a clause that asks nothing stays with the question it belongs to
    one = analyse("3 kişiyiz, kaç kart çekilir?")
    assert one.parts == ()
    # a spoken "napıcaz" (ne yapacağız) asks something of its own
    spoken = analyse("kaç proje durabiliyo? hepsi doluyken yenisini açmak istersek napıcaz")
    assert spoken.parts == ("kaç proje durabiliyo",
                            "hepsi doluyken yenisini açmak istersek napıcaz")


def test_numbers_are_read_from_digits_and_words():
    assert analyse("iki oyuncuyla 12 jeton olursa").numbers == (2.0, 12.0)


@pytest.mark.parametrize("text, expected", [
    ("Kral Günü puanlaması bir oyunda en fazla kaç kez yapılır?", True),
    ("bi turda kac kere mulligan yapabiliyoz", True),
    ("how many times can I move?", True),
    ("kaç kart çekiyoruz?", False),
    ("her kez kaç puan alıyor?", False),  # "kez" not counted by "kaç"
])
def test_how_often_is_a_count_of_occasions(text, expected):
    assert analyse(text).how_often is expected


@pytest.mark.parametrize("text, parts", [
    ("Nucleum'da kaç bina türü var ve hangi seviye Hükümet sayılıyor?", 2),
    ("kaç Tier ve kaç Segment var", 2),
    ("kaç ağaç ve okyanus koyuyoz", 0),  # one thing counted, two nouns
    ("3 kişiyiz ve kaç kart çekiyoz", 0),  # what is said before the question is context
])
def test_two_questions_joined_by_ve_are_two_parts(text, parts):
    assert len(analyse(text).parts) == parts


@pytest.mark.parametrize("text, expected", [
    ("Gig zarlarını fixer alanına hangi sırayla diziyoz?", True),
    ("kartlar ne siraya gore cozulur", True),
    ("yuvalara hangi düzende koyuyoruz", True),
    ("In what order do the dice go?", True),
    ("kendi sıramda kaç sözleşme tamamlarım?", False),
    ("Koloni Fazı'nda sırayla neler yapılıyor?", False),
])
def test_an_order_question(text, expected):
    assert analyse(text).asks_order is expected


def test_which_and_what_name_the_thing_they_ask_for():
    assert analyse("hangi devrilme noktalarını takip ediyor").wh_nouns == ("devrilme",
                                                                         "noktalarını")
    assert analyse("arama lokasyonları hangileri").wh_nouns == ("arama", "lokasyonları")
    assert analyse("cezası nedir?").wh_nouns == ("cezası",)
    assert analyse("puanlar eşitse kim kazanır").wh_nouns == ()
    # "ne" asks which thing only closing its clause: "X ne işe yarar" asks about X.
    assert analyse("katedral ne işe yarar").wh_nouns == ()


def test_a_part_asking_what_the_player_does_takes_more_than_one_sentence():
    q = analyse("kriz kartları hangi sırayla çözülür ve her kart için neler yapılır?")
    assert q.parts_explain == (False, True)
    spoken = analyse("deste bitti, kart çekemiyoz, napıyoz, kaç kart çekilir?")
    assert spoken.parts_explain[-1] is False  # a count is one number, not a procedure
    assert True in spoken.parts_explain


@pytest.mark.parametrize(("text", "sides"), [
    ("kömür ile uranyum arasindaki fark nedir", ("kömür", "uranyum")),
    ("Şehirleştir ile Sanayileştir arasındaki farklar neler?",
     ("Şehirleştir", "Sanayileştir")),
    ("2 kişiyle normal kurulum ile solo kurulum farkı ne",  # split at the last "ile"
     ("2 kişiyle normal kurulum", "solo kurulum")),
    ("kömür ile uranyum arasında ne fark var", ("kömür", "uranyum")),
    # "ile" as the first side's ending, before "arasında(ki) fark"
    ("Gig takas etmekle gig çalmak arasındaki fark ne?", ("Gig takas etmek", "gig çalmak")),
    ("Tahmin kartıyla Bilinmeyen kriz kartı arasındaki fark ne",
     ("Tahmin kartı", "Bilinmeyen kriz kartı")),
    ("orta yerlesimle buyuk yerlesim arasindaki fark ne", ("orta yerlesim", "buyuk yerlesim")),
    ("Swap'la steal arasında ne fark var", ("Swap", "steal")),
    # the split between two infinitives; a word ending so that is no side ("Böyle")
    ("2 kişiyle oynamakla 3 kişiyle oynamak arasındaki fark ne",
     ("2 kişiyle oynamak", "3 kişiyle oynamak")),
    ("Böyle bir kartla normal kart arasındaki fark ne", ("Böyle bir kart", "normal kart")),
])
def test_a_difference_asked_is_two_parts_each_explained(text, sides):
    q = analyse(text)
    assert q.parts == sides and q.parts_explain == (True, True)


def test_a_difference_that_is_a_number_or_names_no_sides_is_one_question():
    # "kaç puan fark": the number is the answer; "A B C D arasındaki fark": no "ile"
    assert analyse("birinci ile ikinci arasında kaç puan fark var").parts == ()
    assert analyse("A B C D tahtaları arasındaki fark ne").parts == ()
    # other meanings of "fark": does it matter, notices, as much as the difference; and a
    # yes/no ("fark var mı") keeps its verdict
    for text in ("2 kişi ile oynarsam fark eder mi?", "rakip ile takas ettiğimi fark ederse",
                 "talep ile üretim arasındaki fark kadar jeton mu alıyorum?",
                 "masada ile elde oynamak arasında bir fark var mı?",
                 # an ending "-la" with no "arasında": not a comparison's side
                 "kartla oynamak fark eder mi?", "tahtala fark ne",
                 # a condition or a statement about a difference asks nothing of it
                 "kart ile zar arasında fark varsa hangisi geçerli?",
                 "kartla zar arasında fark vardır", "ekle ve çıkar arasındaki fark ne"):
        assert analyse(text).parts == (), text


def test_a_superlative_naming_who_is_no_limit_asked():
    # "en çok kirli enerjisi olanı" names the player with the most; the question asks who.
    assert not analyse("Kriz kartı en çok kirli enerjisi olanı vuruyor, kim hedefleniyor?"
                       ).how_many
    assert analyse("elde en fazla kaç kart tutabilirim").how_many
    assert analyse("bir yığında en fazla 5 kart mı olur").how_many
