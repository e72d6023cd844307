"""The choices the command line offers for the device's parts.

Kept apart from :mod:`incan_companion.compose` so that building the parser
(every command, ``--help``, ``replay --json``) loads nothing of the device.
"""

from __future__ import annotations

#: What ``--buttons`` may say (the demo adds "mock").
SEAT_INPUTS = ("auto", "gpio", "keyboard", "mock")
#: What ``--camera`` may say: the configured source, the virtual table, or none.
CAMERA_CHOICES = ("config", "virtual", "none")
