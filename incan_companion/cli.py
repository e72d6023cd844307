"""``incan-companion``: the command line (docs/command-line.md).

Every subcommand is registered here, by name, from a module that imports
only the standard library at module level; each command imports its heavy
libraries (Kivy, OpenCV, gpiozero, reportlab) only when it runs, so
``--help`` and ``replay --json`` start fast. A run that names its command
imports and builds only that command's module: ``replay --json`` never pays
for the app's or the camera's parsers.

The language is chosen here, once, for the commands that print words
(``set_defaults(words=True)``, or a function of the arguments that says
whether this run does); JSON output never depends on it, nor loads it.

Exit codes: 0 success, 2 bad input (one line on stderr), 1 anything else.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from incan_companion.errors import EXIT_BAD_INPUT, EXIT_FAILURE, EXIT_OK, BadInput

__all__ = ["BadInput", "build_parser", "main"]

#: The longest error line printed: a bad value is shown, not echoed whole.
MAX_ERROR_CHARS = 500


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit 2 with one line instead of the usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("incan-companion").strip()
        raise BadInput(f"{command}: {message}" if command else message)


#: Each command, by the module under ``incan_companion.commands`` that
#: registers it, in the order ``--help`` lists the modules.
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


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser for every command, or, when ``command`` is one of ours, for it alone."""
    parser = _Parser(
        prog="incan-companion",
        description="Table companion for Incan Gold / Diamant.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    wanted = [COMMANDS[command]] if command in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in wanted:
        importlib.import_module(f"incan_companion.commands.{name}").register(sub)
    return parser


def _use_configured_language() -> None:
    """The config file's language (else the system's) for readable output.

    A config file that cannot be read is not this step's business (the
    command that needs it reports it), so it then falls back to the system's.
    """
    from incan_companion.config import ConfigError, load
    from ui import i18n

    try:
        configured = load().language
    except ConfigError:
        configured = ""
    i18n.set_language(configured)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
            argv.insert(0, "run")  # the app is the default: `incan-companion --fullscreen`
        args = build_parser(argv[0]).parse_args(argv)
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
        if os.environ.get("INCAN_DEBUG"):
            raise
        print(f"incan-companion: error: {_error_line(str(e))}", file=sys.stderr)
        return EXIT_FAILURE


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
