"""The rule calculator: the player's own numbers put through the formula the rules state.

What it does: for a question and its game, picks the formula that answers it (what is
asked — "kaç zar" — and the topic's words, and how many of its quantities the question
states), binds the question's numbers to its quantities (see ``bind``), evaluates it, and
says the result first with its working ("6 zar: 1 temel + 5 hayatta kalan × 1 = 6"), every
rule used cited. When a quantity is missing it says which one and gives the formula instead
of a number (``calc_answer`` makes an answer lead with the result). Every number of a
result is one the question states, one the cited rules state, or the result itself; a
rulebook's worked example is never the player's result.

What it does not do: parse or check the rules files (see ``formulas``), the arithmetic
itself (``expr``), retrieval, or abstention (a calculation is offered only for a game the
engine knows).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .asks import asked_nouns, asked_window
from .bind import Binding, bind
from .chain import chain
from .corpus import Corpus
from .events import Candidate, combine
from .expr import Missing, evaluate, parse_expr
from .formulas import Citation, Formula, load_formulas
from .mentions import Token, mentions, tokens
from .numbers import fmt_number
from .text import fold

MOMENT_WORDS = {"setup": "kurulumda", "start": "oyun başında", "each-round": "her raunt/tur",
                "each-turn": "her oyuncu turunda", "on-event": "olay olduğunda",
                "end": "oyun sonunda", "any": "her an"}
ASKED, ASKED_ANYWHERE, KEYWORD, BOUND, MISSING = 3.0, 1.0, 1.0, 1.5, 1.0
MIN_SCORE = 3.0
AMBIGUOUS = 0.5  # score gap under which two formulas fit a question equally


@dataclass(frozen=True)
class Calculation:
    formula: str
    game: str
    value: float | None  # None when a quantity the formula needs is not in the question
    result: str  # the leading sentence: "6 zar: 1 temel + 5 hayatta kalan × 1 = 6"
    working: str  # the rule, its moment, and what was read from the question
    missing: tuple[str, ...]  # labels of the quantities the question does not state
    citations: tuple[Citation, ...]
    inputs: tuple[tuple[str, float], ...] = ()
    unit: str = ""  # the result's unit: "zar"
    rulings: tuple[str, ...] = ()  # the formula's verdicts that hold for the result
    # where the question states the numbers the result was worked from (character spans)
    read: tuple[tuple[int, int], ...] = ()
    listed: tuple[int, ...] = ()  # how many numbers the question lists for a quantity (2+)


def calculation_json(calc: Calculation | None) -> dict[str, Any] | None:
    """The calculation as the API and ``hakem calc --json`` print it."""
    if calc is None:
        return None
    return {"value": calc.value, "result": calc.result, "working": calc.working,
            "missing": list(calc.missing), "unit": calc.unit, "rulings": list(calc.rulings),
            "citations": [{"game": c.game, "start": c.start, "end": c.end}
                          for c in calc.citations]}


def _labels(formula: Formula) -> dict[str, str]:
    return dict(formula.labels)


def calculate(formula: Formula, question: str, binding: Binding,
              steps: tuple[Calculation, ...] = (), as_step: bool = False) -> Calculation:
    """The formula worked out for the numbers bound from the question (and for the
    quantities ``steps`` worked out first, see ``chain``). As a ``step`` of another
    formula (``as_step``), its result is the amount itself, never what the question asks
    it becomes."""
    env = dict(formula.given)
    inputs = []
    unclear: dict[str, tuple[float, ...]] = {}
    one_each: set[str] = set()  # named more often than the question gives it a number
    for q in formula.quantities:
        stated = binding.values.get(q.name)
        if q.name == formula.kept:
            continue  # what the result is taken from or added to, not an input of the rule
        if stated and len(stated) > 1 and not q.summed:
            # Several numbers for one quantity the rule does not add up ("2 karakterle
            # başladım, iki survivor daha kazandım", "4 karakter kolonide, 2 hastanede"):
            # which one counts, or whether they add, is the player's to say; picking one
            # gave a confident wrong total.
            unclear[q.name] = tuple(stated)
        elif stated and f"pairs({q.name})" in formula.expr.replace(" ", "") and len(
                mentions(tokens(question), [(q.name, a) for a in q.aliases])) > len(stated):
            # "d4, d6, d8 hepsi 3": more dice named than values read; pairs of the values
            # read would be a confident wrong count.
            unclear[q.name] = tuple(stated)
            one_each.add(q.name)
        elif stated:
            env[q.name] = sum(stated) if q.summed else stated[0]
            inputs.append((q.name, env[q.name]))
        elif q.default is not None:
            env[q.name] = q.default
    labels = _labels(formula)
    node = parse_expr(formula.expr, formula.id)
    # "moral kaç olur" asks what is left after the loss: the morale before it is needed.
    # (A gain asked so, with no score stated, is the gain: "kaç puanım olur" after a move.)
    state = bool(formula.kept) and not as_step and _asks_state(question)
    # The numbers themselves go in the working, not the leading sentence: a number first
    # reads as the result.
    missing = tuple(f"{q.label} (her biri için ayrı ayrı)" if q.name in one_each
                    else f"{q.label} (soruda birden çok sayı var: toplamı mı, biri mi?)"
                    if q.name in unclear else q.label
                    for q in formula.quantities if q.name not in env and (
                        q.name != formula.kept or (state and q.name == formula.lowers
                                                   and q.name not in binding.values)))
    # A number the result does not turn on is not needed: "2 kale, görev kartım yok" needs no
    # mission card's points (0 cards × any points).
    for name in [q.name for q in formula.quantities if q.label in missing
                 and len(missing) == 1 and q.name != formula.kept]:
        if _irrelevant(node, env, name):
            env[name] = 0.0
            missing = ()
    cites = formula.citations
    rule = evaluate(node, dict(formula.given), labels, formula.bands, symbolic=True).text
    # A summed quantity told as several numbers is shown as told ("3, 3, 5"): a rule may
    # count them (``pairs``, ``count_at_most``) rather than add them.
    told = {q.name: binding.values[q.name] for q in formula.quantities
            if q.summed and len(binding.values.get(q.name, ())) > 1}
    read = ", ".join([*(f"{labels[n]} = " + (f"({', '.join(map(fmt_number, told[n]))})"
                                            if n in told else fmt_number(v))
                        for n, v in inputs),
                      *(f"{labels[n]} = {' ya da '.join(map(fmt_number, vs))}"
                        for n, vs in unclear.items())]) or "—"
    working = (f"Kural ({MOMENT_WORDS[formula.moment]}): {formula.say} = {rule}. "
               f"Sorudan: {read}.")
    try:
        if missing:
            raise Missing
        summed = {q.name: binding.values[q.name] for q in formula.quantities
                  if q.summed and q.name in binding.values}
        # quantities the question did not state, defaulted: their 0 terms are not shown
        quiet = frozenset(q.name for q in formula.quantities if q.name not in binding.values)
        done = evaluate(node, env, labels, formula.bands, parts=summed, quiet=quiet)
    except Missing:
        need = ", ".join(missing) or "kural tablosunun kapsadığı bir sayı"
        return Calculation(formula.id, formula.game, None,
                           f"Hesap için {need} gerekli. Formül: {formula.say} = {rule}", working,
                           missing, cites, tuple(inputs), formula.unit)
    value = round(done.value, 6)
    value = float(round(value)) if abs(value - round(value)) < 1e-6 else value
    result = f"{fmt_number(value)} {formula.unit}: {done.text} = {fmt_number(value)}"
    if done.text.strip() == fmt_number(value):
        # A row read from a table ("2 oyuncuda üç koşul") has no working: "3 koşul: 3 = 3"
        # reads as noise; what the row was read for is the working.
        given = ", ".join(f"{fmt_number(v)} {labels[n]}" for n, v in inputs)
        result = f"{fmt_number(value)} {formula.unit}" + (f" ({given})" if given else "")
    elif not inputs and not _WORKED.search(done.text):
        # the rule's one number for the case asked ("tek oyuncu doldurursa 8"): what it is for
        result = f"{fmt_number(value)} {formula.unit} ({formula.say})"
    # (a quantity a step worked out is bound with no place in the question: not read there)
    used = [sp for n, _ in inputs for sp in binding.spans.get(n, ())]
    listed = [len(binding.values[n]) for n, _ in inputs if len(binding.values.get(n, ())) > 1]
    for step in steps:  # "(enerji açığı: 15 Enerji Talebi − 12 Toplam Enerji = 3)"
        result += f" ({step.result.split('; ')[0]})"
        cites += tuple(c for c in step.citations if c not in cites)
        inputs += list(step.inputs)
        used += step.read
        listed += step.listed
    env["value"] = value
    rulings: list[str] = []
    for v in formula.verdicts:
        try:
            check = evaluate(parse_expr(v.when, formula.id), env, labels)
        except Missing:
            continue
        if check.value and any(v.say in r for r in rulings):
            continue  # said already ("kriz önlenir" of "kriz önlenir ve 1 moral kazanılır")
        if check.value:
            result += f"; {check.text}: {v.say}"
            cites += v.citations
            rulings.append(v.say)
        elif v.otherwise and _matched(tokens(question), v.about):
            # "kriz önlendi mi, moral kazanıyor muyuz": the ruling that does not hold was
            # asked too; what holds instead is the answer to it.
            result += f"; {check.text}: {v.otherwise}"
            cites += v.citations
            rulings.append(v.otherwise)
    before = binding.values.get(formula.kept, ()) if state else ()
    if len(before) == 1:
        # "Moral 7, açlık adımından sonra moral kaç olur": what is left, not the loss;
        # "skorum 87, yeni skorum kaç": the score after the gain.
        label = labels[formula.kept]
        after = max(0.0, before[0] - value) if formula.lowers else before[0] + value
        sign = "−" if formula.lowers else "+"
        result = (f"{fmt_number(after)} {formula.unit}: {fmt_number(before[0])} {label} {sign} "
                  f"{fmt_number(value)} = {fmt_number(after)} ({result})")
        inputs.append((formula.kept, before[0]))
        used += binding.spans.get(formula.kept, ())
        value = after
    return Calculation(formula.id, formula.game, value, result, working, (), cites,
                       tuple(inputs), formula.unit, tuple(rulings), tuple(used), tuple(listed))


_NOW = frozenset(("simdi", "artik", "su", "an", "suan"))  # folded
_WORKED = re.compile(r"[-+−×/÷⌈⌊]")  # a result's text that shows arithmetic


def _step(formula: Formula, question: str, binding: Binding) -> Calculation:
    return calculate(formula, question, binding, as_step=True)


# "kaç olur", "kaça düşer", "kaç kalır", "yeni skorum kaç", "krizden sonra moral kaç?" (at
# the end: "sonra kaç jeton alırım" asks the gain), "20 ZP'm var … toplam kaç ZP?" (not
# "toplam kaç ZP kaybederim"): the question asks what a quantity becomes. ("kaç düşer" asks
# the drop; "kaça düşer" what is left.)
_STATE = re.compile(r"\bkac\s+(?:\w+\s+)?(?:ol(?:ur|du|acak|cak|ucak|uyor|uyo)|kal(?:ir|iyor"
                    r"|iyo|acak))\b|\bkaca\s+(?:\w+\s+)?(?:duser|dusuyor|dusuyo|iner|iniyor"
                    r"|iniyo|dusecek|inecek|cikar|cikiyor|cikiyo)\b"
                    r"|\b(?:yeni|final|simdi|artik)\s+(?:\w+\s+){0,2}kac\b"
                    r"|\bsonra\s+\w+\s+kac\W*$"
                    r"|\btoplam\s+(?:\w+\s+)?kac(?:\s+\w+)?\W*$"
                    r"|\bkac\s+(?!tane\b)[\w']+[ae]\s+(?:cik|dus|in)\w*")  # "kaç jetona çıkarım"


def _asks_state(question: str) -> bool:
    return bool(_STATE.search(" ".join(fold(w) for w in question.split())))


# "kaç kart az çekiyom", "kaç eksik": the question asks by how much a count drops, not the
# count; "en az" is a minimum, no drop.
_DROP = frozenset(("az", "eksik", "fark", "farki", "fewer", "less"))
_SAYS_DROP = re.compile(r"(?<!\ben )\baz\b|eksik|azalma|fark|fewer|less", re.IGNORECASE)


def _asks_drop(asked: list[Token]) -> bool:
    words = [t.text for t in asked]
    return any(w in _DROP and not (i and words[i - 1] == "en") for i, w in enumerate(words))


def _irrelevant(node: ast.expr, env: dict[str, float], name: str) -> bool:
    """Every use of ``name`` in the expression is multiplied by a quantity that is 0 here, or
    sits in a branch of ``when`` the stated numbers do not take (tried values would not do:
    "max(0, sınır − 9)" is 0 for every small limit)."""
    def zero(n: ast.expr) -> bool:
        return (isinstance(n, ast.Name) and env.get(n.id) == 0) or (
            isinstance(n, ast.Constant) and n.value == 0)

    def used(n: ast.AST) -> bool:
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "when":
            try:  # only the branch the question's numbers take ("a crisis prevented")
                taken = n.args[1] if evaluate(n.args[0], env, {}).value else n.args[2]
            except Missing:
                return any(used(c) for c in n.args)
            return used(taken)
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) and (
                zero(n.left) or zero(n.right)):
            return False
        if isinstance(n, ast.Name):
            return n.id == name
        return any(used(c) for c in ast.iter_child_nodes(n))
    return not used(node)


# "Deney C değilim", "C deneyi yok bende": the case a formula needs, said not to hold
_NOT = re.compile(r"degil|yok$|olmayan|olmadig|not$")


def _met(toks: list[Token], phrase: str) -> bool:
    """The phrase is said, and not denied by the word right after it."""
    return any(not (m.last + 1 < len(toks) and _NOT.match(toks[m.last + 1].text))
               for m in mentions(toks, [(phrase, phrase)]))


def _matched(toks: list[Token], phrases: tuple[str, ...]) -> int:
    """How many of the phrases occur in the tokens (each judged on its own)."""
    return sum(1 for p in phrases if mentions(toks, [(p, p)]))


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
        state_asked = _asks_state(question)
        bare = not [t for t in asked if t.text.isalpha() and t.text not in _NOW]  # "şimdi kaç"
        # A step is worked out by the rule about the question's topic first: three rules give
        # the trees to remove (Çölleşme, Amazon), the one the question names does here; a rule
        # of an event, only when its event is named.
        producers = tuple(sorted(
            (f for f in game_formulas if f.moment != "on-event" or _matched(toks, f.keywords)),
            key=lambda f: -_matched(toks, f.keywords)))
        for formula in game_formulas:
            if ruling_only and not formula.verdicts:
                continue
            if drop and not _SAYS_DROP.search(formula.say):
                continue  # the count itself ("4 kart") would read as the drop asked for
            if not all(any(_met(toks, alt) for alt in need.split("|"))
                       for need in formula.needs):
                continue
            kept = [(q.name, a) for q in formula.quantities if q.name == formula.kept
                    for a in q.aliases]
            # "yeni skorum kaç" after a scoring move asks the score the result is added to
            # (so does a bare "şimdi kaç" after the score was stated: "skorum 80di, şimdi kaç")
            asks_kept = bool(kept) and state_asked and bool(
                mentions(asked, kept) or (bare and mentions(toks, kept)))
            asked_score = ASKED_ANYWHERE if ruling_only else ASKED if asks_kept or _matched(
                asked, formula.asks) else ASKED_ANYWHERE if _matched(toks, formula.asks) else 0.0
            if asked_score == ASKED_ANYWHERE and not ruling_only and mentions(
                    asked, [(q.name, a) for q in formula.quantities if q.name != formula.kept
                            for a in q.aliases]):
                continue  # "kaç jetonda 2 kart eksik çekeriz" asks an input, not the result
            topic = _matched(about or toks, formula.keywords) * KEYWORD if asked_score else 0.0
            # The topic of a quantity another rule gives is this rule's too: "stokta 2
            # yiyecek … moral kaç düşer" is about hunger's morale though it never says "açlık".
            # (Scored below only when that rule is worked out as a step.)
            if not asked_score or not (topic or any(
                    f.gives in {q.name for q in formula.quantities}
                    and _matched(toks, f.keywords) for f in game_formulas if f.id != formula.id)):
                continue  # a formula answers what is asked, about its own topic
            stated = bind(question, formula.quantities)
            binding, steps, read = chain(formula, question, stated, producers, _step)
            calc = calculate(formula, question, binding, steps) if steps else None
            if calc is not None and calc.missing:
                # A step is worth working out only for a result: still half given, the
                # formula is judged on what the question itself states.
                binding, steps, read, calc = stated, (), 0, None
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
            topic += sum(_matched(toks, f.keywords) * KEYWORD for f in game_formulas
                         for step in steps if f.id == step.formula)
            score = asked_score + topic + BOUND * bound - MISSING * len(calc.missing)
            if score >= MIN_SCORE:
                scored.append((score, Candidate(formula, calc, topic), binding, steps))
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
