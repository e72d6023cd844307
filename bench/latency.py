"""Card at rest → payout on screen, stage by stage, with a 30 fps camera.

    python bench/latency.py [--cards 15] [--runs 2] [--clock both|default|interrupt]

Frames are pre-rendered by the virtual table (each card slides in over four
frames with motion blur, held by a hand that withdraws, then lies still with
fresh sensor noise in every frame; an empty spot between cards) and played
at 30 fps by a frame source on its own thread, so rendering costs nothing
while timing. Everything after the camera is the app's own: the threaded
scanner (decoder and tracker), the inbox posting to Kivy's clock, the SQLite
store appending with fsync, the table and engine, the app's refresh and the
table screen drawn on an offscreen window capped at 30 fps as on the device.

Each card's stages, from the capture of its first frame at rest:
  confirmed  the scanner hands the card over (the tracker has seen it rest);
  on UI      the posted call starts on Kivy's thread;
  stored     the store's append (with fsync) has returned;
  engine     the table has taken the card (rules, listeners);
  refreshed  the app's refresh has shown the new path card;
  drawn      the window has swapped in the finished frame that shows it: the payout
             on screen.

Kivy reads KIVY_CLOCK when it is imported, so each clock runs in its own
process; ``--runs`` processes per clock are pooled. The baseline in the same
run is the camera's own frame interval (33.3 ms): the ratio says how many
frame times the payout takes.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FPS = 30.0
TREASURES = ("T1", "T2", "T3", "T4", "T5A", "T5B", "T7A", "T7B", "T9", "T11A", "T11B",
             "T13", "T14", "T15", "T17")  # fmt: skip
EMPTY_FRAMES, REST_FRAMES = 45, 16  # 1.5 s of an empty spot: the scanner has gone still
STAGES = ("confirmed", "on UI", "stored", "engine", "refreshed", "drawn")


#: ``--window``: the full-resolution frame, times the virtual table's 640-wide
#: one: a Camera Module 3 35 cm over the table (bench/idle.py's MAIN_SCALE).
MAIN_SCALE = 1.8


def child(cards: int, seed: int, window: bool = False) -> dict[str, Any]:
    """One run in this process: the samples of each stage, in ms from rest."""
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    from ui.kivy_setup import configure

    configure(quiet=True)  # 30 fps, as on the device

    import numpy as np
    from kivy.base import EventLoop
    from kivy.clock import Clock

    from companion.choices import Choice
    from companion.events import Start
    from incan_companion.compose import build
    from incan_companion.config import Config
    from ui.app import CompanionApp
    from vision.scanner import Scanner
    from vision.sources import TwoStreamSource, VirtualTable

    # --- the frames, rendered before anything is timed ---------------------------
    virtual = VirtualTable(seed=seed, fps=None)
    images: list[np.ndarray] = []
    rests: dict[str, int] = {}  # card → index of its first frame at rest
    for card in TREASURES[:cards]:
        virtual.place(None)
        images += [virtual.next_image() for _ in range(EMPTY_FRAMES)]
        virtual.place(card)
        first = len(images)
        images += [virtual.next_image() for _ in range(VirtualTable.SLIDE_FRAMES + REST_FRAMES)]
        assert virtual.rest_index is not None
        rests[card] = first + VirtualTable.SLIDE_FRAMES
    virtual.place(None)
    images += [virtual.next_image() for _ in range(EMPTY_FRAMES)]

    import cv2

    class Played(TwoStreamSource):
        """The rendered frames at 30 fps, each capture time kept by its index.

        With ``window``, as a Pi camera gives them: the whole field grey, and a
        window cut around the tracked spot from the frame enlarged
        :data:`MAIN_SCALE` times (the sensor's stream), which the scanner reads;
        the capture time is taken once both are made, as the camera's ISP
        makes them before a frame is handed over."""

        name = "played"

        def __init__(self) -> None:
            super().__init__(fps=FPS)
            self.index = 0
            self.captured: dict[int, float] = {}
            if not window:
                self.spot = None

        def _read(self) -> Any:
            if self.index >= len(images):
                self._ended = True
                return None
            image = images[self.index]
            if self.spot is not None:
                image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
                main = cv2.resize(image, None, fx=MAIN_SCALE, fy=MAIN_SCALE,
                                  interpolation=cv2.INTER_LINEAR)
                if self._window_wanted():  # as the Pi camera does
                    self._cut(main, MAIN_SCALE)
            self.captured[self.index] = time.perf_counter()
            self.index += 1
            return image

    # --- the device, with a clock on each stage -----------------------------------
    marks: dict[str, dict[str, float]] = {card: {} for card in rests}
    # Beside each time, Kivy's frame count and the UI thread's CPU time: the
    # frames a stage waits and the work it does, which no load stretches.
    frames: dict[str, dict[str, int]] = {card: {} for card in rests}
    cpu: dict[str, dict[str, float]] = {card: {} for card in rests}
    current: list[str] = []  # the card on its way (set when the scanner hands it over)

    def mark(stage: str) -> None:
        if current and stage not in marks[current[-1]]:
            marks[current[-1]][stage] = time.perf_counter()
            frames[current[-1]][stage] = Clock.frames
            if threading.current_thread() is threading.main_thread():
                cpu[current[-1]][stage] = time.thread_time()

    def post(fn: Any) -> None:
        def run(dt: float) -> None:
            mark("on UI")
            fn()
            mark("engine")

        Clock.schedule_once(run, 0)

    folder = tempfile.mkdtemp(prefix="latency-")
    data = Path(folder) / "games.sqlite"
    device = build(Config(data_file=data, countdown=0.0), post=post, seat_input="keyboard",
                   camera="none", data_file=data)
    store_append = device.store.append

    def append(game: int, event: Any) -> None:
        store_append(game, event)
        mark("stored")

    device.store.append = append  # type: ignore[method-assign]
    table = device.games.new_game(Start(("Ana", "Bo", "Cy", "Dee"), "incan-gold"))
    source = Played()

    def on_card(card: str) -> None:
        current.append(card)
        mark("confirmed")
        device.inbox.card(card)

    scanner = Scanner(source, on_card, device.inbox.notice, device.inbox.camera)
    app = CompanionApp(device.games, device.controls())
    app._run_prepare()  # Kivy's: the window and screens, without running the loop
    shown = [0]

    def refreshed(app: CompanionApp) -> None:
        if len(table.state.path) > shown[0]:
            shown[0] = len(table.state.path)
            mark("refreshed")

    def flipped(*args: Any) -> None:
        if current and "refreshed" in marks[current[-1]] and "drawn" not in marks[current[-1]]:
            mark("drawn")
            # Everyone goes on at once: the table is ready for the next card.
            for seat in sorted(table.collector.due):
                table.press(seat, Choice.TORCH)

    app.on_refresh.append(refreshed)
    # Marked once the frame is swapped, after every on_flip handler (the app
    # finishes each frame there): the pixels are done, not just asked for.
    window = EventLoop.window
    swap = window.flip

    def flip_then_mark() -> None:
        swap()
        flipped()

    window.flip = flip_then_mark
    for _ in range(10):
        EventLoop.idle()
    scanner.start()
    source.start()
    decode_ms: list[float] = []
    decoder = scanner.decoder
    decode = decoder.decode

    def timed_decode(image: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        try:
            return decode(image, **kw)
        finally:
            decode_ms.append((time.perf_counter() - t) * 1000)

    decoder.decode = timed_decode  # type: ignore[method-assign]
    deadline = time.monotonic() + len(images) / FPS + 10
    while not source.ended and time.monotonic() < deadline:
        EventLoop.idle()
    for _ in range(10):
        EventLoop.idle()
    scanner.stop()
    app.stop()
    device.close()

    samples: dict[str, list[float]] = {stage: [] for stage in STAGES}
    waited: list[int] = []  # Kivy frames from the refresh to the swap that shows it
    drawing: list[float] = []  # the UI thread's CPU ms over the same step
    missed = 0
    for card, index in rests.items():
        got = marks[card]
        if "drawn" not in got or index not in source.captured:
            missed += 1
            continue
        t0 = source.captured[index]
        for stage in STAGES:
            samples[stage].append((got[stage] - t0) * 1000)
        waited.append(frames[card]["drawn"] - frames[card]["refreshed"])
        drawing.append((cpu[card]["drawn"] - cpu[card]["refreshed"]) * 1000)
    return {"samples": samples, "missed": missed, "decode_ms": decode_ms,
            "waited": waited, "drawing_ms": drawing,
            "path": [p.card for p in table.state.path]}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=15, help="cards per run (at most 15)")
    parser.add_argument("--runs", type=int, default=2, help="processes per clock")
    parser.add_argument("--clock", choices=("both", "default", "interrupt"), default="both")
    parser.add_argument("--window", action="store_true",
                        help="the frames as a Pi camera's two streams: the scanner reads a "
                        "window of a full-resolution frame (a camera 35 cm high)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(min(args.cards, len(TREASURES)), args.seed, args.window)))
        return 0

    clocks = ("default", "interrupt") if args.clock == "both" else (args.clock,)
    frame_ms = 1000 / FPS
    print(f"card at rest → payout on screen: {args.cards} cards x {args.runs} runs per clock, "
          f"camera at {FPS:.0f} fps (one frame: {frame_ms:.1f} ms)"
          + (", read through the full-resolution window" if args.window else ""))
    for clock in clocks:
        pooled: dict[str, list[float]] = {stage: [] for stage in STAGES}
        decode: list[float] = []
        waited: list[int] = []
        drawing: list[float] = []
        missed = 0
        for run in range(args.runs):
            env = {**os.environ, "KIVY_CLOCK": clock}
            done = subprocess.run(
                [sys.executable, __file__, "--child", "--cards", str(args.cards),
                 "--seed", str(args.seed + run), *(["--window"] if args.window else [])],
                capture_output=True, text=True, env=env, check=False,
            )
            if done.returncode != 0:
                print(done.stderr[-2000:], file=sys.stderr)
                return 1
            result = json.loads(done.stdout.strip().splitlines()[-1])
            for stage in STAGES:
                pooled[stage] += result["samples"][stage]
            decode += result["decode_ms"]
            waited += result["waited"]
            drawing += result["drawing_ms"]
            missed += result["missed"]
        n = len(pooled["drawn"])
        print(f"\nKIVY_CLOCK={clock}: {n} cards shown, {missed} not shown")
        print(f"  {'stage':<10} {'median':>8} {'p90':>8}   (ms from the first frame at rest)")
        for stage in STAGES:
            print(f"  {stage:<10} {statistics.median(pooled[stage]):8.1f} "
                  f"{pct(pooled[stage], 0.9):8.1f}")
        drawn = pooled["drawn"]
        print(f"  payout on screen: median {statistics.median(drawn):.0f} ms, "
              f"p90 {pct(drawn, 0.9):.0f} ms = {statistics.median(drawn) / frame_ms:.1f} / "
              f"{pct(drawn, 0.9) / frame_ms:.1f} camera frames")
        print(f"  refreshed -> drawn: {statistics.mean(waited):.2f} frames of Kivy's clock on"
              f" average (most {max(waited)}), {statistics.median(drawing):.1f} ms of the UI"
              f" thread's CPU (p90 {pct(drawing, 0.9):.1f})")
        print(f"  decode per frame: median {statistics.median(decode):.1f} ms, "
              f"p90 {pct(decode, 0.9):.1f} ms over {len(decode)} frames")
    return 0


if __name__ == "__main__":
    sys.exit(main())
