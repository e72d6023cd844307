"""Start-up to the first screen drawn, against an empty Kivy app.

    python bench/startup.py [--runs 7]

Each run is a fresh process on an offscreen 800x480 window, timed from just
before it is spawned to its first frame finished (``glFinish``) and handed to
the window, the same moment for both: the app reports the wall-clock time of
that frame, the empty app prints it from the same event (``on_flip``); the
parent knows when it spawned them:

  empty Kivy app        the baseline: Kivy's own import and window, nothing on it;
  run --camera none     the app on its set-up screen, cards tapped in;
  run --camera virtual  the same with the rendered virtual table as the camera.

Each data file is fresh. Medians of ``--runs``, the cases interleaved so a
busy moment of the machine falls on all of them alike.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "hardware", "incan_companion", "storage", "ui", "vision", "web")

EMPTY = """
import os, sys, time
sys.path.insert(0, {root!r})
from ui.kivy_setup import configure
configure(quiet=True)
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFinish
from kivy.uix.widget import Widget

class Empty(App):
    def build(self):
        def flipped(*args):
            glFinish()
            print(f"drawn at {{time.time():.6f}}", file=sys.stderr, flush=True)
            Window.funbind("on_flip", flipped)
            Clock.schedule_once(lambda dt: self.stop(), 0)
        Window.fbind("on_flip", flipped)
        return Widget()

Empty().run()
"""


def run_once(case: str, home: Path) -> float:
    env = {**os.environ, "HOME": str(home), "KIVY_HOME": str(home / "kivy")}
    data = home / f"games-{time.monotonic_ns()}.sqlite"
    if case == "empty Kivy app":
        script = home / "empty_app.py"  # Kivy's App looks for a .kv beside its class's file
        script.write_text(EMPTY.format(root=str(ROOT)))
        args = [sys.executable, str(script)]
    else:
        camera = case.rsplit(" ", 1)[1]
        args = [str(Path(sys.executable).with_name("incan-companion")), "run", "--camera", camera,
                "--buttons", "keyboard", "--data", str(data), "--quit-after", "1.5"]
        env["INCAN_REPORT_WALL"] = "1"
    t0 = time.time()
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120, check=False)
    found = re.search(r"drawn at (\d+\.\d+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{case}: no first frame reported\n{done.stderr[-1500:]}")
    return float(found.group(1)) - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    cases = ("empty Kivy app", "run --camera none", "run --camera virtual")
    times: dict[str, list[float]] = {case: [] for case in cases}
    # Bytecode for every module of ours that changed, as the set-up script
    # writes it: where PYTHONDONTWRITEBYTECODE is set, a changed module would
    # otherwise be compiled again on every run, and timed with it.
    subprocess.run([sys.executable, "-m", "compileall", "-q", *PACKAGES], cwd=ROOT,
                   check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        for case in cases:  # a first run of each warms the disk cache; not counted
            run_once(case, home)
        for _ in range(args.runs):
            for case in cases:
                times[case].append(run_once(case, home))
    base = statistics.median(times[cases[0]])
    print(f"start-up to the first screen drawn, median of {args.runs} (800x480 offscreen)")
    for case in cases:
        median = statistics.median(times[case])
        print(f"  {case:<22} {median:5.2f} s  (min {min(times[case]):.2f})  "
              f"{median / base:4.2f}x empty, +{median - base:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
