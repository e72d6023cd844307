"""Driving the offscreen Kivy window as a finger would, for the UI tests.

Import it after ``ui.kivy_setup.configure()``: Kivy reads its options when
it is first imported.
"""

from __future__ import annotations

from typing import Any

from kivy.base import EventLoop
from kivy.tests.common import UnitTestTouch


def frames(n: int = 2) -> None:
    """Let the window draw ``n`` frames (scheduled refreshes run)."""
    for _ in range(n):
        EventLoop.idle()


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
