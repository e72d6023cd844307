"""The demo's simulated table, stepped once a frame, and the window's screenshot."""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from kivy.core.window import Window

if TYPE_CHECKING:
    from ui.app import CompanionApp

_log = logging.getLogger(__name__)


def save_screenshot(path: Path) -> Path:
    """The window as it is now (popups included) as a PNG at ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="incan-shot-"))
    made = Window.screenshot(name=str(tmp / "shot.png"))
    if made:
        shutil.move(made, path)
    shutil.rmtree(tmp, ignore_errors=True)
    return path


class DemoController:
    """``autoplay`` is called once a frame and returns True when it is finished;
    the last screen is then drawn, saved to the app's ``screenshot_path`` if it
    has one, and the app stops."""

    def __init__(self, app: CompanionApp, autoplay: Callable[[CompanionApp], bool]) -> None:
        self.app = app
        self.autoplay = autoplay
        self._done_frames = -1

    def step(self, dt: float) -> bool | None:
        try:
            done = self.autoplay(self.app)
        except Exception:
            _log.exception("autoplay")
            done = True
        if not done:
            return None
        # Let the last screen draw, then take the screenshot and stop.
        self._done_frames += 1
        if self._done_frames < 2:
            return None
        if self.app.screenshot_path is not None:
            save_screenshot(self.app.screenshot_path)
        self.app.stop()
        return False
