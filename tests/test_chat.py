"""``hakem chat`` driven with scripted input, as a player at the table would type it."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

from hakem.chat import run_chat
from hakem.settings import Settings

COLOUR = re.compile(r"\x1b\[[0-9;]*?(?:3[0-9]|9[0-7])(?:;[0-9]+)*m")


class TtyInput(io.StringIO):
    def isatty(self) -> bool:
        return True


def chat(engine, script: str, stdin_cls=io.StringIO) -> str:
    out = io.StringIO()
    assert run_chat(engine.settings, stdin=stdin_cls(script), stdout=out, engine=engine) == 0
    return out.getvalue()


def test_question_answer_citations_and_facts(tiny_engine):
    text = chat(tiny_engine, "Kale Oyunu'nda her kale kaç puan kazandırır?\n")
    assert "Oyun: Kale Oyunu (sorudaki addan)" in text
    assert "3 puan" in text
    assert re.search(r"1\. .*kale-oyunu:\d+-\d+", text)  # a numbered, cited passage
    assert text.startswith("Oyun: ")  # no greeting or prompt when stdin is not a terminal


def test_game_is_remembered_switched_and_validated(tiny_engine):
    text = chat(tiny_engine, "\n".join([
        "Zar Savaşı'nda can kaç?",  # named: kept for the next question
        "yere düşen zar geçerli mi?",
        ":oyun satranc",
        ":oyun kale oyunu",
        "oyuncu başına kaç kale parçası var?",
        ":oyun",
    ]) + "\n")
    blocks = text.split("Oyun: ")
    assert "Zar Savaşı (sorudaki addan)" in blocks[1]
    assert "Zar Savaşı (seçtiğiniz oyun)" in blocks[2]
    assert "Bilinmeyen oyun: satranc" in text and "kale-oyunu (Kale Oyunu)" in text
    assert "Kale Oyunu (seçtiğiniz oyun)" in text
    assert "kale-oyunu:" in blocks[-2]
    assert text.rstrip().endswith(
        "Oyun: Kale Oyunu. Oyunlar: kale-oyunu (Kale Oyunu), zar-savasi (Zar Savaşı)")


def test_a_game_not_in_the_corpus_is_not_answered_from_the_kept_one(tiny_engine):
    # A kept (picked) game is never overridden by a guessed unknown name; the question is
    # judged against the kept game's rules, which do not answer it.
    text = chat(tiny_engine, ":oyun kale-oyunu\nCatan'da en uzun yol kaç puan?\n")
    assert "∅" in text and "kale-oyunu:" not in text
    alone = chat(tiny_engine, "Catan'da en uzun yol kaç puan?\n")
    assert "∅" in alone and "Catan" in alone


def test_teaching_mode_steps_forward_and_back(tiny_engine):
    text = chat(tiny_engine, ":öğret kale-oyunu\nn\nn\np\n:sonraki\n:sonraki\nn\nq\nn\n:çık\n"
                             "this is never read\n")
    steps = re.findall(r"Adım (\d)/4 (.+)", text)
    assert [n for n, _ in steps] == ["1", "2", "3", "2", "3", "4"]
    assert steps[0][1] == "Oyun nedir?" and steps[-1][1] == "Sık sorulan sorular"
    assert "Son adım" in text and "Öğretme modu bitti" in text
    assert "kale-oyunu:" in text
    # after q, "n" is a question again (not a step)
    assert text.count("Adım ") == 6


def test_ascii_commands_faq_help_and_unknown(tiny_engine):
    text = chat(tiny_engine, ":ogret zar savasi\n:bitir\n:sss zar-savasi\n:sss kale-oyunu uzay\n"
                             ":yardım\n:uç\n:cik\n")
    assert "Zar Savaşı öğretme modu: 3 adım" in text
    assert "Hayır — Zarlar yeniden atılamaz" in text
    assert "Kale Oyunu SSS: 0 cevap (uzay)" in text
    assert ":oyun G" in text and "Bilinmeyen komut: :uc" in text


def test_prompt_only_on_a_terminal_and_no_colour_in_a_pipe(tiny_engine, monkeypatch):
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    piped = chat(tiny_engine, "kale kaç puan\n")
    assert "\x1b[" not in piped and not any(ln.startswith(">") for ln in piped.splitlines())
    tty = chat(tiny_engine, ":oyun kale-oyunu\n", stdin_cls=TtyInput)
    assert tty.startswith("Hakem") and "> " in tty and "Kale Oyunu> " in tty


def test_colour_on_a_terminal_unless_no_color(tiny_engine, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")  # what a terminal gets
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert COLOUR.search(chat(tiny_engine, "kale kaç puan\n"))
    monkeypatch.setenv("NO_COLOR", "1")
    assert not COLOUR.search(chat(tiny_engine, "kale kaç puan\n"))


def test_missing_index_is_one_line_and_exit_1(tmp_path, tiny_corpus_dir, capsys):
    settings = Settings(corpus_dir=tiny_corpus_dir, index_dir=tmp_path / "none", embedder="fake")
    assert run_chat(settings, stdin=io.StringIO("soru\n"), stdout=io.StringIO()) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "hakem build" in err


@pytest.mark.parametrize("built", [True, False])
def test_hakem_chat_command_with_piped_input(tiny_built, tmp_path, built):
    env = {**os.environ, "HAKEM_CORPUS_DIR": str(tiny_built.corpus_dir),
           "HAKEM_INDEX_DIR": str(tiny_built.index_dir if built else tmp_path / "none"),
           "HAKEM_EMBEDDER": "fake"}
    env.pop("FORCE_COLOR", None)
    proc = subprocess.run([sys.executable, "-m", "hakem", "chat"], input=":oyun zar-savasi\n"
                          "canı 0'a düşen oyuncu kaybeder mi?\n:öğret\nn\n",
                          capture_output=True, text=True, env=env, timeout=60)
    if built:
        assert proc.returncode == 0, proc.stderr
        assert "Oyun: Zar Savaşı (seçtiğiniz oyun)" in proc.stdout
        assert "0'a düşerse" in proc.stdout and "Adım 2/3" in proc.stdout
        assert "\x1b[" not in proc.stdout
    else:
        assert proc.returncode == 1 and proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and "hakem build" in proc.stderr
