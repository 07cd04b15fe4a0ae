"""The structured-facts table: every number the rules state, exact and cited.

What it does: loads ``corpus/facts/<game>.toml`` (one ``[[fact]]`` per numeric rule), checks
that each fact's quote occurs in its game's text exactly where it says, locates it (character
offsets and chunk section), stores/reads the table in SQLite, works a rate out for a count,
and measures how many numeric sentences of the corpus the facts cover. What it does
not do: invent or compute numbers (every number comes from a hand-written fact whose quote is
in the text), rank facts for a question (see ``factsearch``), word them for people and
machines (see ``phrasing``), or know any particular game.
"""

from __future__ import annotations

import math
import re
import sqlite3
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .chunks import chunk_game
from .corpus import Corpus, read_text
from .errors import FactsError
from .numbers import numeric_sentences

FACTS_DIR = "facts"
EXCUSED_FILE = "excused.toml"
FORMAT_VERSION = 3


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
    # A rate: ``value`` per ``per`` units of the subject ("her 2 hayatta kalan için 1
    # yiyecek"), rounded "up", "down" or not at all (""), so that a question that states a
    # count ("5 kişi") gets the number worked out from the rule.
    per: float | None = None
    rounding: str = ""


@dataclass(frozen=True)
class FactHit:
    fact: Fact
    score: float
    # Whether a number the question states about the fact's subject falls in its range;
    # None when the question states no such number.
    in_range: bool | None = None
    # For a rate, the question's count and the rule applied to it: (5, 3.0) for "5 kişi"
    # and "her 2 hayatta kalan için 1 yiyecek, yukarı yuvarla".
    applied: tuple[float, float] | None = None


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


_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_STR_FIELDS = ("subject", "unit", "effect", "quote")
_FACT_KEYS = frozenset({"id", "subject", "unit", "min", "max", "value", "value_unit", "effect",
                        "quote", "occurrence", "keywords", "per", "rounding"})


def _check(ok: bool, where: str, what: str) -> None:
    if not ok:
        raise FactsError(f"{where}: {what}")


# No rule of a board game states a number this large; past it a value is a typo, and
# arithmetic on it (rates, ranges) stops being exact.
MAX_VALUE = 1e9


def _num(raw: object, where: str, name: str) -> float | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        raise FactsError(f"{where}: `{name}` must be a number, got {type(raw).__name__}")
    if not math.isfinite(raw) or abs(raw) > MAX_VALUE:  # TOML allows inf and nan
        raise FactsError(f"{where}: `{name}` must be a finite number of at most "
                         f"{MAX_VALUE:.0e} in size, got {raw!r}")
    return float(raw)


def _tables(doc: dict, key: str, path: Path) -> list[dict]:
    """``[[key]]`` entries of a TOML document: a list of tables, or a ``FactsError``."""
    entries = doc.get(key, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise FactsError(f"{path.name}: `{key}` must be a list of tables ([[{key}]])")
    return entries


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
    except OSError as exc:
        raise FactsError(f"{path} cannot be read ({exc.strerror})") from exc


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
        for i, raw in enumerate(_tables(_read_toml(path), "fact", path), 1):
            fid = raw.get("id")
            where = f"{path.name}: fact {fid or f'#{i}'}"
            if not isinstance(fid, str) or not _SLUG.match(fid):
                raise FactsError(f"{where}: `id` must be a lowercase slug")
            _check(fid not in seen, where, "duplicate id")
            unknown = sorted(set(raw) - _FACT_KEYS)
            if unknown:  # a typo ("valu = 3") would otherwise drop the value silently
                raise FactsError(f"{where}: unknown key {unknown[0]!r}; the keys are "
                                 + ", ".join(sorted(_FACT_KEYS)))
            seen.add(fid)
            for name in _STR_FIELDS:
                _check(isinstance(raw.get(name), str) and bool(raw[name].strip()), where,
                       f"`{name}`: a non-empty string")
            keywords = raw.get("keywords", [])
            _check(isinstance(keywords, list) and all(isinstance(k, str) for k in keywords),
                   where, "`keywords`: a list of strings")
            occurrence = raw.get("occurrence")
            _check(occurrence is None or (type(occurrence) is int and occurrence >= 1), where,
                   "`occurrence`: a whole number from 1")
            _check(isinstance(raw.get("value_unit", ""), str), where, "`value_unit`: a string")
            lo, hi = _num(raw.get("min"), where, "min"), _num(raw.get("max"), where, "max")
            _check(lo is None or hi is None or lo <= hi, where, f"min {lo} > max {hi}")
            per = _num(raw.get("per"), where, "per")
            _check(per is None or per > 0, where, "`per`: a positive number")
            rounding = raw.get("rounding", "")
            _check(rounding in ("", "up", "down"), where, '`rounding`: "up", "down" or ""')
            start = _locate(game.text, raw["quote"], occurrence, where)
            end = start + len(raw["quote"])
            # The section of the passage holding the quote's first character.
            section = next((s for a, b, s in sections if a <= start < b), "")
            facts.append(Fact(
                id=fid, game=game.id, subject=raw["subject"], unit=raw["unit"], min=lo, max=hi,
                value=_num(raw.get("value"), where, "value"),
                value_unit=str(raw.get("value_unit", "")), effect=raw["effect"],
                quote=raw["quote"], start=start, end=end, section=section,
                keywords=tuple(keywords), per=per, rounding=rounding))
    return tuple(facts)


def load_excused(corpus_dir: Path) -> tuple[Excuse, ...]:
    """Numeric sentences that state no rule (``facts/excused.toml``), each with a reason."""
    path = corpus_dir / FACTS_DIR / EXCUSED_FILE
    if not path.is_file():
        return ()
    out = []
    for i, raw in enumerate(_tables(_read_toml(path), "excused", path), 1):
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
            "quote", "start", "end", "section", "keywords", "per", "rounding")


def fact_text(fact: Fact, game_name: str) -> str:
    """What the embedder sees of a fact: its game, subject and effect, and its quote."""
    return f"{game_name} — {fact.subject}: {fact.effect}. {fact.quote}"


def write_sqlite(facts: tuple[Fact, ...] | list[Fact], path: Path,
                 vectors: np.ndarray | None = None) -> None:
    """Write the table to a fresh SQLite file (a plain ``facts`` table and a ``meta`` table),
    with each fact's embedding as little-endian float32 bytes when ``vectors`` is given."""
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('format_version', ?)", (str(FORMAT_VERSION),))
        db.execute('CREATE TABLE facts (id TEXT, game TEXT, subject TEXT, unit TEXT, min REAL, '
                   'max REAL, value REAL, value_unit TEXT, effect TEXT, quote TEXT, '
                   '"start" INTEGER, "end" INTEGER, section TEXT, keywords TEXT, per REAL, '
                   'rounding TEXT, vector BLOB, PRIMARY KEY (game, id))')
        # Keywords never contain a newline, so one per line is a lossless encoding.
        blobs = ([None] * len(facts) if vectors is None else
                 [np.asarray(v, dtype="<f4").tobytes() for v in vectors])
        db.executemany(f"INSERT INTO facts VALUES ({', '.join('?' * (len(_COLUMNS) + 1))})",
                       [(f.id, f.game, f.subject, f.unit, f.min, f.max, f.value, f.value_unit,
                         f.effect, f.quote, f.start, f.end, f.section, "\n".join(f.keywords),
                         f.per, f.rounding, blob) for f, blob in zip(facts, blobs, strict=True)])
    db.close()


def read_sqlite(path: Path) -> tuple[Fact, ...]:
    """The table written by ``write_sqlite``; FactsError if missing or of another format."""
    return read_table(path)[0]


def read_table(path: Path) -> tuple[tuple[Fact, ...], np.ndarray | None]:
    """The facts and their embeddings in table order (None when written without)."""
    if not path.is_file():
        raise FactsError(f"no facts table at {path}")
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'format_version'").fetchone()
        if not row or row[0] != str(FORMAT_VERSION):
            raise FactsError(f"{path}: facts format {row and row[0]}, expected {FORMAT_VERSION}")
        cols = ", ".join(f'"{c}"' for c in (*_COLUMNS, "vector"))
        rows = db.execute(f"SELECT {cols} FROM facts ORDER BY rowid").fetchall()
    except sqlite3.DatabaseError as exc:
        raise FactsError(f"{path}: unreadable facts table: {exc}") from exc
    finally:
        db.close()
    facts = tuple(Fact(**dict(zip(_COLUMNS[:13], r[:13], strict=True)),
                       keywords=tuple(k for k in r[13].split("\n") if k), per=r[14],
                       rounding=r[15]) for r in rows)
    vectors = None
    if rows and all(r[16] is not None for r in rows):
        vectors = np.stack([np.frombuffer(r[16], dtype="<f4") for r in rows])
    return facts, vectors



def fact_numbers(fact: Fact) -> set[float]:
    return {x for x in (fact.value, fact.min, fact.max, fact.per) if x is not None}


def apply_rate(fact: Fact, count: float) -> float | None:
    """The rule worked out for ``count`` units of the subject; None unless it is a rate."""
    if fact.per is None or fact.value is None or not math.isfinite(count):
        return None
    ratio = count / fact.per
    ratio = math.ceil(ratio) if fact.rounding == "up" else \
        math.floor(ratio) if fact.rounding == "down" else ratio
    result = ratio * fact.value
    return result if math.isfinite(result) else None
