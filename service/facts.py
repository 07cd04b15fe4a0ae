"""The structured-facts table: every number the rules state, exact and cited.

What it does: loads ``corpus/facts/<game>.toml`` (one ``[[fact]]`` per numeric rule), checks
that each fact's quote occurs in its game's text exactly where it says, locates it (character
offsets and chunk section), stores/reads the table in SQLite, ranks facts for a question
(lexical overlap plus exact number/range matching), words a fact as a Turkish sentence, and
measures how many numeric sentences of the corpus the facts cover. What it does not do: invent
or compute numbers (every number comes from a hand-written fact whose quote is in the text),
decide whether to abstain (callers get ``[]`` or scores), or know any particular game.
"""

from __future__ import annotations

import math
import re
import sqlite3
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .chunks import chunk_game, is_junk
from .corpus import Corpus, read_text
from .errors import FactsError
from .text import STOPWORDS, casefold_tr, fold, prefix, sentence_spans, stem, words

FACTS_DIR = "facts"
EXCUSED_FILE = "excused.toml"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class Fact:
    id: str
    game: str
    subject: str
    unit: str
    min: float | None
    max: float | None
    value: float | None
    value_unit: str
    effect: str
    quote: str
    start: int
    end: int
    section: str
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class FactHit:
    fact: Fact
    score: float


@dataclass(frozen=True)
class Excuse:
    game: str
    quote: str
    reason: str


@dataclass(frozen=True)
class CoverageReport:
    total: int
    covered: int
    excused: int
    uncovered: tuple[tuple[str, int, str], ...]  # (game, offset, sentence text)

    @property
    def ratio(self) -> float:
        return 1.0 if not self.total else (self.covered + self.excused) / self.total



# Cardinals by casefolded word. "bir" (1) is left out on purpose: it is far more often the
# indefinite article ("bir kart") than the number, so counting it would make nearly every
# sentence "numeric"; a rule's 1 is written as the digit in these texts, and facts may still
# carry value 1 where the text says "bir kez". "yüz" (100, also "face") and "bin" (1000, also
# "get on") are left out for the same reason; the texts write those numbers in digits.
_UNITS = {"sıfır": 0, "iki": 2, "üç": 3, "dört": 4, "beş": 5, "altı": 6, "yedi": 7,
          "sekiz": 8, "dokuz": 9}
_TENS = {"on": 10, "yirmi": 20, "otuz": 30, "kırk": 40, "elli": 50, "altmış": 60,
         "yetmiş": 70, "seksen": 80, "doksan": 90}
_CARDINALS = {**_UNITS, **_TENS}
# Inflected forms: consonant softening stems ("dördü", "dördüncü") and the endings a number
# word takes (possessive, case, "-li" adjective, distributive "-er", ordinal). A closed list,
# so "altına" (under it) or "ona" (to him) never read as 6 or 10.
_STEMS = {**{w: w for w in _CARDINALS}, "dörd": "dört"}
_ENDINGS = ("", "ü", "u", "ı", "i", "sı", "si", "yı", "yi", "ye", "ya", "e", "a", "de", "da",
            "te", "ta", "den", "dan", "ten", "tan", "li", "lı", "lu", "lü", "er", "ar", "şer",
            "şar", "inci", "ıncı", "uncu", "üncü", "nci", "ncı", "ncu", "ncü", "sini", "sını",
            "sine", "sına", "yü", "yu")
_FRONT, _BACK = set("eiöü"), set("aıou")


def _harmonic(stem_word: str, ending: str) -> bool:
    # Turkish vowel harmony (front/back): "üçe" is a form of üç, "üça" is not a word.
    last = [c for c in stem_word if c in _FRONT | _BACK][-1]
    group = _FRONT if last in _FRONT else _BACK
    return all(c in group for c in ending if c in _FRONT | _BACK)


_WORD_NUMBERS: dict[str, int] = {
    stem_word + end: _CARDINALS[base]
    for stem_word, base in _STEMS.items() for end in _ENDINGS if _harmonic(stem_word, end)
}
# Forms that are also everyday words: the pronoun "o" (ona, onu, onda, ondan).
for _w in ("ona", "onu", "onda", "ondan", "ondaki"):
    _WORD_NUMBERS.pop(_w, None)
# Typed without diacritics ("uc", "dort", "bes"): only a token with no Turkish letter may match
# a folded form, so "uç" (tip) or "ön" (front) never read as 3 or 10; "ucu" (its tip) is out.
_FOLDED_NUMBERS = {fold(w): n for w, n in _WORD_NUMBERS.items()}
for _w in ("ucu", "ucunu", "onde", "onden"):
    _FOLDED_NUMBERS.pop(_w, None)
_ASCII = re.compile(r"^[a-z]+$")
# Digits not glued to a letter before them (labels like "A7", "d20", "pic123" are names),
# a sign only when it starts the token ("-1 puan", "+2"), decimals with "," or ".".
_DIGITS = re.compile(r"(?<![^\W\d_])(?<![\d.,])([+-]?)(\d+(?:[.,]\d+)?)(?![.,]?\d)")
_WORD = re.compile(r"[^\W\d_]+")
_ENGLISH_AFTER_ON = frozenset(["the", "a", "an", "my", "your", "his", "her", "their", "our",
                               "this", "that", "each", "every", "it", "its", "top", "board",
                               "turn", "hand"])


def _word_number(token: str) -> int | None:
    low = casefold_tr(token)
    if low in _WORD_NUMBERS:
        return _WORD_NUMBERS[low]
    if _ASCII.match(low):
        return _FOLDED_NUMBERS.get(low)
    return None


def _number_spans(text: str) -> list[tuple[int, int, float]]:
    """(start, end, value) of every number stated in ``text``, in order."""
    found: list[tuple[int, int, float]] = []
    for m in _DIGITS.finditer(text):
        raw = m.group(2).replace(",", ".")
        value = float(m.group(1) + raw) if m.group(1) == "-" else float(raw)
        found.append((m.start(), m.end(), value))
    tokens = list(_WORD.finditer(text))
    i = 0
    while i < len(tokens):
        n = _word_number(tokens[i].group())
        if n is None:
            i += 1
            continue
        nxt = casefold_tr(tokens[i + 1].group()) if i + 1 < len(tokens) else ""
        if casefold_tr(tokens[i].group()) == "on" and (not nxt or nxt in _ENGLISH_AFTER_ON):
            i += 1  # English "on the ..." in mixed questions is not ten
            continue
        prev = fold(tokens[i - 1].group()) if i else ""
        if fold(tokens[i].group()) == "alti" and prev in ("ve", "veya"):
            i += 1  # "3 ve altı" is "3 and below", not six
            continue
        unit = _word_number(nxt) if nxt else None
        if n >= 10 and n % 10 == 0 and unit is not None and 0 < unit < 10:
            found.append((tokens[i].start(), tokens[i + 1].end(), float(n + unit)))  # "on iki"
            i += 2
            continue
        found.append((tokens[i].start(), tokens[i].end(), float(n)))
        i += 1
    return sorted(found)


def numbers_in(text: str) -> list[float]:
    """Exact numbers stated in ``text``: digits ("12", "12+", "2,0", "30'u", "-1") and
    Turkish number words ("iki", "on iki", folded "uc"), in order of appearance."""
    return [value for _, _, value in _number_spans(text)]


def fmt_number(x: float) -> str:
    """12.0 → "12", 0.1 → "0,1" (Turkish decimal comma)."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}".replace(".", ",")


def numeric_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of ``text`` that state a number (junk lines skipped)."""
    out, pos = [], 0
    for raw in text.splitlines(keepends=True):
        line = raw.rstrip("\r\n")
        if line.strip() and not is_junk(line.strip()):
            for span in sentence_spans(line, offset=pos):
                if numbers_in(text[span.start : span.end]):
                    out.append((span.start, span.end))
        pos += len(raw)
    return out



_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_STR_FIELDS = ("subject", "unit", "effect", "quote")


def _check(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise FactsError(f"{where}: {what}")


def _num(raw: object, where: str, name: str) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise FactsError(f"{where}: `{name}` must be a number, got {raw!r}")
    return float(raw)


def _locate(text: str, quote: str, occurrence: int | None, where: str) -> int:
    hits = [m.start() for m in re.finditer(re.escape(quote), text)]
    if not hits:
        raise FactsError(f"{where}: quote not found in the text: {quote!r}")
    if occurrence is None:
        if len(hits) > 1:
            raise FactsError(f"{where}: quote is ambiguous ({len(hits)} occurrences); "
                             "lengthen it or set `occurrence`")
        return hits[0]
    if not 1 <= occurrence <= len(hits):
        raise FactsError(f"{where}: occurrence {occurrence} but the quote occurs {len(hits)}x")
    return hits[occurrence - 1]


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(read_text(path))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise FactsError(f"{path} is not valid TOML: {exc}") from exc


def load_facts(corpus_dir: Path, corpus: Corpus) -> tuple[Fact, ...]:
    """Every fact of ``corpus_dir/facts/<game>.toml``, validated and located in its text."""
    facts: list[Fact] = []
    for path in sorted((corpus_dir / FACTS_DIR).glob("*.toml")):
        if path.name == EXCUSED_FILE:
            continue
        if path.stem not in corpus.ids:
            known = ", ".join(corpus.ids)
            raise FactsError(f"{path}: no game {path.stem!r} in the corpus ({known})")
        game = corpus.game(path.stem)
        sections = [(c.start, c.end, c.section) for c in chunk_game(game)]
        seen: set[str] = set()  # ids are unique within a game; (game, id) is the key
        for i, raw in enumerate(_read_toml(path).get("fact", []), 1):
            fid = raw.get("id") if isinstance(raw, dict) else None
            where = f"{path.name}: fact {fid or f'#{i}'}"
            if not isinstance(fid, str) or not _SLUG.match(fid):
                raise FactsError(f"{where}: `id` must be a lowercase slug")
            _check(fid not in seen, where, "duplicate id")
            seen.add(fid)
            for name in _STR_FIELDS:
                _check(isinstance(raw.get(name), str) and bool(raw[name].strip()), where,
                       f"`{name}`: a non-empty string")
            keywords = raw.get("keywords", [])
            _check(isinstance(keywords, list) and all(isinstance(k, str) for k in keywords),
                   where, "`keywords`: a list of strings")
            occurrence = raw.get("occurrence")
            _check(occurrence is None or type(occurrence) is int, where, "`occurrence`: an int")
            lo, hi = _num(raw.get("min"), where, "min"), _num(raw.get("max"), where, "max")
            _check(lo is None or hi is None or lo <= hi, where, f"min {lo} > max {hi}")
            start = _locate(game.text, raw["quote"], occurrence, where)
            end = start + len(raw["quote"])
            # The section of the passage holding the quote's first character.
            section = next((s for a, b, s in sections if a <= start < b), "")
            facts.append(Fact(
                id=fid, game=game.id, subject=raw["subject"], unit=raw["unit"], min=lo, max=hi,
                value=_num(raw.get("value"), where, "value"),
                value_unit=str(raw.get("value_unit", "")), effect=raw["effect"],
                quote=raw["quote"], start=start, end=end, section=section,
                keywords=tuple(keywords)))
    return tuple(facts)


def load_excused(corpus_dir: Path) -> tuple[Excuse, ...]:
    """Numeric sentences that state no rule (``facts/excused.toml``), each with a reason."""
    path = corpus_dir / FACTS_DIR / EXCUSED_FILE
    if not path.is_file():
        return ()
    out = []
    for i, raw in enumerate(_read_toml(path).get("excused", []), 1):
        if not all(isinstance(raw.get(k), str) and raw[k].strip()
                   for k in ("game", "quote", "reason")):
            raise FactsError(f"{path.name}: entry #{i} needs string game, quote and reason")
        out.append(Excuse(raw["game"], raw["quote"], raw["reason"]))
    return tuple(out)


def excuse_matches(quote: str, sentence: str) -> bool:
    """An excuse names its sentence: the whole sentence, or a distinctive piece of it (a
    bare step label like "2." must equal the sentence, or it would excuse any "2." inside)."""
    return quote == sentence or (len(quote) >= 8 and quote in sentence)


def coverage(corpus: Corpus, facts: tuple[Fact, ...], excused: tuple[Excuse, ...]
             ) -> CoverageReport:
    """How many numeric sentences a fact quote overlaps, or an excuse identifies."""
    total = covered = n_excused = 0
    uncovered = []
    for game in corpus.games:
        spans = [(f.start, f.end) for f in facts if f.game == game.id]
        excuses = [e.quote for e in excused if e.game == game.id]
        for s, e in numeric_sentences(game.text):
            total += 1
            sentence = game.text[s:e]
            if any(a < e and s < b for a, b in spans):
                covered += 1
            elif any(excuse_matches(q, sentence) for q in excuses):
                n_excused += 1
            else:
                uncovered.append((game.id, s, sentence))
    return CoverageReport(total, covered, n_excused, tuple(uncovered))



_COLUMNS = ("id", "game", "subject", "unit", "min", "max", "value", "value_unit", "effect",
            "quote", "start", "end", "section", "keywords")


def write_sqlite(facts: tuple[Fact, ...] | list[Fact], path: Path) -> None:
    """Write the table to a fresh SQLite file (a plain ``facts`` table and a ``meta`` table)."""
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('format_version', ?)", (str(FORMAT_VERSION),))
        db.execute('CREATE TABLE facts (id TEXT, game TEXT, subject TEXT, unit TEXT, min REAL, '
                   'max REAL, value REAL, value_unit TEXT, effect TEXT, quote TEXT, '
                   '"start" INTEGER, "end" INTEGER, section TEXT, keywords TEXT, '
                   'PRIMARY KEY (game, id))')
        # Keywords never contain a newline, so one per line is a lossless encoding.
        db.executemany(f"INSERT INTO facts VALUES ({', '.join('?' * len(_COLUMNS))})",
                       [(f.id, f.game, f.subject, f.unit, f.min, f.max, f.value, f.value_unit,
                         f.effect, f.quote, f.start, f.end, f.section, "\n".join(f.keywords))
                        for f in facts])
    db.close()


def read_sqlite(path: Path) -> tuple[Fact, ...]:
    """The table written by ``write_sqlite``; FactsError if missing or of another format."""
    if not path.is_file():
        raise FactsError(f"no facts table at {path}")
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'format_version'").fetchone()
        if not row or row[0] != str(FORMAT_VERSION):
            raise FactsError(f"{path}: facts format {row and row[0]}, expected {FORMAT_VERSION}")
        cols = ", ".join(f'"{c}"' for c in _COLUMNS)
        rows = db.execute(f"SELECT {cols} FROM facts ORDER BY rowid").fetchall()
    except sqlite3.DatabaseError as exc:
        raise FactsError(f"{path}: unreadable facts table: {exc}") from exc
    finally:
        db.close()
    return tuple(Fact(**dict(zip(_COLUMNS[:13], r[:13], strict=True)),
                      keywords=tuple(k for k in r[13].split("\n") if k)) for r in rows)



def fact_numbers(fact: Fact) -> set[float]:
    return {x for x in (fact.value, fact.min, fact.max) if x is not None}


def _range_text(fact: Fact) -> str:
    lo, hi = fact.min, fact.max
    if lo is not None and hi is not None:
        return fmt_number(lo) if lo == hi else f"{fmt_number(lo)}–{fmt_number(hi)}"
    if lo is not None:
        return f"{fmt_number(lo)} veya daha fazla"
    return f"en fazla {fmt_number(hi)}" if hi is not None else ""


def fact_sentence(fact: Fact) -> str:
    """The fact in plain Turkish, leading with its range or number."""
    rng = _range_text(fact)
    if rng:
        return f"{rng} {fact.subject}: {fact.effect}"
    if fact.value is not None:
        unit = fact.value_unit or fact.unit
        return f"{fmt_number(fact.value)} {unit} — {fact.subject}: {fact.effect}"
    return f"{fact.subject}: {fact.effect}"



# Where a question word matches counts by how much that field says what the fact is about.
_FIELD_WEIGHTS = (("subject", 3.0), ("keywords", 3.0), ("effect", 2.0), ("unit", 1.5),
                  ("quote", 1.0), ("game", 1.5))
# A folded word match is worth more than a shared stem, which is worth more than a prefix.
_KIND_WEIGHTS = {"w": 1.0, "s": 0.85, "p": 0.6}
MIN_OVERLAP = 2.0  # below this lexical score a fact shares no meaningful word with the question
IN_RANGE_BOOST = 1.6
OUT_OF_RANGE = 0.5
NUMBER_MENTIONED = 1.3


def _features(token: str) -> dict[str, str]:
    folded = fold(token)
    out = {"w": folded}
    if len(folded) >= 4:
        out["s"] = fold(stem(token))
        out["p"] = prefix(folded)
    return out


# Every fact answers "how many", so question words (and "olan", "tane") carry no signal
# here; they stay content words for passage retrieval (see text.STOPWORDS).
_ORDINAL = ("nci", "ncu")  # folded ordinal endings: ikinci, üçüncü, dördüncü
_QUESTION_WORDS = frozenset(fold(w) for w in re.findall(r"\S+", """
kaç kaçı kaça kaçta kaçtır kaçar kaçıncı nedir ne neler nasıl hangi hangisi hangileri mı mi
mu mü mıdır midir acaba how many much what which does
olan olarak var olur olursa olunca oluyor tane adet kadar"""))


def _content_tokens(text: str) -> list[str]:
    """Words that say what a text is about: no stopwords, question words or numbers (numbers
    are matched exactly, by value, never as words)."""
    return [t for t in words(text) if not t[:1].isdigit()
            and (_word_number(t) is None or fold(t).endswith(_ORDINAL))  # "ikinci" is a rank
            and fold(t) not in STOPWORDS and fold(t) not in _QUESTION_WORDS]


# Players mix English game terms into Turkish questions ("kaç contract", "how many VP"). A
# small general glossary of board-game vocabulary (no game's proper nouns) maps them onto the
# Turkish words the rule texts use; expansions count a little less than the player's words.
_GLOSSARY = {en: tuple(fold(t) for t in tr.split(",")) for en, tr in (
    pair.split("=") for pair in re.findall(r"\S+", """
    box=kutu card=kart deck=deste hand=el draw=çek die=zar dice=zar roll=at round=raunt,tur
    turn=tur,sıra player=oyuncu token=jeton tile=karo point=puan
    vp=zp,puan score=puan,skor win=kazan lose=kaybet loss=kaybet copy=kopya castle=kale
    tower=kule adjacent=komşu,bitişik settlement=yerleşim mission=görev contract=sözleşme
    multiplier=çarpan factory=fabrika building=bina worker=işçi coal=kömür uranium=uranyum
    electricity=elektrik technology=teknoloji wound=yara morale=moral food=yiyecek
    zombie=zombi noise=gürültü waste=atık survivor=hayatta,kalan location=lokasyon tree=ağaç
    ocean=okyanus cube=küp carbon=karbon temperature=sıcaklık band=bant energy=enerji
    demand=talep setup=kurulum,hazırlık limit=sınır maximum=en,fazla minimum=en,az
    penalty=ceza cost=maliyet sell=satış,sat value=değer face=yüz side=yüz,taraf
    included=bulunur opening=açılış start=başlangıç first=ilk,birinci second=ikinci
    end=son,sonu,bitiş"""))}


def _expand(tokens: list[str]) -> list[tuple[str, float]]:
    """The question's words (weight 1) and glossary translations of English ones (0.8)."""
    out = [(t, 1.0) for t in tokens]
    for t in tokens:
        f = fold(t)
        key = next((k for k in (f, f[:-1], f[:-3] + "y") if k in _GLOSSARY), None)
        if key and len(f) > 1:
            out.extend((tr, 0.8) for tr in _GLOSSARY[key] if tr not in tokens)
    return out


def _fact_fields(fact: Fact) -> dict[str, str]:
    return {"subject": fact.subject, "keywords": " ".join(fact.keywords), "effect": fact.effect,
            "unit": f"{fact.unit} {fact.value_unit}", "quote": fact.quote,
            "game": fact.game.replace("-", " ")}


_ORDINAL_WORDS = ("", "birinci", "ikinci", "üçüncü", "dördüncü", "beşinci", "altıncı",
                  "yedinci", "sekizinci", "dokuzuncu")
# "2. sıra", "6. raunt": a digit ordinal, read as its word so "ikinci olan" meets "2. sıra".
_DIGIT_ORDINAL = re.compile(r"(?<![\d.,])([1-9])\.(?=\s+[a-zçğıöşü])")


def _fact_index(fact: Fact) -> dict[tuple[str, str], float]:
    """Feature → best field weight for one fact."""
    out: dict[tuple[str, str], float] = {}
    for field, weight in _FIELD_WEIGHTS:
        text = _fact_fields(fact)[field]
        text += " " + " ".join(_ORDINAL_WORDS[int(d)] for d in _DIGIT_ORDINAL.findall(text))
        for tok in _content_tokens(text):
            for kind, feat in _features(tok).items():
                key = (kind, feat)
                out[key] = max(out.get(key, 0.0), weight)
    return out


def search_facts(facts: tuple[Fact, ...] | list[Fact], question: str, game: str | None,
                 limit: int = 5) -> list[FactHit]:
    """Facts ranked for ``question`` (restricted to ``game`` when given); [] if none overlaps."""
    pool = [f for f in facts if game is None or f.game == game]
    if not pool:
        return []
    indexes = [_fact_index(f) for f in pool]
    df = Counter(key for idx in indexes for key in idx)
    n = len(pool)
    q_tokens = _expand(list(dict.fromkeys(_content_tokens(question))))
    q_numbers = _numbers_in_context(question)
    hits = []
    for fact, idx in zip(pool, indexes, strict=True):
        lexical = 0.0
        for tok, weight in q_tokens:
            lexical += weight * max(
                (_KIND_WEIGHTS[kind] * idx[key] * math.log((n + 1) / (df[key] + 0.5))
                 for kind, key in ((k, (k, f)) for k, f in _features(tok).items())
                 if key in idx), default=0.0)
        if lexical < MIN_OVERLAP:
            continue
        hits.append(FactHit(fact, round(lexical * _number_factor(fact, q_numbers), 4)))
    hits.sort(key=lambda h: (-h.score, h.fact.game, h.fact.start))
    return hits[:limit]


def _numbers_in_context(question: str) -> list[tuple[float, list[str]]]:
    """Each number of the question with the folded words around it ("9 tane krizde
    topluluk jetonum" → 9 with tane, krizde, topluluk), to tell what it counts. Word
    ordinals ("ikinci olan") are ranks, not counts, and are left to the words."""
    out = []
    for start, end, value in _number_spans(question):
        if fold(question[start:end]).endswith(_ORDINAL):
            continue
        before = [fold(w) for w in _WORD.findall(question[:start])][-2:]
        after = [fold(w) for w in _WORD.findall(question[end:])][:4]
        out.append((value, before + after))
    return out


# Words too general to say what a number counts ("2 oyuncu olan", "9 tane").
_WEAK = frozenset(fold(w) for w in re.findall(r"\S+", """
olan olarak daha fazla başına sonra önce kadar tane adet için her veya ile"""))


def _counts_same_thing(context: list[str], fact_words: set[str]) -> bool:
    # "jetonum" ~ "jeton", "oyunculu" ~ "oyuncu", "kişilik" ~ "kişi": one is a prefix of the
    # other, and the shared part is a real word (4+ letters), not a syllable.
    return any(len(c) >= 4 and len(w) >= 4 and (c.startswith(w) or w.startswith(c))
               for c in context for w in fact_words)


def _number_factor(fact: Fact, q_numbers: list[tuple[float, list[str]]]) -> float:
    """Exact number matching. A question's number that counts what a fact's range counts
    (its context shares a word with the fact's unit, subject or keywords) lifts the fact when
    inside the range and pushes it down when outside; an unrelated number ("moral sıfıra
    iner") leaves the range alone. A number the fact's text states lifts it a little."""
    if not q_numbers:
        return 1.0
    if fact.min is not None or fact.max is not None:
        lo = -math.inf if fact.min is None else fact.min
        hi = math.inf if fact.max is None else fact.max
        words_ = {fold(w) for w in _WORD.findall(f"{fact.unit} {fact.subject} "
                                                  f"{' '.join(fact.keywords)}")} - _WEAK
        related = [x for x, ctx in q_numbers if _counts_same_thing(ctx, words_)]
        if related:
            return IN_RANGE_BOOST if any(lo <= x <= hi for x in related) else OUT_OF_RANGE
        return NUMBER_MENTIONED if any(lo <= x <= hi for x, _ in q_numbers) else 1.0
    stated = set(numbers_in(f"{fact.subject} {fact.quote}"))
    return NUMBER_MENTIONED if {x for x, _ in q_numbers} & stated else 1.0
