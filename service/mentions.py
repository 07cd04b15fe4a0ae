"""A player's question as tokens, and where a quantity's names occur in it.

What it does: reads the question as numbers (digits, Turkish number words, folded "bes"/"uc",
a few English ones), words folded without diacritics, and list separators; and finds each
alias of a quantity among them, with Turkish suffixes, consonant softening ("talebim" for
"talep") and one-letter typos in long words allowed; and whether phrases are said and not
denied ("liman yok", "Deney C değilim": ``all_said``, for a formula's ``needs``,
``also_when`` and a quantity's ``setup_when``). What it does not do: decide which number
counts which quantity (``bind``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from .numbers import is_rank, number_spans, numbers_in
from .text import APOSTROPHES, fold, written_present

# "one" is left out: far more often "the one", "round one" than a count.
_ENGLISH_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
                    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
                    "twice": 2}
# A die named by its faces ("d6", "d20") is one word; its digits are not a count.
# A sentence's end is a token too: "Moral 6'ydı. Atık yığınında 21 kart" — the 6 is the
# morale named before it, not the waste pile named after the full stop.
# (An ordinal's full stop, "2. oldum", is no sentence end; before a capital it is: "moral 7.
# Açlık adımından sonra".)
# A die's name may carry its ending unseparated ("d20sini", "d6yı"): the ending is dropped.
_WORD = re.compile(r"\b[dD]\d+(?=[^\W\d_]*\b)|[^\W\d_]+|[,;+&!?]|(?<!\d)\.|\.(?=\s+[A-ZÇĞİÖŞÜ])")
_DIE_BEFORE = re.compile(r"\b[dD]\d+$")
_SOFTENED = {"p": "b", "t": "d", "k": "g", "c": "c"}  # folded: ç→c, ğ→g


@dataclass(frozen=True)
class Token:
    text: str  # folded word, a separator, or "" for a number
    start: int
    end: int
    number: float | None = None


def tokens(question: str) -> list[Token]:
    """Numbers and folded words of the question in order; a suffix after an apostrophe
    ("survivor'ım", "13'ü") is dropped, as it says nothing about what is counted."""
    # A rank word ("ikinci", "üçüncü") keeps its word too: it may be a quantity's name
    # ("birinde ikinci en ilerideydim" counts second places) or a rank's number ("ikinci
    # sıradayım").
    out = [Token(fold(question[s:e]) if is_rank(question[s:e]) else "", s, e, v)
           for s, e, v in number_spans(question)]
    taken = [(t.start, t.end) for t in out]
    for m in _WORD.finditer(question):
        if any(s <= m.start() < e for s, e in taken):
            continue
        # a suffix after an apostrophe ("survivor'ım"); an apostrophe opening a quote
        # ("kart 'her bant başına 1 jeton' diyo") starts a word
        if m.start() > 1 and question[m.start() - 1] in APOSTROPHES \
                and question[m.start() - 2].isalnum():
            continue
        word = written_present(fold(m.group()))
        glued = m.start() and question[m.start() - 1].isdigit()
        if glued and m.group()[0].isalpha() and _DIE_BEFORE.search(question[: m.start()]):
            continue  # the die's own ending: "d20sini"
        if word in _ENGLISH_NUMBERS and glued:
            continue  # "3ten": 3 with its ending, not 3 and the English "ten" ("4x" stays)
        if word in _ENGLISH_NUMBERS:
            out.append(Token("", m.start(), m.end(), float(_ENGLISH_NUMBERS[word])))
        else:
            out.append(Token(word, m.start(), m.end()))
    return sorted(out, key=lambda t: t.start)


@lru_cache(maxsize=1 << 16)  # pure, and asked for the same pairs question after question
def word_matches(token: str, alias_word: str) -> bool:
    """A question word is a form of an alias word: the word itself, or it with a Turkish
    ending ("kalanım", "jetonlarımız"), also after consonant softening ("talebim")."""
    if token == alias_word:
        return True
    room = 8 if len(alias_word) >= 4 else 3
    if token.startswith(alias_word):
        return len(token) - len(alias_word) <= room
    last = alias_word[-1:]
    if len(alias_word) >= 4 and last in _SOFTENED:
        soft = alias_word[:-1] + _SOFTENED[last]
        if token.startswith(soft) and len(token) - len(soft) <= room:
            return True
    # A typo in a long word ("toplulk" for "topluluk"): one letter off, suffix allowed.
    return len(alias_word) >= 7 and any(
        _one_edit(token[:n], alias_word) and len(token) - n <= room
        for n in range(len(alias_word) - 1, min(len(token), len(alias_word) + 1) + 1))


# The possessive that closes a compound's head ("yerleşim ikonu", "atık yığını"), folded.
_COMPOUND_END = re.compile(r"(?<=[^aeiou])(?:s?[iu])$")


def _head_matches(token: str, alias_word: str) -> bool:
    """The head of a compound alias with another ending in place of its possessive:
    "yerleşim ikonlu" and "yerleşim ikonları" for "yerleşim ikonu"."""
    head = _COMPOUND_END.sub("", alias_word)
    return head != alias_word and len(head) >= 4 and word_matches(token, head)


def _one_edit(a: str, b: str) -> bool:
    """a and b differ by one inserted, deleted or replaced letter (or not at all)."""
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[i + 1:] == b[i + 1:] or a[i:] == b[i + 1:] or a[i + 1:] == b[i:]


@dataclass(frozen=True)
class Mention:
    quantity: str
    first: int  # token indexes, inclusive
    last: int
    tail: str = ""  # the ending the last word adds to its alias ("lerim" of "kalelerim")
    alias: str = ""  # the alias it matched, folded


@lru_cache(maxsize=4096)
def _alias_words(alias: str) -> tuple[str, ...]:
    return tuple(fold(w) for w in re.findall(r"[^\W_]+", alias.replace("'", " ")))


def _is_number(tok: Token, word: str, size: int) -> bool:
    """A phrase's digits name the number said with its noun ("2 altıgenli": the settlement
    of two hexes); a number alone is no phrase ("+1" is said of every 1)."""
    return size > 1 and word.isdigit() and tok.number == int(word) and not tok.text


def mentions(toks: list[Token], aliases: Iterable[tuple[str, str]]) -> list[Mention]:
    """Where each (quantity, alias) occurs, longest aliases first, each word used once."""
    found: list[Mention] = []
    used: set[int] = set()
    for name, alias in sorted(aliases, key=lambda a: (-len(_alias_words(a[1])), -len(a[1]))):
        words = _alias_words(alias)
        if not words:
            continue
        for i in range(len(toks) - len(words) + 1):
            span = range(i, i + len(words))
            if any(j in used or (toks[j].number is not None and not toks[j].text
                                 and not _is_number(toks[j], words[j - i], len(words)))
                   for j in span):
                continue
            if all(_is_number(toks[j], w, len(words)) or word_matches(toks[j].text, w)
                   or (j == span[-1] and len(words) > 1 and _head_matches(toks[j].text, w))
                   for j, w in zip(span, words, strict=True)):
                said = toks[i + len(words) - 1].text
                cut = len(words[-1]) if said.startswith(words[-1]) else len(words[-1]) - 1
                found.append(Mention(name, i, i + len(words) - 1, said[cut:], " ".join(words)))
                used.update(span)
    return sorted(found, key=lambda m: m.first)


# "Deney C değilim", "C deneyi yok bende": the case a formula needs, said not to hold
_NOT = re.compile(r"degil|yok$|olmayan|olmadig|not$")
# The noun a phrase names, in its compound form ("Deney C türbini"): the denial may follow it.
_COMPOUND = re.compile(r"[a-z]+(?:s?[iu])$")
# A question particle, folded: what comes before it is asked, not said.
_ASKS = frozenset(("mi", "mu", "misin", "miyim", "miyiz", "musun", "muyum", "muyuz", "midir",
                   "mudur", "miydi", "muydu", "misiniz", "musunuz"))


def said_not_denied(toks: list[Token], phrase: str) -> bool:
    """The phrase is said: not asked (a question particle right after it: "Legend'lar dahil
    mi"), and not denied by the word right after it or after the noun it names ("Deney C
    türbini yok"); "değil mi" asks, it denies nothing."""
    def denied(at: int) -> bool:
        return at < len(toks) and bool(_NOT.match(toks[at].text)) and not (
            at + 1 < len(toks) and toks[at + 1].text in _ASKS)
    def noun(at: int) -> bool:
        return at < len(toks) and toks[at].number is None and bool(
            _COMPOUND.fullmatch(toks[at].text))
    def asked(at: int) -> bool:  # "legendlar dahil mi": whether it holds is the question
        return at < len(toks) and toks[at].text in _ASKS
    return any(not (denied(m.last + 1) or asked(m.last + 1)
                    or (noun(m.last + 1) and denied(m.last + 2)))
               for m in _phrase_mentions(toks, phrase))


def _phrase_mentions(toks: list[Token], phrase: str) -> list[Mention]:
    """Where a phrase is said; one that opens with a number ("2 altıgen", "ikisini de ben")
    is said with that number, in digits or words ("iki altıgenli", "2 altigenli")."""
    first, _, rest = phrase.partition(" ")
    value = next(iter(numbers_in(first)), None) if rest else None
    if value is None:
        return mentions(toks, [(phrase, phrase)])
    # (a rank word is no count: "ikinci altıgene" says no "2 altıgen"; a short word is said
    # as it is: "ikisi de benden önde" is not "ikisini de ben")
    short = [(k, fold(w)) for k, w in enumerate(rest.split()) if len(w) <= 3]
    return [Mention(m.quantity, m.first - 1, m.last, m.tail, phrase)
            for m in mentions(toks, [(rest, rest)])
            if m.first and toks[m.first - 1].number == value and not toks[m.first - 1].text
            and all(toks[m.first + k].text == w for k, w in short)]


def all_said(toks: list[Token], phrases: tuple[str, ...]) -> bool:
    """Every phrase ("a|b" = either) is said and not denied: a formula's ``needs`` or
    ``also_when``."""
    return all(any(said_not_denied(toks, alt) for alt in need.split("|")) for need in phrases)
