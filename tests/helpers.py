"""Small builders for readable rules tests."""

from __future__ import annotations

import importlib.util
import sqlite3
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
_pace: float | None = None


def pace() -> float:
    """How many times slower this machine runs Python than the one the time-outs
    were set on (1.0 at the least), measured once per test session.

    Why: a Pi 4, or an emulator, is many times slower; a fixed time-out that
    is generous here kills a healthy run there.
    """
    global _pace
    if _pace is None:
        import time

        steps: list[str | list[int]] = ["T11A", [], "T7A", [0], "SNAKE1", [], "T9", [1], "T5A", []]
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(300):
                play(4, "incan-gold", *steps)
            best = min(best, time.perf_counter() - t0)
        _pace = max(1.0, best / _REFERENCE_S)
    return _pace


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
    """A time-out of ``seconds`` here, stretched to this machine's pace."""
    return seconds * pace()


__all__ = [
    "NAMES",
    "Correct",
    "Draw",
    "Reveal",
    "Start",
    "Undo",
    "kivy_env",
    "lefts",
    "load_bench",
    "pace",
    "paced",
    "play",
    "sqlite_connections",
]
