"""The device's data file: every game's event log in one SQLite file.

:class:`Store` is the file opened: its parts are the event log
(:mod:`storage.log`), the settings (:mod:`storage.settings`), the players
(:mod:`storage.players`) and the history read model (:mod:`storage.history`),
over one connection. Opening takes the writer's lock (:mod:`storage.lock`),
looks at the file (:mod:`storage.files`) and checks its tables
(:mod:`storage.schema`) before anything is written. The journal is a WAL
with ``synchronous=FULL``: with WAL, ``NORMAL`` may drop the last commits on
power loss; ``FULL`` syncs the WAL on every commit.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from companion.notices import DataFileSetAside
from companion.ports import WallClock
from storage import chain, files, lock, schema
from storage.errors import (
    DamagedFile,
    NoAccess,
    NotOurFile,
    StorageFailed,
    StoreError,
    sqlite_problem,
)
from storage.history import HistoryTables
from storage.players import PlayerTables
from storage.settings import SettingsTables

__all__ = ["Store", "open_or_set_aside", "utc_now"]

_log = logging.getLogger(__name__)


def utc_now() -> datetime:
    """The real wall clock (a :data:`companion.ports.WallClock`)."""
    return datetime.now(UTC)


#: The page cache of a connection, in KiB.
CACHE_KIB = 512


class Store(HistoryTables, PlayerTables, SettingsTables):
    """The SQLite data file: fits :class:`companion.ports.EventStore`.

    Writable (the default): holds the writer's lock until :meth:`close`.
    ``readonly=True``: no lock, no write, ever. ``clock`` gives the time
    stored beside a game, an event and a player's last seat.
    """

    def __init__(
        self, path: str | os.PathLike[str], *, readonly: bool = False, clock: WallClock = utc_now
    ) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._proven = {}
        self._clock = clock
        self._version = schema.SCHEMA_VERSION
        self._lock: lock.Held | None = None
        if not readonly:
            self._lock = lock.prepare(self.path)
        try:
            self._db = self._open()
        except BaseException:
            self._unlock()
            raise

    def _open(self) -> sqlite3.Connection:
        fresh = files.sniff(self.path)
        if fresh and self.readonly:
            raise StoreError(f"{self.path}: no such data file")
        if not self.readonly:
            files.check_writable(self.path)
            return self._connect(str(self.path), fresh=fresh)
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        # Looked at before SQLite's own try, which may leave an empty one.
        wal = _size(Path(f"{self.path}-wal"))
        try:
            return self._connect(uri, fresh=False)
        except (NoAccess, StorageFailed):
            # A file in WAL mode in a folder we may not write (a read-only
            # copy, a backup) or on a full disk: SQLite cannot make the -shm
            # beside it. With no -wal (or an empty one) there is nothing but the
            # file to read, and nobody can be writing it: read it as immutable.
            if wal:
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
            raise sqlite_problem(self.path, e, "cannot open: ") from None
        db.text_factory = self._text
        try:
            # SQLite's own page cache (2 MB by default) fills as the file grows
            # and is read, a game at a time over months of play: it showed as
            # the app's memory growing (bench/memory.py). Pages past it are
            # read again from the system's file cache, in a few microseconds.
            db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
            if fresh:
                schema.create(db)
                if not self.readonly:
                    chain.forget_tail(self.path)  # a tail of a file that is gone
            else:
                self._version = schema.check(db, self.path)
            if not self.readonly:  # only once the file is known to be ours and whole
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                if self._version < schema.SCHEMA_VERSION:
                    self._version = schema.migrate(db)
        except BaseException as e:
            db.close()
            if isinstance(e, sqlite3.Error):
                raise sqlite_problem(self.path, e, "cannot open: ") from None
            raise
        return db

    def _text(self, raw: bytes) -> str:
        """A stored text. One that is not UTF-8 (a bit flipped on the disk, a hand
        edit) is read with U+FFFD for its bad bytes and said in the log, instead of
        failing every read that meets it; a summary so read no longer matches and is
        made again from its log, and the log's own lines are checked as JSON."""
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            shown = raw.decode("utf-8", "replace")
            _log.warning("%s: a stored text is not UTF-8 (read as %r)", self.path, shown[:80])
            return shown

    def _unlock(self) -> None:
        key, self._lock = self._lock, None
        if key is not None:
            lock.unlock(key)

    def close(self) -> None:
        try:
            self._db.close()
        finally:
            self._unlock()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_or_set_aside(
    path: str | Path, *, clock: WallClock = utc_now
) -> tuple[Store, DataFileSetAside | None]:
    """The data file for the app, ready to write.

    A file that is not ours or that SQLite finds damaged is never written to:
    it is renamed beside itself (``games.sqlite.bad-20261122-101500``, local
    time) and a new file is started; the second value says so (a notice for
    the screen). Nothing else sets a file aside: a file in use by another
    process (:class:`~storage.errors.InUse`), one that cannot be read or
    written (:class:`~storage.errors.NoAccess`) or a full or failing disk
    (:class:`~storage.errors.StorageFailed`) raise, and the file stays where
    it is. The writer's lock is held throughout.
    """
    path = Path(path)
    hold = lock.prepare(path)
    try:
        files.clear_leftovers(path)
        try:
            return Store(path, clock=clock), None
        except (NotOurFile, DamagedFile) as e:
            problem = e
        aside = files.set_aside(path, clock(), str(problem))
        _log.warning("%s; it was set aside as %s and a new data file started; to save its "
                     "games: incan-companion recover %s", problem, aside, aside)  # fmt: skip
        if path.exists() and files.same_file(path, aside):
            hold = lock.start_anew(path, hold)  # the new file is locked before it is there
        return Store(path, clock=clock), DataFileSetAside(str(problem), aside.name)
    finally:
        lock.unlock(hold)


def _size(path: Path) -> int:
    """The size of the file at ``path``; 0 when there is none."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0
