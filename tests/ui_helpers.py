"""Driving the offscreen Kivy window as a finger would, for the UI tests.

Import it after ``ui.kivy_setup.configure()``: Kivy reads its options when
it is first imported.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from kivy.base import EventLoop
from kivy.tests.common import UnitTestTouch


def frames(n: int = 2) -> None:
    """Let the window draw ``n`` frames (scheduled refreshes run)."""
    for _ in range(n):
        EventLoop.idle()


def frames_until(done: Callable[[], bool], seconds: float = 5.0) -> None:
    """Let the window draw frames until ``done()`` holds: for what the app does on
    a timer of its own (a field selects its text 0.05 s after the tap), instead of
    sleeping a figure. Fails if it has not happened in ``seconds`` at this
    machine's pace."""
    from helpers import paced

    deadline = time.monotonic() + paced(seconds)
    while not done():
        assert time.monotonic() < deadline, "it never happened"
        EventLoop.idle()


@contextmanager
def widgets_left_for_the_collector() -> Iterator[set[str]]:
    """The names of the widget classes that what runs inside leaves for the
    cycle collector (dropped in reference cycles), filled on leaving: each is
    freed only by a full pass, a pause of the UI thread."""
    from kivy.uix.widget import Widget

    left: set[str] = set()
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield left
        gc.collect()
        left.update(type(o).__name__ for o in gc.garbage if Widget in type(o).__mro__)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


def tap(widget: Any) -> None:
    """A real touch at the widget's centre, through the window."""
    x, y = widget.to_window(*widget.center)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames(2)


def find_button(root: Any, text: str) -> Any:
    """The button under ``root`` that says ``text``."""
    for w in root.walk():
        if getattr(w, "text", None) == text and hasattr(w, "trigger_action"):
            return w
    raise AssertionError(f"no button {text!r}")
