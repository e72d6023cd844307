"""Adapter input on its way to the table, on the UI thread.

Seat presses arrive on gpiozero's threads and cards on the scanner's
thread; the :class:`~companion.table.Table` must only be touched from one
thread. :class:`Inbox` is what adapters call: every method hands its work to
the injected ``post`` (Kivy's ``Clock.schedule_once`` in the app,
:func:`~companion.ports.direct` in tests and the stepped demo) and, there,
applies it to the current table. An input that fails becomes a notice; it
never ends the app.

>>> from companion.events import Start
>>> from companion.memory import MemoryStore
>>> from companion.ports import direct
>>> games = Games(MemoryStore())
>>> table = games.new_game(Start(("Ana", "Bo", "Cy")))
>>> inbox = Inbox(games, direct)
>>> inbox.card("t9"); [s.hand for s in table.state.seats]
[3, 3, 3]
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from companion.choices import Choice
from companion.games import Games
from companion.notices import CameraStatus, Failed, NotACard, Step, TwoCardsInView
from companion.ports import Post
from companion.table import Table

__all__ = ["Inbox"]

_log = logging.getLogger(__name__)


class Inbox:
    """Fits :data:`~companion.ports.SeatPress` (``press``) and
    :class:`~companion.ports.CardSink` (``card``, ``notice``, ``camera``)."""

    def __init__(self, games: Games, post: Post) -> None:
        self.games = games
        self.post = post

    def press(self, seat: int, choice: Choice) -> None:
        self._deliver(lambda t: t.press(seat, choice))

    def press_if(self, seat: int, choice: Choice, still: Callable[[Table], bool],
                 counted: Callable[[bool], None] = lambda yes: None) -> None:
        """A press that counts only if ``still(table)`` holds on the UI thread;
        ``counted`` hears whether it did (always once, also with no game).

        A phone's choice is sent for one turn; by the time it reaches the
        table that turn may have been revealed and the next one opened, where
        it must not count. The check runs where the table does, so nothing
        comes in between.
        """
        def act() -> None:
            yes = False
            try:
                yes = self._on_ui_thread(lambda t: still(t) and t.press(seat, choice)) is True
            finally:
                counted(yes)

        self.post(act)

    def card(self, card_id: str) -> None:
        self._deliver(lambda t: t.scan(card_id))

    def notice(self, reason: NotACard | TwoCardsInView) -> None:
        self._deliver(lambda t: t.say(reason, "warning"))

    def camera(self, status: CameraStatus) -> None:
        self.post(lambda: self.games.set_camera(status))

    def failed(self, step: Step, error: Exception) -> None:
        """An adapter failed (the camera, say): tell the table."""
        self._deliver(lambda t: t.say(Failed(step, str(error)), "error"))

    def _deliver(self, action: Callable[[Table], object]) -> None:
        def run() -> None:
            self._on_ui_thread(action)

        self.post(run)

    def _on_ui_thread(self, action: Callable[[Table], object]) -> object:
        table = self.games.table
        if table is None:
            return None
        try:
            return action(table)
        except Exception as e:  # an adapter's input must never end the app
            _log.exception("adapter input")
            table.say(Failed(Step.INPUT, str(e)), "error")
            return None
