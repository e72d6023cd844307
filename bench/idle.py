"""Idle CPU on the table screen with a card lying still, against an empty Kivy app.

    python bench/idle.py [--seconds 20] [--clock both|default|interrupt] [--repeat 1]

Each case runs in its own process on an offscreen 800x480 window capped at
30 fps, as on the device, and reports the CPU time of all its threads over
``--seconds`` of wall time after a warm-up, as a percentage of one core:

  empty Kivy app   the baseline: a window with nothing on it;
  table, no camera our app on the table screen of a game, cards tapped in;
  table, card      the same with the camera on: a 30 fps feed of a card lying
                   still (pre-rendered frames with fresh sensor noise each) into
                   the real threaded scanner.
  table, card, window
                   the same as a Pi camera gives it: each frame the whole field
                   at 640 (grey) and a window of a 2304-wide frame cut around
                   the tracked spot (vision.roi.crop, as vision.sources.PiCamera
                   does from the mapped buffer), where the scanner reads.

Kivy reads KIVY_CLOCK when it is imported, hence a process per case and clock.
A figure of about one per cent of a core moves by a few tenths from run to
run; ``--repeat`` runs the three cases again and reports the medians, the
ratio being the median of each run's own ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FPS = 30.0
CASES = ("empty Kivy app", "table, no camera", "table, card", "table, card, window")
#: The full-resolution frame of the window case, as many times the virtual
#: table's 640-wide frame (2.8 px a mm, a webcam at 17 cm): 1.8 gives Camera
#: Module 3's 2304-wide stream 35 cm above the table (5 px a mm, a window at
#: zoom 1); 3.6 the same camera at 18 cm, where the window is reduced 3 times.
MAIN_SCALE = 1.8


def child(case: str, seconds: float, warmup: float, main_scale: float = MAIN_SCALE) -> float:
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    from ui.kivy_setup import configure

    configure(quiet=True)

    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.uix.widget import Widget

    stop: list[Any] = []
    if case == "empty Kivy app":

        class Empty(App):
            def build(self) -> Widget:
                return Widget()

        app: Any = Empty()
    else:
        from companion.events import Start
        from incan_companion.compose import build
        from incan_companion.config import Config
        from ui.app import CompanionApp, post

        data = Path(tempfile.mkdtemp(prefix="idle-")) / "games.sqlite"
        device = build(Config(data_file=data), post=post, seat_input="keyboard",
                       camera="none", data_file=data)
        table = device.games.new_game(Start(("Ana", "Bo", "Cy", "Dee"), "incan-gold"))
        if case.startswith("table, card"):
            from vision.scanner import Scanner
            from vision.sources import FrameSource, TwoStreamSource, VirtualTable

            virtual = VirtualTable(seed=3, fps=None)
            virtual.place("T9")
            images = [virtual.next_image() for _ in range(VirtualTable.SLIDE_FRAMES + 40)]
            images = images[VirtualTable.SLIDE_FRAMES + 4:]  # the card at rest, hand gone

            class Resting(FrameSource):
                name = "resting"

                def __init__(self) -> None:
                    super().__init__(fps=FPS)
                    self.index = 0

                def _read(self) -> Any:
                    self.index += 1
                    return images[self.index % len(images)]

            class RestingWindow(TwoStreamSource):
                """The resting card as the Pi camera's two streams (8 frames of noise)."""

                name = "resting, window"

                def __init__(self) -> None:
                    import cv2

                    super().__init__(fps=FPS)
                    self.index = 0
                    greys = [cv2.cvtColor(im, cv2.COLOR_BGR2GRAY) for im in images[:8]]
                    self.lores = greys
                    self.main = [cv2.resize(g, None, fx=main_scale, fy=main_scale,
                                            interpolation=cv2.INTER_CUBIC) for g in greys]

                def _read(self) -> Any:
                    self.index = (self.index + 1) % len(self.main)
                    if self._window_wanted():  # as the Pi camera does
                        self._cut(self.main[self.index], main_scale)
                    return self.lores[self.index]

            source = RestingWindow() if case.endswith("window") else Resting()
            scanner = Scanner(source, device.inbox.card, device.inbox.notice,
                              device.inbox.camera)
            scanner.start()
            source.start()
            stop += [scanner.stop]
        else:
            table.enter_card("T9")
        app = CompanionApp(device.games, device.controls())
        stop += [device.close]
    app._run_prepare()  # Kivy's: the window, without running the loop
    until = time.monotonic() + warmup
    while time.monotonic() < until:
        EventLoop.idle()
    wall, cpu = time.monotonic(), time.process_time()
    until = wall + seconds
    while time.monotonic() < until:
        EventLoop.idle()
    used = (time.process_time() - cpu) / (time.monotonic() - wall)
    if case.startswith("table, card"):
        assert [p.card for p in table.state.path] == ["T9"], "the resting card was not read"
    app.stop()
    for fn in stop:
        fn()
    return 100.0 * used


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--clock", choices=("both", "default", "interrupt"), default="both")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of the three cases, one after another; medians are reported")
    parser.add_argument("--main-scale", type=float, default=MAIN_SCALE,
                        help="the window case's full-resolution frame, times the 640-wide "
                        "one (1.8: a Pi camera 35 cm high; 3.6: 18 cm, the window reduced 3x)")
    parser.add_argument("--child", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(f"{child(args.child, args.seconds, args.warmup, args.main_scale):.3f}")
        return 0
    clocks = ("default", "interrupt") if args.clock == "both" else (args.clock,)
    print(f"idle CPU, % of one core over {args.seconds:.0f} s, 800x480 offscreen at 30 fps"
          f" (window case: full resolution {args.main_scale:g}x the 640 frame)"
          + (f", median of {args.repeat} runs" if args.repeat > 1 else ""))
    for clock in clocks:
        runs: list[dict[str, float]] = []
        for _ in range(max(1, args.repeat)):
            # The cases of a run follow each other, so a slower spell of the
            # machine weighs on a run's ratio less than on its figures.
            results: dict[str, float] = {}
            for case in CASES:
                done = subprocess.run(
                    [sys.executable, __file__, "--child", case, "--seconds", str(args.seconds),
                     "--warmup", str(args.warmup), "--main-scale", str(args.main_scale)],
                    capture_output=True, text=True, env={**os.environ, "KIVY_CLOCK": clock},
                    check=False,
                )
                if done.returncode != 0:
                    print(done.stderr[-2000:], file=sys.stderr)
                    return 1
                results[case] = float(done.stdout.strip().splitlines()[-1])
            runs.append(results)
        print(f"KIVY_CLOCK={clock}")
        for case in CASES:
            cpu = statistics.median(r[case] for r in runs)
            ratios = sorted(r[case] / r[CASES[0]] for r in runs)
            spread = f"  (runs {ratios[0]:.1f}-{ratios[-1]:.1f}x)" if len(runs) > 1 else ""
            print(f"  {case:<19} {cpu:5.2f} %  {statistics.median(ratios):4.1f}x empty{spread}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
