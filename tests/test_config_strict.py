"""games.toml, the facts files and the environment, validated strictly: a wrong value is one
line naming the file (or variable) and the key, never a traceback or a silent misreading."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hakem.cli import main
from hakem.corpus import load_corpus
from hakem.errors import CorpusError, FactsError, HakemError
from hakem.facts import load_excused, load_facts
from hakem.settings import Settings

TINY = Path(__file__).parent / "data" / "tiny"


def _corpus(tmp_path: Path, games: str | None = None, facts: str | None = None,
            excused: str | None = None) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(TINY, root)
    if games is not None:
        (root / "games.toml").write_text(games, encoding="utf-8")
    if facts is not None:
        (root / "facts" / "kale-oyunu.toml").write_text(facts, encoding="utf-8")
    if excused is not None:
        (root / "facts" / "excused.toml").write_text(excused, encoding="utf-8")
    return root


GAMES = '[kale-oyunu]\nname = "Kale Oyunu"\n{kale}\n[zar-savasi]\nname = "Zar Savaşı"\n'


@pytest.mark.parametrize(("kale", "key"), [
    ('aliases = "Daybreak"', "aliases"),  # a string read as a list was its letters
    ('aliases = ["KO", 3]', "aliases"),
    ('aliases = ["a"]', "aliases"),
    ("language = 5", "language"),
    ('name = ""', "name"),
    ('alias = ["KO"]', "alias"),
], ids=["string", "number-in-list", "one-letter", "language", "empty-name", "unknown-key"])
def test_games_toml_values_are_checked(tmp_path, kale, key):
    text = GAMES.format(kale=kale)
    if kale.startswith("name"):
        text = text.replace('name = "Kale Oyunu"\n', "")
    root = _corpus(tmp_path, games=text)
    with pytest.raises(CorpusError) as exc:
        load_corpus(root)
    message = str(exc.value)
    assert "games.toml" in message and "kale-oyunu" in message and key in message
    assert "\n" not in message


def test_a_game_entry_that_is_not_a_table(tmp_path):
    root = _corpus(tmp_path, games='kale-oyunu = "Kale"\n[zar-savasi]\nname = "Zar"\n')
    with pytest.raises(CorpusError, match=r"games.toml.*kale-oyunu.*table"):
        load_corpus(root)


FACT = """[[fact]]
id = "kale-puan"
subject = "kontrol edilen kale"
unit = "puan"
{extra}
effect = "oyun sonunda kale başına 3 puan"
quote = "Kontrol ettiğiniz her kale oyun sonunda 3 puan kazandırır."
"""


@pytest.mark.parametrize(("extra", "key"), [
    ("value = inf", "value"), ("value = nan", "value"), ("min = -inf", "min"),
    ("max = 1e300", "max"), ("per = nan", "per"), ('value = "3"', "value"),
    ("value_unit = 3", "value_unit"), ("occurrence = 0", "occurrence"),
    ("valu = 3", "valu"), ("keywords = \"kale\"", "keywords"),
], ids=lambda v: v if "=" in v else "")
def test_fact_values_are_checked(tmp_path, extra, key):
    root = _corpus(tmp_path, facts=FACT.format(extra=extra))
    with pytest.raises(FactsError) as exc:
        load_facts(root, load_corpus(root))
    message = str(exc.value)
    assert "kale-oyunu.toml" in message and "kale-puan" in message and key in message


@pytest.mark.parametrize("text", ['fact = "x"', "fact = [1, 2]", "[fact]\nid = 3"])
def test_fact_not_a_list_of_tables(tmp_path, text):
    root = _corpus(tmp_path, facts=text)
    with pytest.raises(FactsError, match=r"kale-oyunu.toml.*list of tables"):
        load_facts(root, load_corpus(root))


def test_excused_not_a_list_of_tables(tmp_path):
    root = _corpus(tmp_path, excused="excused = [\"x\"]\n")
    with pytest.raises(FactsError, match=r"excused.toml.*list of tables"):
        load_excused(root)


@pytest.mark.parametrize(("which", "text"), [
    ("games", "[kale-oyunu\nname = 1"), ("facts", "[[fact]]\nid = = 3"),
    ("excused", "[[excused]\n"), ("games", "[kale-oyunu]\nname = 'a'\nname = 'b'\n")])
def test_malformed_toml_is_one_line_naming_the_file(tmp_path, capsys, which, text):
    root = _corpus(tmp_path, **{which: text})
    code = main(["--corpus-dir", str(root), "facts", "--coverage"])
    err = capsys.readouterr().err
    assert code == 1 and len(err.strip().splitlines()) == 1, err
    assert {"games": "games.toml", "facts": "kale-oyunu.toml",
            "excused": "excused.toml"}[which] in err
    assert "Traceback" not in err


@pytest.mark.parametrize(("name", "value"), [
    ("HAKEM_THREADS", "100000"), ("HAKEM_THREADS", "0"), ("HAKEM_EMBED_INSTANCES", "1000"),
    ("HAKEM_MAX_BODY_BYTES", str(10**12)), ("HAKEM_MAX_JSON_DEPTH", "-1")])
def test_settings_are_bounded(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    with pytest.raises(HakemError, match=name):
        Settings.from_env()


def test_settings_in_bounds_are_accepted(monkeypatch):
    monkeypatch.setenv("HAKEM_THREADS", "64")
    assert Settings.from_env().threads == 64
