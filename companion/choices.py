"""Collecting the secret torch/camp choices of one turn (docs/rules.md, *A round*).

Every seat still in the temple picks torch or camp in secret; nothing about
*what* a seat picked may leak before all have picked, so this object only ever
tells the outside world *who* has chosen (for the seat LEDs and the screen).
When the last seat still due has chosen, a short countdown runs so a player who
pressed the wrong button can still change their mind; a change of mind during
the countdown restarts it. When it runs out :meth:`ChoiceCollector.tick`
returns the whole reveal as one value, the ``reveal`` event of the game log
(docs/game-log.md) with the seats that chose camp. Nothing is called back: the
caller (the table) decides what a reveal does and tells its own listeners once.

This module is plain Python on purpose: no gpiozero, no Kivy, no threads. Time
comes from an injected ``clock`` so tests and the demo can drive it, and the
app calls :meth:`ChoiceCollector.tick` from its own clock (Kivy's, in the UI
thread). Button callbacks arrive on gpiozero's threads; the app marshals them
to the same thread before calling :meth:`ChoiceCollector.press`, so this class
needs no lock.

A typical turn::

    >>> now = [0.0]
    >>> c = ChoiceCollector(countdown=2.0, clock=lambda: now[0])
    >>> c.open([0, 1, 2])
    >>> c.press(0, Choice.TORCH), c.press(1, Choice.CAMP), c.press(2, Choice.TORCH)
    (True, True, True)
    >>> c.countdown_left
    2.0
    >>> now[0] = 1.0
    >>> c.press(2, Choice.CAMP)    # a change of mind restarts the countdown
    True
    >>> now[0] = 2.9; c.tick() is None
    True
    >>> now[0] = 3.0; c.tick(), c.is_open
    (Reveal(camp=(1, 2)), False)
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable, Iterable, Mapping

from companion.events import Reveal

__all__ = ["DEFAULT_COUNTDOWN", "Choice", "ChoiceCollector"]

#: Seconds between the last seat's choice and the reveal, unless configured.
DEFAULT_COUNTDOWN = 2.0


class Choice(enum.Enum):
    """What a seat does this turn: go on into the temple, or leave for camp."""

    TORCH = "torch"
    CAMP = "camp"


class ChoiceCollector:
    """The choices of the seats that are due this turn, and the reveal countdown.

    :meth:`tick` returns the turn's reveal exactly once per opened turn (the
    sorted seat indexes, 0-based, that chose camp) when every due seat has
    chosen and the countdown has run out, and closes the collector first, so
    the caller may open the next turn straight away. With a countdown of 0 the
    tick right after the last press reveals.

    :attr:`visible` is what the table can see (a seat's "chosen" light, the
    countdown starting, restarting or stopping, the collector opening or
    closing): the caller compares it to tell whether to show anything anew.
    """

    def __init__(
        self,
        *,
        countdown: float = DEFAULT_COUNTDOWN,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if countdown < 0:
            raise ValueError(f"countdown must be 0 or more seconds, not {countdown!r}")
        self._clock = clock
        self.countdown = float(countdown)
        self._due: frozenset[int] = frozenset()
        self._choices: dict[int, Choice] = {}
        self._open = False
        self._deadline: float | None = None
        self._held = False  # a question to the table holds the reveal (see hold)

    # --- what the engine says ----------------------------------------------

    def open(self, due: Iterable[int], choices: Mapping[int, Choice] | None = None) -> None:
        """Choices are due now from these seats (the engine's ``State.due``).

        Forgets any earlier choices: a new turn starts from nobody chosen,
        unless ``choices`` gives them back (a reveal that could not be saved
        is tried again: nobody has to press twice). An empty ``due`` is the
        same as :meth:`close`.
        """
        due = frozenset(due)
        if any(seat < 0 for seat in due):
            raise ValueError(f"seat indexes start at 0: {sorted(due)}")
        self._due = due
        self._choices = {s: c for s, c in (choices or {}).items() if s in due}
        self._open = bool(due)
        self._held = False
        self._deadline = self._clock() + self.countdown if self._full else None

    def close(self) -> None:
        """No choice is due (a card is to be drawn, the round is over, an undo).

        Presses are ignored until the next :meth:`open`; the countdown stops.
        """
        self._open = False
        self._due = frozenset()
        self._choices = {}
        self._deadline = None
        self._held = False

    def hold(self) -> None:
        """Hold the reveal: the countdown stops until :meth:`release` (a question
        to the table, such as Undo's "tap again", waits for its answer)."""
        if self._open and not self._held:
            self._held = True
            self._deadline = None

    def release(self) -> None:
        """The question is answered or withdrawn: the countdown starts again, in
        full, if every seat due has chosen."""
        if self._held:
            self._held = False
            self._deadline = self._clock() + self.countdown if self._full else None

    # --- what the seats do -------------------------------------------------

    def press(self, seat: int, choice: Choice) -> bool:
        """Seat ``seat`` pressed ``choice``; False (and no effect) if ignored.

        Ignored when no choice is due, or the seat is not due (in camp, busted,
        or not playing). Pressing again replaces the seat's choice; if that
        *changes* the choice while the countdown runs, the countdown restarts,
        so nobody is revealed with a choice they were still correcting.
        Pressing the same choice again changes nothing (a held or repeating key
        must not keep the table waiting). A reveal it makes due comes with the
        next :meth:`tick` (at once with a countdown of 0).
        """
        if not self._open or seat not in self._due:
            return False
        previous = self._choices.get(seat)
        if previous is choice:
            return True
        self._choices[seat] = choice
        if self._full and not self._held:
            # Everyone has chosen: start the countdown, or restart it after a change.
            self._deadline = self._clock() + self.countdown
        return True

    def tick(self) -> Reveal | None:
        """The reveal, if the countdown has run out (the collector is then closed).

        Called periodically by the app (a few times a second is plenty; the
        reveal comes at most one tick period after the countdown ends).
        """
        if self._deadline is None or self._clock() < self._deadline:
            return None
        camp = tuple(sorted(s for s, c in self._choices.items() if c is Choice.CAMP))
        self.close()
        return Reveal(camp)

    # --- what the table may see ---------------------------------------------

    @property
    def visible(self) -> tuple[bool, frozenset[int], float | None, bool]:
        """What the table can see, as one value: open, who has chosen, when the
        countdown ends (None: it does not run), held. Never *what* was chosen."""
        return (self._open, self.chosen, self._deadline, self._held)

    @property
    def _full(self) -> bool:
        return self._open and len(self._choices) == len(self._due)

    @property
    def held(self) -> bool:
        """True while a question to the table holds the reveal."""
        return self._held

    @property
    def is_open(self) -> bool:
        """True while choices are due: presses count, and a scanned card must wait."""
        return self._open

    @property
    def due(self) -> frozenset[int]:
        """The seats whose choice is due (empty when closed)."""
        return self._due

    @property
    def chosen(self) -> frozenset[int]:
        """The seats that have chosen this turn; never *what* they chose."""
        return frozenset(self._choices)

    def choice_of(self, seat: int) -> Choice | None:
        """What ``seat`` chose this turn, or None: for that seat's own phones only,
        which show it back to the seat. Never for the table's screen or LEDs."""
        return self._choices.get(seat)

    @property
    def held_choices(self) -> tuple[tuple[int, Choice], ...]:
        """Every seat's choice, in seat order, as one value to compare: a seat that
        changes its mind changes it, though :attr:`visible` may stay the same."""
        return tuple(sorted(self._choices.items()))

    @property
    def waiting_for(self) -> frozenset[int]:
        """The due seats that have not chosen yet."""
        return self._due - self._choices.keys()

    @property
    def countdown_left(self) -> float | None:
        """Seconds until the reveal, or None when no countdown runs."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - self._clock())

    def leds(self) -> frozenset[int]:
        """The seats whose LED is lit: those that have chosen. Every other LED is off.

        The same light for torch and camp, so the LED tells the table only that
        the seat has chosen. Seats not in the temple never light.
        """
        return self.chosen
