"""The history read model: the games played, newest first, with their
summaries and players, and the unfinished game to offer at start-up.

A game's summary is kept beside its log as a cache of
:func:`companion.stats.summarize`, standing for the game only while the game
has as many events as it was made from (:class:`companion.stats.Kept`);
which game is unfinished is the core's to say
(:func:`companion.stats.latest_unfinished`).
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path

from companion.ports import NoSuchGameError
from companion.session import LogError, Session
from companion.stats import GameSummary, Kept, Played, latest_unfinished, summarize
from storage import chain
from storage.db import sqlite_errors
from storage.log import LogTables

__all__ = ["HistoryTables", "Made", "make_summaries"]

_log = logging.getLogger(__name__)

#: A summary made by a replay, to keep: (game, its events, the summary).
Made = tuple[int, int, GameSummary]
_Made = Made


class HistoryTables(LogTables):
    """Fits :class:`companion.ports.History` (over the log it reads)."""

    #: The games whose hash chain this store has checked, with their count of
    #: events then: the app's statistics screen checks each game once, not at
    #: every opening (all 5,000 of bench/history.py take 1.2 s here).
    _proven: dict[int, int]

    def unfinished(self) -> int | None:
        """The most recent game that has not reached its end, if any.

        Only games whose kept summary is out of date are replayed (and their
        summaries kept, when the file is writable). A game whose log does not
        replay is passed over (and logged); a file that cannot be read raises.
        """
        made: list[_Made] = []

        def replay(game: int) -> GameSummary | None:
            replayed = self._replayed_summary(game)
            if replayed is None:
                return None
            made.append(replayed)
            return replayed[2]

        try:
            return latest_unfinished(self._kept(), replay)
        finally:
            self._keep_summaries(made)  # one transaction for all: one sync

    def _replayed_summary(self, game: int) -> _Made | None:
        """(game, events, summary) from replaying the game's log; None (logged)
        for a game whose log does not replay."""
        try:
            log = self.events(game)
            return game, len(log), summarize(Session.replay(log))
        except (LogError, NoSuchGameError) as e:
            _log.warning("game %d of %s does not replay: %s", game, self.path, e)
            return None

    @sqlite_errors
    def _kept(self) -> list[Kept]:
        """Every game, newest first, with what its kept summary was made from."""
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
        return [Kept(int(g), int(n or 0), s, bool(f)) for g, n, s, f in rows]

    @sqlite_errors
    def summary(self, game: int) -> GameSummary:
        """The game's summary: the stored one while it is current, else
        replayed (and stored, when writable). Raises like :meth:`events`."""
        events = self.events(game)
        if self._version >= 2:
            row = self._db.execute(
                "SELECT events, summary FROM summaries WHERE game = ?", (game,)
            ).fetchone()
            if row is not None and Kept(game, len(events), row[0]).current:
                try:
                    return GameSummary.from_json(str(row[1]))
                except (ValueError, KeyError, TypeError):
                    pass  # not what we wrote: made again below
        summary = summarize(Session.replay(events))
        self._keep_summaries([(game, len(events), summary)])
        return summary

    def _keep_summaries(self, made: Sequence[_Made]) -> None:
        """Cache summaries, best effort: a failed write costs only a replay later.

        A game deleted since its summary was made (by another thread's reader,
        :func:`make_summaries`) gets none."""
        if self.readonly or self._version < 2 or not made:
            return
        try:
            with self._transaction():
                self._db.executemany(
                    "INSERT OR REPLACE INTO summaries "
                    "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM games WHERE id = ?)",
                    [(g, n, int(s.finished), s.to_json(), g) for g, n, s in made],
                )
        except sqlite3.Error as e:
            _log.warning("keeping game summaries in %s: %s", self.path, e)

    def keep_summaries(self, made: Sequence[Made]) -> None:
        """Keep summaries made elsewhere (:func:`make_summaries`), in one transaction."""
        self._keep_summaries(made)

    def missing_summaries(self) -> list[int]:
        """The games, newest first, whose kept summary does not stand for their log
        (each needs a replay), when the file's schema can keep summaries; else none."""
        if self._version < 2:
            return []
        return [k.game for k in self._kept() if not k.current]

    @sqlite_errors
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
        broken = self._broken([(int(g), int(n or 0)) for g, _c, n, _s, _t in rows])
        out: list[Played] = []
        made: list[_Made] = []
        for game, created, events, summarized, text in rows:
            if game in broken:
                # A kept summary holds while the count of events does; only the
                # chain sees an event altered in place (which replay refuses).
                _log.warning("%s: %s: the game is left out", self.path, broken[game])
                continue
            summary: GameSummary | None = None
            if Kept(game, int(events or 0), summarized).current:
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

    def _broken(self, games: Sequence[tuple[int, int]]) -> dict[int, chain.Break]:
        """Of ``games`` (each with its count of events), those whose hash chain does
        not hold, with where it breaks: a hash of each line, far cheaper than a
        replay, and only of games not checked already at that count."""
        if self._version < 3:
            return {}
        unproven = {g for g, n in games if self._proven.get(g) != n}
        if not unproven:
            return {}
        rows = self._db.execute(
            "SELECT e.game, e.seq, CASE typeof(e.line) WHEN 'text' THEN CAST(e.line AS BLOB) "
            "END, c.hash FROM events e LEFT JOIN chain c ON c.game = e.game AND c.seq = e.seq "
            "WHERE e.game BETWEEN ? AND ? ORDER BY e.game, e.seq",
            (min(unproven), max(unproven)),
        )
        broken = {b.game: b for b in chain.verify(rows)}
        self._proven.update((g, n) for g, n in games if g in unproven and g not in broken)
        return broken

    @sqlite_errors
    def seat_players(self, game: int) -> tuple[str | None, ...]:
        """The current name of each seat's player (None: the seat has no player)."""
        seats = len(self.summary(game).seats)
        links = dict(self._db.execute(
            "SELECT s.seat, p.name FROM seats s JOIN players p ON p.id = s.player "
            "WHERE s.game = ?", (game,)))  # fmt: skip
        return tuple(links.get(i) for i in range(seats))

    @sqlite_errors
    def game_count(self) -> int:
        """How many games the file holds (those that do not replay too)."""
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    @sqlite_errors
    def delete_game(self, game: int) -> None:
        """Remove a game: its events, options, seat links and summary, in one
        transaction (a power cut leaves the game whole or gone, never half)."""
        with self._transaction():
            if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise NoSuchGameError(f"there is no game {game} in {self.path}")
            prefix = f"game.{game}."
            self._db.execute("DELETE FROM events WHERE game = ?", (game,))
            self._db.execute(
                "DELETE FROM meta WHERE substr(key, 1, ?) = ?", (len(prefix), prefix)
            )
            if self._version >= 2:
                self._db.execute("DELETE FROM seats WHERE game = ?", (game,))
                self._db.execute("DELETE FROM summaries WHERE game = ?", (game,))
            if self._version >= 3:
                self._db.execute("DELETE FROM chain WHERE game = ?", (game,))
            self._db.execute("DELETE FROM games WHERE id = ?", (game,))
        tail = chain.read_tail(self.path)
        if tail is not None and tail.game == game:
            chain.forget_tail(self.path)  # the last game stored is gone, with its end


def make_summaries(path: Path, games: Sequence[int], batch: int = 50) -> Iterator[list[Made]]:
    """The summaries of ``games`` (:meth:`HistoryTables.missing_summaries`), ``batch``
    at a time, replayed through a read-only connection of its own: for a thread
    other than the writer's, which keeps them (:meth:`HistoryTables.keep_summaries`).
    A game that does not replay (or is gone) is left out (logged); every batch is
    yielded, even an empty one, so that the caller can count ``batch`` games a step.
    Raises like a read-only :class:`~storage.store.Store` for a file that cannot be read.
    """
    from storage.store import Store  # the store is made of these tables

    with Store(path, readonly=True) as reader:
        for start in range(0, len(games), batch):
            made = (reader._replayed_summary(g) for g in games[start : start + batch])
            yield [m for m in made if m is not None]
