"""A player's question, analysed once: cleaned text, words, numbers, what kind of answer it wants.

What it does: ``analyse`` turns the typed question into one frozen ``Question`` that every
later stage reads instead of re-parsing the text: the text cleaned of invisible characters
(zero-width spaces, soft hyphens, bidi marks) and NFC-composed; its casefolded and
diacritic-folded words; the numbers it states; whether it has any word at all; whether it is
mostly English; and its type — yes/no ("… yapabilir miyim?"), how many ("kaç", "ne kadar",
"how many"), how/why, what-if ("… olursa ne olur?"), setup — and, for a two-part question
("X nasıl yapılır, Y ne zaman?"), its parts. The types are read from Turkish grammar (the
question particle "mi", question words, the conditional "-sa/-se"), never from a game's
vocabulary. What it does not do: find the game (``detect``), rank anything, or decide whether
the rules answer it (``answerability``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from .numbers import numbers_in
from .text import APOSTROPHES, fold, words

# Folded question words that ask for something other than yes or no.
_WH = frozenset(("ne", "neden", "niye", "nicin", "nasil", "nasi", "hangi", "hangisi",
                 "hangileri", "kim", "kimin", "kime", "nerede", "nereye", "nedir", "neler",
                 "what", "which", "why", "how", "when", "where", "who"))
# Spoken contractions of "ne yap-" and "ne ol-", folded: "napıcaz" (ne yapacağız), "napıyoz",
# "noluyo" (ne oluyor), "nolur": they ask what, as "ne" does.
_CONTRACTED_WH = re.compile(r"nap(?:i|a|c|m|t)\w*|nol(?:u|a|c)\w*")


def is_spoken_wh(word: str) -> bool:
    """A folded spoken contraction of "ne yap-" / "ne ol-" ("napıyoz", "noluyo")."""
    return bool(_CONTRACTED_WH.fullmatch(word))


def _is_wh(word: str) -> bool:
    """A folded word asks what / which / how … (not yes or no)."""
    return word in _WH or bool(_CONTRACTED_WH.fullmatch(word))


_HOW_WHY = frozenset(("nasil", "nasi", "neden", "niye", "nicin", "how", "why"))
# "kaç" and its forms ("kaçı", "kaça", "kaçar", "kaçıncı", "kaçını"), folded.
_HOW_MANY = re.compile(r"kac(?:i|a|ar|ta|tir|ti|inci|incı|ini|ina|inda)?")
# "kaç kez / kere / defa / sefer", "how many times": how often a thing is done, a count of
# occasions that no other quantity of the rule (its points, its cards) answers.
_HOW_OFTEN = re.compile(r"\b(?:kac|kacar) (?:\w+ )?(?:kez|kere|defa|sefer)\b|\bhow many times\b"
                        r"|\bhow often\b")
# The question particle, alone or with its person and tense endings: "mi", "miyim",
# "mıyız", "musun", "mudur", "miydi", "mısınız" (folded: ı→i, ü→u).
_PARTICLE = re.compile(r"m[iu](?:yim|yiz|sin|siniz|sun|sunuz|yum|yuz|dir|dur|ydi|ydu"
                       r"|ymis|ymus|yken|ler|lar)?")
# The particle written onto the verb with a person ending ("değiştirebilirmiyiz",
# "alıyomuyum"): such endings close no ordinary word.
_ATTACHED = re.compile(r"\w{3,}m[iu](?:yim|yiz|yum|yuz|sin|sun|siniz|sunuz)")
# … anywhere in the clause, only in the first person after a verb's present or aorist ending
# ("koyabilirmiyim", "ediyomuyuz"): "anlatırmısın" asks Hakem to explain (a request, not a
# yes/no question), "premiyum" and "takımıyız" are no verbs.
_ON_VERB = r"\w{2,}(?:yor|yo|[aeiu]r|maz|mez)m[iu]"  # a present or aorist verb, then "mi"
_ATTACHED_SELF = re.compile(_ON_VERB + r"(?:yim|yiz|yum|yuz)")
# The bare particle written onto a verb ("bitiyormu", "sayılıyomu", "alabilirmi", "varmı"):
# after a present or aorist ending, or "var"/"yok", it closes no ordinary word ("yirmi" has
# too few letters before its "ir").
_ATTACHED_BARE = re.compile(_ON_VERB + r"|(?:var|yok)m[iu]")
# English yes/no questions open with an auxiliary.
_EN_AUX = frozenset(("can", "could", "is", "are", "do", "does", "did", "may", "must",
                     "should", "will", "would", "has", "have"))
_SETUP = re.compile(r"kurulum\w*|kur(?:uyor|uyo|ariz|acagiz|mak|ulur)\w*|setup\w*|hazirlik\w*"
                    r"|hazirla\w*")
# A Turkish conditional verb ("olursa", "atarsam", "kalırsa", "gelirse") and what it asks.
_CONDITIONAL = re.compile(r"\w{2,}(?:sa|se)(?:m|n|k|niz|nuz|lar|ler)?")
_WHAT_HAPPENS = re.compile(r"\bne (?:olur|oluyor|oluyo|olacak|olcak|yapiyoruz|yapilir)\b"
                           r"|\bnol(?:ur|uyor|uyo|acak|cak)\b|\bwhat happens\b")
# "hangi sırayla dizilir", "ne sırayla", "hangi düzende", "in what order": the question asks
# for an order, which a rule states with "sırasıyla", "önce … sonra", "soldan sağa".
_ORDER = re.compile(r"\b(?:hangi|ne) (?:sira\w*|duzen\w*)|\bin (?:what|which) order\b")
# "her kart için neler yapılır", "ne yapabiliyorum", "napıyoz": what a player does, which a
# procedure answers, rarely its first sentence.
_DOES = re.compile(r"\bne(?:ler)? yap\w*|\bnap(?:i|a|c|m|t)\w*")
_METHOD = re.compile(r"\b(?:hesapl\w*|calculat\w*|comput\w*)|\bnas(?:il|i) bul\w*")
_ENGLISH_FUNCTION = frozenset("""the a an of in on to is are do does did how many much what
which who when where why if my i you your we our for with and or can could should would will
it its this that there their""".split())
# Clause ends inside a question: another question may follow.
_CLAUSE = re.compile(r"[?;]+|[,.:]\s+(?=\S)")
_AND = re.compile(r"\s(?:ve|and|ayrıca)\s", re.IGNORECASE)


@dataclass(frozen=True)
class Question:
    raw: str  # as typed
    text: str  # cleaned: invisible characters removed, NFC, outer whitespace stripped
    words: tuple[str, ...]  # casefolded (Turkish rules), Turkish letters as typed
    folded: tuple[str, ...]  # the same words with diacritics folded ("kaç" → "kac")
    numbers: tuple[float, ...]  # numbers the question states (digits and number words)
    english: bool  # mostly English: Turkish word overlap says little either way
    yes_no: bool
    how_many: bool  # asks for a number: "kaç", "ne kadar", "how many", "en fazla"
    how_why: bool
    what_if: bool
    setup: bool
    parts: tuple[str, ...]  # the sub-questions of a two-part question; () for one part
    how_often: bool = False  # "kaç kez/kere", "how many times": a count of occasions
    asks_order: bool = False  # "hangi sırayla", "in what order"
    # "nasıl hesaplanıyor", "hangi değerlerden hesaplamalıyım", "nasıl buluyoruz": how a
    # number is worked out, not the number: the rule is the answer (no clause asks a count
    # without asking its method too).
    asks_method: bool = False
    # For each part: it asks how, why or what happens ("oylama nasıl yapılıyor"), which one
    # sentence rarely answers.
    parts_explain: tuple[bool, ...] = ()
    # The folded word a separate yes/no particle asks about ("bagli" in "isteğe bağlı mı"),
    # "" when there is none: what an FAQ verdict must agree with.
    asked: str = ""
    # The words a which/what word asks about, as typed: "hangi zarları getirmem" → zarları
    # getirmem, "cezası nedir" → cezası. What a number must count to answer the question.
    wh_nouns: tuple[str, ...] = ()

    @property
    def has_content(self) -> bool:
        """Any letter or digit at all: "→→→" or an emoji asks nothing."""
        return bool(self.words)

    @property
    def kind(self) -> str:
        """One label for tables and the answerability model."""
        for name in ("yes_no", "how_many", "what_if", "how_why", "setup"):
            if getattr(self, name):
                return name
        return "other"


def clean(text: str) -> str:
    """The question without invisible format characters (Unicode category Cf: zero-width
    space and joiners, soft hyphen, bidi marks, BOM), NFC-composed, whitespace collapsed.
    A soft hyphen inside "Day\u00adbreak" must not split the game's name."""
    composed = unicodedata.normalize("NFC", text)
    visible = "".join(c for c in composed if unicodedata.category(c) != "Cf")
    return re.sub(r"\s+", " ", visible).strip()


# "en fazla kaç", "en çok 4 mü": a limit asked. Not "en çok kirli enerjisi olanı" (the one
# with the most), a superlative relative clause naming who, asked about with another word.
_AT_MOST = re.compile(r"\ben (?:fazla|az|cok)\b(?!(?:\s+\w+){0,3}\s+olan)")


def _flags(folded: list[str], flat: str) -> tuple[bool, bool, bool, bool]:
    """(yes_no, how_many, how_why, what_if) of one clause's folded words."""
    wh = any(_is_wh(w) for w in folded)
    how_many = (any(_HOW_MANY.fullmatch(w) for w in folded) or "ne kadar" in flat
                or "how many" in flat or "how much" in flat or bool(_AT_MOST.search(flat)))
    # Written onto its verb, the particle is as often followed by more words as alone
    # ("mulligan 2 kere yapabilirmiyim cyberpunkta": 13 read questions were not yes/no).
    particle = any(_PARTICLE.fullmatch(w) for w in folded[1:]) or any(
        _ATTACHED_BARE.fullmatch(w) or _ATTACHED_SELF.fullmatch(w) for w in folded)
    # The particle closing the clause makes it a yes/no question even around a question
    # word ("elinde kaç kart olduğunu öğrenebiliyor muyum?").
    closing = any(_PARTICLE.fullmatch(w) or _ATTACHED_BARE.fullmatch(w)
                  for w in folded[-2:]) or bool(folded and _ATTACHED.fullmatch(folded[-1]))
    english_aux = bool(folded) and folded[0] in _EN_AUX
    yes_no = closing or ((particle or english_aux) and not (wh or how_many))
    what_if = bool(_WHAT_HAPPENS.search(flat)) or (
        wh and any(_CONDITIONAL.fullmatch(w) for w in folded)
        and any(w == "ne" or bool(_CONTRACTED_WH.fullmatch(w)) for w in folded))
    how_why = any(w in _HOW_WHY for w in folded) and not how_many
    return yes_no, how_many, how_why, what_if


def _asks(piece: str) -> bool:
    folded = [fold(w) for w in words(piece)]
    return any(_is_wh(w) for w in folded) or any(_flags(folded, " ".join(folded)))


def _split_and(piece: str) -> list[str]:
    """"kaç bina türü var ve hangi seviye Hükümet sayılır": two questions joined by "ve"
    when each side asks something; "kaç ağaç ve okyanus" is one."""
    halves = _AND.split(piece, maxsplit=1)
    if len(halves) == 2 and all(_asks(h) for h in halves):
        return [halves[0].strip(), *_split_and(halves[1].strip())]
    return [piece]


def _parts(text: str) -> tuple[str, ...]:
    """The clauses of ``text`` that each ask something of their own; () when fewer than two."""
    pieces = [q for p in _CLAUSE.split(text) if p.strip() for q in _split_and(p.strip())]
    asking: list[str] = []
    context: list[str] = []  # what the player says before the first question
    for piece in pieces:
        if _asks(piece):
            asking.append(", ".join([*context, piece]) if not asking else piece)
            context = []
        elif asking:  # a clause that asks nothing belongs with the question before it
            asking[-1] = f"{asking[-1]}, {piece}"
        else:
            context.append(piece)
    return tuple(asking) if len(asking) >= 2 else ()


# What is asked of the difference: "fark ne", "farkları neler", "ne fark var" (not "fark
# varsa", "fark vardır": a condition or a statement).
_ASKED = (r"(?:fark(?:lar)?[iı]?\s*(?:ne\w*|\?|$)"
          r"|ne\s+fark(?:lar)?[iı]?\s+var(?:d[iı]r)?\s*(?:\?|$))")
# "X ile Y arasındaki fark ne": a comparison asks what each side is; one side's sentence
# leaves the other unsaid. Split at the last "ile" ("2 kişiyle normal kurulum ile solo
# kurulum arasındaki fark"), and only where "fark" is asked about ("fark ne", "farkları
# neler"), not "fark eder mi" (does it matter), "fark ederse" (notices), "fark kadar".
_DIFFERENCE = re.compile(r"^(?P<x>.+)\s+(?:ile|vs\.?|versus)\s+(?P<y>.+?)\s+"
                         r"(?:aras[iı]ndaki\s+|aras[iı]nda\s+(?:bir\s+)?)?" + _ASKED,
                         re.IGNORECASE)
# The same with "ile" written as the first side's ending: an infinitive's or a noun's
# ("takas etmekle gig çalmak", "Tahmin kartıyla Bilinmeyen kriz kartı", "orta yerleşimle
# büyük yerleşim") or a term's after an apostrophe ("Swap'la steal"); only before
# "arasında(ki) fark".
_BETWEEN = re.compile(r"\s+aras[iı]nda(?:ki)?\s+(?:bir\s+)?" + _ASKED, re.IGNORECASE)
_WITH_ENDING = re.compile(rf"(?:(?<=[bcçdfgğhjklmnprsştvz])|(?<=[aeıioöuü])y|[{APOSTROPHES}]y?)"
                          r"l[ae](?=\s)", re.IGNORECASE)
_INFINITIVE = re.compile(r"m[ae]k$", re.IGNORECASE)
# Words ending so that are no side ("böyle bir kart", "şöyle ki"), and a second side that
# opens with a conjunction ("ekle ve çıkar"): not a split.
_NOT_A_SIDE = frozenset(("boy", "soy"))  # folded
_CONJUNCTIONS = frozenset(("ve", "veya", "ya", "yahut", "ile"))


def _attached_sides(clause: str) -> tuple[str, str] | None:
    """The sides of "X-(y)la Y arasındaki fark ne": where the second side is an infinitive,
    the split after the first infinitive ("2 kişiyle oynamakla 3 kişiyle oynamak"); else
    the last split that leaves two sides."""
    tail = _BETWEEN.search(clause)
    if tail is None:
        return None
    head = clause[: tail.start()]
    splits = []
    for m in _WITH_ENDING.finditer(head):
        x, y = head[: m.start()].strip(), head[m.end() :].strip()
        last = fold(x.split()[-1]) if x.split() else ""
        if not y or len(last) < 3 or last in _NOT_A_SIDE \
                or fold(y.split()[0]) in _CONJUNCTIONS:
            continue
        splits.append((x, y))
    both = [(x, y) for x, y in splits if _INFINITIVE.search(x) and _INFINITIVE.search(y)]
    if both:
        return both[0]
    return splits[-1] if splits else None


def _sides(text: str) -> tuple[str, ...]:
    """The two things a "what is the difference" question compares, each a part; () when
    it compares nothing this way."""
    for c in _CLAUSE.split(text):
        found = _DIFFERENCE.search(c.strip())
        if found is not None:
            return (found.group("x").strip(), found.group("y").strip())
        attached = _attached_sides(c.strip())
        if attached is not None:
            return attached
    return ()


def analyse(raw: str) -> Question:
    """The question, read once."""
    text = clean(raw)
    typed = words(text)
    folded = [fold(w) for w in typed]
    flat = " ".join(folded)
    yes_no, how_many, how_why, what_if = _flags(folded, flat)
    parts = _parts(text)
    # ("kaç puan fark": a number; "fark var mı": a yes/no, its verdict read as one)
    sides = () if parts or how_many or yes_no else _sides(text)
    parts = parts or sides
    part_flats = [" ".join(fold(w) for w in words(p)) for p in parts]
    part_flags = [_flags(f.split(), f) for f in part_flats]
    if parts:  # a question asks for a number, or yes/no, if any part does
        yes_no = yes_no or any(f[0] for f in part_flags)
        how_many = how_many or any(f[1] for f in part_flags)
    english = sum(w in _ENGLISH_FUNCTION for w in folded) >= 2
    if english and not (yes_no or how_many):  # "In Nucleum, do my tokens carry over?"
        yes_no = any(c[:1] and c[0] in _EN_AUX and not any(w in _WH for w in c)
                     for c in ([fold(w) for w in words(p)] for p in text.split(",")))
    return Question(
        raw=raw, text=text, words=tuple(typed), folded=tuple(folded),
        numbers=tuple(numbers_in(text)), english=english, yes_no=yes_no, how_many=how_many,
        how_why=how_why, what_if=what_if,
        setup=any(_SETUP.fullmatch(w) for w in folded), parts=parts,
        parts_explain=tuple(bool(sides) or ((f[2] or f[3] or bool(_DOES.search(p)))
                                             and not f[1])
                            for f, p in zip(part_flags, part_flats, strict=True)),
        how_often=bool(_HOW_OFTEN.search(flat)), asks_order=bool(_ORDER.search(flat)),
        asked=_asked(folded) if yes_no else "", wh_nouns=_wh_nouns(folded, typed),
        asks_method=_asks_method(part_flats or [flat],
                                 [f[1] for f in part_flags] or [how_many]))


def _asks_method(flats: list[str], counts: list[bool]) -> bool:
    """Some clause (folded) asks how a number is worked out, and none asks for a count alone
    (``counts``: each clause's how-many flag): "RAM limiti tam olarak kaç, nasıl
    hesaplanıyor" still wants the count."""
    method = [bool(_METHOD.search(f)) for f in flats]
    return any(method) and not any(c and not m for c, m in zip(counts, method, strict=True))


# "hangi X", "which X", "what X": the thing asked is named after the word ...
_WH_BEFORE_NOUN = frozenset(("hangi", "which", "what"))
# ... and right before "X hangileri", "X nedir", "X neler", "X hangisi", and a closing
# "X ne" ("cezası ne?"); "X ne işe yarar", "X ne yapar" ask about X, not which X.
_WH_AFTER_NOUN = frozenset(("hangileri", "hangileridir", "hangisi", "hangisidir", "nedir",
                            "neler", "nelerdir", "neydi"))


def _wh_nouns(folded: list[str], typed: list[str]) -> tuple[str, ...]:
    """The two words after each "hangi"/"which" and the two before each "nedir"/"neler"/
    "hangileri": what a which/what question asks for ("hangi devrilme noktalarını" → devrilme
    noktalarını; "ZP ödülü nedir" → ZP ödülü)."""
    out: list[str] = []
    for i, w in enumerate(folded):
        if w in _WH_BEFORE_NOUN:
            out.extend(typed[i + 1 : i + 3])
        elif w in _WH_AFTER_NOUN or (w == "ne" and i == len(folded) - 1):
            out.extend(typed[max(0, i - 2) : i])
    return tuple(out)


def _asked(folded: list[str]) -> str:
    """The word right before the first separate question particle, "" when none."""
    return next((folded[i - 1] for i in range(1, len(folded)) if _PARTICLE.fullmatch(folded[i])),
                "")
