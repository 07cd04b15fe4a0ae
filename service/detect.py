"""Which game a question names: aliases from ``games.toml``, typo- and suffix-tolerant.

What it does: finds a game's name or alias among the question's words ("DoW", "dead of
wintr'da", "Daybreakte", "Cyberpnk"), and spots names of games Hakem does not know (a proper
noun with a Turkish case suffix, "Catan'da", whose word is nowhere in the corpus; or a word
that is not Turkish opening the question before a suffix, "azulda", "scythe oyununda"). What it
does not do: guess the game from the question's content; that is retrieval's job, since the
passages themselves are the best evidence (see ``retrieve``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from .corpus import Game
from .text import casefold_tr, fold

_WORD = re.compile(r"[^\W_]+", re.UNICODE)
# How a question names a game: the locative after an apostrophe ("Catan'da", "Azul'deki":
# Turkish writes one only after a proper noun), a capitalised name before "oyun" ("Catan
# oyununda"; lowercase "hangi oyunda" is not a name), or English "in Catan". Only the
# locative: every other game named so in the read sets' questions is in it, and a friend's
# name takes the other cases ("Ayşe'nin türbini", "Ayşe'yle berabere", "Mert'in jetonları":
# three refusals on blind probe35 / situations30).
_NAMED = re.compile(
    r"([^\W\d_][\w]*)['’](?:n?[dt][ae](?:ki)?)\b"
    r"|\b([A-ZÇĞİÖŞÜ][\w]*)\s+(?=[oO]yun(?:u|unda|unu|da|de)?\b)"
    r"|\b[iI]n\s+([A-Z][\w]*)\b")


@dataclass(frozen=True)
class GameMention:
    game: str
    alias: str
    exact: bool
    start: int = 0  # where the mention stands in the question (characters)
    end: int = 0


def _tokens(text: str) -> list[str]:
    return [fold(w) for w in _WORD.findall(casefold_tr(text))]


def _token_spans(text: str) -> list[tuple[str, int, int]]:
    # Words are found in the original text and folded one by one, so offsets stay valid
    # whatever casefolding does to a string's length.
    return [(fold(m.group()), m.start(), m.end()) for m in _WORD.finditer(text)]


def _close(typed: str, alias: str) -> bool:
    if typed == alias:
        return True
    if len(alias) >= 5 and typed.startswith(alias) and len(typed) - len(alias) <= 4:
        return True  # a suffix written without the apostrophe: "daybreakte"
    budget = 0 if len(alias) < 5 else 1 if len(alias) < 10 else 2
    if OSA.distance(typed, alias) <= budget:
        return True
    # A typo and a suffix together, the suffix written without the apostrophe: "dead of
    # wintırda" is "dead of winter" + "da" with one letter wrong.
    return any(typed.endswith(cut) and len(typed) - len(cut) >= 3
               and OSA.distance(typed[: -len(cut)], alias) <= budget for cut in _SUFFIXES)


# Case endings a name takes (folded), longest first so that "daki" is cut before "da".
_SUFFIXES = ("ndaki", "ndeki", "daki", "deki", "taki", "teki", "nda", "nde", "nin", "nun",
             "da", "de", "ta", "te", "in", "un", "yi", "yu", "ye", "ya", "i", "u", "e", "a")


def find_games(question: str, games: tuple[Game, ...]) -> list[GameMention]:
    """Games named in the question, best (longest, exact) mention first; one per game."""
    spans = _token_spans(question)
    tokens = [t for t, _, _ in spans]
    found: dict[str, GameMention] = {}
    best_len: dict[str, int] = {}
    for game in games:
        for alias in game.aliases:
            alias_tokens = _tokens(alias)
            n = len(alias_tokens)
            if not n:
                continue
            target = " ".join(alias_tokens)
            for i in range(len(tokens) - n + 1):
                typed = " ".join(tokens[i : i + n])
                if _close(typed, target) and len(target) > best_len.get(game.id, -1):
                    found[game.id] = GameMention(game.id, alias, typed == target,
                                                 spans[i][1], spans[i + n - 1][2])
                    best_len[game.id] = len(target)
    return sorted(found.values(), key=lambda m: (-best_len[m.game], not m.exact))


def without_mention(question: str, mention: GameMention) -> str:
    """The question with the game's name (and a case suffix after it) taken out.

    Once the game is known, its name only adds noise to ranking: every passage that happens
    to repeat the name would score for it.
    """
    end = mention.end
    suffix = re.match(r"['’]\w+", question[end:])
    if suffix:
        end += suffix.end()
    return (question[: mention.start] + question[end:]).strip()


def unknown_names(question: str, known_words: Container[str], games: tuple[Game, ...],
                  correct: Callable[[str], str] | None = None,
                  is_word: Callable[[str], bool] | None = None,
                  leading: bool = True,
                  is_term: Callable[[str], bool] | None = None) -> list[str]:
    """Names of games that are not in the corpus, on real evidence only: a suffixed proper
    noun ("Catan'da"), a capitalised name before "oyunu", "in Catan", or a lowercase name
    opening the question before a locative ("azulda ...", "root ta ...").

    A candidate is never a name when it is a word players use for the game's things: for a
    name written as a proper noun (apostrophe, capital), ``is_term`` — an English word, a
    corpus term or a glossary term ("Growth Phase'de", "Deck'te", "Opponent"); Turkish
    writes no apostrophe after its own words, so "catan'da" stays a name although "çatan"
    is one. For a lowercase name run into its suffix, ``is_word`` — any of those or a
    Turkish word ("setupta", "masada"). Nor when it is one of the corpus's folded words
    (``known_words``), a typo of one (``correct``), or close to a known game's name.
    Callers skip this when the question names a known game or a game was picked.
    """
    alias_words = {t for g in games for a in g.aliases for t in _tokens(a)}
    names = [(next(g for g in m.groups() if g), is_term) for m in _NAMED.finditer(question)
             if not _with_a_person(question, m.start(), m.end())]
    if is_word is not None and leading:  # an English question names a game "in Catan"
        names += [(name, is_word) for name in _leading_name(question, is_word)]
    out: dict[str, str] = {}
    for name, is_known in names:
        word = fold(name)
        if any(c.isdigit() for c in name):  # "d8'in": dice and other game notation
            continue
        if is_known is not None and is_known(name.split()[0]):
            continue
        if correct is not None and fold(correct(name)) in known_words:
            continue
        if word not in known_words and word not in alias_words and not any(
            _close(word, a) for a in alias_words
        ):
            out.setdefault(word, name)  # "Azul'de" and the leading "azul" are one name
    return list(out.values())


# A personal pronoun in the locative ("bende", "sende", "onda"): what is joined to it in the
# same case is a person too ("bende ve Ayşe'de berabere", "Mert'te ve bende 3'er jeton").
_PRONOUN_LOCATIVE = r"(?:bende|sende|onda|bizde|sizde|onlarda|rakipte|rakibimde)"
_JOINED = r"\s*(?:,|\bve\b|\bile\b|\bveya\b|\bya da\b)\s*"
_PERSON_BEFORE = re.compile(rf"(?i)\b{_PRONOUN_LOCATIVE}{_JOINED}$")
_PERSON_AFTER = re.compile(rf"(?i)^{_JOINED}{_PRONOUN_LOCATIVE}\b")


def _with_a_person(question: str, start: int, end: int) -> bool:
    return bool(_PERSON_BEFORE.search(question[:start]) or _PERSON_AFTER.match(question[end:]))


def distinctive_terms(question: str, game_words: Mapping[str, frozenset[str]],
                      in_dictionary: Callable[[str], bool]) -> dict[str, list[str]]:
    """The question's names and jargon that only one game's rules use, by game: folded
    words of four or more letters found in exactly one game's text and in no dictionary
    (``in_dictionary``: Turkish or English): "stirling", "thaler". Dictionary words are
    left out: in a small corpus "kale" or "puan" may be one game's only by chance."""
    out: dict[str, list[str]] = {}
    for word in dict.fromkeys(fold(w) for w in _WORD.findall(question)
                              if len(w) >= 4 and w.isalpha()):
        owners = [g for g, vocab in game_words.items() if word in vocab]
        if len(owners) == 1 and not in_dictionary(word):
            out.setdefault(owners[0], []).append(word)
    return out


# What players type before the game's name: "abi azulda ...", "kanka root ta ...".
_GREETINGS = frozenset(("abi", "kanka", "hocam", "ya", "selam", "merhaba", "arkadaslar",
                        "bro", "pardon", "soru"))
_LOCATIVE = re.compile(r"(?P<name>\w{3,}?)n?[dt][ae](?:ki)?", re.UNICODE)


# What may follow a game's name: a detached suffix ("root ta") or the word "oyun" itself
# ("scythe oyununda").
_DETACHED = frozenset(("da", "de", "ta", "te", "daki", "deki", "taki", "teki"))
_GAME_WORD = re.compile(r"oyun(?:u|a|da|un|unda|unu|una)?")


def _leading_name(question: str, is_word: Callable[[str], bool]) -> list[str]:
    """The game a lowercase question opens with, in one to three words: "azulda" (suffix run
    on), "root ta" (typed apart), "scythe oyununda", "ticket to ridede"; never when any of
    its words, or the word before its suffix, is a word (``is_word``)."""
    typed = _WORD.findall(casefold_tr(question))
    while typed and fold(typed[0]) in _GREETINGS:
        typed.pop(0)
    for n in (1, 2, 3):
        if len(typed) <= n:
            break
        head, last, after = typed[: n - 1], typed[n - 1], fold(typed[n])
        if after in _DETACHED or _GAME_WORD.fullmatch(after):
            stem_ = last
        elif (m := _LOCATIVE.fullmatch(last)) is not None:
            stem_ = m.group("name")
        else:
            continue
        # A one-word name must be no word with or without its suffix; in a longer one the
        # first word decides ("terraforming mars": "mars" reads as Turkish "marş").
        checked = [head[0]] if head else [last, stem_]
        if not any(w[:1].isdigit() or is_word(w) for w in checked):
            return [" ".join([*head, stem_])]
    return []
