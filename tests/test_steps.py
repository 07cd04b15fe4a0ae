"""The steps of a phase: which questions ask for them, and which passages they are."""

from __future__ import annotations

import pytest

from hakem.chunks import Chunk
from hakem.corpus import Corpus, Game
from hakem.lexical import Glossary
from hakem.question import analyse
from hakem.retrieve import Hit, Retrieval
from hakem.steps import answer_steps, phase_steps, steps_request

TEXT = ("Akış\n"
        "Her tur iki fazdan oluşur: önce Sefer, sonra Kamp.\n"
        "1. Yola Çıkış\nHerkes bir zar atar. Sonra yürür.\n"
        "2. Av\nAvcılar kart çeker.\n"
        "Kamp fazı sırayla uygulanır.\n"
        "1. Ateş\nOdun harcanır.\n"
        "2. Yemek\nHer 2 kişi 1 yemek yer.\n"
        "2. Yemek\nYemek yoksa moral düşer.\n"
        "3. Nöbet\nBir kişi nöbet tutar.\n")


def _chunks(text: str) -> tuple[Chunk, ...]:
    """One passage per paragraph: an untitled one, or a heading line with the text under it."""
    lines = text.split("\n")
    out, pos, i = [], 0, 0
    while i < len(lines) - 1:
        line = lines[i]
        start = pos
        if line[:1].isdigit():
            body = lines[i + 1]
            end = start + len(line) + 1 + len(body)
            out.append(Chunk(f"g:{start}-{end}", "g", f"Akış > {line}", "flow", start, end,
                             text[start:end], line))
            pos, i = end + 1, i + 2
        else:
            end = start + len(line)
            if i:  # the first line is the section's title
                out.append(Chunk(f"g:{start}-{end}", "g", "Akış", "flow", start, end,
                                 text[start:end]))
            pos, i = end + 1, i + 1
    return tuple(out)


def test_the_steps_are_the_headed_passages_after_the_phase_opening():
    chunks = _chunks(TEXT)
    camp = next(c for c in chunks if c.text.startswith("Kamp fazı"))
    steps = phase_steps(chunks, camp, TEXT)
    # numbered headings lose their number; one heading over two passages is one step
    assert [s.title for s in steps] == ["Ateş", "Yemek", "Nöbet"]
    assert TEXT[steps[1].start : steps[1].end] == "Her 2 kişi 1 yemek yer."
    # from any passage of the phase, the same steps
    assert phase_steps(chunks, next(c for c in chunks if c.heading == "3. Nöbet"), TEXT) == steps


def test_a_run_of_fewer_than_three_headings_is_no_procedure():
    chunks = _chunks(TEXT)
    trip = next(c for c in chunks if c.heading == "1. Yola Çıkış")
    assert phase_steps(chunks, trip, TEXT) == ()


@pytest.mark.parametrize(("question", "asks"), [
    ("Kamp fazı hangi adımlardan oluşur?", True),
    ("kamp fazi adim adim nasil oynaniyor", True),
    ("What are the steps of the camp phase?", True),
    ("yemek adımında kaç yemek harcıyoruz", False),  # one step, and a number
    ("moral kaç adım düşer", False),
    ("kartlar hangi sırayla çözülür", False),  # the order of one thing, not a phase's steps
    ("Kamp Fazı'nda sırayla neler yapılıyor?", True),
    ("kamp fazinda sirasiyla ne yapiyoruz", True),
    ("What happens in the Camp Phase?", True),
    # a phase named, but what is asked is what happens to the cards
    ("Kamp Fazı'nda kartlar hangi sırayla açılır ve her kart için neler yapılır?", False),
    ("Kamp fazı hangi sırayla oynanır?", True),  # one phase's order is its steps
    ("bir turun fazları hangi sırayla gelir?", False),  # the phases' order: the turn's
])
def test_which_questions_ask_for_steps(question, asks):
    assert steps_request(analyse(question)) is asks


# Two phases, each opened by a paragraph that names it; the second glosses its English name.
PHASES = ("Akış\n"
          "Her tur iki fazdan oluşur.\n"
          "Sefer Fazı başlar.\n"
          "1. Yola Çıkış\nHerkes bir zar atar.\n"
          "2. Av\nAvcılar kart çeker.\n"
          "3. Dönüş\nHerkes geri döner.\n"
          "Kamp Fazı (Camp Phase) sırayla uygulanır.\n"
          "1. Ateş\nOdun harcanır.\n"
          "2. Yemek\nHer 2 kişi 1 yemek yer.\n"
          "3. Nöbet\nBir kişi nöbet tutar.\n")


def _asked(question: str, hit_heading: str) -> list[str]:
    """The steps answered when only the passage headed ``hit_heading`` was retrieved."""
    chunks = _chunks(PHASES)
    corpus = Corpus((Game("g", "Oyun", (), "tr", PHASES, ""),))
    hit = next(c for c in chunks if c.heading == hit_heading)
    retrieval = Retrieval(question, question, (), "g", "name", (Hit(hit, 1.0, 0.0, 0.0),))
    glossary = Glossary.from_texts([PHASES])  # "Kamp Fazı (Camp Phase)": Camp is Kamp
    answer = answer_steps(analyse(question), retrieval, corpus, chunks, translate=glossary.word)
    return [] if answer is None else answer.answer.split("\n")[1:]


@pytest.mark.parametrize("question", [
    "Kamp Fazı adım adım", "kamp fazi adim adim", "Camp Phase steps"])
def test_the_phase_named_is_answered_even_when_no_passage_of_it_was_retrieved(question):
    steps = _asked(question, "2. Av")  # a passage of the other phase
    assert [s.split(":")[0] for s in steps] == ["1. Ateş", "2. Yemek", "3. Nöbet"]


def test_a_phase_whose_opening_and_headings_do_not_name_it_is_not_answered():
    # "zar" is a word of the text, but neither phase's opening or headings says it
    assert _asked("Zar Fazı adım adım", "2. Av") == []
    assert [s.split(":")[0] for s in _asked("adım adım ne yapılıyor", "2. Av")] == [
        "1. Yola Çıkış", "2. Av", "3. Dönüş"]  # no phase named: the one retrieved


def test_a_step_reads_on_past_its_first_sentence_within_its_passage():
    # "Odun harcanır." names what is done; "Ateş yanar." is the rest of the step.
    from hakem.steps import STEP_CHARS
    text = TEXT.replace("Odun harcanır.", "Odun harcanır. Ateş yanar.")
    chunks = _chunks(text)
    steps = phase_steps(chunks, next(c for c in chunks if c.heading == "1. Ateş"), text)
    assert text[steps[0].start : steps[0].end] == "Odun harcanır. Ateş yanar."
    # within STEP_CHARS: a long passage is not read to its end
    text = TEXT.replace("Odun harcanır.", "Odun harcanır. " + "Uzun bir cümle. " * 40)
    chunks = _chunks(text)
    steps = phase_steps(chunks, next(c for c in chunks if c.heading == "1. Ateş"), text)
    assert text[steps[0].start :].startswith("Odun harcanır. Uzun bir cümle.")
    assert steps[0].end - steps[0].start <= STEP_CHARS
