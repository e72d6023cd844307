"""Wiring: real adapters on simulated hardware reach the table only through ``post``."""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.choices import Choice
from companion.engine import Phase
from companion.events import Start
from companion.notices import CameraStatus, DataFileSetAside, Failed, Step
from companion.ports import direct
from incan_companion.compose import Device, build
from incan_companion.config import Config
from ui.kivyfree.notice_words import camera_text, notice_text


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
    table = device.games.new_game(Start(("Ana", "Bo", "Cy")))
    assert device.camera.virtual is not None and device.camera.scanner is not None
    card = device.turn_virtual_card()
    assert card is not None
    inbox.drain(lambda: len(table.state.path) == 1)
    assert table.state.path[0].card == card
    assert "vision-scanner" in inbox.threads  # it came from the scanner's thread
    assert table.camera is CameraStatus.VIRTUAL
    assert camera_text(table.camera) == "virtual table: tap Turn a card"


def test_mock_pins_press_debounced_and_light_the_leds(device: Device, inbox: Inbox) -> None:
    table = device.games.new_game(Start(("Ana", "Bo", "Cy")))
    table.enter_card("T9")
    seats = device.seats.mock
    assert seats is not None and device.seats.kind == "mock"
    assert device.seats.lights is seats  # the LEDs the table lights are the mock's
    seats.press(0, Choice.CAMP)
    inbox.drain(lambda: 0 in table.collector.chosen)
    assert seats.lit() == {0}
    for seat in (1, 2):
        seats.press(seat, Choice.TORCH)
    inbox.drain(lambda: table.state.phase is Phase.DRAW)  # countdown 0: revealed at once
    assert table.state.seats[0].banked == 3
    assert seats.lit() == frozenset()  # a new turn: all off


def test_no_camera_and_keyboard(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    d = build(Config(data_file=data), seat_input="keyboard", camera="none", data_file=data)
    try:
        table = d.games.new_game(Start(("Ana", "Bo", "Cy")))
        camera = d.camera
        assert camera.source is None and camera.scanner is None and camera.virtual is None
        assert table.camera is CameraStatus.NO_CAMERA
        assert camera_text(table.camera) == "no camera: enter cards by tapping"
        table.enter_card("T3")
        assert d.key("q") and d.key("2") and d.key("3")
        assert not d.key("x") and not d.key("4")  # not a key; seat 4 does not play
        assert table.collector.chosen == {0, 1, 2}
    finally:
        d.close()


def test_the_menus_switch_reaches_the_screens_only_when_given(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    asked: list[str] = []
    d = build(Config(data_file=data), seat_input="keyboard", camera="none", data_file=data,
              switch_off=lambda: asked.append("off"))
    try:
        switch = d.controls().switch_off
        assert switch is not None
        switch()
        assert asked == ["off"]
    finally:
        d.close()
    d = build(Config(data_file=data), seat_input="keyboard", camera="none", data_file=data)
    try:
        assert d.controls().switch_off is None  # a desktop, the demo: no switch
    finally:
        d.close()


def test_a_desktop_falls_back_to_the_keyboard(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    d = build(Config(data_file=data), seat_input="auto", camera="none", data_file=data)
    try:
        assert d.seats.kind == "keyboard"  # this machine is no Pi
        assert d.seats.lights is None
    finally:
        d.close()


def test_the_language_picked_on_the_device_outranks_the_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``incan-companion run`` with a stand-in for the Kivy app, which records
    the language in use and the start-up notices as it would word them."""
    import ui.kivy_setup
    from incan_companion import cli
    from storage import Store
    from ui.kivyfree import i18n

    data = tmp_path / "games.sqlite"
    with Store(data) as store:
        store.set_setting("language", "pl")
    config = tmp_path / "config.toml"
    config.write_text('[game]\nlanguage = "es"\n', encoding="utf-8")
    seen: dict[str, Any] = {}

    class App:
        def __init__(self, games: Any, controls: Any, **options: Any) -> None:
            seen["language"] = i18n.language()
            seen["startup"] = [(notice_text(r), level) for r, level in games.startup]
            self.controls = controls
            self.on_first_frame: list[Any] = []  # as the app's, for systemd's READY

        def run(self) -> None:
            self.controls.close()  # as the app's on_stop does

    app_module = types.ModuleType("ui.app")
    app_module.CompanionApp = App  # type: ignore[attr-defined]
    app_module.post = direct  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ui.app", app_module)
    monkeypatch.setattr(ui.kivy_setup, "configure", lambda **options: None)
    try:
        assert cli.main(["run", "--config", str(config), "--data", str(data),
                         "--buttons", "gpio", "--camera", "none"]) == 0
        assert seen["language"] == "pl"
        # the wiring's own notices are worded in the chosen language
        assert ("Brak GPIO: przyciski zastępuje klawiatura.", "warning") in seen["startup"]
    finally:
        i18n.set_language("en")


def test_a_damaged_data_file_is_set_aside_and_said(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    data.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    d = build(Config(data_file=data), seat_input="keyboard", camera="none", data_file=data)
    try:
        table = d.games.new_game(Start(("Ana", "Bo", "Cy")))
        assert table.notice is not None
        assert isinstance(table.notice.reason, DataFileSetAside)
        assert "set aside" in notice_text(table.notice.reason)
        assert table.notice.level == "warning"
        assert list(tmp_path.glob("games.sqlite.bad-*"))
    finally:
        d.close()


def test_a_broken_led_is_a_notice_not_a_crash(tmp_path: Path, inbox: Inbox) -> None:
    data = tmp_path / "games.sqlite"
    d = build(Config(data_file=data), post=inbox, seat_input="mock", camera="none",
              data_file=data)
    try:
        table = d.games.new_game(Start(("Ana", "Bo", "Cy")))

        def broken(lit: object) -> None:
            raise OSError("LED pin gone")

        assert d.seats.lights is not None
        d.seats.lights.set_leds = broken  # type: ignore[method-assign]
        table.enter_card("T9")
        assert table.notice is not None
        assert table.notice.reason == Failed(Step.SEAT_LIGHTS, "LED pin gone")
        assert notice_text(table.notice.reason) == "Seat lights failed: LED pin gone"
        assert table.state.path[0].card == "T9"
    finally:
        d.close()


@pytest.mark.parametrize(("on_a_pi", "kind"), [(True, "none"), (False, "virtual")])
def test_no_camera_found_on_the_device_never_invents_cards(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, on_a_pi: bool, kind: str
) -> None:
    import hardware.gpio
    import vision.sources

    monkeypatch.setattr(hardware.gpio, "is_raspberry_pi", lambda: on_a_pi)
    monkeypatch.setattr(vision.sources, "picamera_available", lambda: False)
    monkeypatch.setattr(vision.sources.OpenCVCamera, "probe", lambda self, timeout=2.0: False)
    data = tmp_path / "games.sqlite"
    d = build(Config(data_file=data), seat_input="keyboard", camera="config", data_file=data)
    try:
        d.games.new_game(Start(("Ana", "Bo", "Cy")))
        table = d.games.table
        assert table is not None
        assert d.camera.kind == kind
        if on_a_pi:  # the device: cards by tapping, said plainly; no "Turn a card"
            assert d.camera.virtual is None and d.controls().turn_card is None
            assert not d.controls().camera
            assert table.camera is CameraStatus.NO_CAMERA
            assert table.notice is not None and table.notice.level == "warning"
            assert notice_text(table.notice.reason) == (
                "No camera found: tap Enter card to enter each card."
            )
        else:  # a desktop: the virtual table stands in
            assert d.camera.virtual is not None and d.controls().turn_card is not None
            assert table.camera is CameraStatus.VIRTUAL
    finally:
        d.close()
