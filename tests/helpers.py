"""Small builders for readable rules tests."""

from __future__ import annotations

import functools
import importlib.util
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from companion.events import Correct, Draw, Event, Reveal, Start, Undo
from companion.session import Session

NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")


def play(seats: int, rules: str, *steps: str | list[int]) -> Session:
    """A session: a str step draws that card, a list step reveals those seats as camp."""
    session = Session.start(Start(NAMES[:seats], rules))
    for step in steps:
        event: Event = Reveal(tuple(step)) if isinstance(step, list) else Draw(step)
        session.apply(event)
    return session


#: Three seats under Diamant's rules, for :func:`quick_rounds`.
QUICK_START = Start(("Ana", "Bo", "Cy"), "diamant")


def quick_rounds(rounds: int) -> list[Event]:
    """``rounds`` rounds of :data:`QUICK_START` that end as everybody leaves on
    the first card (3 gems each): a stored game a resumed demo finishes in
    fewer rounds (a whole game of the demo costs the suite about 8 s of CPU)."""
    return [Draw("T11A"), Reveal((0, 1, 2))] * rounds


def lefts(session: Session) -> list[int]:
    return [p.left for p in session.state.path]


def load_bench(name: str) -> ModuleType:
    """A script of bench/ as a module (once per process), for tests that use its harness."""
    key = f"bench_{name}"
    if key not in sys.modules:
        path = Path(__file__).resolve().parent.parent / "bench" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(key, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


@functools.cache
def japanese_phrases() -> Any:
    """BudouX's own Japanese parser, the tests' reference for where a line may
    break: loaded once per process (its model is read from JSON at every load,
    1.5 ms, and the checks ask for it once per text)."""
    import budoux

    return budoux.load_default_japanese_parser()


def sqlite_connections(monkeypatch: Any) -> list[sqlite3.Connection]:
    """Every SQLite connection opened from now on (``monkeypatch``: pytest's fixture).

    For settings SQLite keeps per connection (``PRAGMA synchronous``): a
    connection of the test's own would show its own default, not what the
    store set on the connection it writes through.
    """
    opened: list[sqlite3.Connection] = []
    real = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        db: sqlite3.Connection = real(*args, **kwargs)
        opened.append(db)
        return db

    monkeypatch.setattr(sqlite3, "connect", connect)
    return opened


# The workload in pace() takes this long on the machine the time-outs were
# set on (2 cores, x86-64): the best of five runs.
_REFERENCE_S = 0.06
# A measured pace is kept this long, then measured again: a load that comes
# or goes mid-run (the other half of the suite, another job on the machine)
# moves the next time-out with it. A measurement costs about 0.3 s of CPU
# here, so once a minute is well under one per cent of a run.
_PACE_KEPT_S = 60.0
_pace: tuple[float, float] | None = None  # (pace, when it was measured)


def _measure_pace() -> float:
    import time

    steps: list[str | list[int]] = ["T11A", [], "T7A", [0], "SNAKE1", [], "T9", [1], "T5A", []]
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(300):
            play(4, "incan-gold", *steps)
        best = min(best, time.perf_counter() - t0)
    return max(1.0, best / _REFERENCE_S)


def pace(*, fresh: bool = False) -> float:
    """How many times slower this machine runs Python than the one the time-outs
    were set on (1.0 at the least), measured again once it is a minute old
    (or at once with ``fresh``).

    Why: a Pi 4, or an emulator, is many times slower; a fixed time-out that
    is generous here kills a healthy run there. And a load can change within
    a run, so one figure for the whole session is not enough.
    """
    global _pace
    import time

    now = time.monotonic()
    if fresh or _pace is None or now - _pace[1] > _PACE_KEPT_S:
        _pace = (_measure_pace(), time.monotonic())
    return _pace[0]


def kivy_env(home: Path) -> dict[str, str]:
    """The environment of a child process that opens its own offscreen Kivy window."""
    import os

    return {
        **os.environ,
        "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
        "KIVY_HOME": str(home),
    }


def paced(seconds: float) -> float:
    """A time-out of ``seconds`` here, stretched to this machine's pace now."""
    return seconds * pace()


# A child that used less CPU than this in a whole (paced) time-out is waiting
# on nothing that will come: stuck, not slow.
_STUCK_CPU_S = 0.05


def tree_cpu_s(pid: int) -> float:
    """CPU seconds used so far by process ``pid`` and every process under it
    (the children it has reaped included), from Linux's /proc."""
    import os

    ticks = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text(encoding="utf-8", errors="replace")
        except OSError:  # gone meanwhile
            continue
        # After "pid (comm) ": state, ppid, ... utime, stime, cutime, cstime (fields 14-17).
        fields = stat[stat.rindex(")") + 2 :].split()
        parent[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = sum(int(f) for f in fields[11:15]) / ticks
    tree, grown = {pid}, True
    while grown:
        more = {child for child, up in parent.items() if up in tree} - tree
        tree |= more
        grown = bool(more)
    return sum(used.get(p, 0.0) for p in tree)


def communicate(proc: subprocess.Popen[Any], seconds: float, input: Any = None) -> tuple[Any, Any]:
    """``proc.communicate()`` with a time-out of ``seconds`` here that follows
    the machine's pace as it changes.

    The wait is ``paced(seconds)``, the pace measured again when it runs out.
    A child still working then (its processes used CPU since the last look)
    is given another such wait: a load that came mid-run, or a slow board,
    stretches the time-out instead of killing a healthy run. A child that used
    no CPU for a whole wait is stuck, and one that used more CPU than
    ``seconds`` at this pace on every core is running away: either is killed
    and ``subprocess.TimeoutExpired`` raised. Nothing here compares wall time
    with a figure.
    """
    import os

    cores = os.cpu_count() or 1
    before = tree_cpu_s(proc.pid)
    used = 0.0
    while True:
        wait = paced(seconds)
        try:
            return proc.communicate(input, timeout=wait)
        except subprocess.TimeoutExpired:
            input = None  # sent already; communicate() goes on where it stopped
            now = tree_cpu_s(proc.pid)
            step, used, before = now - before, used + (now - before), now
            why = ("used no CPU" if step < _STUCK_CPU_S
                   else "used its whole CPU budget" if used > seconds * pace() * cores
                   else "")  # fmt: skip
            if why:
                proc.kill()
                proc.communicate()
                raise subprocess.TimeoutExpired(
                    proc.args, wait, output=f"{why} in the last {wait:.0f} s".encode()
                ) from None


def run(args: Any, *, seconds: float = 60.0, **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run(args, capture_output=True, **kwargs)`` whose time-out is
    ``seconds`` here, kept by :func:`communicate` (it follows the pace)."""
    check = kwargs.pop("check", False)
    input = kwargs.pop("input", None)
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    with subprocess.Popen(args, **kwargs) as proc:
        out, err = communicate(proc, seconds, input)
    done = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    if check:
        done.check_returncode()
    return done


__all__ = [
    "NAMES",
    "Correct",
    "Draw",
    "Reveal",
    "Start",
    "Undo",
    "communicate",
    "kivy_env",
    "lefts",
    "load_bench",
    "pace",
    "paced",
    "play",
    "run",
    "sqlite_connections",
    "tree_cpu_s",
]
