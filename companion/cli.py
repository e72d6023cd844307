"""``incan-companion``: the command line (CONTRACTS.md §5).

Start-up stays fast: this module imports only the standard library and the
engine. Commands that need OpenCV, gpiozero or Kivy live in ``vision.cli``,
``hardware.cli`` and ``ui.cli``; each exposes ``register(subparsers)`` and
imports its heavy libraries only inside the command it runs.

Exit codes: 0 success, 2 bad input (one line on stderr), 1 anything else.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from companion import engine, i18n
from companion.events import BadEvent, Event, from_line, to_line
from companion.session import LogError, Session

EXIT_OK, EXIT_FAILURE, EXIT_BAD_INPUT = 0, 1, 2

# Optional command modules, in the order their commands are listed in --help.
COMMAND_MODULES = ("ui.cli", "vision.cli", "hardware.cli")


class BadInput(Exception):
    """Input the user gave us that we cannot use: exit 2 with this message."""


def replay_log(path: Path) -> Session:
    """The session of a JSON Lines game log; blank lines are skipped but still counted."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not a text file") from None
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror or e}") from None
    events: list[Event] = []
    first_index: list[int] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            events.append(from_line(line))
        except BadEvent as e:
            raise BadInput(f"line {number}: {e}") from None
        first_index.append(number)
    try:
        return Session.replay(events)
    except LogError as e:
        number = first_index[e.index] if e.index < len(first_index) else 1
        raise BadInput(f"line {number}: {e.reason}") from None


def load_session(path: Path, game: int | None = None) -> Session:
    """The session in a ``.jsonl`` log or in the app's data file."""
    from companion.store import Store, StoreError, is_sqlite

    if not path.exists():
        raise BadInput(f"{path}: no such file")
    if not is_sqlite(path):
        if game is not None:
            raise BadInput("--game is for data files, not .jsonl logs")
        return replay_log(path)
    try:
        with Store(path, readonly=True) as store:
            return store.session(game if game is not None else store.latest())
    except LogError as e:
        raise BadInput(f"line {e.index + 1}: {e.reason}") from None
    except StoreError as e:
        raise BadInput(str(e)) from None


def cmd_replay(args: argparse.Namespace) -> int:
    session = load_session(Path(args.log), args.game)
    if args.json:
        print(json.dumps(engine.to_json(session.state), ensure_ascii=False))
    else:
        from companion.describe import table

        print(table(session.state))
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from companion.store import is_sqlite

    path = Path(args.data_file)
    if path.exists() and not is_sqlite(path):
        raise BadInput(f"{path} is not an incan-companion data file (not SQLite)")
    session = load_session(path, args.game)
    for event in session.effective:
        print(to_line(event))
    return EXIT_OK


def _game_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("game numbers start at 1")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse, but usage errors exit 2 with one line instead of the usage block."""

    def error(self, message: str) -> None:  # type: ignore[override]
        command = self.prog.removeprefix("incan-companion").strip()
        raise BadInput(f"{command}: {message}" if command else message)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="incan-companion",
        description="Table companion for Incan Gold / Diamant.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("replay", help="print the state after a game log or data file")
    p.add_argument("log", metavar="LOG", help="a .jsonl game log or the app's data file")
    p.add_argument("--json", action="store_true", help="the state as one JSON object")
    p.add_argument("--game", type=_game_number, help="which game of a data file (default: latest)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("export", help="print a game of the data file as a .jsonl game log")
    p.add_argument("data_file", metavar="DATA_FILE")
    p.add_argument("--game", type=_game_number, help="which game (default: the most recent)")
    p.set_defaults(func=cmd_export)

    for name in COMMAND_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        parser = build_parser()
        if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
            argv.insert(0, "run")  # the app is the default: `incan-companion --fullscreen`
        args = parser.parse_args(argv)
        i18n.set_configured_language()  # readable output in the table's language; JSON never
        if getattr(args, "func", None) is None:
            raise BadInput(f"unknown command {argv[0]!r}; see incan-companion --help")
        return int(args.func(args))
    except BadInput as e:
        print(f"incan-companion: {e}", file=sys.stderr)
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
        print(f"incan-companion: error: {e}", file=sys.stderr)
        return EXIT_FAILURE


if __name__ == "__main__":
    sys.exit(main())
