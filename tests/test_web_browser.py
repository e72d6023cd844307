"""Phones at the table in a real headless Chromium (Debian's chromium and
chromium-driver under Selenium), against the real app on an offscreen Kivy
window with the phones' server on loopback.

Two seats are paired by the links read back from the QR codes on the table's
Phones window (a screenshot decoded with zxing-cpp), each chooses on its
phone, one phone reloads in the middle of the round, a bot and a seat button
choose too, and the reveal shows on the phones, on the watchers' page and in
the device's state. The watchers' page never gets a choice before the reveal
(read on Chromium's own log of websocket frames); a link that no longer
plays a seat is refused, and a page of another site cannot open the socket.

One browser session serves every check; nothing waits a fixed time
(Selenium's WebDriverWait polls, and pumps the Kivy frames as it does).
"""

from __future__ import annotations

import json
import shutil
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from ui_helpers import find_button, frames, tap  # noqa: E402
from web_helpers import phones_app  # noqa: E402

from companion.choices import Choice  # noqa: E402
from companion.engine import Status  # noqa: E402
from companion.events import Reveal  # noqa: E402
from companion.games import Games  # noqa: E402
from companion.inbox import Inbox  # noqa: E402
from companion.memory import MemoryStore  # noqa: E402
from companion.simulate import VirtualClock  # noqa: E402
from ui.app import CompanionApp, post  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="needs Debian's chromium and chromium-driver (scripts/setup.sh --test)",
)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "out" / "screenshots" / "phones"
COUNTDOWN = 2.0
WAIT_S = 15.0
NAMES = ["Ana", "Bo", "Cy", "Di"]  # Ana and Bo on phones, Cy a bot, Di on a button


@pytest.fixture(scope="module")
def clock() -> VirtualClock:
    return VirtualClock(0.0)


@pytest.fixture(scope="module")
def app(clock: VirtualClock) -> Iterator[CompanionApp]:
    yield from phones_app(Games(MemoryStore(), countdown=COUNTDOWN, clock=clock))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    assert CHROMIUM is not None and DRIVER is not None
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=412,915", "--no-proxy-server", "--disable-extensions"):
        options.add_argument(flag)
    # Chromium's log of the network: the raw frames each websocket receives.
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    yield driver
    driver.quit()


def until(driver: Any, condition: Callable[[], Any], what: str) -> Any:
    """Wait (polling, pumping the app's frames) until ``condition()`` is truthy."""
    from selenium.webdriver.support.ui import WebDriverWait

    def check(_: Any) -> Any:
        frames(1)
        return condition()

    return WebDriverWait(driver, WAIT_S, poll_frequency=0.02).until(check, message=what)


def text(driver: Any, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return str(driver.find_element(By.ID, element_id).text)


def button(driver: Any, element_id: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, element_id)


SOCKETS: dict[str, str] = {}  # Chromium's id of each websocket opened -> its URL


def frames_received(driver: Any) -> list[tuple[str, str]]:
    """The websocket frames every tab received since the last call (Chromium's
    log), each with its socket's path: ``("/ws/watch", '{"type": …}')``."""
    got = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        params = message.get("params", {})
        if message["method"] == "Network.webSocketCreated":
            SOCKETS[params["requestId"]] = params["url"]
        elif message["method"] == "Network.webSocketFrameReceived":
            path = urlsplit(SOCKETS.get(params["requestId"], "")).path
            got.append((path, params["response"]["payloadData"]))
    return got


def qr_link(app: CompanionApp, name: str) -> str:
    """The link in the QR code the Phones window shows now, read off a screenshot."""
    import cv2
    import zxingcpp

    frames(3)
    path = app.save_screenshot(SHOTS / f"{name}.png")
    codes = zxingcpp.read_barcodes(cv2.imread(str(path), cv2.IMREAD_GRAYSCALE))
    links = [c.text for c in codes if c.format == zxingcpp.BarcodeFormat.QRCode]
    assert len(links) == 1, links
    return links[0]


#: Counts the page's timer runs (window.ticks), so a test can see time pass on
#: the page without waiting a fixed time.
COUNT_TICKS = """
window.ticks = 0;
const every = window.setInterval;
window.setInterval = (f, ms) => every(() => { f(); window.ticks += 1; }, ms);
"""


def test_a_page_with_no_game_at_the_table_says_so(app: CompanionApp, browser: Any) -> None:
    assert app.table is None  # the first test of the module: the set-up screen
    phones = app.controls.phones
    assert phones is not None and phones.turn_on(), phones and phones.error
    added = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                    {"source": COUNT_TICKS})
    try:
        browser.get(phones.links().watch)
        until(browser, lambda: text(browser, "status") == "No game at the table yet.",
              "the watcher is told there is no game")
        ticks = browser.execute_script("return window.ticks")
        until(browser, lambda: browser.execute_script("return window.ticks") >= ticks + 3,
              "the page's timer ran three times more")
        assert text(browser, "status") == "No game at the table yet."
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                {"identifier": added["identifier"]})
        phones.turn_off()


def test_phones_play_a_turn_with_a_bot_and_a_button(app: CompanionApp, browser: Any,
                                                   clock: VirtualClock) -> None:
    app.setup.start_game(NAMES, "incan-gold", False, bots=((2, "cautious"),))
    frames(3)
    table = app.table
    assert table is not None
    phones = app.controls.phones
    assert phones is not None
    # The table turns the phones on in its menu's Phones window.
    tap(app.table_screen.ids.menu)
    tap(find_button(app.menu, "Phones"))
    window = app.phones_window
    assert window is not None and not phones.on
    tap(find_button(window, "Turn phones on"))
    assert phones.on and window.on
    ana_link = qr_link(app, "window-ana")
    tap(find_button(window, "Bo"))
    bo_link = qr_link(app, "window-bo")
    tap(find_button(window, "Watch"))
    watch_link = qr_link(app, "window-watch")
    links = phones.links()
    assert [ana_link, bo_link] == [links.seats[0][1], links.seats[1][1]]
    assert watch_link == links.watch and watch_link.endswith("/watch")
    window.dismiss(animation=False)
    frames(2)
    assert f"phones: {watch_link}" in app.table_screen.status

    # Three tabs: Ana's phone, Bo's phone, a watcher.
    browser.get(watch_link)
    watch = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(bo_link)
    bo = browser.current_window_handle
    browser.switch_to.new_window("tab")
    browser.get(ana_link)
    ana = browser.current_window_handle
    until(browser, lambda: text(browser, "seat-name") == "Ana", "Ana's page shows her seat")
    assert text(browser, "chosen") == "Nothing to choose now."
    frames_received(browser)  # the log is the browser's: start it afresh

    table.enter_card("T5A")  # 5 gems: 1 each, 1 left
    until(browser, lambda: button(browser, "torch").is_enabled(), "Ana may choose")
    assert text(browser, "my-hand") == "1"
    button(browser, "torch").click()
    until(browser, lambda: table.collector.chosen == {0, 2}, "Ana's choice (and the bot's) in")
    # Ana's phone sleeps and comes back: her seat, her state, her own choice remembered.
    browser.refresh()
    until(browser, lambda: "Your choice is in." in text(browser, "chosen"), "Ana back in")
    assert text(browser, "chosen").startswith("You chose: Torch")
    assert "picked" in button(browser, "torch").get_attribute("class")
    browser.save_screenshot(str(SHOTS / "seat-ana-chosen.png"))
    assert table.collector.chosen == {0, 2}
    # Ana's link on a second phone: it shows what the table holds, and a change on
    # either phone shows on both.
    browser.switch_to.new_window("tab")
    browser.get(ana_link)
    second = browser.current_window_handle
    until(browser, lambda: text(browser, "chosen").startswith("You chose: Torch"),
          "the second phone shows the table's choice")
    button(browser, "camp").click()
    until(browser, lambda: table.collector.choice_of(0) is Choice.CAMP, "changed on the second")
    browser.switch_to.window(ana)
    until(browser, lambda: text(browser, "chosen").startswith("You chose: Camp"),
          "the first phone follows")
    assert "picked" in button(browser, "camp").get_attribute("class")
    assert "picked" not in button(browser, "torch").get_attribute("class")
    button(browser, "torch").click()
    browser.switch_to.window(second)
    until(browser, lambda: text(browser, "chosen").startswith("You chose: Torch"),
          "and back on the second")
    assert table.collector.choice_of(0) is Choice.TORCH
    browser.close()

    browser.switch_to.window(bo)
    until(browser, lambda: button(browser, "camp").is_enabled(), "Bo may choose")
    button(browser, "camp").click()
    until(browser, lambda: table.collector.chosen == {0, 1, 2}, "Bo's choice in")
    # Di presses a seat button: into the inbox, as gpiozero's thread does.
    Inbox(app.games, post).press(3, Choice.TORCH)
    until(browser, lambda: table.collector.countdown_left is not None, "the countdown runs")
    until(browser, lambda: "Reveal in " in text(browser, "status"), "Bo's phone counts down")

    # The watcher got every change, and not one choice.
    browser.switch_to.window(watch)
    until(browser, lambda: text(browser, "prompt").startswith("Everyone has chosen"),
          "the watcher sees everyone has chosen")
    received = frames_received(browser)
    before = [frame for path, frame in received if path == "/ws/watch"]
    tables = [json.loads(f)["table"] for f in before if json.loads(f)["type"] == "table"]
    assert tables and [s["chosen"] for s in tables[-1]["seats"]] == [True] * 4
    for frame in before:
        assert '"torch"' not in frame and '"camp"' not in frame, frame
    # A seat's phones are told its own choice, and no other seat's: Bo (camp) never
    # hears of Ana's or Di's torch.
    seats = [json.loads(f) for path, f in received if path == "/ws/seat"]
    assert {m["mine"] for m in seats if m["type"] == "seat" and m["seat"] == 1} <= {None, "camp"}
    ana_told = {m["mine"] for m in seats if m["type"] == "seat" and m["seat"] == 0}
    assert "torch" in ana_told and ana_told <= {None, "torch", "camp"}
    for view in tables:
        assert {s["choice"] for s in view["seats"]} <= {"", "chosen", "choosing…"}
        assert all(set(s) == set(tables[0]["seats"][0]) for s in view["seats"])

    # Ana changes her mind at the last moment: the device reveals before her press
    # reaches the table (nothing the phones send runs between the two), and her
    # phone is told it did not count.
    browser.switch_to.window(ana)
    button(browser, "camp").click()
    clock.advance(COUNTDOWN)
    assert table.tick()
    until(browser, lambda: text(browser, "status") == (
        "Too late: the reveal came first, so that press did not count."), "Ana is told")
    browser.save_screenshot(str(SHOTS / "seat-ana-too-late.png"))
    browser.switch_to.window(watch)
    until(browser, lambda: isinstance(table.session.log[-1], Reveal), "the device reveals")
    camp = table.session.log[-1].camp  # type: ignore[union-attr]
    assert 1 in camp and 0 not in camp and 3 not in camp  # the bot's is its own
    assert table.state.seats[1].status is Status.CAMP
    # Bo left with 1, alone or with the bot: the leftover 1 goes with whoever left.
    said = table.state.seats
    until(browser, lambda: "Bo" in text(browser, "event"), "the watcher sees the reveal")
    rows = browser.find_elements("css selector", "#seats tr")
    assert [r.find_elements("css selector", "td")[2].text for r in rows[1:]] == [
        str(s.banked) for s in said]
    browser.save_screenshot(str(SHOTS / "watch.png"))
    for handle, name in ((ana, "Ana"), (bo, "Bo")):
        browser.switch_to.window(handle)
        until(browser, lambda: "Bo" in text(browser, "event"), f"{name}'s phone sees it")
        assert text(browser, "chosen") == "Nothing to choose now."
        browser.save_screenshot(str(SHOTS / f"seat-{name.lower()}.png"))
    assert text(browser, "my-tent") == str(said[1].banked)


def test_an_old_link_is_refused_and_another_site_cannot_connect(app: CompanionApp,
                                                                browser: Any) -> None:
    phones = app.controls.phones
    assert phones is not None and phones.on
    old = phones.links().seats[0][1]
    phones.repair()  # the table's "New codes"
    browser.switch_to.new_window("tab")
    browser.get(old)
    until(browser, lambda: text(browser, "status").startswith("This link no longer plays"),
          "an old link is refused")
    assert not button(browser, "torch").is_enabled()
    # Ana's new link with one letter changed is no seat's either.
    new = phones.links().seats[0][1]
    browser.get("about:blank")
    browser.get(new[:-1] + ("A" if new[-1] != "A" else "B"))
    until(browser, lambda: text(browser, "status").startswith("This link no longer plays"),
          "a made-up token is refused")
    # A link cut inside an escape ("%E0" is no text): said so, not a blank page.
    browser.get("about:blank")
    browser.get(new.split("#")[0] + "#%E0")
    until(browser, lambda: text(browser, "status").startswith("This link no longer plays"),
          "a link that is no text is refused")
    assert not button(browser, "torch").is_enabled()
    assert text(browser, "torch") != ""  # the page's words are there

    # A page of another site (another origin on this machine) tries the socket.
    base = phones.links().watch.removesuffix("/watch")
    page = (f"<script>const w = new WebSocket('{base.replace('http', 'ws')}/ws/watch');"
            "w.onmessage = () => { document.title = 'got a message'; };"
            "w.onclose = () => { if (!document.title) document.title = 'refused'; };"
            "</script>").encode()

    class Evil(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(page)

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Evil)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        browser.get(f"http://127.0.0.1:{server.server_address[1]}/")
        until(browser, lambda: browser.title != "", "the foreign page's socket ends")
        assert browser.title == "refused"
    finally:
        server.shutdown()
        server.server_close()


def test_a_page_told_the_table_is_full_gets_back_in_by_itself(app: CompanionApp,
                                                               browser: Any) -> None:
    """The places of pages that have yet to say their seat cost no token: anyone
    can hold them. A phone told "full" then stayed out until reloaded."""
    from websockets.sync.client import connect

    from web.server import MAX_WAITING

    phones = app.controls.phones
    assert phones is not None and phones.on
    base = phones.links().watch.removesuffix("/watch")
    holders = [connect(base.replace("http", "ws") + "/ws/seat", origin=base)
               for _ in range(MAX_WAITING)]  # fmt: skip
    try:
        browser.switch_to.new_window("tab")
        browser.get(phones.links().seats[1][1])
        until(browser, lambda: text(browser, "status") == "The table has too many phones "
              "connected.", "told the table is full")  # fmt: skip
    finally:
        for holder in holders:
            holder.close()
    # No reload: the page tries again (every 5 s while full) and is let in.
    until(browser, lambda: text(browser, "seat-name") == "Bo", "back in, as Bo's phone")
    assert "too many phones" not in text(browser, "status")


def test_a_watcher_reads_in_their_own_language(app: CompanionApp, browser: Any) -> None:
    phones = app.controls.phones
    assert phones is not None
    browser.get(phones.links().watch + "?lang=ja")
    until(browser, lambda: text(browser, "heading").startswith("ラウンド"), "Japanese page")
    assert text(browser, "prompt") != "" and "Round" not in text(browser, "heading")
    browser.save_screenshot(str(SHOTS / "watch-ja.png"))



#: Every word of the names, the seats' statuses and the choice buttons on one
#: line: a word broken across lines ("Pochod|nia") is a cut word. Scripts
#: written without spaces (Japanese) wrap between any two characters, so
#: only words of other scripts are checked.
BROKEN_WORDS = r"""
const broken = [];
for (const el of document.querySelectorAll("h1, .seats td, .choice .big, .choice .hint")) {
  if (el.offsetParent === null) continue;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/\S+/g)) {
      if (/[\u3000-\u9fff\uff00-\uffef]/.test(m[0])) continue;
      const r = document.createRange();
      r.setStart(node, m.index);
      r.setEnd(node, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(x => Math.round(x.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
}
const vw = document.documentElement.clientWidth;
const sideways = [...document.querySelectorAll("body *")]
  .filter(e => e.getBoundingClientRect().right > vw + 1)
  .map(e => e.tagName + "." + e.className + " " + Math.round(e.getBoundingClientRect().right));
for (const b of document.querySelectorAll(".choice")) {
  const box = b.getBoundingClientRect();
  for (const w of b.children) {
    const r = w.getBoundingClientRect();
    if (r.left < box.left + 4 || r.right > box.right - 4) {
      sideways.push("out of its button: " + w.textContent);
    }
  }
}
return [broken, sideways.slice(0, 8)];
"""


def test_no_word_is_broken_on_a_phone_in_any_language(app: CompanionApp, browser: Any) -> None:
    names = ("Maximilianus", "Bartholomew", "Wojciechowsk", "ゆうこゆうこゆう", "Christopher",
             "Magdalena", "Évariste Gal", "Zoë")  # fmt: skip
    app.setup.start_game(list(names), "incan-gold", False)
    frames(3)
    table = app.table
    assert table is not None
    phones = app.controls.phones
    assert phones is not None
    assert phones.on or phones.turn_on(), phones.error
    table.enter_card("T5A")  # a turn open: the buttons in their colours
    link = phones.links().seats[2][1]
    browser.set_window_size(360, 640)
    try:
        for code in ("en", "es", "pl", "ja"):
            page, token = link.split("#")
            browser.get(f"{page}?lang={code}#{token}")
            until(browser, lambda: text(browser, "seat-name") == names[2], f"{code} seat page")
            until(browser, lambda: button(browser, "torch").is_enabled(), f"{code}: a turn")
            broken, sideways = browser.execute_script(BROKEN_WORDS)
            browser.save_screenshot(str(SHOTS / f"seat-{code}-360.png"))
            assert (broken, sideways) == ([], []), code
            browser.get(f"{phones.links().watch}?lang={code}")
            until(browser, lambda: names[0] in text(browser, "seats"), f"{code} watchers' page")
            broken, sideways = browser.execute_script(BROKEN_WORDS)
            browser.save_screenshot(str(SHOTS / f"watch-{code}-360.png"))
            assert (broken, sideways) == ([], []), f"{code}, watching"
    finally:
        browser.set_window_size(412, 915)
