"""Kivy's options, set before Kivy is first imported (it reads them at import).

Kept apart from ``ui.app`` so the command line can set them and only then
import Kivy: ``KIVY_NO_ARGS`` keeps Kivy from eating our options, and the
window size must be known before the window opens.
"""

from __future__ import annotations

import logging
import os

WIDTH, HEIGHT = 800, 480  # the official Raspberry Pi touchscreen


def configure(*, fullscreen: bool = False, quiet: bool = False, fast: bool = False) -> None:
    """Set Kivy up for the touchscreen; ``fast`` lifts the frame cap (the demo)."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    # SDL2 audio: the sound board tells a working sound from a missing device
    # by its length, which only this provider reports reliably.
    os.environ.setdefault("KIVY_AUDIO", "sdl2")
    # Kivy's default log mode swaps sys.stderr for its logger: our one-line
    # errors and the demo's summary would vanish when the console log is off.
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    # Image providers that need no PIL: Kivy loads every one it is offered,
    # and PIL pulls in numpy (0.1 s of start-up with the camera off). SDL2
    # reads and writes the PNGs we have (the screenshot included).
    os.environ.setdefault("KIVY_IMAGE", "tex,dds,sdl2")
    # A text field on Linux loads the clipboard at once, and Kivy probes
    # xclip, xsel, dbus and GTK for it; the touchscreen has no clipboard use.
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2,dummy")
    if quiet:
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
        os.environ.setdefault("KIVY_NO_FILELOG", "1")
    import kivy
    from kivy.config import Config

    # With any clipboard, Kivy on Linux also probes xclip and xsel for a "cut
    # buffer" (a middle click's paste), starting a process for each: 7 ms of
    # the first screen here, more on a Pi. It has no environment key for it;
    # an empty list of options makes it skip both (the cut buffer is then off).
    kivy.kivy_options.setdefault("cutbuffer", ())

    Config.set("graphics", "width", str(WIDTH))
    Config.set("graphics", "height", str(HEIGHT))
    Config.set("graphics", "resizable", "0")
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "maxfps", "0" if fast else "30")
    Config.set("kivy", "exit_on_escape", "0")
    # A mouse click is one touch; right clicks must not leave red multitouch dots.
    Config.set("input", "mouse", "mouse,disable_multitouch")
    from kivy.logger import Logger

    Logger.addFilter(_NO_CUT_BUFFER_ALARM)  # once, however often this runs


class NoWindow(RuntimeError):
    """Kivy found no display to open its window on."""


def require_window() -> None:
    """Raise :class:`NoWindow` when Kivy, imported, opened no window.

    Kivy itself would only log it and leave with ``sys.exit(1)`` once the app
    runs: a kiosk's journal (and so ``incan-companion fault``) then ends on
    Kivy's log line, and a quiet command such as the demo says nothing at all.
    """
    from kivy.core.window import Window

    if Window is not None:
        return
    chosen = ", ".join(f"{key}={os.environ[key]}" for key in ("KIVY_WINDOW", "SDL_VIDEODRIVER")
                       if key in os.environ)  # fmt: skip
    logged = not (os.environ.get("KIVY_NO_CONSOLELOG") and os.environ.get("KIVY_NO_FILELOG"))
    raise NoWindow(
        f"no window could be opened{f' ({chosen})' if chosen else ''}: is the screen"
        " connected, and not held by another program (a desktop session, rpicam-hello)?"
        + (" Kivy's log says what it tried" if logged else "")
    )


class _NoCutBufferAlarm(logging.Filter):
    """Kivy probes X11's xclip/xsel for a text field's middle-click buffer and
    logs a CRITICAL with tracebacks when neither is there, as on the kiosk
    (no X at all) or a desktop without them. Nothing of ours uses it."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Cutbuffer: Unable to find")


_NO_CUT_BUFFER_ALARM = _NoCutBufferAlarm()
