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
from storage import chain
from storage.db import Tables, sqlite_errors

__all__ = ["GameInfo", "LogTables"]


@dataclass(frozen=True)
class GameInfo:
    """A stored game: its number, when it was started, and how many events it
    holds (undone ones and undos included)."""

    id: int
    created: str
    events: int


class LogTables(Tables):
    """The games and their events: fits :class:`companion.ports.GameLog`."""

    @sqlite_errors
    def new_game(self, start: Start) -> int:
        """A new game whose first event is ``start``; returns its number."""
        now = self._now()
        line = to_line(start)
        with self._transaction():
            cur = self._db.execute("INSERT INTO games (created) VALUES (?)", (now,))
            game = cur.lastrowid
            assert game is not None
            self._db.execute("INSERT INTO events VALUES (?, 0, ?, ?)", (game, line, now))
            digest = chain.next_hash(chain.first_hash(game), line.encode())
            self._chain(game, 0, digest)
        self._tail(game, 0, digest)
        return game

    @sqlite_errors
    def append(self, game: int, event: Event) -> None:
        """Store one accepted event durably (committed and synced on return)."""
        line = to_line(event)
        with self._transaction():
            seq = self._db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE game = ?", (game,)
            ).fetchone()[0]
            if seq == 0:
                raise NoSuchGameError(f"there is no game {game}")
            self._db.execute(
                "INSERT INTO events VALUES (?, ?, ?, ?)", (game, seq, line, self._now())
            )
            digest = chain.next_hash(self._last_hash(game, seq - 1), line.encode())
            self._chain(game, seq, digest)
        self._tail(game, seq, digest)

    def _last_hash(self, game: int, seq: int) -> bytes:
        row = self._db.execute(
            "SELECT hash FROM chain WHERE game = ? AND seq = ?", (game, seq)
        ).fetchone()
        if row is None:  # an old file's game read before its chain was made: start one
            return chain.first_hash(game)
        return bytes(row[0])

    def _chain(self, game: int, seq: int, digest: bytes) -> None:
        if self._version >= 3:
            self._db.execute("INSERT INTO chain VALUES (?, ?, ?)", (game, seq, digest))

    def _tail(self, game: int, seq: int, digest: bytes) -> None:
        """After the commit: the last event acknowledged, written down outside SQLite."""
        if self._version >= 3:
            chain.write_tail(self.path, chain.Tail(game, seq, digest))

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
        # One read of the rows for both the events and their proof (the chain's
        # hashes beside each line; none before schema 3).
        hashes = ("c.hash FROM events e LEFT JOIN chain c ON c.game = e.game AND c.seq = e.seq"
                  if self._version >= 3 else "NULL FROM events e")  # fmt: skip
        rows = self._db.execute(
            f"SELECT e.seq, typeof(e.line), CAST(e.line AS BLOB), {hashes} "
            "WHERE e.game = ? ORDER BY e.seq",
            (game,),
        ).fetchall()
        if not rows:
            raise NoSuchGameError(f"there is no game {game} in {self.path}")
        out = []
        for i, (_seq, kind, raw, _hash) in enumerate(rows):
            if kind != "text":
                what = {"null": "NULL", "blob": "a BLOB"}.get(str(kind), "a number")
                raise LogError(i, f"the stored line is {what}, not text")
            try:
                out.append(from_line(bytes(raw).decode("utf-8")))
            except UnicodeDecodeError:
                raise LogError(i, "the stored line is not UTF-8 text") from None
            except BadEvent as e:
                raise LogError(i, str(e)) from None
        if self._version >= 3:
            self._prove(game, [(game, seq, raw, digest) for seq, _kind, raw, digest in rows])
        return out

    def _prove(self, game: int, rows: list[tuple[int, int, bytes, bytes | None]]) -> None:
        """LogError unless the game's stored events are the ones written, all of
        them: its hash chain holds, and the last event acknowledged (the tail beside
        the file) is there. A game that fails is never replayed as a shorter one."""
        breaks = chain.verify(rows)
        if breaks:
            raise LogError(breaks[0].seq, f"{breaks[0]}: the stored log is not whole")
        tail = chain.read_tail(self.path)
        if tail is not None and tail.game == game:
            lost = chain.lost_tail(self._db, tail)
            if lost is not None:
                raise LogError(len(rows), f"{lost}: the stored log is not whole")

    def session(self, game: int) -> Session:
        return Session.replay(self.events(game))
