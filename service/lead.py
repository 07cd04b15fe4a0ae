"""Which matched fact leads a number answer, and what it leads with.

What it does: picks, among the facts that matched a question, the one whose number answers
it ("kaç karo": a count of tiles, not of castles; "her lokasyonun": the count per location,
not the total; "kaç kez": a count of occasions), says when a fact's number only echoes one
the player typed, and writes the lead ("20 karbon küpü — 4 oyunculu oyunda …"). What it does
not do: rank facts (``factsearch``) or compose the answer around the lead (``answer``).
"""

from __future__ import annotations

import re
from itertools import combinations

from .candidates import terms_of
from .facts import Fact, FactHit, fact_numbers
from .factsearch import counts_asked, nouns_after_kac
from .numbers import counts_in, fmt_number
from .phrasing import applied_sentence, fact_sentence
from .question import Question
from .text import fold

# A fact that counts what "kaç …" asks leads instead of a better-ranked one that counts
# something else, from this deep in the ranking and this close to its score.
ASKED_LEAD_DEPTH = 3
ASKED_LEAD_SHARE = 0.8


_OCCASIONS = frozenset(("kez", "kere", "defa", "sefer", "atış", "tur", "raunt", "raund"))
_OCCASION_WORD = re.compile(r"\b(?:kez|kere|defa|sefer)\b")


def _counts_occasions(fact: Fact) -> bool:
    """A fact whose number counts occasions: times, rolls, turns ("her karakter turda
    yalnızca bir kez hareket edebilir")."""
    return bool({fact.unit, fact.value_unit} & _OCCASIONS) or bool(
        _OCCASION_WORD.search(f"{fact.effect} {fact.quote}"))


def lead_fact(q: Question, facts: tuple[FactHit, ...]) -> FactHit | None:
    """The matched fact that may lead the answer, if any. A number is wanted by "kaç / how
    many", and by a "what is / which" question a fact answers ("cezası nedir", "hangi
    değeri"), never by a yes/no, how/why or what-if one, nor by one asking how a number is
    worked out ("kaç küp koyacağımı nasıl hesaplıyorum": the rule answers it)."""
    if not facts or not (q.how_many or q.kind == "other") or q.yes_no or q.asks_method:
        return None
    top = facts[0]
    if top.fact.min == 0 and top.fact.max is None and not top.fact.value and not top.applied:
        return None  # "0 veya daha fazla": a count the rules leave open is no number to lead
    if not q.how_many and not _names_unit(q, top.fact):
        # "hangi yuvaya gidiyor", "ne zaman biter": a which/when question wants a number only
        # when it names what the number counts. Otherwise the fact's number, put first,
        # answers another question ("2 an — Puanın kaydedildiği an"; measured in eval/README).
        return None
    asked = nouns_after_kac(q.text)
    if asked and not counts_asked(asked, top.fact):
        # "kaç karo": a count of castles ranked first by the words around it ("oyuncu
        # renginde") answers another question than the count of tiles just below it.
        top = next((h for h in facts[1:ASKED_LEAD_DEPTH] if counts_asked(asked, h.fact)
                    and h.score >= ASKED_LEAD_SHARE * facts[0].score), top)
    if _distributive(q) and not _per_unit(top.fact):
        # "her lokasyonun destesinde kaç kart": the count per location (20), not the total
        # over all of them (120 = 6 × 20) that ranked just above it.
        top = next((h for h in facts[1:ASKED_LEAD_DEPTH] if _per_unit(h.fact)
                    and _total_of(top.fact, h.fact)
                    and h.score >= ASKED_LEAD_SHARE * facts[0].score), top)
    if not top.applied:
        # "Kral Günü'nde birinci ve ikinci kaç ZP": 8 ZP (first and second place held at
        # once, 6 + 2) matches every word of a question about either place; it answers only
        # when the question says its own case ("hem … hem", "tek başıma"), else the
        # best-matched part does.
        parts = _parts_of(top, facts[:PARTS_DEPTH])
        if parts and not (_own_words(top.fact, parts) & _stems(" ".join(q.folded))):
            top = max(parts, key=lambda h: h.score)
    if q.how_often and not top.applied and not _counts_occasions(top.fact):
        # "kaç kez": a rule's points or cards are not how often it happens; a fact that
        # counts occasions, if one matched, is.
        return next((f for f in facts[1:] if _counts_occasions(f.fact)), None)
    return top


PARTS_DEPTH = 4  # how deep in the ranking the parts of a total are looked for


def _stems(text: str) -> set[str]:
    """Five-letter stems of a text's words (Turkish endings vary: "yerleşim", "yerleşimi")."""
    return {w[:5] for w in re.findall(r"[a-z0-9]+", fold(text)) if len(w) >= 3 or w.isdigit()}


def _parts_of(total: FactHit, facts: tuple[FactHit, ...]) -> list[FactHit]:
    """The matched facts about the same thing as ``total`` (two subject words shared), in
    its unit, whose values add up to its value: ``total`` is their sum, a case of its own
    ("hem birinci hem ikinci", "tek oyuncu doldurursa") only when that case is asked."""
    value, about = total.fact.value, _stems(total.fact.subject)
    if not value:
        return []
    same = [h for h in facts if h is not total and h.fact.unit == total.fact.unit
            and h.fact.value and not h.applied and len(_stems(h.fact.subject) & about) >= 2]
    for n in (2, 3):
        for combo in combinations(same, n):
            if sum(h.fact.value or 0 for h in combo) == value and all(
                    about & (_stems(h.fact.subject) - set().union(
                        *(_stems(o.fact.subject) for o in combo if o is not h)))
                    for h in combo):
                # (the total names what tells each part from the others: "hem birinci hem
                # ikinci" for first and second place; 5 + 3 of two other settlements' places
                # only add up to 8)
                return list(combo)
    return []


def _own_words(total: Fact, parts: list[FactHit]) -> set[str]:
    """What the total's subject says that none of its parts' subjects does: its case."""
    return _stems(total.subject) - set().union(*(_stems(h.fact.subject) for h in parts))


# "her lokasyonun", "oyuncu başına", "per player", "each": a count for each one of a thing.
_EACH = re.compile(r"\b(?:her \w+|\w+ basina|per \w+|each \w+)")


def _distributive(q: Question) -> bool:
    return bool(_EACH.search(" ".join(q.folded)))


def _per_unit(fact: Fact) -> bool:
    """The fact counts for each one of a thing: its subject says so ("Lokasyon destesi
    başına eşya kartı", "Her oyuncuya …")."""
    return bool(_EACH.search(fold(fact.subject)))


def _total_of(total: Fact, each: Fact) -> bool:
    """``total``'s number is a whole multiple of ``each``'s: a count over several of what
    ``each`` counts one of."""
    if total.value is None or not each.value or total.value <= each.value:
        return False
    return float(total.value / each.value).is_integer()


def echoes(q: Question, hit: FactHit) -> bool:
    """The fact's number is one the player typed ("kaç jeton olunca 2 kart eksik çekiyorum"
    matched to "2 kısıt"; "30 zombinin hepsi tahtada" to "30 zombi"): put first, a number
    the question already states reads as its answer, and it is almost never the answer to a
    question that states it. A rate worked out for the question's count, or the value for
    the case it names ("2 oyuncuda 3 koşul"), is not an echo."""
    if hit.applied or hit.in_range:
        return False
    fact = hit.fact
    # A rate's lead states its unit count ("her 10 kart için 1 moral"): the count is the
    # number that answers "her kaç kartta moral 1 düşer", and the 1 is the player's own.
    shown = fact.per if fact.per not in (None, 1) else next(
        (n for n in (fact.value, fact.min, fact.max) if n is not None), None)
    return shown is not None and shown in counts_in(q.text)


def _names_unit(q: Question, fact: Fact) -> bool:
    """The question asks which or what of the thing the fact's number counts ("hangi değeri"
    for "10 değer", "hangi zarları" for "6 zar"). Naming it elsewhere is not asking for its
    count: "katedral parçaları ne işe yarıyor" is not answered by "8 katedral", nor
    "puanlar eşitse kim kazanır" by "5 puan"."""
    return bool(q.wh_nouns) and bool(terms_of(f"{fact.unit} {fact.value_unit or ''}")
                                     & terms_of(" ".join(q.wh_nouns)))


def fact_lead(hit: FactHit) -> str:
    """What a fact leads the answer with: its rate worked out for the question's count, or
    its number and subject (the sentence quoted after it says the rest), or the whole fact
    when its number is in its effect."""
    if hit.applied:
        return applied_sentence(hit.fact, *hit.applied)
    fact = hit.fact
    if hit.in_range and fact.value is not None and (fact.min, fact.max) != (None, None):
        # The question states the case ("4 oyunculu", "2 karakterle") and asks the number
        # for it: the range is the case, the value the answer ("20 karbon küpü — 4 oyunculu
        # oyunda …"), not the case repeated without its number.
        return f"{fmt_number(fact.value)} {fact.value_unit or fact.unit} — {fact_sentence(fact)}"
    whole = fact_sentence(fact)
    head = whole.split(":")[0]
    # The head alone only when it states the fact's own number: its value when it has one
    # ("2 oyunculu İskoçya haritasında nötr karo" states the case, not the 32 tiles).
    own = {fmt_number(n) for n in
           ({fact.value} if fact.value is not None else fact_numbers(fact))}
    return head if own & set(re.findall(r"\d+(?:[.,]\d+)?", head)) else whole
