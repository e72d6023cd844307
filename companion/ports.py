"""What the core needs from the outside world, as typed ports.

The core imports no adapter. The composition root hands it objects that fit
these protocols: the SQLite store (``storage.store``) or
:class:`companion.memory.MemoryStore` for the stored data, one narrow port
per need (:class:`GameLog`, :class:`Settings`, :class:`Players`,
:class:`History`) with the exceptions every store raises alike; the gpiozero seat panel
(``hardware.panel``) or its mock; the camera scanner (``vision.scanner``) or
the virtual table; ``time.monotonic`` or :class:`companion.simulate.VirtualClock`;
Kivy's ``Clock.schedule_once`` or :func:`direct`.

Adapters call *into* the core through :class:`companion.inbox.Inbox`, whose
methods match :data:`SeatPress` and :class:`CardSink`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the ports only name these: importing them is their users' business
    from datetime import datetime

    from companion.choices import Choice
    from companion.events import Event, Start
    from companion.notices import CameraStatus, NotACard, TwoCardsInView
    from companion.players import Player
    from companion.session import Session
    from companion.stats import Played

__all__ = [
    "CardFeed",
    "CardSink",
    "Clock",
    "EventStore",
    "GameLog",
    "History",
    "MergeRefusedError",
    "NameTakenError",
    "NoSuchGameError",
    "NoSuchPlayerError",
    "Players",
    "Post",
    "SeatLights",
    "SeatPress",
    "Settings",
    "StoredDataError",
    "WallClock",
    "direct",
]

#: Seconds from an arbitrary start, never going back (``time.monotonic``).
Clock = Callable[[], float]

#: The date and time now, with its time zone (``datetime.now(UTC)``): when a
#: game was stored, when a player last sat. Only adapters ask for it.
WallClock = Callable[[], "datetime"]

#: Runs a callback on the UI thread, soon (Kivy's ``Clock.schedule_once``).
Post = Callable[[Callable[[], None]], None]

#: A seat's accepted press, from whatever thread the buttons report on.
SeatPress = Callable[[int, "Choice"], None]


def direct(fn: Callable[[], None]) -> None:
    """A :data:`Post` that runs the callback at once (tests, a single-threaded demo)."""
    fn()


class StoredDataError(Exception):
    """What a port of the stored data refuses; the message says why, in one line.

    Every store raises these same classes (the SQLite file and
    :class:`companion.memory.MemoryStore` alike); a store's own failures
    (a damaged file, a full disk) are subclasses of its own.
    """


class NoSuchGameError(StoredDataError, LookupError):
    """There is no stored game of that number."""


class NoSuchPlayerError(StoredDataError, LookupError):
    """There is no remembered player of that number."""


class NameTakenError(StoredDataError, ValueError):
    """Another player has that name already (a merge, not a rename, joins them)."""


class MergeRefusedError(StoredDataError, ValueError):
    """Two players who sat at the same game are two people, not one."""


class GameLog(Protocol):
    """Where every game's events are kept, durably, before they are shown."""

    def new_game(self, start: Start) -> int:
        """A new game beginning with ``start``; returns its number."""
        ...

    def append(self, game: int, event: Event) -> None:
        """Keep ``event`` durably (or raise: then nothing was kept).
        :class:`NoSuchGameError` for a game not stored."""
        ...

    def session(self, game: int) -> Session:
        """Game ``game`` replayed from its stored events (:class:`NoSuchGameError`)."""
        ...


class Settings(Protocol):
    """Small remembered values: a game's options beside its log (hidden
    tents, abandoned) and the device's own settings (language, sound)."""

    def option(self, game: int, name: str) -> str | None: ...

    def set_option(self, game: int, name: str, value: str) -> None: ...

    def setting(self, name: str) -> str | None: ...

    def set_setting(self, name: str, value: str) -> None: ...


class Players(Protocol):
    """The remembered group, beside the logs (a log keeps the names as played)."""

    def players(self) -> list[Player]:
        """The remembered players, the most recently seated first."""
        ...

    def link_players(self, game: int, names: Sequence[str]) -> None:
        """Seat i of ``game`` is the player named ``names[i]`` (made if new)."""
        ...

    def rename_player(self, player: int, name: str) -> None:
        """:class:`NameTakenError` when another player has ``name``;
        :class:`NoSuchPlayerError`; ``ValueError`` for an empty name."""
        ...

    def merge_players(self, keep: int, gone: int) -> None:
        """``gone``'s games become ``keep``'s; :class:`MergeRefusedError` when
        they sat at one table; ``ValueError`` for a player with themselves."""
        ...


class History(Protocol):
    """The games played, read back: newest first, with their summaries."""

    def unfinished(self) -> int | None:
        """The latest game not yet over, if any (:func:`companion.stats.latest_unfinished`)."""
        ...

    def history(self, first: int = 0, count: int | None = None) -> list[Played]:
        """Stored games that replay, newest first: ``count`` (None: all) from
        the ``first`` newest on."""
        ...

    def game_count(self) -> int: ...

    def delete_game(self, game: int) -> None:
        """Forget a game, its options and seat links (:class:`NoSuchGameError`)."""
        ...


class EventStore(GameLog, Settings, Players, History, Protocol):
    """The whole data file, as :class:`companion.games.Games` uses it."""

    def close(self) -> None: ...


class SeatLights(Protocol):
    """The seat LEDs: lit seats have chosen (the choice itself stays secret)."""

    def set_leds(self, lit: Collection[int]) -> None: ...

    def close(self) -> None: ...


class CardSink(Protocol):
    """What a card feed reports to (any thread)."""

    def card(self, card_id: str) -> None:
        """A card was placed on the scan spot."""
        ...

    def notice(self, reason: NotACard | TwoCardsInView) -> None:
        """Something in view that is not one card."""
        ...

    def camera(self, status: CameraStatus) -> None:
        """The camera's status changed."""
        ...


class CardFeed(Protocol):
    """A source of placed cards (the camera scanner) that runs on its own."""

    def start(self) -> None: ...

    def stop(self) -> None: ...
