"""Resident memory over long play, against an empty Kivy app.

    python bench/memory.py [--minutes 30] [--speed 20]

A sped-up game loop on the real app (offscreen 800x480, 30 fps cap): games
of 3 to 8 seats, random rules, every card of a game comes in through the
inbox as the scanner delivers it, the seats choose through the inbox as the
buttons do (countdown 0), undo, a correction through the picker, the menu
and the round log are opened now and then, the bust's hold is tapped away,
and the language changes every game (Japanese included). The threaded scanner
reads a 30 fps feed of an empty table all along, so the decoder's memory is
in it too.

``--minutes`` of play at ``--speed`` game steps a second (a card, a round of
choices, a tap), about twenty times a real table's pace: a real game of
about 30 minutes passes in 1.5 minutes. ``--no-draw`` runs all of it but the
window's GL drawing, to tell the renderer's memory from the rest. ``--aids``
plays as a table that uses the aids does: the odds shown all along, and
each game's review opened at its end and read once worked out. RSS is
sampled from /proc/self/status. Growth is counted once the app is warm, when
every seat count and language has been played: the change from then to the
end (each the median of a minute of samples), and the slope of a straight
line through those samples (MB per 30 minutes of play). The Python heap
(tracemalloc is too slow; ``sys.getallocatedblocks``) is reported beside
it, so native growth can be told from Python's.

The camera's frames are rendered by the virtual table in a process of their
own and handed over as a file: on the device a camera gives the frames, and
the renderer's caches (about 50 MB) are not the app's.

The report also gives the resident memory at each stage of the way in: the
window open, the app's modules, the camera's libraries, the first screen, and
each of the first games (3 to 8 seats, every language), so a rise can be put
down to what was built.

The baseline is an empty Kivy app on the same display, in its own process,
with the app's Kivy options; a stock empty Kivy app (Kivy's own options) is
measured beside it. With the camera, a second reference is the same empty app
reading the same frames with the plain libraries (OpenCV to grey, zxing-cpp,
30 frames a second, none of our code): the floor that the camera's libraries
set for any app built on them, so the app's own share can be told from it.
"""

from __future__ import annotations

import argparse
import os
import random
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

NAMES = ("Agnieszka", "Bartłomiej", "Carmen", "Dee", "Eli", "Fumiko", "さくら", "Hal")
LANGUAGES = ("en", "pl", "es", "ja")
WARM_GAMES = 6  # 3 to 8 seats, and every language, once
#: The warm and end figures are the median of the samples over this much play:
#: one sample moves by several MB with the moment it falls on (just after a
#: round's end has trimmed the heap, or in the middle of a round).
SPAN_S = 60.0


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def font_faces() -> int:
    """Font faces open: Kivy's SDL2 text provider opens one per font file,
    size and weight, keeps it for good, and each holds its file open, so the
    open files tell them without reaching into Kivy."""
    fds = Path("/proc/self/fd")
    count = 0
    for fd in fds.iterdir():
        try:
            target = os.readlink(fd)
        except OSError:  # closed since listed
            continue
        count += target.lower().endswith((".ttf", ".otf", ".ttc"))
    return count


def empty_app(seconds: float, stock: bool = False, frames: Path | None = None) -> float:
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    if stock:  # Kivy's own options, but the window's size and no console log
        os.environ["KIVY_NO_ARGS"] = "1"
        os.environ["KIVY_NO_CONSOLELOG"] = "1"
        from kivy.config import Config

        from ui.kivy_setup import HEIGHT, WIDTH

        Config.set("graphics", "width", str(WIDTH))
        Config.set("graphics", "height", str(HEIGHT))
    else:
        from ui.kivy_setup import configure

        configure(quiet=True)
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.uix.widget import Widget

    class Empty(App):
        def build(self) -> Widget:
            return Widget()

    app = Empty()
    app._run_prepare()
    stop = threading.Event()
    reader = threading.Thread(target=read_plainly, args=(frames, stop), daemon=True)
    if frames is not None:
        reader.start()
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        EventLoop.idle()
    mb = rss_mb()
    stop.set()
    if frames is not None:
        # Its last read finished before the process ends: zxing-cpp's threads,
        # cut off at exit, ended this child with "terminate called" now and then.
        reader.join()
    return mb


def read_plainly(frames: Path, stop: threading.Event) -> None:
    """The camera read with the plain libraries, none of our code: each frame
    to grey with OpenCV and read by zxing-cpp, at 30 frames a second. What any
    app that reads QR codes from this camera with these libraries must hold."""
    import cv2
    import numpy as np
    import zxingcpp

    cv2.setNumThreads(1)
    images = list(np.load(frames))
    i = 0
    while not stop.wait(1 / 30):
        grey = cv2.cvtColor(images[i % len(images)], cv2.COLOR_BGR2GRAY)
        zxingcpp.read_barcodes(grey)
        i += 1


def render_frames(path: Path, n: int = 4) -> None:
    """An empty table as the camera sees it, ``n`` frames, saved for ``play``:
    as many as a camera driver keeps (OpenCV's V4L2 capture asks for 4)."""
    import numpy as np

    from vision.sources import VirtualTable

    virtual = VirtualTable(seed=5, fps=None)
    np.save(path, np.stack([virtual.next_image() for _ in range(n)]))


def play(minutes: float, sample_s: float, fps: float, draw: bool = True,
         frames: Path | None = None, aids: bool = False) -> dict[str, Any]:
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    from ui.kivy_setup import configure

    configure(quiet=True)  # 30 fps, as on the device
    from kivy.base import EventLoop
    from kivy.core.window import Window

    if not draw:  # everything but the GL drawing: tells the renderer's memory apart
        Window.bind(on_draw=lambda *a: True)

    stages: list[tuple[str, float, int]] = []

    def stage(label: str) -> None:
        for _ in range(3):  # let the window draw what was just built
            EventLoop.idle()
        stages.append((label, rss_mb(), font_faces()))

    stage("window open")

    from companion.choices import Choice
    from companion.engine import Phase
    from companion.rules import RULE_SETS
    from companion.simulate import next_card, wants_to_leave
    from incan_companion.compose import build
    from incan_companion.config import Config
    from ui.app import CompanionApp, post
    from ui.kivyfree import i18n

    stage("app's modules imported")
    data = Path(tempfile.mkdtemp(prefix="memory-")) / "games.sqlite"
    device = build(Config(data_file=data, countdown=0.0), post=post, seat_input="keyboard",
                   camera="none", data_file=data)
    scanner = None
    if frames is not None:  # with no camera, nothing of vision is imported, as in the app
        import numpy as np

        from vision.scanner import Scanner
        from vision.sources import FrameSource

        stage("camera's libraries imported")
        empties: list[Any] = list(np.load(frames))

        class EmptyTable(FrameSource):
            name = "empty"

            def __init__(self) -> None:
                super().__init__(fps=30.0)
                self.i = 0

            def _read(self) -> Any:
                self.i += 1
                return empties[self.i % len(empties)]

        scanner = Scanner(EmptyTable(), device.inbox.card, device.inbox.notice, None)
        scanner.start()
    rng = random.Random(1)
    controls = device.controls()
    if scanner is not None:  # the app knows a camera reads the cards, as on the device
        from dataclasses import replace

        controls = replace(controls, camera=True)
    app = CompanionApp(device.games, controls)
    app._run_prepare()
    stage("first screen" + (", camera read" if scanner else ""))

    def new_game(n: int) -> None:
        app.choose_language(LANGUAGES[n % len(LANGUAGES)])
        seats = 3 + n % 6
        app.setup.start_game(list(NAMES[:seats]), rng.choice(sorted(RULE_SETS)), bool(n % 2))

    games = reviewed = 0
    if aids:
        app.menus.set_odds(True)
    new_game(games)
    period = 1.0 / fps
    step_at = time.monotonic()
    # The cycle collector's full passes (a pause of the UI thread each): what
    # the app drops in reference cycles (Kivy's widgets) is freed only there.
    import gc

    passes: list[float] = []
    began = [0.0]

    def collected(phase: str, info: dict[str, int]) -> None:
        if info["generation"] == 2:
            if phase == "start":
                began[0] = time.perf_counter()
            else:
                passes.append(time.perf_counter() - began[0])

    gc.callbacks.append(collected)
    start = time.monotonic()
    samples: list[tuple[float, int, float, int]] = []  # (s of play, games, MB, blocks)
    next_sample = start
    steps = 0
    while time.monotonic() - start < minutes * 60:
        EventLoop.idle()
        now = time.monotonic()
        if now >= next_sample:
            samples.append((now - start, games, rss_mb(), sys.getallocatedblocks()))
            next_sample += sample_s
        if now < step_at:
            continue
        step_at = now + period
        steps += 1
        table = app.table
        if table is None:
            continue
        state = table.state
        if app.picker is not None:
            app.picker.dismiss()
        elif app.menu is not None:
            app.menu.dismiss()
        elif app.round_log_view is not None:
            app.round_log_view.dismiss()
        elif aids and app.menus.review is not None:
            review = app.menus.review  # worked out on its own thread: read, then closed
            if review.ready or review.failed:
                review.dismiss()
        elif aids and state.phase is Phase.GAME_OVER and reviewed < games + 1:
            reviewed = games + 1
            app.menus.open_review()
        elif state.phase is Phase.GAME_OVER:
            games += 1
            if games <= WARM_GAMES:
                stage(f"game {games} over ({len(state.seats)} seats, {i18n.language()})")
            new_game(games)
        elif app.on_screen("round_end"):
            app.play.close_round_end("table")  # its button: a card held for the summary comes now
        elif table.collector.due:
            for seat in sorted(table.collector.due):
                leave = wants_to_leave(state, seat, rng)
                device.inbox.press(seat, Choice.CAMP if leave else Choice.TORCH)
        elif steps % 97 == 0 and state.path:
            app.cards.tap_path_card(rng.randrange(len(state.path)))
        elif steps % 89 == 0:
            app.open_menu()
        elif steps % 83 == 0:
            app.menus.open_round_log()
        elif steps % 31 == 0 and table.can_undo:
            app.undo()
        else:
            app.play.end_bust_hold()
            device.inbox.card(next_card(state, rng))
    samples.append((time.monotonic() - start, games, rss_mb(), sys.getallocatedblocks()))
    gc.callbacks.remove(collected)
    if scanner is not None:
        scanner.stop()
    app.stop()
    device.close()
    return {"samples": samples, "games": games, "steps": steps, "stages": stages,
            "faces": font_faces(), "passes": passes}


def slope(points: list[tuple[float, float]]) -> float:
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    var = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="minutes of play (wall)")
    parser.add_argument("--speed", type=float, default=20.0, help="game steps a second")
    parser.add_argument("--sample", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--no-camera", action="store_true",
                        help="no scanner and no frames: the app as with --camera none")
    parser.add_argument("--no-draw", action="store_true",
                        help="skip the window's GL drawing (all else runs): the renderer's share")
    parser.add_argument("--aids", action="store_true",
                        help="the odds shown, and each game's review opened at its end")
    parser.add_argument("--child", choices=("empty", "stock", "reader", "frames", "play"),
                        help=argparse.SUPPRESS)
    parser.add_argument("--frames", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child in ("empty", "stock"):
        print(f"{empty_app(5.0, stock=args.child == 'stock'):.1f}")
        return 0
    if args.child == "reader":
        print(f"{empty_app(5.0, frames=args.frames):.1f}")
        return 0
    if args.child == "frames":
        render_frames(args.frames)
        return 0
    if args.child == "play":
        import json

        print(json.dumps(play(args.minutes, args.sample, args.speed, draw=not args.no_draw,
                              frames=args.frames, aids=args.aids)))
        return 0

    import json

    def child(*extra: str) -> str:
        done = subprocess.run([sys.executable, __file__, *extra], capture_output=True,
                              text=True, check=False)
        if done.returncode != 0:
            raise SystemExit(done.stderr[-3000:])
        return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""

    empty = float(child("--child", "empty"))
    stock = float(child("--child", "stock"))
    reader: float | None = None
    with tempfile.TemporaryDirectory(prefix="memory-frames-") as folder:
        frames: list[str] = []
        if not args.no_camera:
            path = Path(folder) / "empty-table.npy"
            child("--child", "frames", "--frames", str(path))
            frames = ["--frames", str(path)]
            reader = float(child("--child", "reader", *frames))
        result = json.loads(child("--child", "play", "--minutes", str(args.minutes),
                                  "--speed", str(args.speed), "--sample", str(args.sample),
                                  *(["--no-draw"] if args.no_draw else []),
                                  *(["--aids"] if args.aids else []), *frames))
    samples = result["samples"]
    # Warm once every seat count and language has been played (games 1 to 6):
    # what is built for the first time is not growth.
    warm = [s for s in samples if s[1] >= WARM_GAMES] or samples
    first_mb = statistics.median(s[2] for s in warm if s[0] < warm[0][0] + SPAN_S)
    last_mb = statistics.median(s[2] for s in warm if s[0] > warm[-1][0] - SPAN_S)
    mb_slope = slope([(s[0], s[2]) for s in warm]) * 1800
    block_slope = slope([(s[0], float(s[3])) for s in warm]) * 1800
    print(f"memory over {args.minutes:g} min of play at {args.speed:g} steps/s: "
          f"{result['games']} games, {result['steps']} steps")
    print(f"  empty Kivy app:             {empty:6.1f} MB  (a stock one: {stock:.1f} MB)")
    if reader is not None:
        print(f"  empty app reading the camera with the plain libraries: {reader:.1f} MB "
              f"(+{reader - empty:.1f}); the app once warm is +{first_mb - reader:.1f} over it")
    print(f"  app once warm ({WARM_GAMES} games):    {first_mb:6.1f} MB  "
          f"(+{first_mb - empty:.1f} over empty; the median of the next {SPAN_S:.0f} s of "
          f"samples, the first of them {warm[0][2]:.1f} MB)")
    print(f"  app at the end:             {last_mb:6.1f} MB  (+{last_mb - empty:.1f} over empty;"
          f" the median of the last {SPAN_S:.0f} s of samples)")
    print(f"  peak:                       {max(s[2] for s in samples):6.1f} MB")
    print("  on the way in:")
    for label, mb, faces in result["stages"]:
        print(f"    {mb:6.1f} MB  (+{mb - empty:5.1f})  {faces:3d} font faces  {label}")
    minute = [s for i, s in enumerate(samples)
              if i == 0 or int(s[0] // 60) != int(samples[i - 1][0] // 60)]
    print("  by minute of play: " + ", ".join(f"{s[0] / 60:.0f}: {s[2]:.0f}" for s in minute)
          + " MB")
    print(f"  growth once warm: {last_mb - first_mb:+.1f} MB in "
          f"{(samples[-1][0] - warm[0][0]) / 60:.1f} min (a line through the samples: "
          f"{mb_slope:+.1f} MB per 30 min of play); Python heap {block_slope:+.0f} blocks "
          f"per 30 min (from {warm[0][3]} to {samples[-1][3]})")
    passes = sorted(result["passes"])
    if passes:
        print(f"  the cycle collector's full passes: {len(passes)} "
              f"({len(passes) / args.minutes:.1f} a minute of play), median "
              f"{statistics.median(passes) * 1000:.0f} ms, longest {passes[-1] * 1000:.0f} ms")
    last_stage_faces = result["stages"][-1][2]
    print(f"  font faces open at the end: {result['faces']} ({last_stage_faces} once warm)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
