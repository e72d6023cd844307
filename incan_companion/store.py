"""The device's data file: every game's event log in one SQLite file.

Each accepted event is committed (and synced to the card) before the app
shows it, so a power cut loses nothing that was on screen. The journal is a
WAL with ``synchronous=FULL``: with WAL, ``NORMAL`` may drop the last
commits on power loss; ``FULL`` syncs the WAL on every commit.

One process writes a data file at a time: a writable :class:`Store` holds an
exclusive ``flock`` on ``<file>.lock`` beside it from before it looks at the
file until it is closed (the kernel drops it when the process dies, so a
lock file left by a crash blocks nothing). A second writer gets
:class:`InUse`, naming the process that holds the lock; readers
(``readonly=True``: ``replay``, ``export``) take no lock and read on.

Every open checks the whole file (``PRAGMA integrity_check``: the tables and
their indexes) before anything is written to it. What goes wrong is one of
these :class:`StoreError` subclasses, each with a one-line message:

- :class:`NotOurFile`, :class:`DamagedFile`: the file itself is to blame (not
  SQLite, another program's, a newer version's, or what SQLite calls
  corruption). It is never written to; the app sets it aside
  (:func:`open_or_set_aside`).
- :class:`InUse`: another process writes the file.
- :class:`NoAccess`: the file or its folder cannot be read or written
  (permissions, a read-only disk, a folder or pipe at the path).
- :class:`StorageFailed`: the disk is full or failed, or SQLite failed for a
  reason that is not damage; it may pass.

Only the first two ever set a file aside.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import sqlite3
import stat
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import ParamSpec, TypeVar

from companion.events import BadEvent, Event, Start, from_line, to_line
from companion.notices import DataFileSetAside
from companion.players import Player, colour_for
from companion.session import LogError, Session
from companion.stats import GameSummary, Played, summarize

APPLICATION_ID = 0x49474331  # "IGC1": marks the file as ours in the SQLite header
SCHEMA_VERSION = 2  # 2: players, seat links and game summaries beside the logs
SQLITE_MAGIC = b"SQLite format 3\x00"

_log = logging.getLogger(__name__)

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, created TEXT NOT NULL);
CREATE TABLE events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""
# Added by schema 2, beside the logs (which no migration ever rewrites):
# - players: the remembered group, a name with a colour;
# - seats: which player sat at a seat of a game (the log keeps the name as played);
# - summaries: a cache of companion.stats.summarize for a game, valid only
#   while the game has exactly ``events`` stored events (else recomputed).
_SCHEMA_2 = """
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    colour TEXT NOT NULL,
    last_used TEXT NOT NULL
);
CREATE TABLE seats (
    game INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    player INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (game, seat)
);
CREATE INDEX seats_by_player ON seats (player);
CREATE TABLE summaries (
    game INTEGER PRIMARY KEY REFERENCES games(id),
    events INTEGER NOT NULL,
    finished INTEGER NOT NULL,
    summary TEXT NOT NULL
);
"""
# Each table's columns and their place in the primary key (PRAGMA table_info).
_TABLES = {
    "meta": (("key", 1), ("value", 0)),
    "games": (("id", 1), ("created", 0)),
    "events": (("game", 1), ("seq", 2), ("line", 0), ("at", 0)),
}
_TABLES_2 = {
    "players": (("id", 1), ("name", 0), ("colour", 0), ("last_used", 0)),
    "seats": (("game", 1), ("seat", 2), ("player", 0)),
    "summaries": (("game", 1), ("events", 0), ("finished", 0), ("summary", 0)),
}
# The most problems integrity_check lists (it stops looking after these).
_MAX_PROBLEMS = 10
_MESSAGE_CHARS = 300

# SQLite's primary result codes (the low byte of an extended code).
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _AUTH, _NOTADB = (
    3, 5, 6, 8, 10, 11, 13, 14, 23, 26,
)  # fmt: skip


class StoreError(Exception):
    """The data file cannot be used; the message says why, for a person, in one line."""


class NotOurFile(StoreError):
    """Not a data file of this app (or of a newer version): set aside by the app."""


class DamagedFile(StoreError):
    """What SQLite calls corruption or "not a database": set aside by the app."""


class NoSuchGame(StoreError):
    pass


class NoSuchPlayer(StoreError):
    pass


class NameTaken(StoreError):
    """Another player has that name already (a merge, not a rename, joins them)."""


class PlayedTogether(StoreError):
    """Two players who sat at the same game cannot be one person."""


class InUse(StoreError):
    """Another process writes the data file (it holds the lock)."""


class NoAccess(StoreError):
    """The file or its folder cannot be read or written: permissions, a read-only
    disk, a folder or a pipe at the path. Not the file's fault: never set aside."""


class StorageFailed(StoreError):
    """The disk is full or failed, or SQLite failed for a reason that is not
    damage. It may pass; the file is left as it is."""


P = ParamSpec("P")
R = TypeVar("R")


def _one_line(text: str, limit: int = _MESSAGE_CHARS) -> str:
    """``text`` on one line (any run of white space, line breaks included, is one
    space), at most ``limit`` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _sqlite_problem(path: Path, e: sqlite3.Error, doing: str = "") -> StoreError:
    """The StoreError for a SQLite error, by SQLite's own result code."""
    code = getattr(e, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    said = _one_line(str(e))
    if primary in (_CORRUPT, _NOTADB):
        return DamagedFile(f"{path} is damaged: {said}")
    if primary in (_READONLY, _CANTOPEN, _PERM, _AUTH):
        return NoAccess(f"{path}: {doing}{said}")
    if primary == _FULL or (primary == _IOERR and _disk_full(path)):
        # SQLite says "disk I/O error" when the disk is too full for the -shm
        return StorageFailed(f"{path}: {doing}the disk is full ({said})")
    if primary == _IOERR:
        return StorageFailed(f"{path}: {doing}the disk failed ({said})")
    if primary in (_BUSY, _LOCKED):
        return StorageFailed(f"{path}: {doing}another program holds it locked ({said})")
    return StorageFailed(f"{path}: {doing}{said}")


def _disk_full(path: Path) -> bool:
    """Whether the disk holding ``path`` has less than 64 KiB left for us."""
    try:
        st = os.statvfs(path.parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < 64 * 1024


def _os_problem(path: Path, e: OSError, doing: str) -> StoreError:
    """The StoreError for an error of the system: a full or failing disk may
    pass; anything else (permissions, a read-only disk, a bad path) will not."""
    said = e.strerror or str(e)
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return StorageFailed(f"{path}: {doing}: the disk is full ({said})")
    if e.errno == errno.EIO:
        return StorageFailed(f"{path}: {doing}: the disk failed ({said})")
    if e.errno == errno.EROFS:
        return NoAccess(f"{path}: cannot write: the disk holding it is read-only")
    return NoAccess(f"{path}: {doing}: {said}")


def _sqlite_errors(method: Callable[P, R]) -> Callable[P, R]:
    """SQLite errors met while reading or writing become the StoreError they mean."""

    @wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except (sqlite3.ProgrammingError, sqlite3.InterfaceError):
            raise  # our own mistake (a closed store): a bug with its trace, not a disk
        except sqlite3.Error as e:
            store = args[0]
            assert isinstance(store, Store)
            raise _sqlite_problem(store.path, e) from None

    return wrapper


def is_sqlite(path: Path) -> bool:
    """Whether ``path`` is a regular file that starts like a SQLite file (False
    when there is no such file, or it is a folder, a pipe or a device). A file
    that cannot be read raises :class:`NoAccess`: it is never taken for
    "not SQLite". Reads 16 bytes at most."""
    st = _stat(path)
    if st is None or not stat.S_ISREG(st.st_mode) or st.st_size < len(SQLITE_MAGIC):
        return False
    return _starts_like_sqlite(path)


def _stat(path: Path) -> os.stat_result | None:
    """The file's status, None when there is no file; NoAccess when it cannot be looked at."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise _os_problem(path, e, "cannot read it") from None
    except ValueError:  # a NUL in the name
        raise NoAccess(f"{path!r} is not a usable file name") from None


def _starts_like_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError as e:
        raise _os_problem(path, e, "cannot read it") from None


def _sniff(path: Path) -> bool:
    """True when there is no data file yet at ``path`` (no file, or 0 bytes).

    Raises NotOurFile for a file that is not SQLite, NoAccess for one that
    cannot be read or is no regular file.
    """
    st = _stat(path)
    if st is None:
        return True
    if stat.S_ISDIR(st.st_mode):
        raise NoAccess(f"{path} is a folder, not a data file")
    if not stat.S_ISREG(st.st_mode):
        raise NoAccess(f"{path} is not a regular file (a data file cannot be a pipe or device)")
    if st.st_size == 0:
        return True
    if st.st_size < len(SQLITE_MAGIC) or not _starts_like_sqlite(path):
        raise NotOurFile(f"{path} is not an incan-companion data file (not SQLite)")
    return False


# --- the writer's lock --------------------------------------------------------------


def lock_path(path: str | Path) -> Path:
    """The lock file of a data file: ``games.sqlite.lock`` beside ``games.sqlite``."""
    path = Path(path)
    return path.with_name(f"{path.name}.lock")


# The locks this process holds, by the lock file's (device, inode): its
# descriptor and how many holders share it. flock belongs to an open file,
# so a second open of the same lock file in this process would be refused by
# the first; the stores of one process share one lock instead.
_held: dict[tuple[int, int], list[int]] = {}
_held_guard = threading.Lock()


def _command() -> str:
    argv = list(sys.argv) or ["python"]
    name = Path(argv[0]).name
    if name == "__main__.py":  # python -m incan_companion
        name = Path(argv[0]).parent.name
    return _printable(" ".join([name, *argv[1:]]), 200)


def _printable(text: str, limit: int) -> str:
    shown = "".join(
        ch if ch.isprintable() or ch == " " else ch.encode("unicode_escape", "replace").decode()
        for ch in text
    )
    return _one_line(shown, limit)


def _lock(data: Path) -> tuple[int, int]:
    """Take the exclusive lock for writing ``data`` (shared within this process).

    Raises InUse naming the process that holds it, or NoAccess/StorageFailed
    when the lock file cannot be made.
    """
    where = lock_path(data)
    writable = True
    try:
        fd = os.open(where, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except PermissionError as e:
        # A lock file of another user (made by a manual run as root, say) can
        # still be locked through a read-only descriptor.
        writable = False
        try:
            fd = os.open(where, os.O_RDONLY | os.O_CLOEXEC)
        except FileNotFoundError:
            raise _os_problem(data, e, f"cannot write in its folder {data.parent}") from None
        except OSError as e:
            raise _os_problem(data, e, f"cannot open its lock file {where.name}") from None
    except OSError as e:
        raise _os_problem(data, e, f"cannot make its lock file {where.name}") from None
    kept = False
    try:
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino)
        with _held_guard:
            held = _held.get(key)
            if held is not None:
                held[1] += 1
                return key
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise InUse(f"{data} is in use by {_holder(fd)}: one program at a time "
                            "writes a data file") from None  # fmt: skip
            except OSError as e:
                raise _os_problem(data, e, f"cannot lock {where.name}") from None
            _held[key] = [fd, 1]
            kept = True
    finally:
        if not kept:
            os.close(fd)
    if writable:
        try:  # who holds it, for the next one who asks; the lock holds without it
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n{_command()}\n".encode(), 0)
        except OSError:
            pass
    return key


def _holder(fd: int) -> str:
    try:
        said = os.pread(fd, 4096, 0).decode("utf-8", "replace").split("\n")
    except OSError:
        said = []
    if said and said[0].strip().isdigit() and _alive(int(said[0])):
        command = f" ({_printable(said[1], 200)})" if len(said) > 1 and said[1].strip() else ""
        return f"process {said[0].strip()}{command}"
    return "another process"


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a lock file another user wrote may name a dead one)."""
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True  # it runs, as someone else
    return True


def _unlock(key: tuple[int, int]) -> None:
    with _held_guard:
        held = _held.get(key)
        if held is None:
            return
        held[1] -= 1
        if held[1] > 0:
            return
        del _held[key]
    fd = held[0]
    with contextlib.suppress(OSError):  # no holder to name any more
        os.ftruncate(fd, 0)
    os.close(fd)  # releases the flock


def _prepare(data: Path) -> tuple[int, int]:
    """Make the data file's folder if needed and take the lock for writing it."""
    try:
        data.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise _os_problem(data, e, f"cannot make its folder {data.parent}") from None
    return _lock(data)


def _check_writable(path: Path) -> None:
    """Refuse a read-only disk or folder, or a file we may not write, before
    SQLite meets them half-way through opening."""
    folder = path.parent
    try:
        read_only = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    if read_only:
        raise NoAccess(f"{path}: cannot write: the disk holding it is read-only")
    effective = os.access in os.supports_effective_ids
    if not os.access(folder, os.W_OK | os.X_OK, effective_ids=effective):
        raise NoAccess(f"{path}: cannot write in its folder {folder}: Permission denied")
    if path.exists():
        try:
            os.close(os.open(path, os.O_RDWR | os.O_CLOEXEC))
        except OSError as e:
            raise _os_problem(path, e, "cannot open it for writing") from None


@dataclass(frozen=True)
class GameInfo:
    id: int
    created: str
    events: int


class Store:
    """The SQLite data file: fits :class:`companion.ports.EventStore`.

    Writable (the default): holds the writer's lock until :meth:`close`.
    ``readonly=True``: no lock, no write, ever.
    """

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._version = SCHEMA_VERSION  # what the file holds (1: a read-only old file)
        self._lock: tuple[int, int] | None = None
        if not readonly:
            self._lock = _prepare(self.path)
        try:
            self._db = self._open()
        except BaseException:
            self._unlock()
            raise

    def _open(self) -> sqlite3.Connection:
        fresh = _sniff(self.path)
        if fresh and self.readonly:
            raise StoreError(f"{self.path}: no such data file")
        if not self.readonly:
            _check_writable(self.path)
            return self._connect(str(self.path), fresh=fresh)
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        try:
            return self._connect(uri, fresh=False)
        except NoAccess:
            # A file in WAL mode in a folder we may not write (a read-only
            # copy, a backup): SQLite cannot make the -shm beside it. With no
            # -wal file there is nothing but the file to read, and nobody can
            # be writing it: read it as immutable.
            if Path(f"{self.path}-wal").exists():
                raise
            return self._connect(f"{uri}&immutable=1", fresh=False)

    def _connect(self, target: str, *, fresh: bool) -> sqlite3.Connection:
        try:
            # Not bound to the opening thread: the app opens (and checks) the file
            # on a thread of its own while Kivy starts, then uses it on the UI
            # thread only; one thread at a time, handed over by a join.
            db = sqlite3.connect(
                target, uri=self.readonly, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as e:
            raise _sqlite_problem(self.path, e, "cannot open: ") from None
        try:
            if fresh:
                self._create(db)
            else:
                self._check(db)
            if not self.readonly:  # only once the file is known to be ours and whole
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                if self._version < SCHEMA_VERSION:
                    self._migrate(db)
        except BaseException as e:
            db.close()
            if isinstance(e, sqlite3.Error):
                raise _sqlite_problem(self.path, e, "cannot open: ") from None
            raise
        return db

    def _create(self, db: sqlite3.Connection) -> None:
        with _Transaction(db):
            for statement in (_SCHEMA + _SCHEMA_2).split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("INSERT INTO meta VALUES ('app', 'incan-companion')")

    def _check(self, db: sqlite3.Connection) -> None:
        """Ours, not newer, our tables, and whole (nothing is written before this)."""
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise NotOurFile(f"{self.path} is a SQLite file of another program, not a data file")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NotOurFile(f"{self.path} was written by a newer version (schema {version})")
        tables = {**_TABLES, **(_TABLES_2 if version >= 2 else {})}
        for table, columns in tables.items():
            found = tuple((str(r[1]), int(r[5])) for r in db.execute(f"PRAGMA table_info({table})"))
            if found != columns:
                raise NotOurFile(f"{self.path} has the mark of a data file but not its tables "
                                 f"({table})")  # fmt: skip
        # integrity_check, not quick_check: it also compares every index with
        # its table (a damaged key index hides rows from a game's replay).
        verdict = [str(r[0]) for r in db.execute(f"PRAGMA integrity_check({_MAX_PROBLEMS})")]
        if verdict != ["ok"]:
            raise DamagedFile(f"{self.path} is damaged: {_verdict(verdict)}")
        self._version = version

    def _migrate(self, db: sqlite3.Connection) -> None:
        """Schema 1 to 2, forward only, in one transaction (a power cut leaves
        the file at 1, and the next open does it again): the new tables, and
        every stored game's seats linked to players by the names played."""
        with _Transaction(db):
            for statement in _SCHEMA_2.split(";"):
                if statement.strip():
                    db.execute(statement)
            rows = db.execute(
                "SELECT g.id, g.created, e.line FROM games g JOIN events e "
                "ON e.game = g.id AND e.seq = 0 ORDER BY g.id"
            ).fetchall()
            for game, created, line in rows:
                try:
                    start = from_line(str(line))
                except BadEvent:
                    continue  # its replay says what is wrong; nothing to link
                if isinstance(start, Start):
                    _link(db, int(game), start.seats, str(created))
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._version = SCHEMA_VERSION

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def _unlock(self) -> None:
        key, self._lock = self._lock, None
        if key is not None:
            _unlock(key)

    def close(self) -> None:
        try:
            self._db.close()
        finally:
            self._unlock()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- games -------------------------------------------------------------------

    @_sqlite_errors
    def new_game(self, start: Start) -> int:
        """A new game whose first event is ``start``; returns its number."""
        now = _now()
        with self._transaction():
            cur = self._db.execute("INSERT INTO games (created) VALUES (?)", (now,))
            game = cur.lastrowid
            assert game is not None
            self._db.execute(
                "INSERT INTO events VALUES (?, 0, ?, ?)", (game, to_line(start), now)
            )
        return game

    @_sqlite_errors
    def append(self, game: int, event: Event) -> None:
        """Store one accepted event durably (committed and synced on return)."""
        with self._transaction():
            seq = self._db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE game = ?", (game,)
            ).fetchone()[0]
            if seq == 0:
                raise NoSuchGame(f"there is no game {game}")
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?)", (game, seq, to_line(event), _now())
            )

    @_sqlite_errors
    def games(self) -> list[GameInfo]:
        rows = self._db.execute(
            "SELECT g.id, g.created, COUNT(e.seq) FROM games g "
            "LEFT JOIN events e ON e.game = g.id GROUP BY g.id ORDER BY g.id"
        ).fetchall()
        return [GameInfo(*row) for row in rows]

    @_sqlite_errors
    def latest(self) -> int:
        row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        if row[0] is None:
            raise NoSuchGame(f"{self.path} holds no game yet")
        return int(row[0])

    @_sqlite_errors
    def events(self, game: int) -> list[Event]:
        """The stored log of a game; a line that does not parse raises LogError
        (as does a stored value that is not a line of UTF-8 text: NULL, a BLOB)."""
        if not -(2**63) <= game < 2**63:
            raise NoSuchGame(f"there is no game {game} in {self.path}")
        rows = self._db.execute(
            "SELECT typeof(line), CAST(line AS BLOB) FROM events WHERE game = ? ORDER BY seq",
            (game,),
        ).fetchall()
        if not rows:
            raise NoSuchGame(f"there is no game {game} in {self.path}")
        out = []
        for i, (kind, raw) in enumerate(rows):
            if kind != "text":
                what = {"null": "NULL", "blob": "a BLOB"}.get(str(kind), "a number")
                raise LogError(i, f"the stored line is {what}, not text")
            try:
                out.append(from_line(bytes(raw).decode("utf-8")))
            except UnicodeDecodeError:
                raise LogError(i, "the stored line is not UTF-8 text") from None
            except BadEvent as e:
                raise LogError(i, str(e)) from None
        return out

    def set_option(self, game: int, name: str, value: str) -> None:
        """Remember a table option of a game that is not a rule (e.g. hidden
        tents), so a resumed game shows what the table chose."""
        self._set_meta(f"game.{game}.{name}", value)

    def option(self, game: int, name: str) -> str | None:
        return self._meta(f"game.{game}.{name}")

    def set_setting(self, name: str, value: str) -> None:
        """Remember a choice of the device's own (e.g. the language picked on
        the set-up screen) across restarts."""
        self._set_meta(f"setting.{name}", value)

    def setting(self, name: str) -> str | None:
        return self._meta(f"setting.{name}")

    @_sqlite_errors
    def _set_meta(self, key: str, value: str) -> None:
        with self._transaction():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    @_sqlite_errors
    def _meta(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def session(self, game: int) -> Session:
        return Session.replay(self.events(game))

    def unfinished(self) -> int | None:
        """The most recent game that has not reached its end, if any.

        A finished game is known by its stored summary when that was made
        from as many events as the game has now; only the others are
        replayed (and their summaries kept, when the file is writable), so a
        start-up does not replay every game ever played. A game whose log
        does not replay is passed over (and logged); a file that cannot be
        read raises.
        """
        made: list[tuple[int, int, GameSummary]] = []
        try:
            for game, events, summarized, finished in self._summary_keys():
                if summarized == events:
                    if not finished:
                        return game
                    continue
                replayed = self._replayed_summary(game)
                if replayed is None:
                    continue
                made.append(replayed)
                if not replayed[2].finished:
                    return game
            return None
        finally:
            self._keep_summaries(made)  # one transaction for all: one sync

    def _replayed_summary(self, game: int) -> tuple[int, int, GameSummary] | None:
        """(game, events, summary) from replaying the game's log; None (logged)
        for a game whose log does not replay."""
        try:
            log = self.events(game)
            return game, len(log), summarize(Session.replay(log))
        except (LogError, NoSuchGame) as e:
            _log.warning("game %d of %s does not replay: %s", game, self.path, e)
            return None

    @_sqlite_errors
    def _summary_keys(self) -> list[tuple[int, int, int | None, bool]]:
        """(game, events now, events its summary was made from, finished), newest first."""
        if self._version < 2:
            rows = self._db.execute(
                "SELECT g.id, (SELECT MAX(seq) + 1 FROM events e WHERE e.game = g.id), "
                "NULL, 0 FROM games g ORDER BY g.id DESC"
            ).fetchall()
        else:
            rows = self._db.execute(
                "SELECT g.id, (SELECT MAX(seq) + 1 FROM events e WHERE e.game = g.id), "
                "s.events, s.finished FROM games g LEFT JOIN summaries s ON s.game = g.id "
                "ORDER BY g.id DESC"
            ).fetchall()
        return [(int(g), int(n or 0), s, bool(f)) for g, n, s, f in rows]

    @_sqlite_errors
    def summary(self, game: int) -> GameSummary:
        """The game's summary: the stored one while it matches the log's length,
        else replayed (and stored, when writable). Raises like :meth:`events`."""
        events = self.events(game)
        if self._version >= 2:
            row = self._db.execute(
                "SELECT events, summary FROM summaries WHERE game = ?", (game,)
            ).fetchone()
            if row is not None and row[0] == len(events):
                try:
                    return GameSummary.from_json(str(row[1]))
                except (ValueError, KeyError, TypeError):
                    pass  # not what we wrote: made again below
        summary = summarize(Session.replay(events))
        self._keep_summaries([(game, len(events), summary)])
        return summary

    def _keep_summaries(self, made: Sequence[tuple[int, int, GameSummary]]) -> None:
        """Cache summaries, best effort: a failed write costs only a replay later."""
        if self.readonly or self._version < 2 or not made:
            return
        try:
            with self._transaction():
                self._db.executemany(
                    "INSERT OR REPLACE INTO summaries VALUES (?, ?, ?, ?)",
                    [(g, n, int(s.finished), s.to_json()) for g, n, s in made],
                )
        except sqlite3.Error as e:
            _log.warning("keeping game summaries in %s: %s", self.path, e)

    @_sqlite_errors
    def history(self, first: int = 0, count: int | None = None) -> list[Played]:
        """Stored games that replay, newest first, with their summaries and
        players (a summary that does not match its log is made again):
        ``count`` of them (None: all) from the ``first`` newest on, so a screen
        reads only the page it shows."""
        summary_column = "s.events, s.summary" if self._version >= 2 else "NULL, NULL"
        joined = " LEFT JOIN summaries s ON s.game = g.id" if self._version >= 2 else ""
        rows = self._db.execute(
            f"SELECT g.id, g.created, (SELECT MAX(seq) + 1 FROM events e WHERE e.game = g.id), "
            f"{summary_column} FROM games g{joined} ORDER BY g.id DESC LIMIT ? OFFSET ?",
            (-1 if count is None else count, first),
        ).fetchall()
        linked: dict[int, dict[int, str]] = {}
        if self._version >= 2 and rows:
            # The page's games are a run of numbers: one range, not one query each.
            low, high = rows[-1][0], rows[0][0]
            for game, seat, name in self._db.execute(
                "SELECT s.game, s.seat, p.name FROM seats s JOIN players p ON p.id = s.player "
                "WHERE s.game BETWEEN ? AND ?", (low, high)
            ):  # fmt: skip
                linked.setdefault(int(game), {})[int(seat)] = str(name)
        out: list[Played] = []
        made: list[tuple[int, int, GameSummary]] = []
        for game, created, events, summarized, text in rows:
            summary: GameSummary | None = None
            if summarized is not None and summarized == events:
                with contextlib.suppress(ValueError, KeyError, TypeError):
                    summary = GameSummary.from_json(str(text))
            if summary is None:
                replayed = self._replayed_summary(game)
                if replayed is None:
                    continue
                made.append(replayed)
                summary = replayed[2]
            links = linked.get(game, {})
            players = tuple(links.get(i, seat.name) for i, seat in enumerate(summary.seats))
            out.append(Played(int(game), str(created), summary, players))
        self._keep_summaries(made)
        return out

    @_sqlite_errors
    def game_count(self) -> int:
        """How many games the file holds (those that do not replay too)."""
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    @_sqlite_errors
    def delete_game(self, game: int) -> None:
        """Remove a game: its events, options, seat links and summary, in one
        transaction (a power cut leaves the game whole or gone, never half)."""
        with self._transaction():
            if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise NoSuchGame(f"there is no game {game} in {self.path}")
            prefix = f"game.{game}."
            self._db.execute("DELETE FROM events WHERE game = ?", (game,))
            self._db.execute(
                "DELETE FROM meta WHERE substr(key, 1, ?) = ?", (len(prefix), prefix)
            )
            if self._version >= 2:
                self._db.execute("DELETE FROM seats WHERE game = ?", (game,))
                self._db.execute("DELETE FROM summaries WHERE game = ?", (game,))
            self._db.execute("DELETE FROM games WHERE id = ?", (game,))

    # -- players -----------------------------------------------------------------

    @_sqlite_errors
    def players(self) -> list[Player]:
        """The remembered players, the most recently seated first."""
        if self._version < 2:
            return []
        rows = self._db.execute(
            "SELECT id, name, colour, last_used FROM players ORDER BY last_used DESC, id DESC"
        ).fetchall()
        return [Player(int(i), str(n), str(c), str(u)) for i, n, c, u in rows]

    @_sqlite_errors
    def link_players(self, game: int, names: Sequence[str]) -> None:
        """Seat ``names[i]`` of ``game`` is the player of that name (a new one
        if nobody has it yet); each becomes the most recently seated."""
        with self._transaction():
            _link(self._db, game, names, _now())

    @_sqlite_errors
    def seat_players(self, game: int) -> tuple[str | None, ...]:
        """The current name of each seat's player (None: the seat has no player)."""
        seats = len(self.summary(game).seats)
        links = dict(self._db.execute(
            "SELECT s.seat, p.name FROM seats s JOIN players p ON p.id = s.player "
            "WHERE s.game = ?", (game,)))  # fmt: skip
        return tuple(links.get(i) for i in range(seats))

    @_sqlite_errors
    def rename_player(self, player: int, name: str) -> None:
        """A new name for a player: old games show it too (their logs keep the
        name as played). Raises NameTaken when another player has it."""
        name = name.strip()
        if not name:
            raise ValueError("a player's name cannot be empty")
        with self._transaction():
            self._player(player)
            taken = self._db.execute(
                "SELECT id FROM players WHERE name = ? AND id != ?", (name, player)
            ).fetchone()
            if taken is not None:
                raise NameTaken(f"{name!r} is another player's name already")
            self._db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player))

    @_sqlite_errors
    def merge_players(self, keep: int, gone: int) -> None:
        """Two spellings of one person: ``gone``'s games become ``keep``'s and
        ``gone`` is forgotten, in one transaction."""
        if keep == gone:
            raise ValueError("a player cannot be merged with themselves")
        with self._transaction():
            kept, lost = self._player(keep), self._player(gone)
            together = self._db.execute(
                "SELECT a.game FROM seats a JOIN seats b ON a.game = b.game "
                "WHERE a.player = ? AND b.player = ? LIMIT 1", (keep, gone)
            ).fetchone()
            if together is not None:
                raise PlayedTogether(
                    f"{kept.name!r} and {lost.name!r} sat at the same table in game "
                    f"{together[0]}: two people, not one"
                )
            self._db.execute("UPDATE seats SET player = ? WHERE player = ?", (keep, gone))
            self._db.execute("DELETE FROM players WHERE id = ?", (gone,))
            self._db.execute(
                "UPDATE players SET last_used = ? WHERE id = ?",
                (max(kept.last_used, lost.last_used), keep),
            )

    def _player(self, player: int) -> Player:
        row = self._db.execute(
            "SELECT id, name, colour, last_used FROM players WHERE id = ?", (player,)
        ).fetchone()
        if row is None:
            raise NoSuchPlayer(f"there is no player {player} in {self.path}")
        return Player(int(row[0]), str(row[1]), str(row[2]), str(row[3]))


def _link(db: sqlite3.Connection, game: int, names: Sequence[str], when: str) -> None:
    """Link a game's seats to the players of those names, made if new (in the
    caller's transaction)."""
    colours = [str(r[0]) for r in db.execute("SELECT colour FROM players")]
    for seat, name in enumerate(names):
        row = db.execute("SELECT id FROM players WHERE name = ?", (name,)).fetchone()
        if row is None:
            colour = colour_for(colours)
            colours.append(colour)
            player = db.execute(
                "INSERT INTO players (name, colour, last_used) VALUES (?, ?, ?)",
                (name, colour, when),
            ).lastrowid
        else:
            player = int(row[0])
            db.execute(
                "UPDATE players SET last_used = max(last_used, ?) WHERE id = ?", (when, player)
            )
        db.execute("INSERT OR REPLACE INTO seats VALUES (?, ?, ?)", (game, seat, player))


def _verdict(problems: Sequence[str]) -> str:
    """integrity_check's list of problems as one line (its rows hold line breaks)."""
    shown = "; ".join(_one_line(p, 120) for p in problems[:3])
    more = len(problems) - 3
    if more > 0:
        shown += f" (and {more}{'+' if len(problems) >= _MAX_PROBLEMS else ''} more)"
    return _one_line(shown)


def open_or_set_aside(path: str | Path) -> tuple[Store, DataFileSetAside | None]:
    """The data file for the app, ready to write.

    A file that is not ours or that SQLite finds damaged is never written to:
    it is renamed beside itself (``games.sqlite.bad-20261122-101500``) and a
    new file is started; the second value says so (a notice for the screen).
    Nothing else sets a file aside: a file in use by another process
    (:class:`InUse`), one that cannot be read or written (:class:`NoAccess`)
    or a full or failing disk (:class:`StorageFailed`) raise, and the file
    stays where it is. The writer's lock is held throughout.
    """
    path = Path(path)
    hold = _prepare(path)
    try:
        try:
            return Store(path), None
        except (NotOurFile, DamagedFile) as e:
            problem = e
        aside = _free_name(path.with_name(f"{path.name}.bad-{datetime.now():%Y%m%d-%H%M%S}"))
        try:
            for suffix in ("", "-wal", "-shm"):
                extra = Path(f"{path}{suffix}")
                if extra.exists():
                    extra.rename(Path(f"{aside}{suffix}"))
        except OSError as e:
            raise _os_problem(path, e, f"{problem}; it cannot be set aside") from None
        return Store(path), DataFileSetAside(str(problem), aside.name)
    finally:
        _unlock(hold)


def _free_name(wanted: Path) -> Path:
    # Two bad files set aside within one second must not land on each other.
    name, n = wanted, 1
    while any(Path(f"{name}{suffix}").exists() for suffix in ("", "-wal", "-shm")):
        n += 1
        name = wanted.with_name(f"{wanted.name}-{n}")
    return name


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *rest: object) -> None:
        # SQLite rolls a transaction back by itself on some errors (a full
        # disk): a ROLLBACK then would fail and hide the error that counts.
        if kind is None:
            try:
                self._db.execute("COMMIT")
            except sqlite3.Error:
                self._rollback()
                raise
        else:
            self._rollback()

    def _rollback(self) -> None:
        if self._db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
