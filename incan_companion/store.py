"""The device's data file: every game's event log in one SQLite file.

Each accepted event is committed (and synced to the card) before the app
shows it, so a power cut loses nothing that was on screen. The journal is a
WAL with ``synchronous=FULL``: with WAL, ``NORMAL`` may drop the last
commits on power loss; ``FULL`` syncs the WAL on every commit.

A file that is not ours, or is damaged, raises a :class:`StoreError`
subclass and is never written to.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path
from typing import ParamSpec, TypeVar

from companion.events import BadEvent, Event, Start, from_line, to_line
from companion.notices import DataFileSetAside
from companion.session import LogError, Session

APPLICATION_ID = 0x49474331  # "IGC1": marks the file as ours in the SQLite header
SCHEMA_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"

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


class StoreError(Exception):
    """The data file cannot be used; the message says why, for a person."""


class NotOurFile(StoreError):
    pass


class DamagedFile(StoreError):
    pass


class NoSuchGame(StoreError):
    pass


P = ParamSpec("P")
R = TypeVar("R")


def _sqlite_errors(method: Callable[P, R]) -> Callable[P, R]:
    """SQLite errors met while reading or writing become a DamagedFile for a person."""

    @wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.DatabaseError as e:
            store = args[0]
            assert isinstance(store, Store)
            raise DamagedFile(f"{store.path} is damaged or unreadable: {e}") from None

    return wrapper


def is_sqlite(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


@dataclass(frozen=True)
class GameInfo:
    id: int
    created: str
    events: int


class Store:
    """The SQLite data file: fits :class:`companion.ports.EventStore`."""

    def __init__(self, path: str | Path, *, readonly: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if fresh and readonly:
            raise StoreError(f"{self.path}: no such data file")
        if not fresh and not is_sqlite(self.path):
            raise NotOurFile(f"{self.path} is not an incan-companion data file (not SQLite)")
        try:
            if readonly:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._db = sqlite3.connect(self.path, isolation_level=None)
        except sqlite3.Error as e:
            raise StoreError(f"{self.path}: cannot open ({e})") from None
        try:
            if fresh:
                self._create()
            else:
                self._check()
            if not readonly:
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=FULL")
        except sqlite3.DatabaseError as e:
            self._db.close()
            raise DamagedFile(f"{self.path} is damaged: {e}") from None
        except StoreError:
            self._db.close()
            raise

    def _create(self) -> None:
        with self._transaction():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            self._db.execute("INSERT INTO meta VALUES ('app', 'incan-companion')")

    def _check(self) -> None:
        app_id = self._db.execute("PRAGMA application_id").fetchone()[0]
        if app_id != APPLICATION_ID:
            raise NotOurFile(f"{self.path} is a SQLite file of another program, not a data file")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise NotOurFile(f"{self.path} was written by a newer version (schema {version})")
        verdict = self._db.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise DamagedFile(f"{self.path} is damaged: {verdict}")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    def close(self) -> None:
        self._db.close()

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
        """The stored log of a game; a line that does not parse raises LogError."""
        rows = self._db.execute(
            "SELECT line FROM events WHERE game = ? ORDER BY seq", (game,)
        ).fetchall()
        if not rows:
            raise NoSuchGame(f"there is no game {game} in {self.path}")
        out = []
        for i, (line,) in enumerate(rows):
            try:
                out.append(from_line(line))
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
        """The most recent game that has not reached its end, if any."""
        for info in reversed(self.games()):
            try:
                session = self.session(info.id)
            except (LogError, StoreError):
                continue
            if session.state.phase.value != "game_over":
                return info.id
        return None


def open_or_set_aside(path: str | Path) -> tuple[Store, DataFileSetAside | None]:
    """The data file for the app, ready to write.

    A damaged or foreign file is never written to: it is renamed beside
    itself (``games.sqlite.bad-20261122-101500``) and a new file is started;
    the second value says so (a notice for the screen). Errors the file cannot be
    blamed for (a read-only disk) still raise StoreError.
    """
    path = Path(path)
    try:
        return Store(path), None
    except (NotOurFile, DamagedFile) as e:
        aside = _free_name(path.with_name(f"{path.name}.bad-{datetime.now():%Y%m%d-%H%M%S}"))
        for suffix in ("", "-wal", "-shm"):
            extra = Path(f"{path}{suffix}")
            if extra.exists():
                extra.rename(Path(f"{aside}{suffix}"))
        return Store(path), DataFileSetAside(str(e), aside.name)


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
        self._db.execute("ROLLBACK" if kind else "COMMIT")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")
