"""``incan-companion buttons``, the pin factory choice and the default pin map.

The check runs on MockFactory with a fake clock and a fake sleep: no real waiting.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

import hardware.gpio
import hardware.panel as panel_module
import incan_companion.commands.buttons
from hardware.gpio import HEADER_PIN, NoGPIO, NotAPi, pi_pin_factory, pin_factory_or_none
from hardware.keyboard import LAYOUT
from incan_companion.cli import main
from incan_companion.config import DEFAULT_PINS

ROOT = Path(__file__).resolve().parent.parent


class FakeTime:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds


@pytest.fixture
def no_pi(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """This machine is a desktop, whatever the test runner really is."""
    monkeypatch.setattr(hardware.gpio, "_MODEL_FILE", tmp_path / "no-model")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    t = FakeTime()
    monkeypatch.setattr(incan_companion.commands.buttons, "_clock", t.clock)
    monkeypatch.setattr(incan_companion.commands.buttons, "_sleep", t.sleep)
    return t


@pytest.fixture(autouse=True)
def no_config_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("INCAN_CONFIG", str(tmp_path / "absent.toml"))


def run(pins: Sequence[Any], **kwargs: Any) -> tuple[int, list[str], MockFactory]:
    out = io.StringIO()
    factory = MockFactory()
    try:
        code = incan_companion.commands.buttons.run_check(pins, factory, out=out, **kwargs)
        leds_after = [factory.pin(p.led).state for p in pins]
    finally:
        factory.reset()
        factory.close()
    assert leds_after == [0] * len(pins)  # the check leaves every LED off
    return code, out.getvalue().splitlines(), factory


def test_mock_run_lists_each_press_once_and_lights_each_led(fake_time: FakeTime) -> None:
    code, lines, _ = run(DEFAULT_PINS[:3], simulate=True)
    assert code == 0
    assert lines[0].startswith("checking 3 seat(s)")
    assert lines[1:] == [
        "LED    seat 1  on     GPIO  4 (header pin 7)",
        "press  seat 1  torch  GPIO  2 (header pin 3)",
        "press  seat 1  camp   GPIO  3 (header pin 5)",
        "LED    seat 2  on     GPIO 22 (header pin 15)",
        "press  seat 2  torch  GPIO 17 (header pin 11)",
        "press  seat 2  camp   GPIO 27 (header pin 13)",
        "LED    seat 3  on     GPIO 11 (header pin 23)",
        "press  seat 3  torch  GPIO 10 (header pin 19)",
        "press  seat 3  camp   GPIO  9 (header pin 21)",
        "done",
    ]


def test_seconds_limit_cycles_the_leds_one_at_a_time(fake_time: FakeTime) -> None:
    _, lines, _ = run(DEFAULT_PINS, seconds=10 * incan_companion.commands.buttons.STEP_S - 0.01)
    leds = [line.split()[2] for line in lines if line.startswith("LED")]
    assert leds == ["1", "2", "3", "4", "5", "6", "7", "8", "1", "2"]


def test_one_led_is_lit_at_a_time(monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime) -> None:
    factory = MockFactory()
    seen: list[list[int]] = []

    def sleep(seconds: float) -> None:
        seen.append([n for n, p in enumerate(DEFAULT_PINS) if factory.pin(p.led).state])
        fake_time.sleep(seconds)

    try:
        incan_companion.commands.buttons.run_check(
            DEFAULT_PINS,
            factory,
            seconds=8 * incan_companion.commands.buttons.STEP_S - 0.01,
            sleep=sleep,
            out=io.StringIO(),
        )
    finally:
        factory.reset()
        factory.close()
    assert seen == [[n] for n in range(8)]


def test_a_held_button_is_reported_and_real_presses_are_listed(
    monkeypatch: pytest.MonkeyPatch, fake_time: FakeTime
) -> None:
    factory = MockFactory()

    class HeldAtStart(panel_module.SeatPanel):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            factory.pin(DEFAULT_PINS[1].camp).drive_low()  # seat 2's camp is stuck down

    def sleep(seconds: float) -> None:
        # What a person does while the LEDs cycle: press seat 3's torch (with bounce).
        pin = factory.pin(DEFAULT_PINS[2].torch)
        pin.drive_low()
        pin.drive_high()
        pin.drive_low()
        fake_time.sleep(0.1)
        pin.drive_high()
        fake_time.sleep(seconds)

    monkeypatch.setattr(panel_module, "SeatPanel", HeldAtStart)
    out = io.StringIO()
    try:
        incan_companion.commands.buttons.run_check(
            DEFAULT_PINS[:3], factory, seconds=1.0, out=out, sleep=sleep
        )
    finally:
        factory.reset()
        factory.close()
    text = out.getvalue()
    assert "held   seat 2  camp   GPIO 27 (header pin 13): stuck or shorted to GND?" in text
    assert text.count("press  seat 3  torch  GPIO 10 (header pin 19)") == 2  # once per step
    assert text.count("press  seat 2") == 1  # the press that got it stuck, once


def test_ctrl_c_ends_quietly(fake_time: FakeTime) -> None:
    def sleep(seconds: float) -> None:
        raise KeyboardInterrupt

    code, lines, _ = run(DEFAULT_PINS[:3], sleep=sleep)
    assert code == 0
    assert lines[-1] == "done"


def test_the_command_with_mock(
    fake_time: FakeTime, no_pi: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["buttons", "--mock", "--seats", "4"]) == 0
    out = capsys.readouterr().out
    assert out.count("press  ") == 8
    assert out.count("LED    ") == 4
    assert fake_time.slept == pytest.approx(4 * incan_companion.commands.buttons.STEP_S)


def test_the_command_without_gpio_says_so_in_one_line(
    no_pi: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["buttons"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "no Raspberry Pi GPIO" in captured.err and "--mock" in captured.err


@pytest.mark.parametrize("seats", ["0", "9", "x"])
def test_bad_seat_counts_exit_2(seats: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["buttons", "--mock", "--seats", seats]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_bad_config_file_exits_2(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "config.toml"
    bad.write_text("[pins]\nseat1 = [2, 3]\n")
    monkeypatch.setenv("INCAN_CONFIG", str(bad))
    assert main(["buttons", "--mock"]) == 2
    assert "seat1" in capsys.readouterr().err


def test_the_configured_pin_map_is_used(
    fake_time: FakeTime,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[pins]\nseat1 = [14, 15, 18]\nseat8 = [20, 21, 2]\n")
    monkeypatch.setenv("INCAN_CONFIG", str(config))
    assert main(["buttons", "--mock", "--seats", "1"]) == 0
    out = capsys.readouterr().out
    assert "press  seat 1  torch  GPIO 14 (header pin 8)" in out
    assert "LED    seat 1  on     GPIO 18 (header pin 12)" in out


def test_the_pin_maps_the_wiring_docs_give_are_accepted(
    fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    examples = [
        line
        for doc in ("deploy/WIRING.md", "deploy/README.md")
        for line in re.findall(r"seat\d = \[[\d, ]+\]", (ROOT / doc).read_text(encoding="utf-8"))
    ]
    assert len(examples) >= 2
    for example in examples:
        config = tmp_path / "config.toml"
        config.write_text(f"[pins]\n{example}\n")
        monkeypatch.setenv("INCAN_CONFIG", str(config))
        assert main(["buttons", "--mock", "--seconds", "0"]) == 0, example


def test_importing_the_cli_stays_light() -> None:
    import subprocess

    code = (
        "import sys, incan_companion.cli\n"
        "incan_companion.cli.build_parser()\n"
        "assert 'gpiozero' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- the pin factory choice --------------------------------------------------


def test_a_desktop_gets_no_factory(no_pi: None) -> None:
    assert pin_factory_or_none() is None
    with pytest.raises(NotAPi):
        pi_pin_factory()


def test_a_pi_without_lgpio_fails_loudly_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    monkeypatch.setattr(hardware.gpio, "_MODEL_FILE", model)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # import fails
    with pytest.raises(NoGPIO, match="lgpio") as e:
        pin_factory_or_none()
    assert "\n" not in str(e.value)


def test_the_factory_can_be_the_mock_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    factory = pin_factory_or_none()
    assert isinstance(factory, MockFactory)
    factory.close()
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "rpigpio")
    with pytest.raises(NoGPIO, match="not supported"):
        pi_pin_factory()


def test_the_app_on_mock_pins_keeps_the_keyboard(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """GPIOZERO_PIN_FACTORY=mock on a desktop built the seat panel on pins
    nobody can press, and the keyboard no longer stood in: no seat could choose."""
    from companion.events import Start
    from incan_companion.compose import build
    from incan_companion.config import Config

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    data = tmp_path / "games.sqlite"
    device = build(Config(data_file=data, countdown=0.0), seat_input="auto", camera="none",
                   data_file=data)
    try:
        assert device.seats.lights is not None and device.seats.keyboard is not None
        table = device.games.new_game(Start(("Ana", "Bo", "Cy")))
        table.enter_card("T9")
        assert device.key("1") and table.collector.chosen == frozenset({0})
    finally:
        device.close()


# --- the default pin map and its wiring table ---------------------------------

# seat: (torch, camp, led) as (BCM, header pin), as decided for the box.
DECIDED = [
    ((2, 3), (3, 5), (4, 7)),
    ((17, 11), (27, 13), (22, 15)),
    ((10, 19), (9, 21), (11, 23)),
    ((5, 29), (6, 31), (13, 33)),
    ((19, 35), (26, 37), (16, 36)),
    ((23, 16), (24, 18), (25, 22)),
    ((8, 24), (7, 26), (12, 32)),
    ((20, 38), (21, 40), (18, 12)),
]


def test_the_default_map_fits_the_header_and_spares_id_and_uart_pins() -> None:
    gpios = [g for seat in DEFAULT_PINS for g in (seat.torch, seat.camp, seat.led)]
    assert len(set(gpios)) == 24
    assert not {0, 1, 14, 15} & set(gpios)
    for seat, decided in zip(DEFAULT_PINS, DECIDED, strict=True):
        got = [(g, HEADER_PIN[g]) for g in (seat.torch, seat.camp, seat.led)]
        assert got == list(decided)


def test_header_table_is_the_40_pin_header() -> None:
    assert sorted(HEADER_PIN) == list(range(28))
    assert len(set(HEADER_PIN.values())) == 28
    power_and_ground = {1, 2, 4, 6, 9, 14, 17, 20, 25, 30, 34, 39}
    assert not power_and_ground & set(HEADER_PIN.values())


def test_wiring_md_table_matches_the_default_map() -> None:
    text = (ROOT / "deploy" / "WIRING.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\|\s*(\d+)\s*\|\s*GPIO\s*(\d+)\s*\|\s*(\d)\s*\|\s*(torch|camp|LED)", text, re.M
    )
    table = {(int(seat), part.lower()): (int(gpio), int(pin)) for pin, gpio, seat, part in rows}
    expected = {}
    for n, (torch, camp, led) in enumerate(DECIDED, start=1):
        expected[n, "torch"], expected[n, "camp"], expected[n, "led"] = torch, camp, led
    assert table == expected
    for seat, torch, camp in LAYOUT:
        assert f"| {seat + 1} | `{torch}` | `{camp}` |" in text
