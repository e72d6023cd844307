"""Engine figures: replay of a full game, many random games, CLI start-up.

    python bench/engine.py [--games 10000]

Prints one line per figure. The baseline for the CLI start-up is a bare
`python -c pass` in the same run, so the ratio is what our code adds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.cards import ALL_IDS
from companion.engine import Phase, RuleError
from companion.events import Correct, to_line
from companion.session import Session
from companion.simulate import random_events


def full_game_log(seed: int) -> list[str]:
    lines: list[str] = []
    for event, _session in random_events(random.Random(seed), seats=5, rules="incan-gold"):
        lines.append(to_line(event))
    return lines


def time_replay(lines: list[str], repeat: int = 200) -> float:
    from companion.events import from_line

    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        Session.replay(from_line(line) for line in lines)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def time_commands(commands: list[list[str]], repeat: int = 20) -> list[float]:
    """The median wall time of each command, run in turn ``repeat`` times, so
    that a busy moment of the machine falls on all of them alike."""
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for args, took in zip(commands, times, strict=True):
            t = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True)
            took.append(time.perf_counter() - t)
    return [statistics.median(took) for took in times]


def fullest_round(seeds: range) -> Session:
    """The session, among random games, whose round on show has the longest path."""
    best: Session | None = None
    for seed in seeds:
        for _event, session in random_events(random.Random(seed), seats=3):
            path = session.state.path
            if session.state.phase is Phase.CHOOSE and (
                best is None or len(path) > len(best.state.path)
            ):
                best = Session.replay(session.log)
    assert best is not None
    return best


def time_picker(session: Session, repeat: int = 30) -> tuple[float, float]:
    """The median time to list every path card's corrections, by the picker and by
    trying each of the 35 cards as a correction (what the picker did before)."""
    path = range(len(session.state.path))

    def one_by_one(pos: int) -> tuple[str, ...]:
        found = []
        for cid in ALL_IDS:
            try:
                session.preview(Correct(pos, cid))
            except RuleError:
                continue
            found.append(cid)
        return tuple(found)

    picker, tried = [], []
    for _ in range(repeat):
        t = time.perf_counter()
        for pos in path:
            session.correction_options(pos)
        picker.append((time.perf_counter() - t) / len(path))
        t = time.perf_counter()
        for pos in path:
            one_by_one(pos)
        tried.append((time.perf_counter() - t) / len(path))
    return statistics.median(picker), statistics.median(tried)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=10_000)
    opts = parser.parse_args()

    lines = full_game_log(7)
    per_game = time_replay(lines)
    print(f"replay of a full 5-round game ({len(lines)} events): {per_game * 1000:.2f} ms")

    t = time.perf_counter()
    events = 0
    for seed in range(opts.games):
        played = list(random_events(random.Random(seed), mistakes=0.02))
        events += len(played)
        _, last = played[-1]
        Session.replay(last.log)
    took = time.perf_counter() - t
    print(
        f"{opts.games} random games played and replayed ({events} events): {took:.1f} s"
        f" ({took / opts.games * 1000:.2f} ms a game)"
    )

    fullest = fullest_round(range(300))
    picker, tried = time_picker(fullest)
    print(
        f"correction picker on the fullest path ({len(fullest.state.path)} cards), per card"
        f" opened: {picker * 1000:.2f} ms (trying each of the 35 cards: {tried * 1000:.2f} ms,"
        f" {picker / tried:.2f}x)"
    )

    # Bytecode for every module of ours that changed, as the set-up script
    # writes it: where PYTHONDONTWRITEBYTECODE is set, a changed module would
    # otherwise be compiled again on every run, and timed with it (the
    # command line's own module: 2 to 3 ms to import instead of 0.5).
    root = Path(__file__).resolve().parent.parent
    subprocess.run([sys.executable, "-m", "compileall", "-q", "companion", "hardware",
                    "incan_companion", "storage", "ui", "vision", "web"],
                   cwd=root, check=True, capture_output=True)
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "game.jsonl"
        log.write_text("\n".join(lines) + "\n")
        command = str(Path(sys.executable).with_name("incan-companion"))
        bare, replay, text, usage = time_commands([
            [sys.executable, "-c", "pass"],
            [command, "replay", str(log), "--json"],
            [command, "replay", str(log)],
            [command, "--help"],
        ])
    print(f"CLI start-up, median of 20 (bare `python -c pass`: {bare * 1000:.0f} ms):")
    for name, took in (("replay --json", replay), ("replay (words)", text), ("--help", usage)):
        print(f"  {name:<15} {took * 1000:4.0f} ms  {took / bare:.2f}x bare python")


if __name__ == "__main__":
    main()
