"""Wiring: real adapters on simulated hardware reach the table only through ``post``."""

from __future__ import annotations

import contextlib
import queue
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from incan_companion.config import Config
from companion.engine import Phase
from companion.events import Start
from incan_companion.compose import Device, build


class Inbox:
    """A ``post`` that queues callbacks for the test's thread, like the Kivy clock."""

    def __init__(self) -> None:
        self.q: queue.Queue[Callable[[], None]] = queue.Queue()
        self.threads: set[str] = set()

    def __call__(self, fn: Callable[[], None]) -> None:
        self.threads.add(threading.current_thread().name)
        self.q.put(fn)

    def drain(self, until: Callable[[], bool], timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not until():
            left = deadline - time.monotonic()
            assert left > 0, "timed out"
            with contextlib.suppress(queue.Empty):
                self.q.get(timeout=min(left, 0.1))()


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def device(tmp_path: Path, inbox: Inbox) -> Iterator[Device]:
    data = tmp_path / "games.sqlite"
    d = build(Config(countdown=0.0, data_file=data), post=inbox, seat_input="mock",
              camera="virtual", data_file=data, seed=3)
    yield d
    d.close()


def test_a_virtual_card_goes_through_the_scanner_thread(device: Device, inbox: Inbox) -> None:
    table = device.new_game(Start(("Ana", "Bo", "Cy")))
    assert device.virtual is not None and device.scanner is not None
    card = device.turn_virtual_card(random.Random(1))
    assert card is not None
    inbox.drain(lambda: len(table.state.path) == 1)
    assert table.state.path[0].card == card
    assert "vision-scanner" in inbox.threads  # it came from the scanner's thread
    assert table.scanner_status == "virtual table: tap Turn a card"


def test_mock_pins_press_debounced_and_light_the_leds(device: Device, inbox: Inbox) -> None:
    table = device.new_game(Start(("Ana", "Bo", "Cy")))
    table.enter_card("T9")
    factory = device.pin_factory
    pins = device.config.pins
    factory.pin(pins[0].camp).drive_low()
    factory.pin(pins[0].camp).drive_high()
    inbox.drain(lambda: 0 in table.collector.chosen)
    assert factory.pin(pins[0].led).state == 1
    assert factory.pin(pins[1].led).state == 0
    for seat in (1, 2):
        factory.pin(pins[seat].torch).drive_low()
        factory.pin(pins[seat].torch).drive_high()
    inbox.drain(lambda: table.state.phase is Phase.DRAW)  # countdown 0: revealed at once
    assert table.state.seats[0].banked == 3
    assert all(factory.pin(p.led).state == 0 for p in pins[:3])  # a new turn: all off


def test_no_camera_and_keyboard(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    d = build(Config(data_file=data), seat_input="keyboard", camera="none", data_file=data)
    try:
        table = d.new_game(Start(("Ana", "Bo", "Cy")))
        assert d.source is None and d.scanner is None and d.virtual is None
        assert table.scanner_status == "no camera: enter cards by tapping"
        table.enter_card("T3")
        assert d.key("q") and d.key("2") and d.key("3")
        assert not d.key("x") and not d.key("4")  # not a key; seat 4 does not play
        assert table.collector.chosen == {0, 1, 2}
    finally:
        d.close()


def test_a_desktop_falls_back_to_the_keyboard(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    d = build(Config(data_file=data), seat_input="auto", camera="none", data_file=data)
    try:
        assert d.seat_input == "keyboard"  # this machine is no Pi
        assert d.panel is None
    finally:
        d.close()


def test_the_language_picked_on_the_device_outranks_the_config(tmp_path: Path) -> None:
    from ui import i18n
    from incan_companion.store import Store

    data = tmp_path / "games.sqlite"
    with Store(data) as store:
        store.set_setting("language", "pl")
    try:
        d = build(Config(data_file=data, language="es"), seat_input="gpio", camera="none",
                  data_file=data)
        try:
            assert i18n.language() == "pl"
            # words of the wiring itself are already in the chosen language
            assert "Brak GPIO: przyciski zastępuje klawiatura." in d.problems
        finally:
            d.close()
    finally:
        i18n.set_language("en")


def test_a_damaged_data_file_is_set_aside_and_said(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    data.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    d = build(Config(data_file=data), seat_input="keyboard", camera="none", data_file=data)
    try:
        table = d.new_game(Start(("Ana", "Bo", "Cy")))
        assert table.notice is not None
        assert "set aside" in table.notice.text and table.notice.level == "warning"
        assert list(tmp_path.glob("games.sqlite.bad-*"))
    finally:
        d.close()


def test_a_broken_led_is_a_notice_not_a_crash(tmp_path: Path, inbox: Inbox) -> None:
    data = tmp_path / "games.sqlite"
    d = build(Config(data_file=data), post=inbox, seat_input="mock", camera="none",
              data_file=data)
    try:
        table = d.new_game(Start(("Ana", "Bo", "Cy")))

        def broken(lit: object) -> None:
            raise OSError("LED pin gone")

        d.panel.set_leds = broken
        table.enter_card("T9")
        assert table.notice is not None
        assert table.notice.text == "Seat lights failed: LED pin gone"
        assert table.state.path[0].card == "T9"
    finally:
        d.close()
