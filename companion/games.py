"""The game lifecycle: which game the table plays, and what it keeps beside it.

:class:`Games` starts a new game or resumes a stored one, finds the
unfinished game to offer at start-up, keeps the per-game options (hidden
tents) and the device's remembered settings (the chosen language), and
lights the seat LEDs from the current turn. It is the one object the
touchscreen app talks to about games; the composition root builds it with
the real store and seat lights, the tests with fakes.

>>> from companion.events import Start
>>> from companion.memory import MemoryStore
>>> games = Games(MemoryStore())
>>> table = games.new_game(Start(("Ana", "Bo", "Cy")), hidden_tents=True)
>>> games.table is table, games.hidden_tents(table.game), games.unfinished()
(True, True, 1)
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TypeVar

from companion.choices import DEFAULT_COUNTDOWN
from companion.events import Start
from companion.notices import CameraStatus, Failed, Level, Reason, Step
from companion.players import Player
from companion.ports import Clock, EventStore, SeatLights
from companion.remembered import GameOption, Remembered, SettingKey, flag, recall, remember
from companion.session import Session
from companion.stats import Played
from companion.table import Table

__all__ = ["ABANDONED", "HIDDEN_TENTS", "LANGUAGE", "LAST_TABLE", "Games", "best_effort"]

_log = logging.getLogger(__name__)

# The stored names, as before (companion.remembered holds them all).
HIDDEN_TENTS = GameOption.HIDDEN_TENTS
ABANDONED = GameOption.ABANDONED
HELD = GameOption.HELD
PRESSED = GameOption.PRESSED
LANGUAGE = SettingKey.LANGUAGE
LAST_TABLE = SettingKey.LAST_TABLE
SOUND_VOLUME = SettingKey.SOUND_VOLUME
SOUND_MUTED = SettingKey.SOUND_MUTED
ODDS = SettingKey.ODDS
DECK = SettingKey.DECK

T = TypeVar("T")


def best_effort(doing: str, step: Callable[[], T], otherwise: T) -> T:
    """``step()``, or ``otherwise`` when it fails (logged as ``doing``): for
    what goes beside a game, which must never stop it (a setting that cannot
    be read or kept, a list the screen can show empty)."""
    try:
        return step()
    except Exception:
        _log.exception(doing)
        return otherwise


def _beside_the_log(table: Table) -> dict[GameOption, str]:
    """The game's options a restart needs that are no events: the card that
    waits, and whether a person has pressed in the turn now due (a bot's
    choice comes again by itself)."""
    pressed = any(seat not in table.bots for seat in table.collector.chosen)
    return {HELD: table.held or "", PRESSED: "1" if pressed else ""}


def _os_seed() -> int:
    """64 bits from the OS: every game with bots rolls differently."""
    return int.from_bytes(os.urandom(8), "big")


class Games:
    """The current :class:`~companion.table.Table` and the games behind it.

    ``lights`` are the seat LEDs (None: there are none). ``startup`` are
    notices from building the device (a missing camera, no GPIO) that every
    game's status line shows first. ``entropy`` gives a new game with bots
    its seed (the OS's randomness; a test passes its own).
    """

    def __init__(
        self,
        store: EventStore,
        *,
        countdown: float = DEFAULT_COUNTDOWN,
        clock: Clock = time.monotonic,
        hidden_tents: bool = False,
        lights: SeatLights | None = None,
        camera: CameraStatus = CameraStatus.NO_CAMERA,
        startup: Iterable[tuple[Reason, Level]] = (),
        entropy: Callable[[], int] = _os_seed,
    ) -> None:
        self.store = store
        self.entropy = entropy  # a new game's bot seed
        self.countdown = countdown
        self.clock = clock
        self.hidden_tents_default = hidden_tents
        self.lights = lights
        self.camera = camera
        self.startup = tuple(startup)
        self.table: Table | None = None
        self._unlisten: Callable[[], None] | None = None
        #: (made, of) while the games' summaries are made off the UI thread (the
        #: first start after a migration): until then no unfinished game is known.
        self.building: tuple[int, int] | None = None

    # --- games -------------------------------------------------------------------

    def new_game(self, start: Start, *, hidden_tents: bool | None = None) -> Table:
        """Start a new game in the store and make it the table's game.

        Raises :class:`~companion.engine.RuleError` for a start the rules
        refuse (nothing is stored then).
        """
        if start.bots and start.seed is None:
            start = replace(start, seed=self.entropy())
        table = Table.new(self.store, start, countdown=self.countdown, clock=self.clock)
        hidden = self.hidden_tents_default if hidden_tents is None else hidden_tents

        def beside() -> None:
            self.store.set_option(table.game, HIDDEN_TENTS, flag(hidden))
            # The seats' players, beside the log (which keeps the names as played).
            self.store.link_players(table.game, start.seats)
            # The next set-up offers the same table.
            remember(self.store, last_table=start.seats, deck=start.deck)

        # The game is stored already: what goes beside it must not undo that.
        best_effort("remembering the game's options", beside, None)
        self._use(table)
        return table

    def resume(self, game: int) -> Table:
        """Continue a stored game (raises what the store raises for a bad one)."""
        pressed = best_effort("reading whether a choice was pressed",
                              lambda: self.store.option(game, PRESSED), None)  # fmt: skip
        # An option never written (a file of an older version) says nothing: tell them.
        table = Table.resume(self.store, game, countdown=self.countdown, clock=self.clock,
                             pressed=pressed != "")  # fmt: skip
        held = best_effort("reading the card that was waiting",
                           lambda: self.store.option(game, HELD), None)  # fmt: skip
        if held and not table.hold_again(held):
            _log.info("game %s: the card that was waiting (%s) can no longer come", game, held)
        self._use(table)
        return table

    def unfinished(self) -> int | None:
        """The latest game not yet over and not abandoned, to offer at start-up
        (None on any failure, and while the summaries are being made: finding
        it would replay every game on the caller's thread)."""
        if self.building is not None:
            return None

        def offered() -> int | None:
            game = self.store.unfinished()
            if game is not None and self.store.option(game, ABANDONED) == flag(True):
                return None
            return game

        return best_effort("looking for an unfinished game", offered, None)

    def leave(self, *, abandon: bool = False) -> None:
        """The table leaves the current game (the menu's new game or abandon).

        The game stays in the data file either way; an abandoned one is not
        offered to resume.

        >>> from companion.memory import MemoryStore
        >>> games = Games(MemoryStore())
        >>> _ = games.new_game(Start(("Ana", "Bo", "Cy")))
        >>> games.leave(abandon=True); games.table, games.unfinished()
        (None, None)
        """
        table = self.table
        if table is None:
            return
        if abandon:
            best_effort("marking the game abandoned",
                        lambda: self.store.set_option(table.game, ABANDONED, flag(True)), None)
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None
        table.close()
        self.table = None
        lights = self.lights
        if lights is not None:
            best_effort("seat LEDs", lambda: lights.set_leds(()), None)

    def session(self, game: int) -> Session:
        return self.store.session(game)

    def hidden_tents(self, game: int) -> bool:
        """Whether the table chose hidden tents for ``game`` (the default for a
        game stored before the option was kept)."""
        said = best_effort("reading the game's options",
                           lambda: self.store.option(game, HIDDEN_TENTS), None)  # fmt: skip
        return self.hidden_tents_default if said is None else said == flag(True)

    # --- the device's remembered settings -----------------------------------------------

    def remembered(self, doing: str) -> Remembered:
        """The device's settings (the defaults on a failure, logged as ``doing``)."""
        return best_effort(doing, lambda: recall(self.store), Remembered())

    def sound(self, volume: float, muted: bool) -> tuple[float, bool]:
        """The sound settings chosen in the menu, else the given defaults."""
        said = self.remembered("reading the sound settings")
        return (
            volume if said.volume is None else said.volume,
            muted if said.muted is None else said.muted,
        )

    def last_deck(self) -> str:
        """The edition of the box the last game used (the default before any).

        >>> from companion.memory import MemoryStore
        >>> games = Games(MemoryStore())
        >>> _ = games.new_game(Start(("Ana", "Bo", "Cy"), deck="14-treasures"))
        >>> games.last_deck()
        '14-treasures'
        """
        return self.remembered("reading the last deck").deck

    def odds_shown(self) -> bool:
        """Whether the table chose to see the odds of the next card (off until it does)."""
        return self.remembered("reading the odds setting").odds

    def remember_odds(self, shown: bool) -> None:
        best_effort("storing the odds setting", lambda: remember(self.store, odds=shown), None)

    def remember_sound(self, volume: float, muted: bool) -> None:
        best_effort("storing the sound settings",
                    lambda: remember(self.store, volume=volume, muted=muted), None)  # fmt: skip

    def chosen_language(self) -> str | None:
        """The language last picked on the set-up screen, if any."""
        return self.remembered("reading the chosen language").language

    def remember_language(self, code: str) -> None:
        # On a failure it is still used for this run.
        best_effort("storing the chosen language",
                    lambda: remember(self.store, language=code), None)  # fmt: skip

    def last_table(self) -> tuple[str, ...]:
        """The names of the last table that started a game (empty: none yet).

        >>> from companion.memory import MemoryStore
        >>> games = Games(MemoryStore())
        >>> _ = games.new_game(Start(("Zofia", "Íñigo", "さくら", "Bo")))
        >>> games.last_table()
        ('Zofia', 'Íñigo', 'さくら', 'Bo')
        """
        return self.remembered("reading the last table").last_table

    # --- the group and its history ----------------------------------------------------

    def players(self) -> tuple[Player, ...]:
        """The remembered players, the most recently seated first (none on a failure)."""
        return best_effort("reading the players", lambda: tuple(self.store.players()), ())

    def rename_player(self, player: int, name: str) -> None:
        """Raises what the store raises (a name another player has)."""
        self.store.rename_player(player, name)

    def merge_players(self, keep: int, gone: int) -> None:
        self.store.merge_players(keep, gone)

    def history(self, first: int = 0, count: int | None = None) -> tuple[Played, ...]:
        """Stored games, newest first: ``count`` (None: all) from the ``first``
        newest on (none on a failure)."""
        return best_effort("reading the history",
                           lambda: tuple(self.store.history(first, count)), ())  # fmt: skip

    def game_count(self) -> int:
        return best_effort("counting the games", self.store.game_count, 0)

    def delete_game(self, game: int) -> None:
        """Forget a stored game (not the one at the table)."""
        if self.table is not None and self.table.game == game:
            raise ValueError("the game at the table cannot be deleted")
        self.store.delete_game(game)

    # --- the camera's status ----------------------------------------------------------

    def set_camera(self, status: CameraStatus) -> None:
        self.camera = status
        if self.table is not None:
            self.table.set_camera(status)

    # --- the current table ------------------------------------------------------------

    def _use(self, table: Table) -> None:
        if self._unlisten is not None:
            self._unlisten()
        if self.table is not None:
            self.table.close()
        self.table = table
        table.set_camera(self.camera)
        for reason, level in self.startup:
            table.say(reason, level, lasting=True)
        # What a restart needs beyond the log, written when it changes: a new
        # table has nobody pressed, and its presses (if resumed) were told.
        kept = _beside_the_log(table)
        self._keep(table.game, PRESSED, "")

        def changed(table: Table) -> None:
            self._show_lights(table)
            for name, value in _beside_the_log(table).items():
                if kept[name] != value:  # the pressed flag: twice a turn at most
                    kept[name] = value
                    self._keep(table.game, name, value)

        self._unlisten = table.listen(changed)
        self._show_lights(table)

    def _keep(self, game: int, name: GameOption, value: str) -> None:
        best_effort(f"keeping the game's {name} option",
                    lambda: self.store.set_option(game, name, value), None)  # fmt: skip

    def _show_lights(self, table: Table) -> None:
        if self.lights is None:
            return
        try:
            self.lights.set_leds(table.collector.leds())
        except Exception as e:
            _log.exception("seat LEDs")
            self.lights = None  # one notice, not one per change
            table.say(Failed(Step.SEAT_LIGHTS, str(e)), "error", lasting=True)

    def close(self) -> None:
        """Stop the current turn (the store and the lights are the caller's)."""
        if self.table is not None:
            self.table.close()
