"""A way back from a damaged data file: save what can be saved into a new one.

The damaged file is never written: it is copied (with its ``-wal``) into a
temporary folder and worked on there.

1. **REINDEX** on the copy: damage confined to an index (the usual kind after
   a torn write) is mended by building the indexes again from their tables.
2. If the copy still fails SQLite's integrity check, or cannot be opened, the
   log's rows that SQLite can still read are **salvaged** into a second copy:
   each table read forward from its first row and backward from its last,
   around the damaged pages (see :func:`_salvage`).
3. Each game found is then judged by its **hash chain** (schema 3) and by
   replaying it: *whole* when every event is there and chained; *in part* when
   its first events are (they are saved, up to the first event that is
   missing, altered or refused by the rules); *lost* when not even its start is.

What is saved goes into a new data file through the real :class:`Store`, game
by game, with its players linked by the names played.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from companion.events import BadEvent, Event, Start, from_line
from companion.session import LogError, Session
from storage import chain
from storage.errors import NoAccess, StoreError
from storage.store import Store

__all__ = ["Recovered", "Saved", "recover"]


@dataclass(frozen=True)
class Saved:
    """One game of the damaged file and what became of it."""

    game: int  # its number in the damaged file
    found: int  # events found for it
    saved: int  # events saved (0: lost)
    new: int | None  # its number in the new file
    why: str  # "" when whole; else what stopped the saving

    @property
    def whole(self) -> bool:
        return self.saved > 0 and self.saved == self.found and not self.why


@dataclass(frozen=True)
class Recovered:
    games: tuple[Saved, ...]
    steps: tuple[str, ...]  # what was done: "copied", "reindexed", "N rows read past ..."

    @property
    def anything(self) -> bool:
        return any(g.saved for g in self.games)


def recover(damaged: Path, out: Path) -> Recovered:
    """Save what can be saved of ``damaged`` into the new file ``out`` (which must
    not exist). ``damaged`` is only read."""
    if out.exists() or out.is_symlink():
        raise NoAccess(f"{out} exists already: name a new file for what is saved")
    try:
        found = os.stat(damaged)  # not is_file(), which says no for a loop of links too
    except FileNotFoundError:
        raise NoAccess(f"{damaged}: no such data file") from None
    except OSError as e:
        raise NoAccess(f"{damaged}: {e.strerror or e}") from None
    if not stat.S_ISREG(found.st_mode):
        # A folder or a named pipe there is no data file either, but is there.
        raise NoAccess(f"{damaged}: not a file")
    steps: list[str] = []
    with tempfile.TemporaryDirectory(prefix="incan-recover-") as tmp:
        copy = Path(tmp) / "copy.sqlite"
        for suffix in ("", "-wal"):
            if Path(f"{damaged}{suffix}").exists():
                shutil.copyfile(f"{damaged}{suffix}", f"{copy}{suffix}")
        steps.append("copied")
        source = _readable(copy, steps)
        if source is None:
            return Recovered((), tuple(steps))
        games = _games(source)
        source.close()
    return _write(games, out, steps)


def _readable(copy: Path, steps: list[str]) -> sqlite3.Connection | None:
    """The copy, reindexed if that mends it, else its rows salvaged into a new file."""
    try:
        db = sqlite3.connect(copy, isolation_level=None)
        db.text_factory = _text
        db.execute("REINDEX")
        steps.append("reindexed")
        if db.execute("PRAGMA integrity_check").fetchone()[0] == "ok":
            return db
        db.close()
    except sqlite3.Error:
        pass
    return _salvage(copy, steps)


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


#: The tables a game is saved from, with the columns read of each.
_SALVAGED = {"events": "game, seq, line", "chain": "game, seq, hash"}


def _salvage(copy: Path, steps: list[str]) -> sqlite3.Connection | None:
    """Every row SQLite can still read of the log's tables, into a new file.

    A damaged page stops a scan of its table: each table is read from its first
    row forward, and from its last row backward, until the damage, so only the
    rows on unreadable pages are lost. (This is what the sqlite3 shell's
    ``.dump`` does; its ``.recover`` would read page by page, but Debian's
    shell, and so Raspberry Pi OS's, is built without the page reader it needs:
    it fails with "SQL logic error" on any file.)"""
    try:
        damaged = sqlite3.connect(f"{copy.as_uri()}?mode=ro", uri=True, isolation_level=None)
        damaged.text_factory = _text
    except sqlite3.Error:
        steps.append("not readable as SQLite at all")
        return None
    rebuilt = sqlite3.connect(copy.with_name("salvaged.sqlite"), isolation_level=None)
    rebuilt.text_factory = _text
    found = 0
    for table, columns in _SALVAGED.items():
        rebuilt.execute(f"CREATE TABLE {table} ({columns})")
        rows = _rows(damaged, table, columns)
        rebuilt.executemany(f"INSERT INTO {table} VALUES (?, ?, ?)", rows)
        found += len(rows)
    damaged.close()
    steps.append(f"{found} rows read past the damage")
    return rebuilt


def _rows(db: sqlite3.Connection, table: str, columns: str) -> list[tuple[object, ...]]:
    """``table``'s readable rows, forward then backward around any damage."""
    rows: dict[int, tuple[object, ...]] = {}
    with contextlib.suppress(sqlite3.Error):
        for rowid, *values in db.execute(f"SELECT rowid, {columns} FROM {table} ORDER BY rowid"):
            rows[int(rowid)] = tuple(values)
    with contextlib.suppress(sqlite3.Error):
        for rowid, *values in db.execute(
            f"SELECT rowid, {columns} FROM {table} ORDER BY rowid DESC"
        ):
            if int(rowid) in rows:
                break
            rows[int(rowid)] = tuple(values)
    return [rows[k] for k in sorted(rows)]


def _games(db: sqlite3.Connection) -> list[tuple[int, list[tuple[int, bytes, bytes | None]]]]:
    """Every game's rows found: (game, [(seq, line, hash)]), by game then seq."""
    tables = {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "events" not in tables:
        return []
    join = ("LEFT JOIN chain c ON c.game = e.game AND c.seq = e.seq" if "chain" in tables
            else "")  # fmt: skip
    hashes = "c.hash" if "chain" in tables else "NULL"
    rows = db.execute(
        f"SELECT e.game, e.seq, CAST(e.line AS BLOB), {hashes} FROM events e {join} "
        "WHERE typeof(e.game) = 'integer' AND typeof(e.seq) = 'integer' ORDER BY e.game, e.seq"
    ).fetchall()
    games: dict[int, list[tuple[int, bytes, bytes | None]]] = {}
    for game, seq, line, digest in rows:
        kept = None if digest is None else bytes(digest)
        games.setdefault(int(game), []).append(
            (int(seq), b"" if line is None else bytes(line), kept)
        )
    return sorted(games.items())


def _saveable(game: int, rows: list[tuple[int, bytes, bytes | None]]) -> tuple[list[Event], str]:
    """The longest first part of a game that is chained (where a chain was kept) and
    replays; and what stopped it ("" for none)."""
    # A file from before the chain (no hash anywhere) is only checked for gaps.
    chained = any(digest is not None for _, _, digest in rows)
    breaks = chain.verify(((game, seq, line, digest) for seq, line, digest in rows), hashes=chained)
    whole = breaks[0].seq if breaks else len(rows)
    why = ""
    if breaks:
        why = (f"event {whole} is missing" if breaks[0].why == "missing"
               else f"event {whole} is not the one stored")  # fmt: skip
    events: list[Event] = []
    for seq, line, _digest in rows[:whole]:
        try:
            events.append(from_line(line.decode("utf-8")))
        except (UnicodeDecodeError, BadEvent) as e:
            why = f"event {seq} cannot be read ({e})"
            break
    try:
        if events:
            Session.replay(events)
    except LogError as e:
        events, why = events[: e.index], f"event {e.index} is refused: {e.reason}"
    if not events or not isinstance(events[0], Start):
        return [], why or "its start is missing"
    return events, why


def _write(
    games: list[tuple[int, list[tuple[int, bytes, bytes | None]]]], out: Path, steps: list[str]
) -> Recovered:
    saved: list[Saved] = []
    store: Store | None = None
    try:
        for game, rows in games:
            events, why = _saveable(game, rows)
            if not events:
                saved.append(Saved(game, len(rows), 0, None, why or "nothing readable"))
                continue
            if store is None:
                store = Store(out)
            start = events[0]
            assert isinstance(start, Start)
            new = store.new_game(start)
            store.link_players(new, start.seats)
            for event in events[1:]:
                store.append(new, event)
            saved.append(Saved(game, len(rows), len(events), new, why))
    except StoreError:
        if store is not None:
            store.close()
            store = None
        with contextlib.suppress(OSError):
            out.unlink()
        raise
    finally:
        if store is not None:
            store.close()
    return Recovered(tuple(saved), tuple(steps))
