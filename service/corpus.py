"""Load the bundled rule texts and their per-game metadata.

What it does: reads ``corpus/games.toml`` and every ``corpus/<game>.txt`` exactly as stored
(UTF-8, no newline translation, so character offsets are offsets into the file's text), and
hashes them so an index can tell whether it was built from this corpus. What it does not do:
chunking, parsing of sections, or anything about facts (see ``chunks`` and ``facts``).
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import CorpusError

GAMES_FILE = "games.toml"


@dataclass(frozen=True)
class Game:
    """One game: its id (the text file's stem), display name, the names players use."""

    id: str
    name: str
    aliases: tuple[str, ...]
    language: str
    text: str
    sha256: str


@dataclass(frozen=True)
class Corpus:
    games: tuple[Game, ...]

    def game(self, game_id: str) -> Game:
        for game in self.games:
            if game.id == game_id:
                return game
        raise KeyError(game_id)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(g.id for g in self.games)


def read_text(path: Path) -> str:
    """The file's text with offsets exactly as in the file (no newline translation)."""
    with path.open(encoding="utf-8", newline="") as handle:
        return handle.read()


def load_corpus(corpus_dir: Path) -> Corpus:
    """Every game whose text and metadata are in ``corpus_dir``, sorted by id."""
    meta_path = corpus_dir / GAMES_FILE
    if not meta_path.is_file():
        raise CorpusError(f"no {GAMES_FILE} in {corpus_dir}: the corpus folder is incomplete")
    try:
        meta = tomllib.loads(read_text(meta_path))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CorpusError(f"{meta_path} is not valid TOML: {exc}") from exc
    for game_id, entry in meta.items():
        _check_entry(meta_path, game_id, entry)
    texts = {p.stem: p for p in corpus_dir.glob("*.txt")}
    missing_meta = sorted(set(texts) - set(meta))
    if missing_meta:
        raise CorpusError(f"no entry in {GAMES_FILE} for: {', '.join(missing_meta)}")
    missing_text = sorted(set(meta) - set(texts))
    if missing_text:
        raise CorpusError(f"{GAMES_FILE} names games with no text file: {', '.join(missing_text)}")
    games = []
    for game_id in sorted(texts):
        entry = meta[game_id]
        raw = texts[game_id].read_bytes()
        try:
            text = read_text(texts[game_id])
        except UnicodeDecodeError as exc:
            raise CorpusError(f"{texts[game_id]} is not UTF-8: {exc}") from exc
        name = entry.get("name", game_id)
        aliases = tuple(dict.fromkeys([name, *entry.get("aliases", [])]))
        games.append(Game(id=game_id, name=name, aliases=aliases,
                          language=entry.get("language", "tr"), text=text,
                          sha256=hashlib.sha256(raw).hexdigest()))
    if not games:
        raise CorpusError(f"no rule texts (*.txt) in {corpus_dir}")
    return Corpus(games=tuple(games))


_KEYS = frozenset({"name", "aliases", "language"})


def _check_entry(path: Path, game_id: str, entry: object) -> None:
    """One game's table, exactly as documented: ``CorpusError`` naming the file and key.

    Strict because a loose value misroutes silently: ``aliases = "Daybreak"`` read as a list
    would be its letters, and every lone "a" or "e" would name the game."""
    where = f"{path}: [{game_id}]"
    if not isinstance(entry, dict):
        raise CorpusError(f"{where} must be a table (name, aliases, language)")
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        raise CorpusError(f"{where}: unknown key {unknown[0]!r}; the keys are "
                          "name, aliases, language")
    for key in ("name", "language"):
        if key in entry and not (isinstance(entry[key], str) and entry[key].strip()):
            raise CorpusError(f"{where}.{key} must be a non-empty string")
    aliases = entry.get("aliases", [])
    if not isinstance(aliases, list) or not all(
            isinstance(a, str) and len(a.strip()) >= 2 for a in aliases):
        raise CorpusError(f"{where}.aliases must be a list of names (strings of 2 or more "
                          'characters), e.g. aliases = ["Daybreak"]')


def corpus_hash(corpus_dir: Path) -> str:
    """One hash over every file the index depends on (texts, metadata, facts)."""
    digest = hashlib.sha256()
    for path in sorted(corpus_dir.rglob("*")):
        if path.is_file() and path.suffix in {".txt", ".toml"}:
            digest.update(path.relative_to(corpus_dir).as_posix().encode())
            digest.update(b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).hexdigest().encode())
    return digest.hexdigest()
