"""The data file's tables: made new, checked on every open, migrated forward.

Every open checks the whole file (``PRAGMA integrity_check``: the tables and
their indexes) before anything is written to it; a file that is not ours,
newer, or damaged raises before a byte changes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from companion.events import BadEvent, Start, from_line
from companion.text import one_line
from storage import chain
from storage.db import Transaction
from storage.errors import DamagedFile, NewerFile, NotOurFile
from storage.players import link

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "check", "create", "migrate"]

APPLICATION_ID = 0x49474331  # "IGC1": marks the file as ours in the SQLite header
SCHEMA_VERSION = 3  # 2: players, seat links and game summaries; 3: the log's hash chain

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
# Added by schema 3: each event's hash, chained to the one before (storage/chain.py).
# A table beside the events, so that no event row is ever rewritten.
_SCHEMA_3 = """
CREATE TABLE chain (
    game INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    hash BLOB NOT NULL,
    PRIMARY KEY (game, seq)
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
_TABLES_3 = {"chain": (("game", 1), ("seq", 2), ("hash", 0))}
# The most problems integrity_check lists (it stops looking after these).
_MAX_PROBLEMS = 10


def create(db: sqlite3.Connection) -> None:
    """The tables of a new data file, marked as ours, at the current schema."""
    with Transaction(db):
        _execute(db, _SCHEMA + _SCHEMA_2 + _SCHEMA_3)
        db.execute(f"PRAGMA application_id={APPLICATION_ID}")
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        db.execute("INSERT INTO meta VALUES ('app', 'incan-companion')")


def check(db: sqlite3.Connection, path: Path) -> int:
    """Ours, not newer, our tables, and whole (nothing is written before this);
    the schema version the file holds."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    if app_id != APPLICATION_ID:
        raise NotOurFile(f"{path} is a SQLite file of another program, not a data file")
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise NewerFile(f"{path} was written by a newer version of incan-companion (schema "
                        f"{version}; this one reads {SCHEMA_VERSION} at most): update the app "
                        "to use it")
    tables = {**_TABLES, **(_TABLES_2 if version >= 2 else {}),
              **(_TABLES_3 if version >= 3 else {})}  # fmt: skip
    for table, columns in tables.items():
        found = tuple((str(r[1]), int(r[5])) for r in db.execute(f"PRAGMA table_info({table})"))
        if found != columns:
            raise NotOurFile(f"{path} has the mark of a data file but not its tables "
                             f"({table})")  # fmt: skip
    # integrity_check, not quick_check: it also compares every index with
    # its table (a damaged key index hides rows from a game's replay).
    verdict = [str(r[0]) for r in db.execute(f"PRAGMA integrity_check({_MAX_PROBLEMS})")]
    if verdict != ["ok"]:
        raise DamagedFile(f"{path} is damaged: {_verdict(verdict)}")
    return version


def migrate(db: sqlite3.Connection) -> int:
    """Forward only, each step in one transaction (a power cut leaves the file
    at the step before, and the next open does it again). 1 to 2: the new
    tables, and every stored game's seats linked to players by the names
    played. 2 to 3: the hash chain of every stored event. The schema version
    the file now holds."""
    version = int(db.execute("PRAGMA user_version").fetchone()[0])
    if version < 2:
        with Transaction(db):
            _execute(db, _SCHEMA_2)
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
                    link(db, int(game), start.seats, str(created))
            db.execute("PRAGMA user_version=2")
    if version < 3:
        with Transaction(db):
            _execute(db, _SCHEMA_3)
            game, previous = None, b""
            chained = []
            events = db.execute(
                "SELECT game, seq, CAST(line AS BLOB) FROM events ORDER BY game, seq"
            )
            for g, seq, line in events:
                if g != game:
                    game, previous = g, chain.first_hash(g)
                previous = chain.next_hash(previous, b"" if line is None else bytes(line))
                chained.append((g, seq, previous))
            db.executemany("INSERT INTO chain VALUES (?, ?, ?)", chained)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    return SCHEMA_VERSION


def _execute(db: sqlite3.Connection, script: str) -> None:
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _verdict(problems: Sequence[str]) -> str:
    """integrity_check's list of problems as one line (its rows hold line breaks)."""
    shown = "; ".join(one_line(p, 120) for p in problems[:3])
    more = len(problems) - 3
    if more > 0:
        shown += f" (and {more}{'+' if len(problems) >= _MAX_PROBLEMS else ''} more)"
    return one_line(shown)
