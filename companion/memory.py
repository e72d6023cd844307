"""An :class:`~companion.ports.EventStore` that keeps everything in memory.

The fake of the SQLite store, for examples and tests that are about the
table, not the file: it keeps the same promises (a refused start writes
nothing; ``session`` replays what was appended) without durability.

>>> from companion.events import Draw, Start
>>> store = MemoryStore()
>>> game = store.new_game(Start(("Ana", "Bo", "Cy")))
>>> store.append(game, Draw("T7A"))
>>> store.session(game).state.seats[0].hand, store.unfinished() == game
(2, True)
"""

from __future__ import annotations

from companion.engine import Phase
from companion.events import Event, Start
from companion.session import Session

__all__ = ["MemoryStore", "NoSuchGame"]


class NoSuchGame(LookupError):
    pass


class MemoryStore:
    """Games, options and settings in dictionaries; ``fail_appends`` makes
    every append raise ``OSError`` (a full disk, a pulled card)."""

    def __init__(self) -> None:
        self._games: dict[int, list[Event]] = {}
        self._options: dict[tuple[int, str], str] = {}
        self._settings: dict[str, str] = {}
        self.fail_appends = False
        self.closed = False

    def new_game(self, start: Start) -> int:
        game = len(self._games) + 1
        self._games[game] = [start]
        return game

    def append(self, game: int, event: Event) -> None:
        if self.fail_appends:
            raise OSError(28, "No space left on device")
        self._log(game).append(event)

    def session(self, game: int) -> Session:
        return Session.replay(self._log(game))

    def unfinished(self) -> int | None:
        for game in sorted(self._games, reverse=True):
            if self.session(game).state.phase is not Phase.GAME_OVER:
                return game
        return None

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

    def _log(self, game: int) -> list[Event]:
        try:
            return self._games[game]
        except KeyError:
            raise NoSuchGame(f"there is no game {game}") from None
