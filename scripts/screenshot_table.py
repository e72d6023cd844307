#!/usr/bin/env python3
"""Render the table screen offscreen into ``docs/images/table.png`` (or ``--out FILE``).

The README's picture of the table, kept current by running this again after
a change to the screen: the real app at 800x480 in an offscreen window, a
five-seat game in English played through the table's own calls (cards
entered, buttons pressed, the countdown run on a virtual clock), stopped in
round 2 with the odds on, a leftover on a card, an artifact carried out and
two seats still to choose. Nothing random: the same code draws the same
picture.

    .venv/bin/python scripts/screenshot_table.py
    .venv/bin/python scripts/screenshot_table.py --language pl --out /tmp/table-pl.png
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "docs" / "images" / "table.png"
NAMES = ("Ana", "Bartek", "Carmen", "Daisuke", "Eli")
COUNTDOWN_S = 3.0
#: Round 1: Ana leaves alone with the artifact; round 2 is on the table.
ROUND_1 = (("T7A", ()), ("A1", ()), ("T9", (0,)), ("SNAKE1", ()), ("T4", ()), ("SNAKE2", ()))
ROUND_2 = (("T11A", ()), ("SPIDER1", ()), ("T5A", (1,)), ("A2", ()), ("T13", ()),
           ("FIRE1", ()), ("T3", ()))  # fmt: skip


def render(out: Path, language: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-"))
    from ui.kivy_setup import configure

    configure(quiet=True, fast=True)
    from ui import i18n

    i18n.set_language(language)
    from ui.fonts import register_fonts

    register_fonts()
    from kivy.base import EventLoop

    from companion.choices import Choice
    from companion.games import Games
    from companion.memory import MemoryStore
    from companion.simulate import VirtualClock
    from ui.app import CompanionApp
    from ui.controls import Controls

    def frames(n: int = 3) -> None:
        for _i in range(n):
            EventLoop.idle()

    clock = VirtualClock(0.0)
    app = CompanionApp(Games(MemoryStore(), countdown=COUNTDOWN_S, clock=clock), Controls())
    app._run_prepare()
    frames()
    setup = app.setup_screen
    setup.seat_count = len(NAMES)
    frames()
    for box, name in zip(setup.name_inputs, NAMES, strict=False):
        box.text = name
    setup.start()
    table = app.table
    assert table is not None, setup.problem
    app.set_odds(True)

    def play(cards: tuple[tuple[str, tuple[int, ...]], ...], last: bool) -> None:
        for i, (card, camp) in enumerate(cards):
            assert table.enter_card(card), (card, table.notice)
            frames(2)
            if last and i == len(cards) - 1:
                return
            if table.collector.due:
                for seat in sorted(table.collector.due):
                    table.press(seat, Choice.CAMP if seat in camp else Choice.TORCH)
                clock.advance(COUNTDOWN_S)
                assert table.tick()
                frames(2)

    play(ROUND_1, last=False)
    app.end_bust_hold()
    app.close_round_end("table")  # the summary seen: round 2's cards may come
    play(ROUND_2, last=True)
    for seat in (0, 2):  # two have chosen; the others are waited for
        table.press(seat, Choice.TORCH)
    frames(4)
    out.parent.mkdir(parents=True, exist_ok=True)
    app.save_screenshot(out)
    app.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--language", default="en", choices=("en", "pl", "es", "ja"))
    args = parser.parse_args()
    render(args.out.resolve(), args.language)
    print(args.out)


if __name__ == "__main__":
    main()
