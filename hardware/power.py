"""Switching the device off from its screen: a request that the system acts on.

A Pi 4 has no power button, and pulling the plug while the system writes can
damage its SD card: the table needs a way to switch it off cleanly. The kiosk
runs with no privileges at all (``deploy/incan-companion.service``), so it
cannot power the system off itself; it asks, by making one empty file in its
runtime folder. systemd watches for that file
(``deploy/incan-companion-switch-off.path``) and powers the system off as
root. The folder is in ``/run``, emptied at every boot, so a request never
outlives the boot it was made in: the device cannot switch itself off again
as it starts.

The service names the file in ``INCAN_SWITCH_OFF``; where that is not set (a
desktop, the demo) neither the menu nor the set-up screen offers a switch.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["SWITCH_OFF_ENV", "SwitchOffRequest", "switch_off_from_environment"]

SWITCH_OFF_ENV = "INCAN_SWITCH_OFF"

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SwitchOffRequest:
    """Asks the system to switch off, by making ``path``; an ``OSError`` says why
    it could not (the folder gone, the disk read-only)."""

    path: str

    def __call__(self) -> None:
        os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT, 0o600))
        _log.info("switch off: asked the system, by %s", self.path)


def switch_off_from_environment(env: Mapping[str, str]) -> SwitchOffRequest | None:
    """The switch that ``INCAN_SWITCH_OFF`` names, if its folder is there; None
    where nothing would act on a request (the variable unset, or a folder
    that does not exist: the service's runtime folder is made as it starts)."""
    path = env.get(SWITCH_OFF_ENV, "")
    if not path:
        return None
    if not os.path.isabs(path) or not os.path.isdir(os.path.dirname(path)):
        _log.warning("%s=%s: not a file in an existing folder; the menu offers no switch",
                     SWITCH_OFF_ENV, path)
        return None
    return SwitchOffRequest(path)
