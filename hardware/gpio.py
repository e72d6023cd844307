"""Which gpiozero pin factory to use on this machine, and where pins sit on the header.

On the Pi the factory is lgpio, chosen *explicitly* (Raspberry Pi OS Bookworm
needs it; letting gpiozero fall back to another factory hides a missing
library). A desktop has no GPIO: :func:`pin_factory_or_none` then returns None
and the app uses the keyboard adapter instead. Detection never raises and never
prints a traceback.

gpiozero is imported only inside the functions, so importing this module (as
the command line does) stays cheap.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

__all__ = [
    "HEADER_PIN",
    "NoGPIO",
    "NotAPi",
    "header_pin",
    "is_raspberry_pi",
    "pi_pin_factory",
    "pin_factory_or_none",
]

# BCM GPIO number -> physical pin of the 40-pin header (all Pi models since the B+).
HEADER_PIN: dict[int, int] = {
    0: 27, 1: 28, 2: 3, 3: 5, 4: 7, 5: 29, 6: 31, 7: 26, 8: 24, 9: 21,
    10: 19, 11: 23, 12: 32, 13: 33, 14: 8, 15: 10, 16: 36, 17: 11, 18: 12, 19: 35,
    20: 38, 21: 40, 22: 15, 23: 16, 24: 18, 25: 22, 26: 37, 27: 13,
}  # fmt: skip

_MODEL_FILE = Path("/proc/device-tree/model")


class NoGPIO(Exception):
    """This machine has no GPIO we can use; the message says why, in one line."""


class NotAPi(NoGPIO):
    """Not a Raspberry Pi at all: a desktop, where the keyboard stands in for buttons."""


def header_pin(gpio: int) -> int | None:
    """The physical header pin of BCM ``gpio``, or None if it is not on the header."""
    return HEADER_PIN.get(gpio)


def _board_model() -> str | None:
    # The device tree names the board on every Raspberry Pi running Linux.
    try:
        return _MODEL_FILE.read_bytes().rstrip(b"\0\n").decode("utf-8", "replace")
    except OSError:
        return None


def is_raspberry_pi() -> bool:
    """Whether this machine is a Raspberry Pi (the device), not a desktop."""
    model = _board_model()
    return model is not None and "raspberry pi" in model.lower()


def pi_pin_factory() -> Any:
    """A new ``LGPIOFactory``; raises :class:`NoGPIO` (one line) if this is no Pi.

    ``GPIOZERO_PIN_FACTORY`` (set to ``lgpio`` by the service) may name another
    factory only for ``mock``, gpiozero's own simulation; anything else but
    ``lgpio`` is refused rather than silently used.
    """
    wanted = os.environ.get("GPIOZERO_PIN_FACTORY", "lgpio").strip().lower() or "lgpio"
    if wanted == "mock":
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

        return MockFactory()
    if wanted != "lgpio":
        raise NoGPIO(f"GPIOZERO_PIN_FACTORY={wanted} is not supported here; use lgpio")
    if not is_raspberry_pi():
        raise NotAPi("no Raspberry Pi GPIO on this machine")
    try:
        from gpiozero.pins.lgpio import LGPIOFactory  # type: ignore[import-untyped]
    except ImportError as e:  # gpiozero itself, or the lgpio module it needs
        raise NoGPIO(f"cannot load the lgpio pin factory ({e}); install python3-lgpio") from None
    try:
        return LGPIOFactory()
    except Exception as e:  # lgpio.error, PermissionError, ...: any reason it cannot open
        raise NoGPIO(f"cannot open the GPIO chip ({type(e).__name__}: {e})") from None


def pin_factory_or_none() -> Any | None:
    """The Pi's pin factory, or None on a machine that is not a Pi (use the keyboard).

    On a Pi whose GPIO cannot be opened (python3-lgpio missing, no permission)
    this still raises :class:`NoGPIO`: falling back to the keyboard there would
    leave the table with dead buttons and no explanation. Show the one-line
    message instead.
    """
    try:
        return pi_pin_factory()
    except NotAPi:
        return None
