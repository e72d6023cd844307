"""The choices the command line offers for the device's parts.

Kept apart from :mod:`incan_companion.compose` so that building the parser
(every command, ``--help``, ``replay --json``) loads nothing of the device.
"""

from __future__ import annotations

import enum

__all__ = ["CAMERA_CHOICES", "SEAT_INPUTS", "CameraChoice", "SeatInput"]


class SeatInput(enum.StrEnum):
    """The seat buttons: asked for with ``--buttons``, and what was built."""

    AUTO = "auto"  # the Pi's buttons when this is a Pi, else the keyboard (never built)
    GPIO = "gpio"
    KEYBOARD = "keyboard"
    MOCK = "mock"  # gpiozero's mock pins pressed by code (the demo, the tests)


class CameraChoice(enum.StrEnum):
    """What ``--camera`` may say: the configured source, the virtual table, or none."""

    CONFIG = "config"
    VIRTUAL = "virtual"
    NONE = "none"


#: What ``--buttons`` may say (the demo adds "mock"), as plain words: argparse
#: and the config name them in messages by their ``repr``.
SEAT_INPUTS = tuple(s.value for s in SeatInput)
CAMERA_CHOICES = tuple(c.value for c in CameraChoice)
