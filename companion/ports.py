"""What the core needs from the outside world, as typed ports.

The core imports no adapter. The composition root hands it objects that fit
these protocols: the SQLite store (``incan_companion.store``) or
:class:`companion.memory.MemoryStore`; the gpiozero seat panel
(``hardware.panel``) or its mock; the camera scanner (``vision.scanner``) or
the virtual table; ``time.monotonic`` or :class:`companion.simulate.VirtualClock`;
Kivy's ``Clock.schedule_once`` or :func:`direct`.

Adapters call *into* the core through :class:`companion.inbox.Inbox`, whose
methods match :data:`SeatPress` and :class:`CardSink`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Protocol

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
    "Post",
    "SeatLights",
    "SeatPress",
    "direct",
]

#: Seconds from an arbitrary start, never going back (``time.monotonic``).
Clock = Callable[[], float]

#: Runs a callback on the UI thread, soon (Kivy's ``Clock.schedule_once``).
Post = Callable[[Callable[[], None]], None]

#: A seat's accepted press, from whatever thread the buttons report on.
SeatPress = Callable[[int, Choice], None]


def direct(fn: Callable[[], None]) -> None:
    """A :data:`Post` that runs the callback at once (tests, a single-threaded demo)."""
    fn()


class EventStore(Protocol):
    """Where every game's events are kept, durably, before they are shown."""

    def new_game(self, start: Start) -> int:
        """A new game beginning with ``start``; returns its number."""
        ...

    def append(self, game: int, event: Event) -> None:
        """Keep ``event`` durably (or raise: then nothing was kept)."""
        ...

    def session(self, game: int) -> Session:
        """Game ``game`` replayed from its stored events."""
        ...

    def unfinished(self) -> int | None:
        """The latest game not yet over, if any."""
        ...

    def option(self, game: int, name: str) -> str | None: ...

    def set_option(self, game: int, name: str, value: str) -> None: ...

    def setting(self, name: str) -> str | None: ...

    def set_setting(self, name: str, value: str) -> None: ...

    def close(self) -> None: ...

    # -- the group and its history (beside the logs, never inside them) --

    def players(self) -> list[Player]:
        """The remembered players, the most recently seated first."""
        ...

    def link_players(self, game: int, names: Sequence[str]) -> None:
        """Seat i of ``game`` is the player named ``names[i]`` (made if new)."""
        ...

    def rename_player(self, player: int, name: str) -> None: ...

    def merge_players(self, keep: int, gone: int) -> None: ...

    def history(self, first: int = 0, count: int | None = None) -> list[Played]:
        """Stored games that replay, newest first: ``count`` (None: all) from
        the ``first`` newest on."""
        ...

    def game_count(self) -> int: ...

    def delete_game(self, game: int) -> None: ...


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
