"""A data file of thousands of games: start-up, the history screen and ``stats``.

    python bench/history.py [--games 0,1000,5000] [--runs 5] [--dir DIR]

Builds data files of N random whole games (3 to 8 seats from a group of 14
players, every rule set, with misreads corrected and steps undone) through the
real :class:`~storage.store.Store`, one commit per event as in the
app. They are built on tmpfs when there is one (a sync there costs nothing;
the bench measures reading, not building), then kept under ``DIR`` (default:
a folder in the temp dir) and reused by later runs.

Then, for each file, against the empty file's figures in the same run:

- **start-up**: ``incan-companion run --quit-after`` as a process, from its
  spawn to the line it prints when its first screen is drawn (the median of
  ``--runs``). The first start after a file is built (or an old file is
  migrated) makes every game's summary once; it is shown apart.
- **history**: the history screen opened from the set-up screen in a real
  offscreen window: from the tap until it has drawn its first page.
- **stats**: ``incan-companion stats DATA_FILE`` as a process, whole.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# First, before bench/ itself: bench/ui.py is not the ui package.
sys.path.insert(0, str(ROOT))
sys.path.append(str(Path(__file__).resolve().parent))  # after the packages, for its neighbours

from datafile_faults import environment  # noqa: E402  (a child's environment, as there)

CLI = [sys.executable, "-m", "incan_companion"]
GROUP = ("Agnieszka", "Bartłomiej", "Carmen", "Dee", "Eli", "Fumiko", "Gus", "Hal",
         "Íñigo", "Jo", "Kenji", "Lena", "Mateo", "Nadia")  # fmt: skip
# Bump when the generated games change: a kept file of another version is built again.
VERSION = 1


def build(path: Path, games: int, seed: int = 13) -> None:
    """``games`` random finished games stored through the real Store."""
    from companion.events import Start
    from companion.simulate import random_events
    from storage import Store

    rng = random.Random(seed)
    with Store(path) as store:
        for _ in range(games):
            names = tuple(rng.sample(GROUP, rng.randint(3, 8)))
            game = -1
            for event, _session in random_events(rng, seats=len(names), mistakes=0.03):
                if isinstance(event, Start):
                    start = Start(names, event.rules)
                    game = store.new_game(start)
                    store.link_players(game, names)
                else:
                    store.append(game, event)


def data_file(folder: Path, games: int) -> Path:
    """The kept file of ``games`` games, built first if missing."""
    path = folder / f"games-{games}-v{VERSION}.sqlite"
    if path.exists():
        return path
    shm = Path("/dev/shm")
    where = shm if shm.is_dir() and os.access(shm, os.W_OK) else folder
    with tempfile.TemporaryDirectory(dir=where, prefix="incan-build-") as tmp:
        built = Path(tmp) / path.name
        t0 = time.perf_counter()
        build(built, games)
        print(f"  built {games} games in {time.perf_counter() - t0:.0f} s on {where}",
              flush=True)  # fmt: skip
        shutil.copyfile(built, path.with_suffix(".part"))
    path.with_suffix(".part").rename(path)
    return path


def start_up(data: Path, env: dict[str, str]) -> float:
    """Seconds from spawning ``run`` to its report of the first screen drawn.

    ``--quit-after`` counts from before the window is built, so it is long
    here and the app is ended (SIGTERM) once it has reported."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [*CLI, "run", "--buttons", "keyboard", "--camera", "none", "--quit-after", "120",
         "--data", str(data)],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stderr is not None
    seen = None
    for line in proc.stderr:
        if seen is None and "first screen " in line:
            seen = time.perf_counter() - t0
            proc.terminate()
    proc.wait(timeout=120)
    if seen is None:
        raise RuntimeError(f"run on {data} drew no first screen (exit {proc.returncode})")
    return seen


def open_time(data: Path) -> float:
    """Seconds for the data file's part of a start-up, in this process: open it
    for writing (lock, integrity check) and find the unfinished game."""
    from companion.games import Games
    from storage import open_or_set_aside

    t0 = time.perf_counter()
    store, _ = open_or_set_aside(data)
    Games(store).unfinished()
    took = time.perf_counter() - t0
    store.close()
    return took


def stats_time(data: Path, env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    done = subprocess.run([*CLI, "stats", str(data)], env=env, cwd=ROOT, capture_output=True,
                          text=True, check=False, timeout=600)  # fmt: skip
    took = time.perf_counter() - t0
    if done.returncode != 0:
        raise RuntimeError(f"stats {data}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return took


def history_time(data: Path, env: dict[str, str]) -> float:
    """Seconds from the tap on History to its first page drawn (in a child process)."""
    done = subprocess.run([sys.executable, __file__, "--history-child", str(data)], env=env,
                          cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=600)  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"history on {data}: {done.stderr.strip()[-500:]}")
    return float(done.stdout.strip().splitlines()[-1])


def history_child(data: Path) -> int:
    """In its own process (one Kivy window each): open the history screen and time it."""
    from ui.kivy_setup import configure

    configure(quiet=True, fast=True)
    from kivy.base import EventLoop

    from incan_companion.compose import build as build_device
    from incan_companion.config import Config
    from ui.app import CompanionApp

    device = build_device(Config(data_file=data), seat_input="keyboard", camera="none",
                          data_file=data)  # fmt: skip
    app = CompanionApp(device.games, device.controls())
    app._run_prepare()  # Kivy's: the window and screens, without running the loop
    for _ in range(5):
        EventLoop.idle()
    times = []
    for _ in range(5):
        t0 = time.perf_counter()
        app.show_history()
        EventLoop.idle()
        EventLoop.window.dispatch("on_draw")
        EventLoop.window.dispatch("on_flip")
        times.append(time.perf_counter() - t0)
        assert app.sm is not None and app.sm.current == "history"
        app.close_history()
        for _ in range(3):
            EventLoop.idle()
    app.stop()
    print(f"{statistics.median(times):.6f}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="0,1000,5000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "incan-history")
    parser.add_argument("--history-child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--skip", default="", help="parts to leave out: start,history,stats")
    args = parser.parse_args(argv)
    if args.history_child is not None:
        return history_child(args.history_child)
    skip = set(filter(None, args.skip.split(",")))
    counts = [int(n) for n in args.games.split(",")]
    args.dir.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory(prefix="incan-history-") as tmp:
        home = Path(tmp)
        env = environment(home)
        files = []
        for n in counts:
            kept = data_file(args.dir, n)
            # A fresh copy: the first start after building makes the summaries.
            data = home / f"games-{n}.sqlite"
            shutil.copyfile(kept, data)
            files.append(data)
            rows.append({"games": n, "mb": data.stat().st_size / 1e6})
        if "start" not in skip:
            for row, data in zip(rows, files, strict=True):
                row["first"] = start_up(data, env)
            # Round after round over every file, so that a busy moment of the
            # machine (shared) weighs on every file alike.
            starts: list[list[float]] = [[] for _ in files]
            for _ in range(args.runs):
                for times, data in zip(starts, files, strict=True):
                    times.append(start_up(data, env))
            for row, times, data in zip(rows, starts, files, strict=True):
                row["start"] = statistics.median(times)
                row["start_min"] = min(times)
                row["open"] = statistics.median(open_time(data) for _ in range(args.runs))
                print(f"  start-up, {int(row['games'])} games: "
                      f"{', '.join(f'{t:.3f}' for t in times)} s", flush=True)  # fmt: skip
        for row, data in zip(rows, files, strict=True):
            if "history" not in skip:
                row["history"] = history_time(data, env)
            if "stats" not in skip:
                row["stats"] = statistics.median(stats_time(data, env) for _ in range(3))
            print(f"  {int(row['games'])} games done", flush=True)
    base = rows[0]
    print(f"data files of {', '.join(str(int(r['games'])) for r in rows)} generated games "
          f"(kept in {args.dir}); medians")  # fmt: skip
    for r in rows:
        parts = [f"{int(r['games']):5d} games, {r['mb']:5.1f} MB:"]
        if "start" in r:
            median, best = r["start"] / base["start"], r["start_min"] / base["start_min"]
            parts.append(f"start-up median {r['start']:.3f} s ({median:.3f}x), "
                         f"best {r['start_min']:.3f} s ({best:.3f}x), "
                         f"of which the data file {r['open'] * 1000:.0f} ms; "
                         f"first start after building {r['first']:.2f} s;")  # fmt: skip
        if "history" in r:
            parts.append(f"history opens in {r['history'] * 1000:.0f} ms;")
        if "stats" in r:
            parts.append(f"stats {r['stats']:.2f} s ({r['stats'] / base['stats']:.2f}x)")
        print(" ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
