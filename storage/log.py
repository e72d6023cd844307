"""The event log: every game's events, one row each, appended and read back.

Each accepted event is committed (and synced to the card) before the app
shows it, so a power cut loses nothing that was on screen. No migration ever
rewrites a row of it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.events import BadEvent, Event, Start, from_line, to_line
from companion.ports import NoSuchGameError
from companion.session import LogError, Session
from storage.db import Tables, sqlite_errors

__all__ = ["GameInfo", "LogTables"]


@dataclass(frozen=True)
class GameInfo:
    id: int
    created: str
    events: int


class LogTables(Tables):
    """The games and their events: fits :class:`companion.ports.GameLog`."""

    @sqlite_errors
    def new_game(self, start: Start) -> int:
        """A new game whose first event is ``start``; returns its number."""
        now = self._now()
        with self._transaction():
            cur = self._db.execute("INSERT INTO games (created) VALUES (?)", (now,))
            game = cur.lastrowid
            assert game is not None
            self._db.execute(
                "INSERT INTO events VALUES (?, 0, ?, ?)", (game, to_line(start), now)
            )
        return game

    @sqlite_errors
    def append(self, game: int, event: Event) -> None:
        """Store one accepted event durably (committed and synced on return)."""
        with self._transaction():
            seq = self._db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE game = ?", (game,)
            ).fetchone()[0]
            if seq == 0:
                raise NoSuchGameError(f"there is no game {game}")
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?)", (game, seq, to_line(event), self._now())
            )

    @sqlite_errors
    def games(self) -> list[GameInfo]:
        rows = self._db.execute(
            "SELECT g.id, g.created, COUNT(e.seq) FROM games g "
            "LEFT JOIN events e ON e.game = g.id GROUP BY g.id ORDER BY g.id"
        ).fetchall()
        return [GameInfo(*row) for row in rows]

    @sqlite_errors
    def latest(self) -> int:
        row = self._db.execute("SELECT MAX(id) FROM games").fetchone()
        if row[0] is None:
            raise NoSuchGameError(f"{self.path} holds no game yet")
        return int(row[0])

    @sqlite_errors
    def events(self, game: int) -> list[Event]:
        """The stored log of a game; a line that does not parse raises LogError
        (as does a stored value that is not a line of UTF-8 text: NULL, a BLOB)."""
        if not -(2**63) <= game < 2**63:
            raise NoSuchGameError(f"there is no game {game} in {self.path}")
        rows = self._db.execute(
            "SELECT typeof(line), CAST(line AS BLOB) FROM events WHERE game = ? ORDER BY seq",
            (game,),
        ).fetchall()
        if not rows:
            raise NoSuchGameError(f"there is no game {game} in {self.path}")
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

    def session(self, game: int) -> Session:
        return Session.replay(self.events(game))
