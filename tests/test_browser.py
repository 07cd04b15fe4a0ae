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

    # Open the citation in context: the passage marked inside the text around it.
    marked_card = next(c for c in drv.find_elements(By.CSS_SELECTOR, "#cards .card")
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
    # A question that names another game is about that game, whatever game is picked.
    ask(drv, "Zar Savasi'nda her oyuncu kaç canla başlar?")
    text_in(drv, "#game-found", "Zar Savaşı (sorudaki addan)")

    # Not in the rules: a clear state, not a made-up answer.
    Select(drv.find_element(By.ID, "game")).select_by_value("")
    ask(drv, "Catan'da en uzun yol kaç puan?")
    text_in(drv, "#answer-box", "Kurallarda bulunamadı")
    assert not drv.find_element(By.ID, "game-found").text  # no guessed game shown for it
    assert "abstained" in drv.find_element(By.ID, "answer-box").get_attribute("class")

    # Teaching mode for the picked game, three steps forward and one back.
    Select(drv.find_element(By.ID, "game")).select_by_value("kale-oyunu")
    drv.find_element(By.ID, "tab-teach").click()
    text_in(drv, "#step-count", "Kale Oyunu · Adım 1 / 4")
    assert drv.find_element(By.ID, "step-title").text == "Oyun nedir?"
    assert drv.current_url.endswith("/teach/kale-oyunu")
    assert not drv.find_element(By.ID, "prev").is_enabled()
    titles = []
    for n in (2, 3, 4):
        drv.find_element(By.ID, "next").click()
        text_in(drv, "#step-count", f"Adım {n} / 4")
        titles.append(drv.find_element(By.ID, "step-title").text)
        assert drv.find_elements(By.CSS_SELECTOR, "#step-body .step-passage .cite")
    assert titles == ["Bileşenler", "Puanlama", "Sık sorulan sorular"]
    assert not drv.find_element(By.ID, "next").is_enabled()
    drv.find_element(By.ID, "prev").click()
    text_in(drv, "#step-count", "Adım 3 / 4")
    fits_the_screen(drv)
    shot(drv, "phone-teach.png")

    # FAQ: listed with titles from the answers, searchable.
    drv.find_element(By.ID, "tab-faq").click()
    item = visible(drv, "#faq-list li summary")
    assert "Evet" in item.text and "Bir kaleyi kaybettiğinizde" in item.text
    drv.find_element(By.ID, "faq-q").send_keys("uzay gemisi")
    text_in(drv, "#faq-count", "cevap yok")

    # The teaching page opened directly by its address.
    open_page(drv, tiny_url + "/teach/zar-savasi")
    text_in(drv, "#step-count", "Zar Savaşı · Adım 1 / 3")
    no_errors_in_console(drv)


def test_laptop_width(driver, tiny_url):
    drv = driver
    viewport(drv, LAPTOP)
    open_page(drv, tiny_url + "/")
    Select(drv.find_element(By.ID, "game")).select_by_value("")
    # Teaching with no game picked yet: the page asks which game first.
    drv.find_element(By.ID, "tab-teach").click()
    visible(drv, "#teach-games button[data-game='kale-oyunu']").click()
    text_in(drv, "#step-count", "Adım 1 / 4")
    drv.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT)
    text_in(drv, "#step-count", "Adım 2 / 4")
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


def test_real_index_answer_at_phone_width(driver, real_url):
    drv = driver
    viewport(drv, PHONE)
    open_page(drv, real_url + "/")
    Select(drv.find_element(By.ID, "game")).select_by_value("")
    ask(drv, "Daybreak'te kaç Krizde Topluluk jetonunda oyunu kaybederiz?")
    visible(drv, "#answer-text")
    text_in(drv, "#game-found", "Daybreak")
    assert len(drv.find_elements(By.CSS_SELECTOR, "#cards .card")) >= 3
    visible(drv, "#suggestions button")  # follow-ups from the same section
    fits_the_screen(drv)
    shot(drv, "phone-real-answer.png")
    shot(drv, "phone-real-cards.png", at=drv.find_element(By.ID, "sources-title"))
    # Teaching and FAQ follow the game of the last answer when none is picked.
    drv.find_element(By.ID, "tab-teach").click()
    text_in(drv, "#step-count", "Daybreak · Adım 1 /")
    for n in (2, 3):
        drv.find_element(By.ID, "next").click()
        text_in(drv, "#step-count", f"Adım {n} /")
    assert drv.find_element(By.ID, "step-title").text.startswith("Bileşenler")
    fits_the_screen(drv)
    shot(drv, "phone-real-teach.png")
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
