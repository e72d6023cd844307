"""``incan-companion replay`` and ``export``: a game log or data file read back.

Only the standard library, the engine and the store: these commands start
fast, and ``--json`` output never depends on the language.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from companion import engine
from companion.events import BadEvent, Event, from_line, to_line
from companion.session import LogError, Session
from incan_companion.errors import EXIT_OK, BadInput


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``replay`` and ``export``."""
    p = sub.add_parser("replay", help="print the state after a game log or data file")
    p.add_argument("log", metavar="LOG", help="a .jsonl game log or the app's data file")
    p.add_argument("--json", action="store_true", help="the state as one JSON object")
    p.add_argument("--game", type=game_number, help="which game of a data file (default: latest)")
    p.set_defaults(func=cmd_replay, words=True)

    p = sub.add_parser("export", help="print a game of the data file as a .jsonl game log")
    p.add_argument("data_file", metavar="DATA_FILE")
    p.add_argument("--game", type=game_number, help="which game (default: the most recent)")
    p.set_defaults(func=cmd_export)


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
    from incan_companion.store import Store, StoreError, is_sqlite

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
        from ui.words import table

        print(table(session.state))
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    from incan_companion.store import is_sqlite

    path = Path(args.data_file)
    if path.exists() and not is_sqlite(path):
        raise BadInput(f"{path} is not an incan-companion data file (not SQLite)")
    session = load_session(path, args.game)
    for event in session.effective:
        print(to_line(event))
    return EXIT_OK


def game_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a game number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("game numbers start at 1")
    return value
