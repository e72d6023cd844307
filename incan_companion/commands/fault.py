"""``incan-companion fault``: why the kiosk stopped, on the device's own screen.

``deploy/incan-companion-fault.service`` runs it on the console (tty1) when the
kiosk unit has failed for good (its start limit hit, or a bad config that a
restart cannot mend), with the unit's journal on standard input. Only the
standard library at module level.
"""

from __future__ import annotations

import argparse
import os
import sys

from incan_companion.errors import EXIT_OK

#: The prefix of the app's one-line errors (incan_companion.cli).
_OURS = "incan-companion: "


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``fault``."""
    p = sub.add_parser("fault")
    p.add_argument("--unit", default="incan-companion.service",
                   help="the kiosk's unit, named in the advice (default: %(default)s)")  # fmt: skip
    p.set_defaults(func=cmd_fault, words=True)


def last_reason(journal: str) -> str | None:
    """The last thing the app said of itself: its last one-line error, else the last
    line of the journal; None for an empty journal.

    >>> last_reason("starting\\nincan-companion: bad [camera] source\\nStopped.\\n")
    'bad [camera] source'
    >>> last_reason("Segmentation fault\\n"), last_reason("")
    ('Segmentation fault', None)
    """
    lines = [line.strip() for line in journal.splitlines() if line.strip()]
    ours = [line for line in lines if line.startswith(_OURS)]
    if ours:
        return _shown(ours[-1].removeprefix(_OURS))
    return _shown(lines[-1]) if lines else None


#: The most of the last message shown: a few lines of the console, not a screenful.
MAX_REASON_CHARS = 500


def _shown(line: str) -> str:
    """``line`` escaped for the console and cut to :data:`MAX_REASON_CHARS`.

    >>> len(_shown("x" * 2000)), _shown("x" * 2000)[-30:]
    (524, 'xxxxxx… (1500 more characters)')
    """
    from companion.text import printable

    shown = printable(line)
    if len(shown) <= MAX_REASON_CHARS:
        return shown
    return f"{shown[:MAX_REASON_CHARS]}… ({len(shown) - MAX_REASON_CHARS} more characters)"


def cmd_fault(args: argparse.Namespace) -> int:
    from ui.kivyfree import i18n
    from ui.kivyfree.fault import fault_text

    # The Linux console has no Japanese glyphs: there, the screen is in English.
    if i18n.language() == "ja" and os.environ.get("TERM", "linux") == "linux":
        i18n.set_language("en")
    journal = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read(1 << 20)
    from companion.text import printable

    text = fault_text(last_reason(journal), printable(args.unit, strict=True))
    clear = "\033[H\033[2J" if sys.stdout.isatty() else ""
    print(f"{clear}{text}", flush=True)
    return EXIT_OK
