"""deploy/README.md says what the code does: the wiring table is the pin map."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from hardware.gpio import HEADER_PIN
from incan_companion.config import DEFAULT_PINS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "deploy" / "README.md").read_text(encoding="utf-8")
CELL = r"GPIO (\d+) \(pin (\d+)\)"
ROW = re.compile(rf"^\| (\d) \| {CELL} \| {CELL} \| {CELL} \|$")


def test_the_wiring_table_is_the_default_pin_map_on_the_header() -> None:
    rows = [m.groups() for line in README.splitlines() if (m := ROW.match(line))]
    assert len(rows) == len(DEFAULT_PINS) == 8
    for seat, (row, pins) in enumerate(zip(rows, DEFAULT_PINS, strict=True), start=1):
        n, torch, torch_pin, camp, camp_pin, led, led_pin = map(int, row)
        assert n == seat
        assert (torch, camp, led) == (pins.torch, pins.camp, pins.led)
        assert (torch_pin, camp_pin, led_pin) == (
            HEADER_PIN[torch],
            HEADER_PIN[camp],
            HEADER_PIN[led],
        )


def test_it_names_the_logs_first_boot_and_updating() -> None:
    assert "journalctl -u incan-companion" in README
    assert "## First boot" in README and "## Updating" in README
    assert "sudo deploy/install.sh" in README
    assert "/etc/incan-companion/config.toml" in README
    assert "/var/lib/incan-companion" in README


def test_every_install_option_it_names_exists() -> None:
    help_text = subprocess.run(
        ["bash", str(ROOT / "deploy" / "install.sh"), "--help"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    named = set(re.findall(r"`(--[a-z-]+)", README))
    assert "deploy/install.sh --dry-run" in README
    assert {"--user", "--prefix", "--keep-desktop", "--print-unit"} <= named
    for option in named - {"--system-site-packages", "--fullscreen"}:
        assert re.search(rf"^  (-h, )?{option} ", help_text, re.M), option


def test_the_sticker_size_it_gives_is_the_sticker_sheets_default() -> None:
    from vision.stickers import DEFAULT_SIZE_MM

    assert f"default symbol is {DEFAULT_SIZE_MM:g} mm wide" in README
