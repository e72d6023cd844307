"""Frame time of the table screen at its fullest (20 path cards and 8 seats),
and the bust's moment: from the second hazard to the round's summary on screen.

    python bench/ui.py [--frames 60]

On a real offscreen Kivy window (as the tests use), each frame makes new view
models from the table (hidden tents toggled, so every seat's text changes and
its texture is rendered again), then lays out, draws and flips the window.
The baseline in the same run is a frame with nothing changed (draw and flip
only), so the ratio says what our screen costs over Kivy's own redraw.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from kivy.base import EventLoop  # noqa: E402

from companion.choices import Choice  # noqa: E402
from companion.engine import Phase  # noqa: E402
from companion.events import Start  # noqa: E402
from companion.simulate import VirtualClock  # noqa: E402
from incan_companion.compose import build  # noqa: E402
from incan_companion.config import Config  # noqa: E402
from ui.app import BUST_HOLD_S, CompanionApp  # noqa: E402

NAMES = ("Agnieszka", "Bartłomiej", "Carmen", "Dee", "Eli", "Fumiko", "Gus", "Hal")
PATH = ["T1", "T2", "T3", "T4", "T5A", "T5B", "T7A", "T7B", "T9", "A1", "T11A", "SNAKE1",
        "T11B", "T13", "SPIDER1", "T14", "MUMMY1", "T15", "FIRE1", "T17"]  # fmt: skip


def frame(app: CompanionApp, change: bool, i: int) -> float:
    window = EventLoop.window
    t0 = time.perf_counter()
    if change:
        app.hidden_tents = bool(i % 2)
        app.refresh()
    EventLoop.idle()
    window.dispatch("on_draw")
    window.dispatch("on_flip")
    return (time.perf_counter() - t0) * 1000.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=60)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "games.sqlite"
        # Countdown 0: the reveal comes with the last seat's press.
        device = build(Config(data_file=data, countdown=0.0), clock=VirtualClock(),
                       seat_input="keyboard", camera="none", data_file=data)
        table = device.games.new_game(Start(NAMES, "incan-gold"))
        app = CompanionApp(device.games, device.controls())  # opens on the game
        app._run_prepare()  # Kivy's: the window and screens, without running the loop
        for i, card in enumerate(PATH):
            table.enter_card(card)
            if i < len(PATH) - 1:
                camp = (2,) if card == "T5A" else (5,) if card == "T11B" else ()
                for seat in sorted(table.collector.due):
                    table.press(seat, Choice.CAMP if seat in camp else Choice.TORCH)
        assert table.state.phase is Phase.CHOOSE and len(table.state.path) == len(PATH)
        for _ in range(5):
            EventLoop.idle()
        assert len(app.table_screen.ids.path.cards) == len(PATH)
        ours = [frame(app, True, i) for i in range(args.frames)]
        still = [frame(app, False, i) for i in range(args.frames)]
        # The bust: everyone goes on, the second snakes comes; the table holds
        # the pair lit, then the summary shows by itself (no tap).
        for seat in sorted(table.collector.due):
            table.press(seat, Choice.TORCH)
        summary_at: list[float] = []  # the app's hook: the bust's summary on screen
        app.on_bust_seen.append(lambda app: summary_at.append(time.perf_counter()))
        t0 = time.perf_counter()
        table.enter_card("SNAKE2")
        while not summary_at:
            EventLoop.idle()
            if time.perf_counter() - t0 > 30:
                raise SystemExit("the round's summary never came")
        bust_to_summary = summary_at[0] - t0
        app.stop()
    m_ours, m_still = statistics.median(ours), statistics.median(still)
    p95 = sorted(ours)[int(0.95 * (len(ours) - 1))]
    print(f"table screen, {len(PATH)} path cards and {len(NAMES)} seats, 800x480, "
          f"{args.frames} frames each")
    print(f"new view models + layout + draw: median {m_ours:.1f} ms, p95 {p95:.1f} ms, "
          f"max {max(ours):.1f} ms")
    print(f"nothing changed (Kivy's redraw alone): median {m_still:.1f} ms; "
          f"ratio {m_ours / m_still:.1f}x")
    print(f"bust to the round's summary on screen, untouched: {bust_to_summary:.2f} s "
          f"(the hold is {BUST_HOLD_S:.1f} s; a tap ends it at once)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
