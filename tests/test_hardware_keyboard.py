"""The keyboard stand-in: a pure key -> (seat, choice) mapping, no Kivy."""

from __future__ import annotations

import doctest
import subprocess
import sys

import hardware.keyboard
from companion.choices import Choice
from hardware.keyboard import KEYS, LAYOUT, choice_for_key, layout_lines


def test_doctests() -> None:
    assert doctest.testmod(hardware.keyboard).failed == 0


def test_every_seat_has_a_torch_key_above_its_camp_key() -> None:
    assert [(s, t, c) for s, t, c in LAYOUT] == list(
        zip(range(8), "12345678", "qwertyui", strict=True)
    )
    for seat, torch, camp in LAYOUT:
        assert choice_for_key(torch) == (seat, Choice.TORCH)
        assert choice_for_key("numpad" + torch) == (seat, Choice.TORCH)
        assert choice_for_key(camp) == (seat, Choice.CAMP)
        assert choice_for_key(camp.upper()) == (seat, Choice.CAMP)


def test_keys_are_unique_and_other_keys_mean_nothing() -> None:
    assert len(KEYS) == 3 * 8
    for name in ("a", "9", "0", "spacebar", "enter", "", "numpad9", "f1"):
        assert choice_for_key(name) is None


def test_keys_of_seats_not_playing_mean_nothing() -> None:
    assert choice_for_key("4", seats=3) is None
    assert choice_for_key("r", seats=3) is None
    assert choice_for_key("3", seats=3) == (2, Choice.TORCH)


def test_layout_lines_for_the_help_screen() -> None:
    assert layout_lines(3) == [
        "seat 1: torch 1, camp q",
        "seat 2: torch 2, camp w",
        "seat 3: torch 3, camp e",
    ]


def test_the_keyboard_module_imports_neither_kivy_nor_gpiozero() -> None:
    code = (
        "import sys, hardware.keyboard, hardware.debounce, hardware.gpio\n"
        "import incan_companion.commands.buttons\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('kivy', 'gpiozero')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
