"""A total over several parts of the player's situation, each worked out by its own rule.

What it does: "3 altıgenli büyük yerleşimde birinciyim, bir de orta yerleşimde ikinci oldum:
toplam kaç puan?" asks for the sum of two rules' results. When the question asks for a total
("toplam", "ikisinden", "in total") and at least two of its clauses each state a situation
that a different formula works out completely, in the unit asked, the answer is their sum,
each part shown and cited: "11 puan: 8 + 3 = 11 (…; …)"; a loss counts against it ("net kaç
ZP": "41 ZP: 32 + 12 − 3"). Each clause is worked out on its own numbers only, so no number of
the question is counted twice. A chart told one section per sentence ("bir bölümde … Başka bir
bölümde …") is worked out per sentence, each section whole, and only when every sentence of
the situation is read; so are sentences that each tell another rule's situation ("… 6
fabrikam var. Bi de '0' alanında 1 belirtecim duruyor") when no two of those rules count
the same stated quantity. What it does not do: pick or
evaluate a formula (``calc``), or answer when fewer than two parts are worked out (the whole
question then goes to ``calc`` as one). Also several numbers asked at once ("kaç jetonum olur,
sonraki raunt kaç kart çekerim"): each worked out by its own rule, in the order asked. And
a rule that also applies to the move worked out (``with_also``): the port's 1 point on top of
the settlement tile placed on it, when the port is said and not denied, never on top of an
end-of-game score.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from .asks import asked_nouns, asked_parts, asked_window
from .bind import Binding, bind
from .calc import Calculator
from .formulas import Formula
from .mentions import Token, all_said, mentions, tokens
from .numbers import fmt_number, numbers_in
from .working import Calculation, calculate, passed_marks

# What asks for the total of several things, folded.
_TOTAL = re.compile(r"\b(?:toplam\w*|ikisinden|ucunden|hepsinden|bunlardan|total|altogether"
                    r"|together|combined|net)\b")
# "bir belirtecim de '0' alanında": a part stated by "bir" alone
_ONE = re.compile(r"\b(?:bir|bi)\b", re.IGNORECASE)
# Where one part of the situation ends and the next begins.
# ("ve" and "and" join numbers too: "etkisi 2 ve 3 olan karolar".)
# (Nor does a comma between numbers: "zarlar 2, 5, 3 geldi" is one list.)
_CLAUSE = re.compile(r"(?:(?<!\d),|,(?!\s*\d)|[;.!?])[,;.!?]*\s*"
                     r"|\s(?:bir de|bi de|ayrıca|ayrica|plus)\s", re.IGNORECASE)


def sum_of_parts(calculator: Calculator, question: str, game: str) -> Calculation | None:
    """The total of the parts a question states, or None (not a total, or fewer than two
    parts worked out). The parts are its clauses, or its sentences when those read more of
    the stated quantities (by ``inputs``, as ``work_out`` compares): "bir bölümde 3 ve
    5 çarpanlı kademelerde belirtecim var, koşul fabrika, 4 fabrikam var. Başka bir bölümde
    …" tells one section per sentence, its numbers across the sentence's clauses."""
    question = unicodedata.normalize("NFC", question)
    toks, asks = asked_window(question)
    if not asks or not _TOTAL.search(" ".join(t.text for t in toks)):
        return None
    asked = asked_nouns(toks)
    # By clauses, unless its sentences read more quantities ("iki King's Day'de
    # en ileri bendeydim, birinde ikinci en ileri bendim; bir de …": the second clause
    # alone reads nothing, its sentence reads both places).
    best: Calculation | None = None
    for cut in (_CLAUSE, _SENTENCE):
        parts = _parts(calculator, question, game, asked, cut)
        if parts:
            total = _total(parts, game)
            if best is None or len(total.inputs) > len(best.inputs):
                best = total
    return best


# A section's ordinal where a sentence or a list starts: "1. bölümde", "…: 2. bölümde".
_ORDINAL = re.compile(r"(?:^|(?<=[:;,]))\s*\d+\.(?=\s)")
# Where a sentence ends (not the ordinal dot of "2. bölümde").
_SENTENCE = re.compile(r"(?<!\d)[.!?;]+\s*")


def _parts(calculator: Calculator, question: str, game: str, asked: list[Token],
           cut: re.Pattern[str]) -> list[tuple[Calculation, int]]:
    """Each piece's result with its sign (a loss counts against the total), or [] unless
    two or more pieces are worked out, in one unit. Sentences are pieces only when they
    tell one rule's situation twice or more, each whole (the sections of a chart)."""
    sections = cut is _SENTENCE
    parts: list[tuple[Calculation, int]] = []
    cuts = list(cut.finditer(question))
    starts = [0, *(m.end() for m in cuts)]
    ends = [*(m.start() for m in cuts), len(question)]
    rules = {f.id: f for f in calculator.formulas}
    for k, (start, end) in enumerate(zip(starts, ends, strict=True)):
        clause = question[start:end]
        if not sections and k + 1 < len(starts):
            clause += _noun_said_next(clause, question[starts[k + 1] : ends[k + 1]])
        if sections:  # "1. bölümde": the ordinal names the section, it counts nothing
            clause = _ORDINAL.sub(lambda m: " " * len(m.group()), clause)
        if sections and not any(numbers_in(clause)):
            # "bir belirtecim de '0' alanında", a part of the situation with no other count:
            # its "bir" is the count (the same length, so the spans stay where they are)
            clause = _ONE.sub(lambda m: "1".ljust(len(m.group())), clause)
        if not any(numbers_in(clause)):
            continue
        calc = calculator.calculate(clause, game, asked)
        if calc is not None and calc.value is not None and not calc.missing:
            # (a clause's numbers are read where the whole question states them)
            calc = replace(calc, read=tuple((a + start, b + start) for a, b in calc.read))
            parts.append((calc, -1 if rules[calc.formula].lowers else 1))
        elif sections:
            return []  # a sentence of the situation no rule reads: the sum would leave it out
    # Two clauses of one formula are one quantity told in two places ("3 askerim var, bir de 2
    # askerim"): worked out apart, a base or a rounding would count twice. Two sections each
    # telling every number of a rule of two or more ("çarpan 2 ve 3, 4 fabrika"; "çarpan 5,
    # 2 lab") are two situations.
    seen = [c.formula for c, _ in parts]
    for c, _ in parts:
        rule = rules[c.formula]
        told = {n for n, _ in c.inputs} - {rule.kept}
        whole = sections and len(told) >= 2 and told >= {
            q.name for q in rule.quantities if q.name != rule.kept and q.default is None}
        if seen.count(c.formula) > 1 and not whole:
            return []
    # Sentences that each tell a different rule's situation ("… 6 fabrikam var. Bi de '0'
    # alanında 1 belirtecim duruyor.") are its parts only when no two of those rules count
    # the same quantity: otherwise one situation may be told across sentences.
    if sections and ((len(set(seen)) == len(seen) and not _apart(parts, rules))
                     or _misread(question, parts, rules)):
        return []
    if len(parts) < 2 or len({c.unit for c, _ in parts}) != 1 or all(s < 0 for _, s in parts):
        return []
    return parts


# A clause that ends on its count ("okulda 2") and the next that names it after its own
# ("hastanede 1 hayatta kalanım var"): the noun said once counts both.
_ENDS_ON_COUNT = re.compile(r"\w+\s+\d+\s*$")
_COUNT_AND_NOUN = re.compile(r"^\s*\w+\s+\d+\s+(?P<noun>[^\d,;.!?]+?)\s*$")


def _noun_said_next(clause: str, following: str) -> str:
    """The noun to read after a clause of a place and a bare count, taken from the next
    clause of the same shape (appended, so the clause's numbers keep their places); ""
    otherwise."""
    if not _ENDS_ON_COUNT.search(clause) or len(numbers_in(clause)) != 1:
        return ""
    found = _COUNT_AND_NOUN.match(following)
    return f" {found.group('noun')}" if found else ""


def _apart(parts: list[tuple[Calculation, int]], rules: dict[str, Formula]) -> bool:
    """No quantity the player states is counted by the rules of two parts (by name; the
    running total a rule raises or lowers, its ``kept`` quantity, is what they share)."""
    names = [{q.name for q in rules[c.formula].quantities} - {rules[c.formula].kept}
             for c, _ in parts]
    return all(not (a & b) for i, a in enumerate(names) for b in names[i + 1:])


def _misread(question: str, parts: list[tuple[Calculation, int]],
             rules: dict[str, Formula]) -> bool:
    """A number one part read that another part's rule counts by the word right after it
    ("3x kademede 1 belirteç": the 1 counts a token, not a multiplier)."""
    for c, _ in parts:
        theirs = [(q.name, a) for o, _ in parts if o.formula != c.formula
                  for q in rules[o.formula].quantities for a in q.aliases]
        for _, end in c.read:
            named = mentions(tokens(question[end:])[:2], theirs)
            if named and named[0].first == 0:
                return True
    return False


def _total(parts: list[tuple[Calculation, int]], game: str) -> Calculation:
    unit = parts[0][0].unit
    total = sum((p.value or 0.0) * sign for p, sign in parts)
    shown = " ".join(("−" if sign < 0 else "+") + " " + fmt_number(p.value or 0.0)
                     for p, sign in parts).removeprefix("+ ")
    why = "; ".join(p.result for p, _ in parts)
    cites = tuple(dict.fromkeys(c for p, _ in parts for c in p.citations))
    return Calculation(
        formula="+".join(p.formula for p, _ in parts), game=game, value=total,
        result=f"{fmt_number(total)} {unit}: {shown} = {fmt_number(total)} ({why})",
        working=" ".join(p.working for p, _ in parts), missing=(), citations=cites,
        inputs=tuple(i for p, _ in parts for i in p.inputs), unit=unit,
        rulings=tuple(dict.fromkeys(r for p, _ in parts for r in p.rulings)),
        read=tuple(sp for p, _ in parts for sp in p.read),
        listed=tuple(n for p, _ in parts for n in p.listed))


# A worked step in a result: " (3 Krizde Topluluk jetonu: 14 Enerji Talebi − (5 + 6) = 3)".
_STEP = re.compile(r" \((?:[^()]|\([^()]*\))*\)")


def each_asked(calculator: Calculator, question: str, game: str) -> Calculation | None:
    """"kaç jetonum olur, sonraki raunt kaç kart çekerim": a question asking two or more
    numbers, each worked out by its own rule on the question's numbers, the results in the
    order asked; None unless at least two asks are worked out fully by different rules."""
    question = unicodedata.normalize("NFC", question)
    toks = asked_window(question)[0]
    asks = asked_parts(toks)
    if len(asks) < 2:
        return None
    parts: list[Calculation] = []
    # Each ask's topic is its own clause and the clauses that ask nothing (the situation):
    # "5 kişiyiz, krizi durdurmak için kaç puan, moral kazanmak için kaç" asks the
    # prevention's total first, then the morale's.
    clause, clauses = 0, []
    for t in toks:
        clauses.append(clause)
        clause += not any(ch.isalnum() for ch in t.text) and t.number is None
    asking = {clauses[toks.index(a[-1])] for a in asks if a}
    for asked in asks:
        own = {clauses[toks.index(asked[-1])]} if asked else set()
        about = [t for t, c in zip(toks, clauses, strict=True)
                 if c in own or c not in asking]
        calc = calculator.calculate(question, game, asked, about or None)
        if calc is not None and calc.value is not None and not calc.missing \
                and calc.formula not in {p.formula for p in parts}:
            parts.append(calc)
    if len(parts) < 2:
        return None
    first = parts[0]
    results = [parts[0].result]
    for p in parts[1:]:  # a step both parts rest on is shown once, in the first
        # (the step shown in parentheses, or as an earlier part's own result)
        results.append(_STEP.sub(lambda m: "" if m.group(0)[1:] in " ".join(results)
                                 or m.group(0)[2:-1] in results else m.group(0), p.result))
    return Calculation(
        formula="&".join(p.formula for p in parts), game=game, value=first.value,
        result=". ".join(results),
        working=" ".join(p.working for p in parts), missing=(),
        citations=tuple(dict.fromkeys(c for p in parts for c in p.citations)),
        inputs=tuple(dict.fromkeys(i for p in parts for i in p.inputs)), unit=first.unit,
        rulings=tuple(r for p in parts for r in p.rulings),
        read=tuple(dict.fromkeys(sp for p in parts for sp in p.read)),
        listed=tuple(n for p in parts for n in p.listed))


def with_also(calculator: Calculator, calc: Calculation | None, question: str,
              game: str) -> Calculation | None:
    """``calc`` plus each rule that also applies, once, to the move it works out
    (``also_when``): "orta yerleşimin son boşluğu liman, oraya karomu koydum, 1. sıradayım"
    scores the settlement and the port."""
    if calc is None or calc.value is None or calc.missing:
        return calc
    toks = tokens(question)
    done = set(calc.formula.replace("&", "+").split("+"))
    rules = {f.id: f for f in calculator.formulas}
    at_end = any(rules[d].moment == "end" for d in done if d in rules)
    read = set(calc.read)
    parts = []
    for f in calculator.formulas:
        if f.game != game or not f.also_when or f.id in done or f.unit != calc.unit \
                or (at_end and f.moment != "end"):
            continue  # (a port scores when the tile is placed, not at the game's end)
        if not all_said(toks, f.also_when):
            continue  # not said, or denied: "liman yok"
        own = bind(question, [q for q in f.quantities if q.name != f.kept])
        if any(sp in read for spans in own.spans.values() for sp in spans):
            continue  # its number is one the move's own rule already counted
        binding = own if own.values else Binding(
            {q.name: (1.0,) for q in f.quantities if q.name != f.kept},
            {q.name: () for q in f.quantities if q.name != f.kept})  # said once: one
        extra = calculate(f, question, binding, as_step=True)
        if extra.value is not None and not extra.missing:
            parts.append((extra, 1))
    if not parts:
        return calc
    total = _total([(calc, 1), *parts], game)
    # The marks the whole total passes that the move's own change did not (91 + 8 + 1 port
    # point passes 100 where 91 + 8 did not).
    first = rules.get(calc.formula.replace("&", "+").split("+")[0])
    before = dict(calc.inputs).get(first.kept) if first is not None and first.kept else None
    if first is None or before is None or total.value is None:
        return total
    new = [(t, m) for t, m in passed_marks(first, before, total.value)
           if m.say not in calc.rulings]
    return replace(total, result=total.result + "".join(t for t, _ in new),
                   citations=total.citations + tuple(m.citation for _, m in new),
                   rulings=total.rulings + tuple(m.say for _, m in new))


def work_out(calculator: Calculator, question: str, game: str) -> Calculation | None:
    """What the engine and ``hakem calc`` show: each number the question asks worked out
    (``each_asked``), or the question worked out as one formula, or as the total of its
    parts when the parts read more of the numbers the player stated; with the rules that
    also apply to that move (``with_also``)."""
    several = each_asked(calculator, question, game)
    if several is not None:
        return several
    whole = calculator.calculate(question, game)
    total = sum_of_parts(calculator, question, game)
    if total is not None and (whole is None or whole.value is None
                              or len(total.inputs) > len(whole.inputs)):
        return with_also(calculator, total, question, game)
    return with_also(calculator, whole, question, game)
