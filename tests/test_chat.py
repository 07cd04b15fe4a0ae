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


def test_teaching_mode_walks_the_lesson(tiny_engine):
    text = chat(tiny_engine, ":öğret kale-oyunu 2\nn\nn\np\n:sonraki\n:sonraki\nn\nq\nn\n"
                             ":çık\nthis is never read\n")
    steps = re.findall(r"Adım (\d)/7 (.+)", text)
    assert [n for n, _ in steps] == ["1", "2", "3", "2", "3", "4", "5"]
    assert steps[0][1] == "Oyun nedir, nasıl kazanılır?" and steps[2][1] == "Kurulum"
    assert "Kale Oyunu dersi, 2 oyuncu: 7 adım" in text
    # The 2-player setup rule, whole and cited with its place; a missing part says so.
    assert "2 oyunculu oyunda her oyuncu 12 karo ile başlar. (Puan Hesaplama bölümü, 1. " \
           "paragraf · kale-oyunu:" in text
    assert "Metinde tur yapısı anlatılmıyor." in text
    assert "Öğretme modu bitti" in text
    assert text.count("Adım ") == 7  # after q, "n" is a question again (not a step)


def test_ascii_commands_faq_help_and_unknown(tiny_engine):
    text = chat(tiny_engine, ":ogret zar savasi\n:bitir\n:sss zar-savasi\n:sss kale-oyunu uzay\n"
                             ":yardım\n:uç\n:cik\n")
    assert "Zar Savaşı dersi: 7 adım" in text
    assert "Hayır — Zarlar yeniden atılamaz" in text
    assert "Kale Oyunu SSS: 0 cevap (uzay)" in text
    assert ":oyun G" in text and "Bilinmeyen komut: :uc" in text


def test_follow_up_keeps_the_game_and_topic(tiny_engine):
    text = chat(tiny_engine, "Kale Oyunu 3 kişi kurulum\npeki 2 kişiysek?\n")
    first, second = text.split("Anladığım soru:")
    # The tiny text's only setup rule is for 2 players: for 3 it says so.
    assert "Kale Oyunu metninde 3 oyuncu için kurulum kuralı yok." in first
    assert "12 karo" not in first
    assert second.startswith(" Kale Oyunu 2 kişi kurulum")
    assert "Kale Oyunu kurulumu (2 oyuncu)" in second and "12 karo ile başlar" in second


def test_a_question_naming_another_game_wins_and_says_so(tiny_engine):
    text = chat(tiny_engine, ":oyun zar-savasi\nKale Oyunu'nda her kale kaç puan kazandırır?\n")
    assert "Soruda Kale Oyunu geçiyor; ona göre cevapladım." in text
    assert "Oyun: Kale Oyunu (sorudaki addan)" in text and "3 puan" in text


def test_one_bad_line_does_not_end_the_session(tiny_engine, monkeypatch):
    calls = {"n": 0}
    real = tiny_engine.ask

    def flaky(question, *args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("boom")
        return real(question, *args, **kwargs)

    monkeypatch.setattr(tiny_engine, "ask", flaky)
    text = chat(tiny_engine, "kale kaç puan\nbozuk \ufffd satır\nKale Oyunu'nda her kale kaç "
                             "puan kazandırır?\n")
    assert "Bu soru cevaplanamadı (RuntimeError)" in text
    assert "Bu satır okunamadı" in text
    assert "3 puan" in text  # the session went on


def test_invalid_utf8_on_stdin_is_one_line_and_the_session_goes_on(tiny_built):
    env = {**os.environ, "HAKEM_CORPUS_DIR": str(tiny_built.corpus_dir),
           "HAKEM_INDEX_DIR": str(tiny_built.index_dir), "HAKEM_EMBEDDER": "fake"}
    env.pop("FORCE_COLOR", None)
    script = b"\xff\xfe kale\nKale Oyunu'nda her kale ka\xc3\xa7 puan kazand\xc4\xb1r\xc4\xb1r?\n"
    proc = subprocess.run([sys.executable, "-m", "hakem", "chat"], input=script,
                          capture_output=True, env=env, timeout=60)
    out = proc.stdout.decode()
    assert proc.returncode == 0 and "Traceback" not in proc.stderr.decode()
    assert "Bu satır okunamadı" in out and "3 puan" in out


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
        assert "0'a düşerse" in proc.stdout and "Adım 2/7" in proc.stdout
        assert "\x1b[" not in proc.stdout
    else:
        assert proc.returncode == 1 and proc.stdout == ""
        assert proc.stderr.count("\n") == 1 and "hakem build" in proc.stderr


def test_terminal_control_characters_never_reach_the_chat_output(tiny_engine):
    # an unknown game's name is echoed back in the error line
    text = chat(tiny_engine, ":oyun \x1b[2Jzar\x07\nkale \x1b]0;pwned\x07 kaç puan?\n")
    assert "\x1b" not in text and "\x07" not in text
