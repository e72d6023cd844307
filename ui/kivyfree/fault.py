"""The words of the console screen shown when the kiosk service has stopped for
good (``incan-companion fault``, run by ``incan-companion-fault.service``).

Kivy-free: the display may be the very thing that failed, so this screen is
plain text on the Linux console.
"""

from __future__ import annotations

from ui.kivyfree.i18n import _


def fault_text(reason: str | None, unit: str) -> str:
    """What the person at the device reads: what happened, the last thing the
    app said, that the games are kept, and what to do."""
    lines = [
        _("The Incan Gold companion has stopped."),
        _("It failed to start several times in a row, so it is not started again."),
        "",
    ]
    if reason:
        lines += [_("Its last message:"), f"  {reason}", ""]
    lines += [
        _("The games played so far are kept in its data file."),
        _("Once the cause is fixed, start it again with:"),
        # systemd's start limit refuses a manual start too, for the rest of
        # its 5 minutes, until the failures are forgotten.
        f"  sudo systemctl reset-failed {unit}",
        f"  sudo systemctl restart {unit}",
        _("Its whole log: journalctl -u {unit}").format(unit=unit),
    ]
    return "\n".join(lines)
