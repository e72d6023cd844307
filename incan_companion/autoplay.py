"""The demo's simulated table: seats that press mock gpiozero pins, a hand that turns cards.

Each call of :meth:`Autoplay.__call__` is one step of the table, run once
per Kivy frame, so the screens redraw between steps exactly as in a game.
Nothing here decides anything the rules decide: cards go onto the
:class:`~vision.sources.VirtualTable`, are rendered, read by the real decoder
and tracker (``Device.step_camera``) and reach the table as scans; choices
are presses of the seats' mock pins (:class:`hardware.fake.MockSeats`), which
the real ``SeatPanel`` debounces and reports.

Why it is repeatable: the cards and the choices come only from
``random.Random(seed)`` and are drawn once per turn; time is a
:class:`VirtualClock` that only this driver moves, so the countdown and
the debouncing never depend on how fast the machine is.

While the data file cannot be written (a full disk), every step the table
takes fails and nothing changes: the demo stops after
:data:`MAX_FAILED_SAVES` failed saves in a row (``Autoplay.stopped`` says
why) instead of trying for ever, and :class:`OneLineFailures` keeps each
failure to one line in the log.
"""

from __future__ import annotations

import logging
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from companion.choices import Choice
from companion.engine import Phase
from companion.notices import CameraMissed, Failed, Notice, Step
from companion.ports import StoredDataError
from companion.simulate import VirtualClock, choose_camp, next_card
from incan_companion.compose import Device

_log = logging.getLogger(__name__)

STEP_S = 0.5  # virtual seconds per UI frame
CAMERA_FRAMES_PER_STEP = 3  # the camera runs faster than the screen redraws
MAX_FRAMES_PER_CARD = 40  # then the card is entered by hand, as a player would
MAX_FAILED_SAVES = 3  # failed saves in a row, with no step stored between them: stop


class OneLineFailures(logging.Filter):
    """A failed step whose cause is the disk (an OSError, a store error) is
    logged as one line, without its traceback: it is a fact about the
    machine, not a bug, and the demo would print it at every retry."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and any(isinstance(a, Failed) for a in record.args):
            return False  # the table's notice of a failure just logged whole, as its repr
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, (OSError, StoredDataError)):
            record.msg = f"{record.getMessage()}: {' '.join(str(error).split())}"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


@dataclass
class Figures:
    """What the demo measured, for the report."""

    card_to_payout_ms: list[float] = field(default_factory=list)
    frames_per_card: list[int] = field(default_factory=list)
    entered_by_hand: int = 0

    def summary(self) -> str:
        if not self.card_to_payout_ms:
            return "no cards"
        ms = sorted(self.card_to_payout_ms)
        return (
            f"cards {len(ms)}, card at rest -> payout shown: "
            f"median {statistics.median(ms):.0f} ms, "
            f"max {ms[-1]:.0f} ms; frames per card median "
            f"{statistics.median(self.frames_per_card):.0f}; by hand {self.entered_by_hand}"
        )


class Autoplay:
    """Plays the game on ``device`` to its end, one step per call; True when over."""

    def __init__(self, device: Device, clock: VirtualClock, seed: int) -> None:
        self.device = device
        self.clock = clock
        self.rng = random.Random(seed)
        self.figures = Figures()
        self._plan: tuple[tuple[int, int, tuple[int, ...]], frozenset[int]] | None = None
        self._pressed: set[int] = set()
        self._placing: str | None = None
        self._frames = 0
        self._clearing = False
        self._waiting_shown: tuple[str, int] | None = None
        self._waited = 0
        self._next = ""
        self._app: Any = None
        self._notices: tuple[Notice, ...] = ()
        self._failed_saves = 0
        self._stored = 0
        #: Why the demo gave up before the end of the game (None: it did not).
        self.stopped: str | None = None

    def __call__(self, app: Any) -> bool:
        if self._app is None:
            self._app = app
            app.on_refresh.append(self._refreshed)
        table = self.device.games.table
        if table is None or self.stopped is not None:
            return True
        if self._saves_keep_failing(table):
            return True
        self.clock.advance(STEP_S)
        if self._placing is not None or self._clearing:
            for _ in range(CAMERA_FRAMES_PER_STEP):
                if self._placing is None and not self._clearing:
                    break
                self._scan_frame()
            return False
        if self._waiting_shown is not None:
            # The scanned card is on its way to the screen (a frame or two).
            self._waited += 1
            if self._waited < 20:
                return False
            _log.warning("%s was read but never shown", self._waiting_shown[0])
            self._waiting_shown = None
        state = table.state
        if state.phase is Phase.GAME_OVER:
            app.show_screen("game_over")  # as the table taps "Final scores"
            return True
        if state.phase is Phase.ROUND_OVER and table.ending:
            app.play.close_round_end("table")  # as the table taps "Show the table"
            return False
        if state.phase is Phase.CHOOSE:
            self._choose()
            table.tick()  # the demo drives the countdown on its own clock
            return False
        self._turn_card()
        return False

    def _saves_keep_failing(self, table: Any) -> bool:
        """Count the saves that failed since the last step was stored; give up
        (``stopped``) after MAX_FAILED_SAVES of them."""
        notices = table.notices
        new = [n for n in notices if not any(n is seen for seen in self._notices)]
        self._notices = notices
        stored = len(table.session.log)
        if stored != self._stored:
            self._stored = stored
            self._failed_saves = 0
        error = ""
        for notice in new:
            reason = notice.reason
            if isinstance(reason, Failed) and reason.step is Step.SAVE:
                self._failed_saves += 1
                error = reason.error
        if self._failed_saves < MAX_FAILED_SAVES:
            return False
        self.stopped = (f"the data file cannot be written ({self._failed_saves} failed saves "
                        f"in a row): {' '.join(error.split())[:300]}")  # fmt: skip
        _log.error("demo stopped: %s", self.stopped)
        return True

    # --- choices ---------------------------------------------------------------

    def _choose(self) -> None:
        table = self.device.games.table
        assert table is not None
        state = table.state
        key = (state.round, len(state.path), state.due)
        if self._plan is None or self._plan[0] != key:
            # With every card of the round on the path, only leaving is left.
            camp = choose_camp(state, self.rng) if state.deck else state.due
            self._plan = (key, frozenset(camp))
            self._pressed = set()
        camp_set = self._plan[1]
        for seat in state.due:
            if seat in self._pressed:
                continue
            self._pressed.add(seat)
            self._press(seat, Choice.CAMP if seat in camp_set else Choice.TORCH)

    def _press(self, seat: int, choice: Choice) -> None:
        """A seat presses its button: the mock pin goes low, then high again."""
        mock = self.device.seats.mock
        if mock is None:
            # No panel (should not happen in the demo): press through the table.
            assert self.device.games.table is not None
            self.device.games.table.press(seat, choice)
            return
        # A human press lasts a while.
        mock.press(seat, choice, hold=lambda: self.clock.advance(0.08))

    # --- cards ------------------------------------------------------------------

    def _turn_card(self) -> None:
        table = self.device.games.table
        assert table is not None
        virtual = self.device.camera.virtual
        stepper = self.device.camera.stepper
        cid = next_card(table.state, self.rng)
        if virtual is None or stepper is None:
            self._enter(cid)
            return
        if cid in stepper.tracker.present:
            # The same card is still "present" for the tracker (it ended the
            # last round): take it away until the tracker has seen it leave.
            virtual.place(None)
            self._clearing = True
            self._next = cid
            return
        self._place(cid)

    def _place(self, cid: str) -> None:
        assert self.device.camera.virtual is not None
        table = self.device.games.table
        if table is not None:
            table.will_lay(cid)
        self.device.camera.virtual.place(cid)
        self.device.camera.rest_at = None
        self._placing = cid
        self._frames = 0

    def _scan_frame(self) -> None:
        stepper = self.device.camera.stepper
        assert stepper is not None
        if self._clearing:
            self.device.step_camera()
            if self._next not in stepper.tracker.present:
                self._clearing = False
                self._place(self._next)
            return
        self._frames += 1
        seen = self.device.step_camera()
        cid = self._placing
        assert cid is not None
        if cid in seen:
            self._placing = None
            self.figures.frames_per_card.append(self._frames)
            self._waiting_shown = (cid, self._path_len_after())
            self._waited = 0
        elif self._frames >= MAX_FRAMES_PER_CARD:
            _log.warning("the scanner did not read %s in %d frames", cid, self._frames)
            self._placing = None
            self.figures.entered_by_hand += 1
            self._enter(cid)

    def _enter(self, cid: str) -> None:
        table = self.device.games.table
        assert table is not None
        table.say(CameraMissed(cid), "warning")
        table.enter_card(cid)

    def _path_len_after(self) -> int:
        table = self.device.games.table
        assert table is not None
        state = table.state
        return 1 if state.phase is Phase.ROUND_OVER else len(state.path) + 1

    def _refreshed(self, app: Any) -> None:
        """The app showed a new view: if it holds the scanned card, time it."""
        table = self.device.games.table
        if self._waiting_shown is None or table is None:
            return
        cid, n = self._waiting_shown
        path = table.state.path
        if len(path) >= n and path[n - 1].card == cid:
            self._waiting_shown = None
            # The view is set; it is on the glass when the next frame has drawn.
            from kivy.clock import Clock

            # From the card's first frame at rest, not its first sliding one:
            # the frames before it are the simulated hand, not the companion.
            started = self.device.camera.rest_at
            if started is None:
                return
            Clock.schedule_once(
                lambda dt: self.figures.card_to_payout_ms.append(
                    (time.perf_counter() - started) * 1000.0
                ),
                0,
            )
