"""An :class:`~companion.ports.EventStore` that keeps everything in memory.

The fake of the SQLite store, for examples and tests that are about the
table, not the file: it keeps the same promises (a refused start writes
nothing; ``session`` replays what was appended; the same exceptions of
:mod:`companion.ports`) without durability. ``tests/test_store_contract.py``
holds both to them.

>>> from companion.events import Draw, Start
>>> store = MemoryStore()
>>> game = store.new_game(Start(("Ana", "Bo", "Cy")))
>>> store.append(game, Draw("T7A"))
>>> store.session(game).state.seats[0].hand, store.unfinished() == game
(2, True)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from companion.events import Event, Start
from companion.players import Player, colour_for
from companion.ports import (
    MergeRefusedError,
    NameTakenError,
    NoSuchGameError,
    NoSuchPlayerError,
)
from companion.session import Session
from companion.stats import Kept, Played, latest_unfinished, summarize

__all__ = ["MemoryStore"]

_EPOCH = datetime(2026, 11, 23, 18, 0, tzinfo=UTC)


class MemoryStore:
    """Games, options and settings in dictionaries; ``fail_appends`` makes
    every append raise ``OSError`` (a full disk, a pulled card)."""

    def __init__(self) -> None:
        self._games: dict[int, list[Event]] = {}
        self._options: dict[tuple[int, str], str] = {}
        self._settings: dict[str, str] = {}
        self._players: dict[int, Player] = {}
        self._seats: dict[int, dict[int, int]] = {}  # game -> seat -> player
        self._next_game = 1
        self._clock = 0  # stands in for the time a player was last seated
        self.fail_appends = False
        self.closed = False

    def new_game(self, start: Start) -> int:
        game = self._next_game
        self._next_game += 1
        self._games[game] = [start]
        return game

    def append(self, game: int, event: Event) -> None:
        if self.fail_appends:
            raise OSError(28, "No space left on device")
        self._log(game).append(event)

    def session(self, game: int) -> Session:
        return Session.replay(self._log(game))

    def unfinished(self) -> int | None:
        # No summary is kept here: every game is replayed.
        newest = [Kept(game, len(self._games[game])) for game in sorted(self._games, reverse=True)]
        return latest_unfinished(newest, lambda game: summarize(self.session(game)))

    def option(self, game: int, name: str) -> str | None:
        return self._options.get((game, name))

    def set_option(self, game: int, name: str, value: str) -> None:
        self._options[(game, name)] = value

    def setting(self, name: str) -> str | None:
        return self._settings.get(name)

    def set_setting(self, name: str, value: str) -> None:
        self._settings[name] = value

    def close(self) -> None:
        self.closed = True

    def players(self) -> list[Player]:
        return sorted(self._players.values(), key=lambda p: (p.last_used, p.id), reverse=True)

    def link_players(self, game: int, names: Sequence[str]) -> None:
        self._log(game)
        self._clock += 1
        when = f"{self._clock:08d}"
        by_name = {p.name: p for p in self._players.values()}
        for seat, name in enumerate(names):
            found = by_name.get(name)
            if found is None:
                pid = max(self._players, default=0) + 1
                colour = colour_for([p.colour for p in self._players.values()])
                found = Player(pid, name, colour, when)
            self._players[found.id] = Player(found.id, name, found.colour, when)
            self._seats.setdefault(game, {})[seat] = found.id

    def rename_player(self, player: int, name: str) -> None:
        name = unicodedata.normalize("NFC", name.strip())
        if not name:
            raise ValueError("a player's name cannot be empty")
        old = self._player(player)
        if any(p.name == name and p.id != player for p in self._players.values()):
            raise NameTakenError(f"{name!r} is another player's name already")
        self._players[player] = Player(player, name, old.colour, old.last_used)

    def merge_players(self, keep: int, gone: int) -> None:
        if keep == gone:
            raise ValueError("a player cannot be merged with themselves")
        kept, lost = self._player(keep), self._player(gone)
        if any({keep, gone} <= set(seats.values()) for seats in self._seats.values()):
            raise MergeRefusedError(f"{kept.name!r} and {lost.name!r} sat at the same table")
        for seats in self._seats.values():
            for seat, pid in seats.items():
                if pid == gone:
                    seats[seat] = keep
        del self._players[gone]
        last = max(kept.last_used, lost.last_used)
        self._players[keep] = Player(keep, kept.name, kept.colour, last)

    def history(self, first: int = 0, count: int | None = None) -> list[Played]:
        out = []
        newest = sorted(self._games, reverse=True)
        for game in newest[first : None if count is None else first + count]:
            summary = summarize(self.session(game))
            links = self._seats.get(game, {})
            players = tuple(
                self._players[links[i]].name if i in links else seat.name
                for i, seat in enumerate(summary.seats)
            )
            out.append(Played(game, self._created(game), summary, players))
        return out

    def game_count(self) -> int:
        return len(self._games)

    @staticmethod
    def _created(game: int) -> str:
        # No clock in the core: a game "began" a minute after the one before.
        return (_EPOCH + timedelta(minutes=game)).isoformat(timespec="milliseconds")

    def delete_game(self, game: int) -> None:
        self._log(game)
        del self._games[game]
        self._seats.pop(game, None)
        for key in [k for k in self._options if k[0] == game]:
            del self._options[key]

    def _log(self, game: int) -> list[Event]:
        try:
            return self._games[game]
        except KeyError:
            raise NoSuchGameError(f"there is no game {game}") from None

    def _player(self, player: int) -> Player:
        try:
            return self._players[player]
        except KeyError:
            raise NoSuchPlayerError(f"there is no player {player}") from None
