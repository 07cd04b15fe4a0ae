"""The page used as a person would, in headless Chromium (Debian's ``chromium`` package).

The app runs with uvicorn in a background thread on 127.0.0.1 (tiny corpus, fake embedder;
one test on the real index when it is built). Selenium drives the system chromedriver; no
browser is ever downloaded. Screenshots at phone and laptop widths go to tests/artifacts/.
Without /usr/bin/chromium the module is skipped, except on CI, where that is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hakem.api import create_app
from hakem.corpus import load_corpus
from hakem.embed import FakeEmbedder
from hakem.engine import Engine
from hakem.index import build_index
from hakem.settings import Settings

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
ARTIFACTS = Path(__file__).parent / "artifacts"
TINY = Path(__file__).parent / "data" / "tiny"
PHONE, LAPTOP = (390, 844), (1366, 900)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage"]

ON_CI = bool(os.environ.get("CI"))
if not ON_CI:  # on CI a missing browser or library is a failure, never a silent skip
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.skip("no /usr/bin/chromium or /usr/bin/chromedriver "
                    "(apt-get install -y chromium chromium-driver)", allow_module_level=True)
    pytest.importorskip("selenium", reason="selenium is not installed (dev extra)")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.chrome.options import Options  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support import expected_conditions as ec  # noqa: E402
from selenium.webdriver.support.select import Select  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def _serve(engine: Engine) -> Iterator[str]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(engine.settings, engine=engine),
                                           host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def tiny_url(tmp_path_factory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("browser")
    corpus_dir = root / "corpus"
    shutil.copytree(TINY, corpus_dir)
    settings = Settings(corpus_dir=corpus_dir, index_dir=root / "index", embedder="fake")
    build_index(load_corpus(corpus_dir), corpus_dir, settings.index_dir, FakeEmbedder())
    yield from _serve(Engine.load(settings))


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    assert CHROMIUM.exists() and CHROMEDRIVER.exists(), (
        "the browser tests need Debian's chromium: apt-get install -y chromium chromium-driver")
    opts = Options()
    opts.binary_location = str(CHROMIUM)
    for flag in [*FLAGS, f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}",
                 f"--window-size={LAPTOP[0]},{LAPTOP[1]}"]:
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    drv = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    drv.set_page_load_timeout(20)
    ARTIFACTS.mkdir(exist_ok=True)
    yield drv
    drv.quit()


def viewport(drv, size: tuple[int, int]) -> None:
    # Exact CSS viewport, as a phone reports it (no window chrome to subtract).
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size == PHONE})


def wait(drv, condition, timeout: float = 10):
    return WebDriverWait(drv, timeout).until(condition)


def visible(drv, css: str):
    return wait(drv, ec.visibility_of_element_located((By.CSS_SELECTOR, css)))


def text_in(drv, css: str, text: str) -> None:
    try:
        wait(drv, ec.text_to_be_present_in_element((By.CSS_SELECTOR, css), text))
    except TimeoutException as exc:
        shown = drv.find_element(By.CSS_SELECTOR, css).text
        raise AssertionError(f"{css}: wanted {text!r}, shows {shown!r}") from exc


def open_page(drv, url: str) -> None:
    drv.get(url)
    wait(drv, lambda d: d.execute_script("return document.body.dataset.ready === '1'"))


def ask(drv, question: str) -> None:
    box = drv.find_element(By.ID, "question")
    box.clear()
    box.send_keys(question, Keys.ENTER)


def shot(drv, name: str, at=None) -> Path:
    """A screenshot of what a person sees: the top of the page, or scrolled to ``at``."""
    if at is None:
        drv.execute_script("window.scrollTo(0, 0)")
    else:
        drv.execute_script("arguments[0].scrollIntoView({block: 'start'})", at)
    path = ARTIFACTS / name
    assert drv.save_screenshot(str(path)) and path.stat().st_size > 5000
    return path


def no_errors_in_console(drv) -> None:
    # CSP violations, script errors and failed loads are all SEVERE entries.
    severe = [e["message"] for e in drv.get_log("browser") if e["level"] == "SEVERE"]
    assert not severe, severe


def fits_the_screen(drv) -> None:
    assert drv.execute_script(
        "return document.documentElement.scrollWidth <= window.innerWidth"), "sideways scroll"


def test_ask_cite_context_switch_game_teach_and_faq(driver, tiny_url):
    drv = driver
    viewport(drv, PHONE)
    open_page(drv, tiny_url + "/")
    assert drv.find_element(By.TAG_NAME, "html").get_attribute("lang") == "tr"
    assert drv.execute_script("return window.innerWidth") == PHONE[0]
    question = drv.find_element(By.ID, "question")
    assert float(question.value_of_css_property("font-size").rstrip("px")) >= 16
    assert question.size["height"] >= 44 and drv.find_element(
        By.ID, "ask-button").size["height"] >= 44

    # Ask: the short answer first, the game found from its name, a card with the sentence marked.
    ask(drv, "Kale Oyunu'nda her kale kaç puan kazandırır?")
    answer = visible(drv, "#answer-text")
    assert "3 puan" in answer.text
    assert "Kale Oyunu (sorudaki addan)" in drv.find_element(By.ID, "game-found").text
    card = visible(drv, "#cards .card")
    assert "Kale Oyunu" in card.find_element(By.CSS_SELECTOR, ".card-head").text
    marks = [m.text for m in drv.find_elements(By.CSS_SELECTOR, "#cards .card mark")]
    assert any("3 puan" in m for m in marks)
    fits_the_screen(drv)
    shot(drv, "phone-answer.png")

    # The answer once: one source card shown, the others folded; citations by place.
    assert len(drv.find_elements(By.CSS_SELECTOR, "#cards .card")) == 1
    text_in(drv, "#cards .card-head", "paragraf")
    assert "–" not in drv.find_element(By.CSS_SELECTOR, "#cards .card-head").text
    # Open the citation in context: the passage marked inside the text around it.
    if not any(c.find_elements(By.TAG_NAME, "mark")
               for c in drv.find_elements(By.CSS_SELECTOR, "#cards .card")):
        drv.find_element(By.CSS_SELECTOR, "#more-box summary").click()
    marked_card = next(c for c in drv.find_elements(By.CSS_SELECTOR, "#result .card")
                       if c.find_elements(By.TAG_NAME, "mark"))
    marked_card.find_element(By.CSS_SELECTOR, "button.open-context").click()
    ctx = wait(drv, lambda d: marked_card.find_element(By.CSS_SELECTOR, ".context")
               if marked_card.find_element(By.CSS_SELECTOR, ".context").is_displayed() else None)
    passage = marked_card.find_element(By.CSS_SELECTOR, ".passage").text
    assert ctx.find_element(By.CSS_SELECTOR, "mark.ctx-mark").text == passage
    assert len(ctx.text) > len(passage)
    fits_the_screen(drv)
    shot(drv, "phone-context.png", at=marked_card)
    # ... and as a page of its own showing the whole section.
    marked_card.find_element(By.LINK_TEXT, "Bölümün tamamı").click()
    assert visible(drv, "mark#alinti").text == passage
    assert "Bileşenler" in drv.find_element(By.TAG_NAME, "h1").text
    fits_the_screen(drv)
    shot(drv, "phone-section.png")
    drv.back()
    wait(drv, lambda d: d.execute_script("return document.body.dataset.ready === '1'"))

    # Switch game with the picker: it sticks for the session (also after a reload).
    Select(drv.find_element(By.ID, "game")).select_by_value("zar-savasi")
    ask(drv, "yere düşen zar geçerli mi?")
    text_in(drv, "#game-found", "Zar Savaşı (seçiminiz)")
    drv.refresh()
    wait(drv, lambda d: d.execute_script("return document.body.dataset.ready === '1'"))
    assert Select(drv.find_element(By.ID, "game")).first_selected_option.text == "Zar Savaşı"
    # ... or change the game of an answer: the same question asked again for that game.
    ask(drv, "Her oyuncu kaç canla başlar?")
    text_in(drv, "#game-found", "Zar Savaşı")
    Select(drv.find_element(By.ID, "regame")).select_by_value("kale-oyunu")
    text_in(drv, "#game-found", "Kale Oyunu (seçiminiz)")
    assert drv.execute_script("return sessionStorage.getItem('hakem.game')") == "kale-oyunu"
    # A question that names another game is about that game, whatever game is picked, and
    # the page says so; the picker keeps showing what was picked.
    ask(drv, "Zar Savasi'nda her oyuncu kaç canla başlar?")
    text_in(drv, "#game-found", "Zar Savaşı (sorudaki addan)")
    note = visible(drv, "#game-note")
    assert "Soruda Zar Savaşı geçiyor; ona göre cevapladım" in note.text
    assert Select(drv.find_element(By.ID, "game")).first_selected_option.text == "Kale Oyunu"
    fits_the_screen(drv)
    shot(drv, "phone-override.png")

    # Not in the rules: a clear state, not a made-up answer.
    Select(drv.find_element(By.ID, "game")).select_by_value("")
    ask(drv, "Catan'da en uzun yol kaç puan?")
    text_in(drv, "#answer-box", "Kurallarda bulunamadı")
    assert not drv.find_element(By.ID, "game-found").text  # no guessed game shown for it
    assert "abstained" in drv.find_element(By.ID, "answer-box").get_attribute("class")

    # The lesson for the picked game: seven parts, the setup for a chosen player count.
    Select(drv.find_element(By.ID, "game")).select_by_value("kale-oyunu")
    drv.find_element(By.ID, "tab-teach").click()
    text_in(drv, "#step-count", "Kale Oyunu · Adım 1 / 7")
    assert drv.find_element(By.ID, "step-title").text == "Oyun nedir, nasıl kazanılır?"
    assert drv.current_url.endswith("/teach/kale-oyunu")
    assert not drv.find_element(By.ID, "prev").is_enabled()
    titles = []
    for n in (2, 3):
        drv.find_element(By.ID, "next").click()
        text_in(drv, "#step-count", f"Adım {n} / 7")
        titles.append(drv.find_element(By.ID, "step-title").text)
    assert titles == ["Bileşenler", "Kurulum"]
    Select(visible(drv, "#players")).select_by_value("2")
    text_in(drv, "#step-body", "2 oyunculu oyunda her oyuncu 12 karo ile başlar.")
    assert "paragraf" in drv.find_element(By.CSS_SELECTOR, "#step-body .cite").text
    fits_the_screen(drv)
    shot(drv, "phone-teach.png")
    Select(drv.find_element(By.ID, "players")).select_by_value("3")
    wait(drv, lambda d: not d.find_elements(By.CSS_SELECTOR, "#step-body li"))
    drv.find_element(By.ID, "next").click()
    text_in(drv, "#step-count", "Adım 4 / 7")
    assert visible(drv, "#step-note").text  # no turn in this text: said, not faked
    assert not drv.find_element(By.ID, "player-row").is_displayed()  # only with the setup
    drv.find_element(By.ID, "prev").click()
    text_in(drv, "#step-count", "Adım 3 / 7")

    # FAQ: listed with titles from the answers, searchable.
    drv.find_element(By.ID, "tab-faq").click()
    item = visible(drv, "#faq-list li summary")
    assert "Evet" in item.text and "Bir kaleyi kaybettiğinizde" in item.text
    drv.find_element(By.ID, "faq-q").send_keys("uzay gemisi")
    text_in(drv, "#faq-count", "cevap yok")

    # The teaching page opened directly by its address.
    open_page(drv, tiny_url + "/teach/zar-savasi")
    text_in(drv, "#step-count", "Zar Savaşı · Adım 1 / 7")
    no_errors_in_console(drv)


def test_follow_up_and_calculation_line(driver, tiny_url):
    drv = driver
    viewport(drv, PHONE)
    open_page(drv, tiny_url + "/")
    Select(drv.find_element(By.ID, "game")).select_by_value("")
    ask(drv, "Kale Oyunu 3 kişi kurulum")
    text_in(drv, "#answer-box", "3 oyuncu için kurulum kuralı yok")
    ask(drv, "peki 2 kişiysek?")
    text_in(drv, "#understood", "Kale Oyunu 2 kişi kurulum")
    text_in(drv, "#answer-text", "12 karo ile başlar")
    text_in(drv, "#game-found", "Kale Oyunu")
    fits_the_screen(drv)
    shot(drv, "phone-follow-up.png")
    # A calculation's working, when the API gives one, is shown as a line under the answer.
    drv.execute_script("""
      const real = window.fetch;
      window.fetch = async (url, opts) => {
        const res = await real(url, opts);
        if (!String(url).startsWith('/ask')) return res;
        const body = await res.json();
        body.calculation = {value: 5, result: 3, working: '5 hayatta kalan / 2 = 2,5 → 3',
                            missing: [], citations: []};
        return new Response(JSON.stringify(body), {status: res.status,
          headers: {'Content-Type': 'application/json'}});
      };""")
    ask(drv, "Kale Oyunu'nda her kale kaç puan kazandırır?")
    text_in(drv, "#working", "Hesap: 5 hayatta kalan / 2 = 2,5 → 3")
    no_errors_in_console(drv)


def test_laptop_width(driver, tiny_url):
    drv = driver
    viewport(drv, LAPTOP)
    open_page(drv, tiny_url + "/")
    Select(drv.find_element(By.ID, "game")).select_by_value("")
    # Teaching with no game picked yet: the page asks which game first.
    drv.find_element(By.ID, "tab-teach").click()
    visible(drv, "#teach-games button[data-game='kale-oyunu']").click()
    text_in(drv, "#step-count", "Adım 1 / 7")
    drv.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    text_in(drv, "#step-count", "Adım 2 / 7")
    # Choosing a game to learn leaves the picker for questions alone.
    assert Select(drv.find_element(By.ID, "game")).first_selected_option.text == "Sorudan anla"
    shot(drv, "laptop-teach.png")
    drv.find_element(By.ID, "tab-ask").click()
    ask(drv, "Kale Oyunu'nda her kale kaç puan kazandırır?")
    visible(drv, "#answer-text")
    visible(drv, "#cards .card")
    main = drv.find_element(By.TAG_NAME, "main")
    assert main.size["width"] <= 0.7 * LAPTOP[0]  # a readable column, not a full-width wall
    fits_the_screen(drv)
    shot(drv, "laptop-answer.png")
    no_errors_in_console(drv)


@pytest.fixture(scope="module")
def real_url(real_engine) -> Iterator[str]:
    yield from _serve(real_engine)


def ask_on_phone_with_no_game_picked(drv, url: str, question: str) -> None:
    viewport(drv, PHONE)
    open_page(drv, url + "/")
    Select(drv.find_element(By.ID, "game")).select_by_value("")
    ask(drv, question)
    visible(drv, "#answer-text")


def test_real_index_answer_at_phone_width(driver, real_url):
    drv = driver
    ask_on_phone_with_no_game_picked(
        drv, real_url, "Daybreak'te kaç Krizde Topluluk jetonunda oyunu kaybederiz?")
    text_in(drv, "#game-found", "Daybreak")
    assert len(drv.find_elements(By.CSS_SELECTOR, "#result .card")) >= 3  # 2+ folded
    # Follow-ups from the same section are whole questions, not fragments.
    assert all(b.text.endswith("?") for b in drv.find_elements(By.CSS_SELECTOR,
                                                               "#suggestions button"))
    fits_the_screen(drv)
    shot(drv, "phone-real-answer.png")
    shot(drv, "phone-real-cards.png", at=drv.find_element(By.ID, "sources-title"))
    # Teaching and FAQ follow the game of the last answer when none is picked.
    drv.find_element(By.ID, "tab-teach").click()
    text_in(drv, "#step-count", "Daybreak · Adım 1 / 7")
    drv.find_element(By.ID, "tab-faq").click()
    text_in(drv, "#faq-count", "10 cevap")
    first = visible(drv, "#faq-list summary")
    assert first.text.startswith("Hayır")
    first.click()
    visible(drv, "#faq-list details[open] .faq-body")
    drv.find_element(By.ID, "faq-q").send_keys("dayanıklılık")
    text_in(drv, "#faq-count", "“dayanıklılık” için")
    fits_the_screen(drv)
    shot(drv, "phone-real-faq.png")
    no_errors_in_console(drv)


def test_real_game_less_question_fitting_several_games_names_each(driver, real_url):
    drv = driver
    ask_on_phone_with_no_game_picked(drv, real_url, "oyun nasil bitiyor")
    text_in(drv, "#game-found", "birden çok oyuna uyuyor")
    assert " / " in drv.find_element(By.ID, "game-found").text
    assert drv.find_element(By.ID, "answer-text").text.startswith("Soruda oyun adı yok")
    fits_the_screen(drv)
    shot(drv, "phone-real-several-games.png")
    no_errors_in_console(drv)


GAMES = ("cyberpunk-tcg", "daybreak", "dead-of-winter", "nucleum", "rebirth")
# What each text really lacks (checked by reading it): the part says so instead of items.
NOT_IN_TEXT = {("cyberpunk-tcg", "Oyun nasıl biter?"), ("nucleum", "Kurulum")}


def test_real_lesson_of_every_game_at_phone_width(driver, real_url):
    drv = driver
    viewport(drv, PHONE)
    for game in GAMES:
        open_page(drv, f"{real_url}/teach/{game}")
        text_in(drv, "#step-count", "Adım 1 / 7")
        seen = {}
        for n in range(1, 8):
            if n > 1:
                drv.find_element(By.ID, "next").click()
                text_in(drv, "#step-count", f"Adım {n} / 7")
            title = drv.find_element(By.ID, "step-title").text
            items = drv.find_elements(By.CSS_SELECTOR, "#step-body li")
            cites = drv.find_elements(By.CSS_SELECTOR, "#step-body li .cite")
            assert len(cites) == len(items)
            assert all("paragraf" in c.text for c in cites)
            seen[title] = len(items)
            if title == "Kurulum":
                fits_the_screen(drv)
                shot(drv, f"phone-lesson-{game}-setup.png")
            if title == "Bir tur nasıl oynanır?":
                shot(drv, f"phone-lesson-{game}-turn.png")
        for title in ("Kurulum", "Bir tur nasıl oynanır?", "Oyun nasıl biter?", "Puanlama"):
            if (game, title) in NOT_IN_TEXT:
                assert seen[title] == 0
            else:
                assert seen[title] > 0, (game, title)
    # The setup for a player count: Daybreak's 2-player numbers, not the 3-player ones.
    open_page(drv, f"{real_url}/teach/daybreak")
    for _ in range(2):
        drv.find_element(By.ID, "next").click()
    text_in(drv, "#step-title", "Kurulum")
    Select(visible(drv, "#players")).select_by_value("2")
    text_in(drv, "#step-body", "11 Ağaç, 7 Okyanus")
    assert "16 Ağaç" not in drv.find_element(By.ID, "step-body").text
    fits_the_screen(drv)
    shot(drv, "phone-lesson-daybreak-2p.png")
    no_errors_in_console(drv)


def test_real_setup_question_and_follow_up(driver, real_url):
    drv = driver
    viewport(drv, PHONE)
    open_page(drv, real_url + "/")
    Select(drv.find_element(By.ID, "game")).select_by_value("daybreak")
    ask(drv, "3 kişiyiz kurulum nasıl")
    text_in(drv, "#answer-text", "16 Ağaç, 12 Okyanus")
    ask(drv, "peki 2 kişiysek?")
    text_in(drv, "#answer-text", "11 Ağaç, 7 Okyanus")
    text_in(drv, "#game-found", "Daybreak")
    fits_the_screen(drv)
    shot(drv, "phone-real-follow-up.png")
    # A question naming another game wins over the picked one, visibly.
    ask(drv, "dead of wintr'da kaç yara alınca karakter ölür")
    text_in(drv, "#game-note", "Soruda Dead of Winter geçiyor; ona göre cevapladım")
    text_in(drv, "#game-found", "Dead of Winter")
    assert "null" not in drv.find_element(By.ID, "answer-box").text
    assert Select(drv.find_element(By.ID, "game")).first_selected_option.text == "Daybreak"
    fits_the_screen(drv)
    shot(drv, "phone-real-override.png")
    # /faq/{game} in a browser is a page of titled answers, not JSON.
    drv.get(real_url + "/faq/daybreak")
    first = visible(drv, ".faq-list summary")
    assert first.text.startswith("Hayır — ")
    first.click()
    fits_the_screen(drv)
    shot(drv, "phone-real-faq-page.png")
    no_errors_in_console(drv)
