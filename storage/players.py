"""The remembered group: players (a name with a colour) and which player sat
at each seat of a game. The logs keep the names as played; these tables say
who that was, so a rename or a merge shows in old games too."""

from __future__ import annotations

import logging
import sqlite3
import unicodedata
from collections.abc import Sequence

from companion.players import Player, colour_for
from companion.ports import (
    MergeRefusedError,
    NameTakenError,
    NoSuchGameError,
    NoSuchPlayerError,
)
from storage.db import Tables, sqlite_errors

__all__ = ["PlayerTables", "link"]

_log = logging.getLogger(__name__)


class PlayerTables(Tables):
    """Fits :class:`companion.ports.Players`."""

    @sqlite_errors
    def players(self) -> list[Player]:
        """The remembered players, the most recently seated first."""
        if self._version < 2:
            return []
        rows = self._db.execute(
            "SELECT id, CAST(name AS BLOB), colour, last_used FROM players "
            "ORDER BY last_used DESC, id DESC"
        ).fetchall()
        return [Player(int(i), self._name(int(i), n), str(c), str(u)) for i, n, c, u in rows]

    def _name(self, player: int, raw: bytes | str) -> str:
        """A stored name as text. One that is not UTF-8 (written by hand, or by a
        failing disk) is shown with U+FFFD where the bad bytes are, and named in the
        log, so the players and the statistics still show and it can be renamed."""
        if isinstance(raw, str):
            return raw
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            shown = raw.decode("utf-8", "replace")
            _log.warning("%s: player %d's name is not UTF-8 text (shown as %r): rename them "
                         "to mend it", self.path, player, shown)  # fmt: skip
            return shown

    @sqlite_errors
    def link_players(self, game: int, names: Sequence[str]) -> None:
        """Seat ``names[i]`` of ``game`` is the player of that name (a new one
        if nobody has it yet); each becomes the most recently seated."""
        with self._transaction():
            if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game,)).fetchone() is None:
                raise NoSuchGameError(f"there is no game {game} in {self.path}")
            link(self._db, game, names, self._now())

    @sqlite_errors
    def rename_player(self, player: int, name: str) -> None:
        """A new name for a player: old games show it too (their logs keep the
        name as played). Raises NameTakenError when another player has it."""
        name = unicodedata.normalize("NFC", name.strip())
        if not name:
            raise ValueError("a player's name cannot be empty")
        with self._transaction():
            self._player(player)
            taken = self._db.execute(
                "SELECT id FROM players WHERE name = ? AND id != ?", (name, player)
            ).fetchone()
            if taken is not None:
                raise NameTakenError(f"{name!r} is another player's name already")
            self._db.execute("UPDATE players SET name = ? WHERE id = ?", (name, player))

    @sqlite_errors
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
                raise MergeRefusedError(
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
            "SELECT id, CAST(name AS BLOB), colour, last_used FROM players WHERE id = ?",
            (player,),
        ).fetchone()
        if row is None:
            raise NoSuchPlayerError(f"there is no player {player} in {self.path}")
        return Player(int(row[0]), self._name(player, row[1]), str(row[2]), str(row[3]))


def link(db: sqlite3.Connection, game: int, names: Sequence[str], when: str) -> None:
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
