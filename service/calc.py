"""The rule calculator: the player's own numbers put through the formula the rules state.

What it does: for a question and its game, picks the formula that answers it (what is
asked — "kaç zar" — and the topic's words, and how many of its quantities the question
states), binds the question's numbers to its quantities (``bind``), works out a quantity
another rule gives first (``chain``), has the formula worked out (``working``), and, when
several rules change one stated total, applies them all (``events``). Two rules that fit as
well and disagree give no number: better none than a guess. A rulebook's worked example is
never the player's result.

What it does not do: parse or check the rules files (``formulas``), evaluate a formula
(``working``, ``expr``), retrieval, or abstention (a calculation is offered only for a game
the engine knows).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from .asks import asked_nouns, asked_window
from .bind import Binding, bind
from .chain import chain
from .corpus import Corpus
from .events import Candidate, combine
from .exchange import exchanged
from .formulas import Formula, load_formulas
from .mentions import Token, all_said, mentions, word_matches
from .text import fold, words
from .working import Calculation, asks_state, calculate, matched

ASKED, ASKED_ANYWHERE, KEYWORD, BOUND, MISSING = 3.0, 1.0, 1.0, 1.5, 1.0
MIN_SCORE = 3.0
AMBIGUOUS = 0.5  # score gap under which two formulas fit a question equally


_NOW = frozenset(("simdi", "artik", "su", "an", "suan"))  # folded


def _step(formula: Formula, question: str, binding: Binding) -> Calculation:
    return calculate(formula, question, binding, as_step=True)


# "kaç kart az çekiyom", "kaç eksik": the question asks by how much a count drops, not the
# count; "en az" is a minimum, no drop.
_DROP = frozenset(("az", "eksik", "fark", "farki", "fewer", "less"))
_SAYS_DROP = re.compile(r"(?<!\ben )\baz\b|eksik|azalma|fark|fewer|less", re.IGNORECASE)


def _asks_drop(asked: list[Token]) -> bool:
    words = [t.text for t in asked]
    return any(w in _DROP and not (i and words[i - 1] == "en") for i, w in enumerate(words))


def _asks_constant(asked: list[Token], formula: Formula) -> bool:
    """What is asked names one of the rule's own constants and not its result: "havuzdan
    kaç karo kutuya geri koyuyoruz" asks the 9 tiles returned, which the rules state, not
    the 27 left that the formula works out from them."""
    result = {fold(w) for w in words(f"{formula.say} {formula.unit}")}
    labels = dict(formula.labels)
    # ... said beside the thing counted ("kaç karo kutuya"), not as the moment it is asked
    # at ("artıştan sonra kaç olur").
    return bool(mentions(asked, [("", a) for a in formula.asks])) and any(
        len(w) >= 4 and not any(word_matches(r, fold(w)) or word_matches(fold(w), r)
                                for r in result)
        and mentions(asked, [(name, w)])
        for name, _ in formula.given for w in words(labels.get(name, name)))


@dataclass(frozen=True)
class Calculator:
    """Every formula of the corpus, loaded and checked once (``Engine.load``)."""

    formulas: tuple[Formula, ...]

    @classmethod
    def from_corpus(cls, corpus_dir: Path, corpus: Corpus) -> Calculator:
        return cls(load_formulas(corpus_dir, corpus))

    def calculate(self, question: str, game: str, asked: list[Token] | None = None,
                  about: list[Token] | None = None) -> Calculation | None:
        """The calculation a question asks for, or None when no formula of the game
        applies (the question asks neither a number nor a ruling a formula's verdict
        decides from the player's stated numbers, or states none the formula counts).
        ``asked``: what is asked, when ``question`` is one clause of a longer one;
        ``about``: the words a formula's topic is judged on, when the question asks
        several things (by default, the whole question)."""
        question = unicodedata.normalize("NFC", question)
        toks, asks_number = asked_window(question)
        # No number asked ("Kriz önlenir mi?", "kaybettik mi?", "moral ne olur?"): only a
        # formula whose rule decides something from its result answers, fully given and
        # with a ruling that holds; the ruling is the answer, worked out.
        ruling_only = asked is None and not asks_number
        asked = asked_nouns(toks) if asked is None else asked
        scored: list[tuple[float, Candidate, Binding, tuple[Calculation, ...]]] = []
        game_formulas = tuple(f for f in self.formulas if f.game == game)
        drop = _asks_drop(asked)
        state_asked = asks_state(question)
        bare = not [t for t in asked if t.text.isalpha() and t.text not in _NOW]  # "şimdi kaç"
        # A step is worked out by the rule about the question's topic first: three rules give
        # the trees to remove (Çölleşme, Amazon), the one the question names does here; a rule
        # of an event, only when its event is named.
        producers = tuple(sorted(
            (f for f in game_formulas if f.moment != "on-event" or matched(toks, f.keywords)),
            key=lambda f: -matched(toks, f.keywords)))
        # A swap said but not read (two swaps, a die named twice, the rival's total asked):
        # the plain total of the items swapped would count the rival's dice as the player's.
        unread_swap = {f.exchange[0] for f in game_formulas if f.exchange
                       and all_said(toks, f.needs) and exchanged(question, f) is None}
        for formula in game_formulas:
            if ruling_only and not formula.verdicts:
                continue
            if unread_swap & {q.name for q in formula.quantities}:
                continue
            if drop and not _SAYS_DROP.search(formula.say):
                continue  # the count itself ("4 kart") would read as the drop asked for
            if not all_said(toks, formula.needs):
                continue
            kept = [(q.name, a) for q in formula.quantities if q.name == formula.kept
                    for a in q.aliases]
            # "yeni skorum kaç" after a scoring move asks the score the result is added to
            # (so does a bare "şimdi kaç" after the score was stated: "skorum 80di, şimdi kaç")
            asks_kept = bool(kept) and state_asked and bool(
                mentions(asked, kept) or (bare and mentions(toks, kept)))
            asked_score = ASKED_ANYWHERE if ruling_only else ASKED if asks_kept or matched(
                asked, formula.asks) else ASKED_ANYWHERE if matched(toks, formula.asks) else 0.0
            if asked_score and _asks_constant(asked, formula):
                continue
            if asked_score == ASKED_ANYWHERE and not ruling_only and mentions(
                    asked, [(q.name, a) for q in formula.quantities if q.name != formula.kept
                            for a in q.aliases]):
                continue  # "kaç jetonda 2 kart eksik çekeriz" asks an input, not the result
            topic = matched(about or toks, formula.keywords) * KEYWORD if asked_score else 0.0
            # The topic of a quantity another rule gives is this rule's too: "stokta 2
            # yiyecek … moral kaç düşer" is about hunger's morale though it never says "açlık".
            # (Scored below only when that rule is worked out as a step.)
            if not asked_score or not (topic or any(
                    f.gives in {q.name for q in formula.quantities}
                    and matched(toks, f.keywords) for f in game_formulas if f.id != formula.id)):
                continue  # a formula answers what is asked, about its own topic
            stated = exchanged(question, formula) if formula.exchange \
                else bind(question, formula.quantities)
            if stated is None:
                continue  # the swap is said, but not which items or their values
            binding, steps, read = chain(formula, question, stated, producers, _step)
            calc = calculate(formula, question, binding, steps) if steps else None
            half = calc if calc is not None and calc.missing else None
            if half is not None:
                # A step is worth working out only for a result: still half given, the
                # formula is judged on what the question itself states (the step's
                # numbers still count as the question's: they are about this rule), and
                # says only what is still missing.
                binding, steps, calc = stated, (), None
            # A count of 0 is rarely the player's situation ("belirteci 0'a koyarsam" names
            # the 0 space): a formula needs some non-zero number of the question.
            # What the question states, a 0 included ('0 eşleşmeyen'), unlike ``bound``.
            own = {q.name for q in formula.quantities if stated.values.get(q.name)}
            bound = read + sum(1 for q in formula.quantities if q.name != formula.kept
                               and any(stated.values.get(q.name, ())))
            # (the running total a result is added to is no number the rule takes)
            takes = any(q.name != formula.kept for q in formula.quantities)
            if takes and not bound:
                continue
            if not takes and asked_score + topic < ASKED_ANYWHERE + 2 * KEYWORD:
                continue  # no number of the question to go on: the words must say it all
            calc = calc or calculate(formula, question, binding)
            if calc.missing and asked_score < ASKED:
                continue  # a formula only half given is offered only for what is asked
            if set(calc.missing) & {q.label for q in formula.quantities if q.counted}:
                continue  # a limit the question does not count ("2. türbinim" is no count)
            if ruling_only and (not calc.rulings or len(own) < 2 or any(
                    q.name not in own for q in formula.quantities if q.name != formula.kept)):
                # A number nobody asked for, or a rule question with one number in it
                # ("1 €$ olarak harcarsam Eddie sayılır mı"): the player's state is two or
                # more numbers of their own, every one the rule counts.
                continue
            # A step worked out first speaks to its own topic too ("yiyecek kaldı" for the
            # morale that hunger costs).
            topic += sum(matched(toks, f.keywords) * KEYWORD for f in game_formulas
                         for step in steps if f.id == step.formula)
            score = asked_score + topic + BOUND * bound - MISSING * len(calc.missing)
            if score >= MIN_SCORE:
                scored.append((score, Candidate(formula, half or calc, topic), binding, steps))
        # A rule whose result another fitting rule takes, and whose topic the question names
        # no more than that rule's, is a step: "… 6 kirli + 4 emisyon … termometreye kaç
        # küp" asks what the sequestering leaves; the emissions added (29) would read as it.
        scored = [s for s in scored if not any(
            s[1].formula.gives and s[1].formula.gives in {q.name for q in c.formula.quantities}
            and c.topic >= s[1].topic for _, c, _, _ in scored)]
        scored.sort(key=lambda sc: -sc[0])
        if scored and state_asked:
            # "moral 6 … açlık … kriz … moral kaç olur": every change the question works
            # out is applied to the total it states (see ``events``)
            worked = {c.formula.id: (b, st) for _, c, b, st in scored}
            joined = combine([c for _, c, _, _ in scored], scored[0][2].spans,
                             lambda f: calculate(f, question, *worked[f.id], as_step=True))
            if joined is not None:
                return joined
        ranked = [(sc, c.calc) for sc, c, _, _ in scored]
        if len(ranked) > 1 and ranked[0][0] - ranked[1][0] < AMBIGUOUS \
                and ranked[0][1].value != ranked[1][1].value:
            return None  # two rules fit as well and disagree: better no number than a guess
        return ranked[0][1] if ranked else None

    def situation(self, question: str, game: str) -> bool:
        """The question states the player's own numbers (a count some formula of the game
        takes) and asks for a number: the answer is a computation, not a rule's number."""
        question = unicodedata.normalize("NFC", question)
        if not asked_window(question)[1]:
            return False
        quantities = {q.name: q for f in self.formulas if f.game == game for q in f.quantities}
        stated = bind(question, quantities.values()).values
        return any(x for values in stated.values() for x in values)  # "0 alanı" is a name
