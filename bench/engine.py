"""Engine figures: replay of a full game, many random games, CLI start-up.

    python bench/engine.py [--games 10000] [--cli-only]

Prints one line per figure. The baseline for the CLI start-up is a bare
`python -c pass` in the same run, so the ratio is what our code adds. Each
command's wall time, its CPU time (user + system, which a loaded machine
stretches far less than the wall clock) and the modules it imports
(``-X importtime``: a count no load changes) are printed beside each other.

Beside them, the floor: ``argparse``, ``dataclasses`` and ``json``
imported with no code of ours, which every command that loads the core
needs.

The commands are timed twice. First as installed on the device: a
throwaway venv of the same interpreter that finds this checkout and the
dependencies by plain path entries, as a wheel's files are found. Then in
this checkout's own venv, whose editable install runs setuptools' import
finder at every start of Python (``__editable___*_finder``, with pathlib,
re and urllib.parse): a bare Python there already carries what a command
would otherwise pay for those modules, so its ratios look smaller than a
device's.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import venv
from pathlib import Path

from companion.cards import ALL_IDS
from companion.engine import Phase, RuleError
from companion.events import Correct, to_line
from companion.session import Session
from companion.simulate import random_events
from incan_companion.paths import SETTLED_S


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


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def time_commands(
    commands: list[tuple[list[str], dict[str, str]]], repeat: int = 20
) -> list[tuple[float, float]]:
    """The median wall time and CPU time of each command (its arguments and
    environment), run in turn ``repeat`` times, so that a busy moment of the
    machine falls on all of them alike."""
    walls: list[list[float]] = [[] for _ in commands]
    cpus: list[list[float]] = [[] for _ in commands]
    for _ in range(repeat):
        for (args, env), wall, cpu in zip(commands, walls, cpus, strict=True):
            c = _children_cpu()
            t = time.perf_counter()
            subprocess.run(args, check=True, capture_output=True, env=env)
            wall.append(time.perf_counter() - t)
            cpu.append(_children_cpu() - c)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(walls, cpus, strict=True)]


def modules_imported(python: Path, args: list[str], env: dict[str, str]) -> int:
    """How many modules a command imports, by ``python -X importtime``."""
    done = subprocess.run([str(python), "-X", "importtime", *args],
                          check=True, capture_output=True, text=True, env=env)  # fmt: skip
    return sum(1 for line in done.stderr.splitlines()
               if line.startswith("import time:") and "[us]" not in line)  # fmt: skip


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
    parser.add_argument("--cli-only", action="store_true", help="only the command line's figures")
    opts = parser.parse_args()
    if not opts.cli_only:
        engine_figures(opts.games)
    cli_figures()


def engine_figures(games: int) -> None:

    lines = full_game_log(7)
    per_game = time_replay(lines)
    print(f"replay of a full 5-round game ({len(lines)} events): {per_game * 1000:.2f} ms")

    t = time.perf_counter()
    events = 0
    for seed in range(games):
        played = list(random_events(random.Random(seed), mistakes=0.02))
        events += len(played)
        _, last = played[-1]
        Session.replay(last.log)
    took = time.perf_counter() - t
    print(
        f"{games} random games played and replayed ({events} events): {took:.1f} s"
        f" ({took / games * 1000:.2f} ms a game)"
    )

    fullest = fullest_round(range(300))
    picker, tried = time_picker(fullest)
    print(
        f"correction picker on the fullest path ({len(fullest.state.path)} cards), per card"
        f" opened: {picker * 1000:.2f} ms (trying each of the 35 cards: {tried * 1000:.2f} ms,"
        f" {picker / tried:.2f}x)"
    )


def installed_python(folder: Path, root: Path) -> Path:
    """A Python that imports ``root``'s packages and this venv's dependencies as
    a wheel's install does: by plain entries of ``sys.path``, with no
    editable-install finder run at start (a ``.pth`` line naming a folder
    only adds it to the path)."""
    venv.EnvBuilder(with_pip=False, symlinks=True,
                    system_site_packages=_sees_system_packages()).create(folder)  # fmt: skip
    site = Path(sysconfig.get_path("purelib", vars={"base": str(folder)}))
    ours = dict.fromkeys([str(root), sysconfig.get_path("purelib"), sysconfig.get_path("platlib")])
    (site / "incan-checkout.pth").write_text("".join(f"{entry}\n" for entry in ours))
    return folder / "bin" / "python"


def _sees_system_packages() -> bool:
    """Whether this venv sees the system's packages (the Pi's venv does, for
    picamera2 and lgpio): the throwaway venv sees what this one sees."""
    config = Path(sys.prefix) / "pyvenv.cfg"
    if not config.exists():
        return False
    for line in config.read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "include-system-site-packages":
            return value.strip().lower() == "true"
    return False


def cli_figures() -> None:

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
        log.write_text("\n".join(full_game_log(7)) + "\n")
        # A device has a config file (the language in it), a desktop often none.
        config = Path(folder) / "config.toml"
        config.write_text('[game]\nlanguage = "en"\nseats = 5\n')
        command = str(Path(sys.executable).with_name("incan-companion"))
        own = {**os.environ, "XDG_CACHE_HOME": str(Path(folder) / "cache")}
        none = {**own, "INCAN_CONFIG": str(Path(folder) / "none.toml")}
        configured = {**own, "INCAN_CONFIG": str(config)}
        # As on a device, whose config file was written long before: a file
        # just written is read in full until it has settled (see
        # paths.configured_language), and the first command remembers it.
        time.sleep(SETTLED_S)
        subprocess.run([sys.executable, command, "replay", str(log)], env=configured,
                       check=True, capture_output=True)
        runs = {
            "bare python": (["-c", "pass"], none),
            # The standard library the core's value types and the command line
            # rest on, with no code of ours: the floor under every command but
            # --help.
            "stdlib alone": (["-c", "import argparse, dataclasses, json"], none),
            "replay --json": ([command, "replay", str(log), "--json"], none),
            "replay (words)": ([command, "replay", str(log)], none),
            "  with a config": ([command, "replay", str(log)], configured),
            "--help": ([command, "--help"], none),
        }
        pythons = {
            "as installed (no editable-install finder)":
                installed_python(Path(folder) / "installed", root),
            "in this checkout's venv (its editable-install finder at every start)":
                Path(sys.executable),
        }  # fmt: skip
        for title, python in pythons.items():
            timed = time_commands([([str(python), *args], env) for args, env in runs.values()])
            counts = [modules_imported(python, args, env) for args, env in runs.values()]
            print(f"CLI start-up {title}, median of 20,"
                  " against a bare `python -c pass` in the same run:")  # fmt: skip
            print_commands(list(runs), timed, counts)


def print_commands(names: list[str], timed: list[tuple[float, float]], counts: list[int]) -> None:
    """One line per command: its wall and CPU times, each against the first's."""
    (bare_wall, bare_cpu), *_ = timed
    for name, (wall, cpu), count in zip(names, timed, counts, strict=True):
        print(f"  {name:<15} {wall * 1000:4.0f} ms {wall / bare_wall:.2f}x wall,"
              f" {cpu * 1000:4.0f} ms {cpu / bare_cpu:.2f}x CPU, {count} modules")  # fmt: skip


if __name__ == "__main__":
    main()
