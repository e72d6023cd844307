"""Telling systemd how the kiosk is: ready once the first screen is drawn, then
alive at every watchdog tick of the UI loop (``Type=notify``, ``WatchdogSec=``).

The protocol is one datagram on the socket named by ``$NOTIFY_SOCKET`` (see
sd_notify(3)); it is written here with the standard library rather than
through libsystemd's binding, which the Pi's venv would have to build. Outside
systemd (no ``$NOTIFY_SOCKET``) every call does nothing.
"""

from __future__ import annotations

import os
import socket

__all__ = ["notify", "watchdog_interval"]


def notify(state: str) -> bool:
    """Send ``state`` (``READY=1``, ``WATCHDOG=1``, ``STATUS=...``); whether it went.

    >>> notify("READY=1") if "NOTIFY_SOCKET" not in os.environ else False
    False
    """
    address = os.environ.get("NOTIFY_SOCKET", "")
    if not address or address[0] not in "@/":
        return False
    if address[0] == "@":  # an abstract socket
        address = "\0" + address[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode("utf-8"))
    except OSError:
        return False  # systemd gone or the socket not ours: nothing to tell
    return True


def watchdog_interval() -> float | None:
    """Seconds between two ``WATCHDOG=1`` (half of ``WatchdogSec=``, as sd_watchdog_enabled(3)
    advises), or None when systemd watches no watchdog of this process.

    >>> os.environ.get("WATCHDOG_USEC") is None and watchdog_interval() is None
    True
    """
    usec = os.environ.get("WATCHDOG_USEC", "")
    pid = os.environ.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None  # meant for another process (a parent that started us)
    return int(usec) / 2_000_000
