"""Small builders for readable rules tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

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


__all__ = ["NAMES", "Correct", "Draw", "Reveal", "Start", "Undo", "lefts", "load_bench", "play"]
