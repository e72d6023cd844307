"""``incan-companion replay`` and ``export``: a game log or data file read back.

Only the standard library, the engine and the store: these commands start
fast, and ``--json`` output never depends on the language. A file is named by
the string given, not a pathlib.Path: see :mod:`incan_companion.paths`.
"""

from __future__ import annotations

import argparse
import os
import stat
from dataclasses import replace

from companion import engine
from companion.events import BadEvent, Event, from_line, to_line
from companion.session import LogError, Session
from companion.text import printable
from incan_companion.commands import whole_number
from incan_companion.errors import EXIT_OK, BadInput

#: A game log is a few kilobytes; more than this is not one (``replay /dev/zero``).
MAX_LOG_BYTES = 16 * 1024 * 1024
#: How long a named pipe (FIFO) may stay silent before anything came: none
#: may be writing to it at all.
FIFO_WAIT_S = 5.0

_SQLITE_MAGIC = b"SQLite format 3\x00"

#: A file as the command line names it (tests pass a pathlib.Path).
FileName = str | os.PathLike[str]


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``replay`` and ``export``."""
    p = sub.add_parser("replay")
    p.add_argument("log", metavar="LOG", help="a .jsonl game log or the app's data file")
    p.add_argument("--json", action="store_true", help="the state as one JSON object")
    p.add_argument("--game", type=game_number, help="which game of a data file (default: latest)")
    p.set_defaults(func=cmd_replay, words=lambda args: not args.json)

    p = sub.add_parser("export")
    p.add_argument("data_file", metavar="DATA_FILE")
    which = p.add_mutually_exclusive_group()
    which.add_argument("--game", type=game_number, help="which game (default: the most recent)")
    which.add_argument("--all", action="store_true",
                       help="every game, oldest first, each from its start line")  # fmt: skip
    p.set_defaults(func=cmd_export)


def named_printably(state: engine.State) -> engine.State:
    r"""``state`` with every seat's name made :func:`printable` (a line feed
    included), for a readable table whose own line breaks must be the only ones.

    >>> s = engine.new_game(["Ana\nFAKE: 999 wins", "Bo", "Cy"])
    >>> named_printably(s).seats[0].name
    'Ana\\x0aFAKE: 999 wins'
    """
    seats = tuple(replace(seat, name=printable(seat.name)) for seat in state.seats)
    return replace(state, seats=seats)


# --- reading what the user named --------------------------------------------------------


def _open(path: FileName) -> tuple[int, int]:
    """A descriptor for reading ``path`` and its file type; never blocks (a FIFO
    with no writer opens at once)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror or e}") from None
    except ValueError:  # a NUL in the name
        raise BadInput(f"{path!r}: not a file name") from None
    try:
        mode = os.fstat(fd).st_mode
    except OSError as e:
        os.close(fd)
        raise BadInput(f"{path}: {e.strerror or e}") from None
    if stat.S_ISDIR(mode):
        os.close(fd)
        raise BadInput(f"{path}: a folder, not a game log or data file")
    return fd, mode


def _is_data_file(fd: int, mode: int) -> bool:
    """A regular file that starts like SQLite (read without moving or consuming anything)."""
    if not stat.S_ISREG(mode):
        return False
    try:
        return os.pread(fd, len(_SQLITE_MAGIC), 0) == _SQLITE_MAGIC
    except OSError:
        return False


def _too_large(path: FileName) -> BadInput:
    return BadInput(f"{path}: larger than a game log can be ({MAX_LOG_BYTES // 2**20} MiB)")


def _read_all(fd: int, mode: int, path: FileName) -> bytes:
    """Everything ``fd`` gives, up to MAX_LOG_BYTES, read once (a pipe can be read
    only once). A named pipe that gives nothing for FIFO_WAIT_S is refused."""
    if stat.S_ISREG(mode) and os.fstat(fd).st_size > MAX_LOG_BYTES:
        raise _too_large(path)
    try:
        if stat.S_ISFIFO(mode) and not _anonymous_pipe(fd):
            import select  # named pipes only

            poller = select.poll()
            poller.register(fd, select.POLLIN)
            if not poller.poll(int(FIFO_WAIT_S * 1000)):
                raise BadInput(f"{path}: nothing came through this pipe in {FIFO_WAIT_S:g} s "
                               "(is anything writing to it?)")  # fmt: skip
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > MAX_LOG_BYTES:
                raise _too_large(path)
            chunks.append(chunk)
    except OSError as e:
        raise BadInput(f"{path}: {e.strerror or e}") from None


def _anonymous_pipe(fd: int) -> bool:
    """A pipe from the shell (``| ... /dev/stdin``, ``<(...)``): its writer is there."""
    try:
        return os.readlink(f"/proc/self/fd/{fd}").startswith("pipe:")
    except OSError:
        return False


def replay_log(path: FileName) -> Session:
    """The session of a JSON Lines game log; blank lines are skipped but still counted."""
    fd, mode = _open(path)
    try:
        data = _read_all(fd, mode, path)
    finally:
        os.close(fd)
    return replay_text(data, path)


def replay_text(data: bytes, path: FileName) -> Session:
    """The session of a log's bytes. Lines end at ``\\n`` only (a ``\\r`` before it
    is dropped): U+2028, U+0085 and the like inside a name are part of its line."""
    try:
        # A byte-order mark first is dropped: Windows' Notepad writes one.
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadInput(f"{path}: not a text file") from None
    events: list[Event] = []
    first_index: list[int] = []
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
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


def load_session(path: FileName, game: int | None = None) -> Session:
    """The session in a ``.jsonl`` log (a file or a pipe) or in the app's data file."""
    fd, mode = _open(path)
    try:
        if _is_data_file(fd, mode):
            data = None
        elif game is not None:
            raise BadInput("--game is for data files, not .jsonl logs")
        else:
            data = _read_all(fd, mode, path)
    finally:
        os.close(fd)
    if data is None:
        return _stored_session(path, game)
    if data.startswith(_SQLITE_MAGIC):
        raise BadInput(f"{path}: a data file is read from a regular file, not a pipe")
    return replay_text(data, path)


def _stored_session(path: FileName, game: int | None) -> Session:
    """A game of the data file at ``path``, read without writing or locking."""
    from companion.ports import StoredDataError
    from storage import StorageFailed, Store

    try:
        with Store(path, readonly=True) as store:
            return store.session(game if game is not None else store.latest())
    except LogError as e:
        raise BadInput(f"line {e.index + 1}: {e.reason}") from None
    except StorageFailed:
        raise  # the disk failed, not the input: exit 1
    except StoredDataError as e:
        raise BadInput(str(e)) from None


def cmd_replay(args: argparse.Namespace) -> int:
    session = load_session(args.log, args.game)
    if args.json:
        import json  # not for the readable table

        print(json.dumps(engine.to_json(session.state), ensure_ascii=False))
    else:
        from ui.kivyfree.words import table

        # A name is escaped on its own, before the table is laid out: a line feed
        # in one must not start a row of its own, and the table keeps its own.
        print(printable(table(named_printably(session.state)), keep="\n"))
    return EXIT_OK


def check_data_file(path: FileName) -> None:
    """BadInput unless ``path`` is a regular file that starts like SQLite."""
    fd, mode = _open(path)
    try:
        ours = _is_data_file(fd, mode)
    finally:
        os.close(fd)
    if not ours:
        why = "not SQLite" if stat.S_ISREG(mode) else "not a regular file"
        raise BadInput(f"{path} is not an incan-companion data file ({why})")


def cmd_export(args: argparse.Namespace) -> int:
    path = args.data_file
    check_data_file(path)
    if args.all:
        return _export_all(path)
    session = _stored_session(path, args.game)
    for event in session.effective:
        print(to_line(event))
    return EXIT_OK


def _export_all(path: FileName) -> int:
    """Every game as its game log, oldest first, one after the other: each
    begins with its ``start`` line, which is where a reader splits them."""
    import sys

    from companion.ports import StoredDataError
    from storage import StorageFailed, Store

    try:
        with Store(path, readonly=True) as store:
            for info in store.games():
                try:
                    events = Session.replay(store.events(info.id)).effective
                except LogError as e:  # said, and the other games go on
                    print(f"incan-companion: game {info.id} skipped: {printable(str(e))}",
                          file=sys.stderr)  # fmt: skip
                    continue
                for event in events:
                    print(to_line(event))
    except StorageFailed:
        raise
    except StoredDataError as e:
        raise BadInput(str(e)) from None
    return EXIT_OK


def game_number(text: str) -> int:
    return whole_number(text, what="a game number", least=1, says="game numbers start at 1")
