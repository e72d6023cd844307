"""``incan-companion``: the command line (docs/command-line.md).

Every subcommand is registered here, by name and one-line summary, from a
module that imports only the standard library at module level; each command
imports its heavy libraries (Kivy, OpenCV, gpiozero, reportlab) only when it
runs. A run that names its command imports and builds only that command's
module: ``replay --json`` never pays for the app's or the camera's parsers,
and ``--help`` (or a name that is no command) lists the commands from the
table below without importing any of their modules.

The language is chosen here, once, for the commands that print words
(``set_defaults(words=True)``, or a function of the arguments that says
whether this run does); JSON output never depends on it, nor loads it.

Exit codes: 0 success, 2 bad input (one line on stderr), 1 anything else.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import os
import sys
from collections.abc import Sequence

from incan_companion.errors import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, BadInput

TYPE_CHECKING = False  # mypy reads it as true; typing is 1.5 ms no command needs
if TYPE_CHECKING:
    from typing import Any

__all__ = ["BadInput", "build_parser", "main"]

#: The longest error line printed: a bad value is shown, not echoed whole.
MAX_ERROR_CHARS = 500


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it ($COLUMNS,
    else stdout's terminal, else 80), without importing shutil: with bz2 and
    lzma it costs 2 ms, more than ``replay --json``'s own work."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):  # no stdout, or not a terminal
            columns = 0
    return columns if columns > 0 else 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, the width found by :func:`_columns`."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:  # fmt: skip
        super().__init__(prog, indent_increment, max_help_position,
                         _columns() - 2 if width is None else width)  # fmt: skip


def _argparse_as_written() -> None:
    """argparse's own phrases ("options", "usage: ", its errors) as written.

    argparse words them through gettext's ``messages`` domain, and each
    lookup (9 for ``replay``) searches the locale folders again for every
    language the environment names: 4 ms of a 28 ms ``replay --json`` under
    LANG=en_GB.UTF-8 (timed in-process; bench/engine.py, as installed: 4.56x
    a bare Python before, 4.35x after). No catalogue is ever there (neither
    Python nor Debian ships one), and the command line is worded in English.
    """
    argparse._ = str  # type: ignore[attr-defined]
    argparse.ngettext = lambda singular, plural, n: singular if n == 1 else plural  # type: ignore[attr-defined]


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit 2 with one line instead of the usage block."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("incan-companion").strip()
        raise BadInput(f"{command}: {message}" if command else message)


#: Each command, by the module under ``incan_companion.commands`` that
#: registers it, in the order ``--help`` lists them.
COMMANDS: dict[str, str] = {
    "replay": "game",
    "export": "game",
    "review": "review",
    "stats": "history",
    "recover": "recover",
    "run": "app",
    "demo": "app",
    "scan": "vision",
    "stickers": "vision",
    "buttons": "buttons",
    "fault": "fault",
}

#: Each command's line in ``--help``: the only place it is written, so the
#: list needs none of the commands' modules.
SUMMARIES: dict[str, str] = {
    "replay": "print the state after a game log or data file",
    "export": "print a game of the data file as a .jsonl game log",
    "review": "every seat's decisions of a game against the odds: choices vs luck",
    "stats": "print the players' statistics over every stored game",
    "recover": "save what can be saved of a damaged data file into a new one",
    "run": "start the touchscreen app (the default command)",
    "demo": "play a whole game with simulated seats and camera through the real pipeline",
    "scan": "read card stickers in image files",
    "stickers": "a printable PDF of every card's sticker",
    "buttons": "check the seat buttons and LEDs while wiring the box",
    "fault": "say on the console why the kiosk service stopped (its journal on stdin)",
}


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The subcommands' action: each command's summary comes from SUMMARIES."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        parser: argparse.ArgumentParser = super().add_parser(name, help=SUMMARIES[name], **kwargs)
        return parser


def build_parser(command: str | None = None, *, listing: bool = False) -> argparse.ArgumentParser:
    """The parser for every command, or, when ``command`` is one of ours, for it alone.

    ``listing``: every command by name and summary only, none of their
    modules imported (enough for ``--help`` and to refuse a name that is no
    command); each command's own options are then unknown.
    """
    parser = _Parser(
        prog="incan-companion",
        description="Table companion for Incan Gold / Diamant.",
    )
    parser.register("action", "parsers", _Commands)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if listing and command not in COMMANDS:
        for name in COMMANDS:
            sub.add_parser(name)
        return parser
    wanted = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in wanted:
        importlib.import_module(f"incan_companion.commands.{name}").register(sub)
    return parser


def _use_configured_language() -> None:
    """The config file's language (else the system's) for readable output.

    A config file that cannot be read is not this step's business (the
    command that needs it reports it), so it then falls back to the system's.
    """
    from incan_companion.paths import config_file_name, configured_language
    from ui.kivyfree import i18n

    path = config_file_name()
    # No file (a desktop's usual case): the system's, without reading anything.
    i18n.set_language(configured_language(path, i18n.LANGUAGES) if os.path.lexists(path) else "")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _argparse_as_written()
    try:
        if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
            argv.insert(0, "run")  # the app is the default: `incan-companion --fullscreen`
        args = build_parser(argv[0], listing=True).parse_args(argv)
        if getattr(args, "func", None) is None:
            raise BadInput(f"unknown command {argv[0]!r}; see incan-companion --help")
        words = getattr(args, "words", False)
        if callable(words):  # some commands print words only in some modes
            words = words(args)
        if words:
            _use_configured_language()
        return int(args.func(args))
    except BadInput as e:
        print(f"incan-companion: {_error_line(str(e))}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return EXIT_FAILURE
    except BrokenPipeError:
        # The reader (e.g. `head`) went away: nothing more to say.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except Exception as e:  # the last line of defence: never a traceback for a user
        if isinstance(e, OSError) and e.filename is not None and e.errno in _PATH_ERRORS:
            # A path that cannot be used (too long, not a folder, no permission, a
            # read-only disk): the user's input, which no retry mends. A full or
            # failing disk is not, and stays exit 1 below.
            said = _error_line(f"{e.filename}: {e.strerror or e}")
            print(f"incan-companion: {said}", file=sys.stderr)
            return EXIT_BAD_INPUT
        if os.environ.get("INCAN_DEBUG"):
            raise
        print(f"incan-companion: error: {_error_line(str(e))}", file=sys.stderr)
        return EXIT_FAILURE


#: The errors of a path itself, as opposed to the disk's (ENOSPC, EIO, EDQUOT).
_PATH_ERRORS = frozenset(
    getattr(errno, name) for name in (
        "EACCES", "EPERM", "ENAMETOOLONG", "ENOTDIR", "EISDIR", "ELOOP", "EROFS", "ENOENT",
    )
)  # fmt: skip


def _error_line(message: str) -> str:
    """An error as one line a terminal shows as it is: control characters and
    line breaks escaped, at most MAX_ERROR_CHARS characters of it."""
    from companion.text import printable

    shown = printable(message)
    if len(shown) <= MAX_ERROR_CHARS:
        return shown
    return f"{shown[:MAX_ERROR_CHARS]}… ({len(shown) - MAX_ERROR_CHARS} more characters)"


if __name__ == "__main__":
    sys.exit(main())
