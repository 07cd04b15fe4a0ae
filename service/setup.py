"""Setup, turn and end questions: "ilk kez oynuyoruz, nasıl kuruyoruz", "2 kişi kurulum",
"sıram gelince tam olarak ne yapıyorum?", "oyun ne zaman biter?".

What it does: ``setup_request`` tells whether a question asks how to set the game up (words
of setting up or of playing for the first time, with at most a game name, a player count
and question words beside them) and for how many players; ``setup_text`` words the
lesson's setup checklist for that count as one answer, each line a rule sentence with its
place; ``turn_request`` / ``end_request`` and ``answer_lesson_part`` do the same for how a
turn is played and how the game ends, with the lesson's turn steps or its end of game.
What it does not do: pick the game, retrieve passages or build the checklist (``engine``,
``lesson``); a question about setting up one thing ("barikat nasıl kurulur") is not a
setup question.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .answer import Answer, AnswerSpan
from .chunks import Chunk
from .corpus import Corpus
from .facts import Fact
from .lesson import build_lesson, lesson_part
from .lesson_model import Lesson, part
from .numbers import number_spans
from .players import WE_COUNT, stated_players
from .question import is_spoken_wh
from .retrieve import Hit, Retrieval
from .text import fold

# Folded words that ask for the setup as a whole.
_SETUP_NOUNS = re.compile(r"^(kurulum\w*|hazirli\w*|setup|kurmak|kurulus\w*)$")
# Verb forms of setting up and starting, formal and as typed ("kuruyoz", "başlıcaz").
_SETUP_VERBS = re.compile(r"^(kur(uyo|ar|aca|alim|ulur|ulacak|ulmal|mali|ayim|sak|ucaz|caz)"
                          r"\w*|hazirl\w*|basl(ar|an|iyo|ayaca|ica|amak|amali|anir|ayal)\w*)$")
_FIRST_TIME = re.compile(r"\bilk (kez|defa|oyun|kere)\b|\bhic oynamad|\byeni basla")
# Words that may stand beside the setup words without making the question about something
# else: question words, "oyun", "biz", "ilk kez", counts of players.
_FILLER = frozenset(fold(w) for w in (
    "nasıl", "ne", "neler", "nedir", "yapılır", "yapıyoruz", "yapacağız", "yaparız", "mı",
    "mi", "mu", "mü", "oyun", "oyunu", "oyunun", "oyuna", "oyunda", "biz", "ben", "ilk",
    "kez", "defa", "kere", "oynuyoruz", "oynayacağız", "oynarız", "oynamak", "oynayacağım",
    "peki", "ya", "ve", "için", "ile", "kişi", "kişiyiz", "kişiyle", "kişilik", "kişiysek",
    "oyuncu", "oyuncuyuz", "oyunculu", "oyuncuyla", "oyuncuysak", "solo", "tek", "başına",
    "masa", "masayı", "başta", "önce", "adım", "adımları", "adımlar", "anlat", "anlatır",
    "musun", "misin", "lütfen", "the", "how", "to", "players", "player", "we", "are",
    "kurallar", "kuralları", "yeni", "hiç", "oynamadık", "başlarken", "kutu", "kutuyu",
    "nası", "yapıyoz", "oynuyoz", "oynucaz", "maç", "maçı", "öncesi", "te", "ta", "de", "da",
    "yi", "yı", "u", "ü", "i", "ı", "nda", "nde",
    # "kurulum hangi adımlardan oluşur", "kurulum adımları sırasıyla nelerdir"
    "hangi", "adımlardan", "adımlarla", "adımlarını", "oluşur", "oluşuyor", "oluşuyo",
    "sırayla", "sırasıyla", "nelerdir", "steps", "what", "of",
    # "2 kişi kurulum nasıl oluyo": how it goes
    "oluyor", "oluyo", "olur",
))
_PLAYERS = re.compile(r"^(kisi|oyuncu)\w*$|^players?$")
# Any form of "oynamak" (to play: "oynıcaz", "oynayacağız") and of what changes or differs
# ("kurulumda ne değişiyo", "farkı ne"): beside the setup words they ask for the setup, for
# the player count given.
_PLAY_OR_CHANGE = re.compile(r"^(oyn|degis|fark)\w*$")


@dataclass(frozen=True)
class SetupRequest:
    players: int | None  # the player count the question states, if any


def setup_request(question: str, game_words: frozenset[str] = frozenset(),
                  is_topic: Callable[[str], bool] | None = None) -> SetupRequest | None:
    """A setup question and its player count; None for any other question. ``game_words``
    are the folded words of the game's name as typed (they are not content); with
    ``is_topic``, a word it rejects (one the rules never use) is not content either."""
    folded = fold(question)
    tokens = re.findall(r"[a-z0-9]+", folded.replace("'", " ").replace("’", " "))
    noun = any(_SETUP_NOUNS.match(t) for t in tokens)
    verb = any(_SETUP_VERBS.match(t) for t in tokens)
    first = bool(_FIRST_TIME.search(folded))
    if not (noun or verb or first):
        return None
    players = stated_players(question)
    other = [t for t in tokens if not (t in _FILLER or t in game_words or t.isdigit()
                                       or _SETUP_NOUNS.match(t) or _SETUP_VERBS.match(t)
                                       or _PLAYERS.match(t) or _is_number_word(t)
                                       or _PLAY_OR_CHANGE.match(t) or t in WE_COUNT
                                       or _aside(t, is_topic))]
    # "barikat nasıl kurulur" sets one thing up; "kurulum" or "ilk kez oynuyoruz" with only
    # a game, a count and question words around them asks for the whole setup.
    # Playing for the first time and asking how to set up is a setup question whatever else
    # it asks beside ("hangi güçleri alıyoruz"): the checklist answers those parts too.
    if (first and (noun or verb)) or not other:
        return SetupRequest(players)
    return None


# "sıram gelince ne yapıyorum", "turumu nasıl oynarım", "bir tur nasıl oynanır": how a turn
# goes, as a whole, with nothing else asked beside it.
# ("bir raunt hangi aşamalardan oluşur": a round as a whole, where the game plays in rounds.)
_TURN = re.compile(r"^(sira\w*|tur|turu\w*|turum\w*|turun\w*|turda|turlar\w*|turn\w*"
                   r"|rau?n[dt]\w*|round\w*)$")
_TURN_FILLER = frozenset(fold(w) for w in (
    "nasıl", "nası", "ne", "neler", "yapıyorum", "yapıyoruz", "yapıyoz", "yaparım", "yaparız",
    "yapılır", "yapar", "yapmalıyım", "yapmam", "yapabilirim", "yapıyom", "oynarım",
    "oynanır", "oynuyoruz", "oynuyoz", "oynanıyor", "oynanıyo", "oynamalıyım", "oynayacağım",
    "oynarız", "geldiğinde", "gelince", "geldi", "gelen", "gelir", "bana", "ben", "benim",
    "biz", "bizim", "tam", "olarak", "bir", "bi", "her", "oyuncu", "oyuncunun", "sırası",
    "abi", "kanka", "ya", "peki", "acaba", "mi", "mı", "oyunda", "oyun", "in", "my", "how",
    "do", "i", "play", "what", "on", "a", "the", "te", "ta", "de", "da", "adım", "adım",
    "işler", "işliyor", "geçer", "geçiyor",
    # "hangi adımlardan oluşur", "hangi phase'lerden oluşuyo, sırası ne": its parts in order
    "hangi", "adımlardan", "adımlarla", "adımları", "adımlar", "adımlarını", "oluşur",
    "oluşuyor", "oluşuyo", "ilerler", "ilerliyor", "sırayla", "sırasıyla", "neler", "nelerdir",
    "aşama", "aşamalar", "aşamalardan", "aşamaları", "faz", "fazlar", "fazlardan", "fazları",
    "phase", "phases", "lerden", "ları", "leri", "steps", "of", "are", "which"))


# The end of the game as a whole: "ne zaman biter", "nasıl sona erer", "when does it end".
_END = re.compile(r"^(bit(er|iyor|iyo|ecek|icek|ti|tiginde|ince|is|isi|mesi)?|sona|erer"
                  r"|eriyor|eriyo|end|ends|over)$")
_END_FILLER = _TURN_FILLER | frozenset(fold(w) for w in (
    "zaman", "ne", "when", "does", "did", "is", "it", "game", "of", "oyunu", "oyunun", "tam",
    "olarak", "nasıl", "nası", "oluyor", "oluyo"))


def _aside(token: str, is_topic: Callable[[str], bool] | None) -> bool:
    """A word that asks nothing about a topic: a spoken question word ("napıyoz", "noluyo"),
    or, with ``is_topic``, a word the rules never use ("zmn", "abicim")."""
    return is_spoken_wh(token) or (is_topic is not None and not is_topic(token))


# Asking to be taught ("kısaca anlatır mısın", "açıklar mısın", "explain"), for players who
# have not played before ("ilk kez oynayacaklara"), and any form of doing or playing
# ("yaptığını", "oynayacaklara": the fixed forms above, inflected): none names a topic.
_TEACHING = re.compile(r"^(anlat|acikla|ozetle|ogret|explain|kisaca|mi(sin|siniz)$|yap|oyna)")


def _whole(question: str, cue: re.Pattern[str], filler: frozenset[str],
           game_words: frozenset[str], is_topic: Callable[[str], bool] | None) -> bool:
    folded = _FIRST_TIME.sub(" ", fold(question))
    tokens = re.findall(r"[a-z0-9]+", folded.replace("'", " ").replace("’", " "))
    if not any(cue.match(t) for t in tokens):
        return False
    return all(cue.match(t) or t in filler or t in game_words or _aside(t, is_topic)
               or _TEACHING.match(t) for t in tokens)


def turn_request(question: str, game_words: frozenset[str] = frozenset(),
                 is_topic: Callable[[str], bool] | None = None) -> bool:
    """The question asks how a turn is played, as a whole ("sıram gelince tam olarak ne
    yapıyorum?"), with at most a game name and question words beside it; "sıram gelince
    aksiyon karosuyla ne yapabilirim" asks about one thing and is not."""
    return _whole(question, _TURN, _TURN_FILLER, game_words, is_topic)


def end_request(question: str, game_words: frozenset[str] = frozenset(),
                is_topic: Callable[[str], bool] | None = None) -> bool:
    """The question asks how the game ends, as a whole ("rebirth ne zaman bitiyo tam
    olarak", "When does a game of Rebirth end?"); "deste bitince ne olur" is about a deck."""
    return _whole(question, _END, _END_FILLER, game_words, is_topic)


def _is_number_word(token: str) -> bool:
    return bool(number_spans(token))


def setup_text(lesson: Lesson) -> str:
    """The setup checklist as one answer: a heading line, then one numbered rule a line."""
    setup = part(lesson, "setup")
    who = f" ({lesson.players} oyuncu)" if lesson.players else ""
    lines = [f"{lesson.name} kurulumu{who}:"]
    if setup.note:
        lines.append(setup.note)
    for i, it in enumerate(setup.items, 1):
        label = f"{it.label}: " if it.label else ""
        lines.append(f"{i}. {label}{' '.join(it.text.split())} ({it.where})")
    return "\n".join(lines)


def answer_setup(retrieval: Retrieval, corpus: Corpus, chunks: tuple[Chunk, ...],
                 facts: tuple[Fact, ...], k: int = 5,
                 is_topic: Callable[[str], bool] | None = None) -> Answer | None:
    """The setup checklist as the answer to a setup question, None for any other question;
    "not in the text" when the game's text has no setup rule for that player count."""
    request = setup_request(retrieval.query, is_topic=is_topic)
    if request is None:
        return None
    if retrieval.game is None or retrieval.game_source == "content":
        names = ", ".join(g.name for g in corpus.games)
        return Answer(question=retrieval.question, game=None, game_source="none",
                      abstained=True, answer=("Hangi oyunu kuruyorsunuz? Oyunun adını yazın "
                                              f"ya da seçin: {names}."),
                      answer_span=None, passages=(), facts=(), reason="setup_without_game")
    game = corpus.game(retrieval.game)
    lesson = build_lesson(game.id, game.name, game.text, chunks, facts, request.players)
    setup = part(lesson, "setup")
    items = setup.items
    if not items:  # said plainly, not answered from some unrelated sentence
        who = f" {request.players} oyuncu için" if request.players else ""
        return Answer(question=retrieval.question, game=game.id,
                      game_source=retrieval.game_source, abstained=True,
                      answer=(setup.note if "içindir" in setup.note
                              else f"{game.name} metninde{who} kurulum kuralı yok."),
                      answer_span=None, passages=(), facts=(), reason="setup_not_in_text")
    hits: list[Hit] = []
    for it in items:
        chunk = next((c for c in chunks if c.game == game.id and c.start <= it.start < c.end),
                     None)
        if chunk is not None and all(h.chunk.id != chunk.id for h in hits):
            hits.append(Hit(chunk, 1.0, 0.0, 0.0))
    first = items[0]
    return Answer(question=retrieval.question, game=game.id,
                  game_source=retrieval.game_source, abstained=False, answer=setup_text(lesson),
                  answer_span=AnswerSpan(game.id, first.start, first.end),
                  passages=tuple(hits[:k]), facts=())


def answer_lesson_part(retrieval: Retrieval, corpus: Corpus, chunks: tuple[Chunk, ...],
                       facts: tuple[Fact, ...], k: int = 5,
                       is_topic: Callable[[str], bool] | None = None) -> Answer | None:
    """The lesson's turn, step by step, as the answer to "how do I play my turn", or its end
    of game to "when does the game end"; None for any other question, or when the game is
    not known or its text describes neither (the ordinary pipeline then answers)."""
    if retrieval.game is None or retrieval.game_source == "content":
        return None
    key = "turn" if turn_request(retrieval.query, is_topic=is_topic) else \
        "end" if end_request(retrieval.query, is_topic=is_topic) else ""
    if not key:
        return None
    game = corpus.game(retrieval.game)
    section = lesson_part(game.id, game.name, game.text, chunks, facts, key)
    if not section.items:
        return None
    lines = [f"{game.name}: {section.title}"]
    if section.note:
        # Rules gathered from across the text ("Metinde ayrı bir tur bölümü yok …"): the
        # player is told the steps are not the rules' own order of play.
        lines.append(section.note)
    lines += [f"{i}. {it.label + ': ' if it.label else ''}{' '.join(it.text.split())} ({it.where})"
              for i, it in enumerate(section.items, 1)]
    hits: list[Hit] = []
    for it in section.items:
        chunk = next((c for c in chunks if c.game == game.id and c.start <= it.start < c.end),
                     None)
        if chunk is not None and all(h.chunk.id != chunk.id for h in hits):
            hits.append(Hit(chunk, 1.0, 0.0, 0.0))
    spans = tuple(AnswerSpan(game.id, it.start, it.end) for it in section.items)
    return Answer(question=retrieval.question, game=game.id,
                  game_source=retrieval.game_source, abstained=False,
                  answer="\n".join(lines), answer_span=spans[0], passages=tuple(hits[:k]),
                  facts=(), spans=spans, kind="how_why")
