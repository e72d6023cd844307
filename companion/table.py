"""The game controller: what the device does with a scanned card, a press, a tap.

Everything the table does reaches the game through one :class:`Table`: the
scanner's cards, the seat buttons, the touchscreen's fixes. It holds the
:class:`~companion.session.Session`, the store with
the game's number, and the :class:`~companion.choices.ChoiceCollector` of the
secret torch/camp choices. The store is any :class:`~companion.ports.EventStore`.

Why it exists as its own plain-Python object (no Kivy, no threads, an
injected clock): this is the device's behaviour, and it must be testable
turn by turn with fake time and a real data file.

Rules it keeps:

- Every event is first checked (``Session.preview``), then stored durably
  (``EventStore.append``), and only then applied and shown. A power cut never
  loses what was on the screen, and a refused or unsaved event changes
  nothing.
- The collector is open with ``state.due`` exactly while the state is in the
  choose phase, also after an undo or a correction.
- A card scanned while choices are due is *held*: it is applied right after
  the reveal (the table turned the next card a bit early). So is a card
  scanned while a round's end is on show (:meth:`Table.show_round_end`): it
  is drawn once the round's summary has been seen, so no summary is skipped. A card that cannot
  come now gives a notice and changes nothing. The card just drawn (or held)
  reported again is ignored: it is still lying on the scan spot. Repeats are
  rare anyway, because the tracker reports each placement once.
- Nothing raises to the caller: every refusal or adapter failure becomes a
  :class:`~companion.notices.Notice` for the status line, and is logged. A
  notice is a reason (a value), never a sentence: ``ui.words`` words it.

All methods must be called from one thread (the UI thread); adapters on
other threads marshal their callbacks first.

>>> from companion.events import Start
>>> from companion.memory import MemoryStore
>>> now = [0.0]
>>> store = MemoryStore()
>>> table = Table.new(store, Start(("Ana", "Bo", "Cy")), countdown=1.0, clock=lambda: now[0])
>>> table.scan("T11A")
True
>>> [s.hand for s in table.state.seats], sorted(table.collector.due)
([3, 3, 3], [0, 1, 2])
>>> for seat in (0, 1, 2): _ = table.press(seat, Choice.CAMP if seat == 0 else Choice.TORCH)
>>> now[0] = 1.0; table.tick()
True
>>> table.state.seats[0].banked, len(store.session(table.game).log)
(5, 3)
>>> table.scan("IG:T12"), table.notice.reason
(False, NotACard(text='IG:T12'))
>>> table.scan("T5A"), table.notice is None  # a notice ends with the next step
(True, True)
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from companion import bots
from companion.cards import UnknownCard, card
from companion.choices import DEFAULT_COUNTDOWN, Choice, ChoiceCollector
from companion.engine import Phase, RuleError, State, Unplayable, why_unplayable
from companion.events import Correct, Draw, Event, Reveal, Start, Undo
from companion.notices import (
    CameraStatus,
    CannotCome,
    CardHeld,
    Failed,
    GameIsOver,
    HeldDropped,
    HeldForSummary,
    HeldReturned,
    Level,
    NotACard,
    NothingToUndo,
    Notice,
    Reason,
    Step,
    StepRefused,
    Undone,
    UndoWouldDropChoices,
)
from companion.ports import Clock, EventStore
from companion.session import Session

__all__ = ["MAX_NOTICES", "Table"]

_log = logging.getLogger(__name__)

MAX_NOTICES = 20
Listener = Callable[["Table"], None]


class Table:
    """One game at the table: its session, its data file and the turn's choices.

    Build it with :meth:`new` (a new game in the data file) or :meth:`resume`
    (a stored game). ``on_change`` listeners are called with the table after
    every change the screen or the seat LEDs may show.
    """

    def __init__(
        self,
        store: EventStore,
        game: int,
        session: Session,
        *,
        countdown: float = DEFAULT_COUNTDOWN,
        clock: Clock = time.monotonic,
    ) -> None:
        self.store = store
        self.game = game
        self.session = session
        self._clock = clock
        self._listeners: list[Listener] = []
        self._notices: list[Notice] = []
        self._held: str | None = None
        self._ending = False  # a round's end is on show: a card read now waits for it
        self._turn: tuple[int, int, tuple[int, ...]] | None = None
        self._quiet = 0  # >0 while a change is in progress: one notification at the end
        self._revealed = False  # whether the latest countdown's reveal was taken
        self._steps = 0  # steps taken since this table was built: notices end with one
        self._undo_armed: tuple[int, frozenset[int]] | None = None  # (step, chosen) warned of
        self.camera = CameraStatus.NO_CAMERA
        start = session.start_event
        self.bots: dict[int, str] = dict(start.bots)  # seat -> strategy
        # A bot's randomness comes from the game's set-up, so a game replays alike.
        self._bot_seed = "\x1f".join(start.seats)
        self.collector = ChoiceCollector(
            self._on_reveal, countdown=countdown, clock=clock, on_change=self._changed
        )
        self._sync_collector()

    # --- building ----------------------------------------------------------

    @classmethod
    def new(
        cls,
        store: EventStore,
        start: Start,
        *,
        countdown: float = DEFAULT_COUNTDOWN,
        clock: Clock = time.monotonic,
    ) -> Table:
        """A new game stored in ``store``; raises RuleError for bad seats or rules.

        The start is checked before anything is written, so a refused set-up
        leaves no empty game in the data file.
        """
        session = Session.start(start)
        game = store.new_game(start)
        return cls(store, game, session, countdown=countdown, clock=clock)

    @classmethod
    def resume(
        cls,
        store: EventStore,
        game: int,
        *,
        countdown: float = DEFAULT_COUNTDOWN,
        clock: Clock = time.monotonic,
    ) -> Table:
        """The stored game ``game``, replayed; raises StoreError or LogError."""
        return cls(store, game, store.session(game), countdown=countdown, clock=clock)

    # --- reading -------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def held(self) -> str | None:
        """A card scanned while choices were due, to be drawn after the reveal,
        or while the round's end was on show, to be drawn once it is seen."""
        return self._held

    @property
    def ending(self) -> bool:
        """A round's end is on show (:meth:`show_round_end`) and not yet seen."""
        return self._ending

    @property
    def notices(self) -> tuple[Notice, ...]:
        """The latest notices, oldest first (at most :data:`MAX_NOTICES`)."""
        return tuple(self._notices)

    @property
    def notice(self) -> Notice | None:
        """The latest notice still current, for the status bar.

        A notice ends when what it is about is over: with the next step of
        the game ("Snakes waits until the choices are revealed" ends with the
        reveal), unless it is a lasting fact about the device.
        """
        for notice in reversed(self._notices):
            if notice.lasting or notice.step == self._steps:
                return notice
        return None

    @property
    def can_undo(self) -> bool:
        return self.session.can_undo

    def correction_options(self, pos: int) -> tuple[str, ...]:
        """The cards path position ``pos`` could be corrected to (only valid ones)."""
        try:
            return self.session.correction_options(pos)
        except Exception:  # never let a picker crash the screen
            _log.exception("correction options for %d", pos)
            return ()

    def entry_options(self) -> tuple[str, ...]:
        """The cards that may be entered by hand now (what can be drawn next).

        While choices are due this is the deck: an entered card is held until
        the reveal, just like a scanned one.
        """
        state = self.state
        if state.phase is Phase.CHOOSE:
            return state.deck
        return state.possible_draws()

    # --- listening ---------------------------------------------------------------

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(table)`` after every visible change; returns an unsubscribe."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def _changed(self) -> None:
        if self._quiet:
            return
        for listener in list(self._listeners):
            try:
                listener(self)
            except Exception:
                # A broken screen or LED must not stop the game itself.
                _log.exception("table listener %r failed", listener)

    def say(self, reason: Reason, level: Level = "info", *, lasting: bool = False) -> None:
        """Add a notice for the status line (also used by adapters: "not a card").

        ``lasting``: a fact about the device that does not end with the next step.
        """
        _log.log(logging.INFO if level == "info" else logging.WARNING, "%s", reason)
        self._notices.append(Notice(reason, level, self._clock(), self._steps, lasting))
        del self._notices[:-MAX_NOTICES]
        self._changed()

    def set_camera(self, status: CameraStatus) -> None:
        """What the camera is doing, for the status line."""
        if status != self.camera:
            self.camera = status
            self._changed()

    # --- cards -------------------------------------------------------------------

    def scan(self, card_id: str) -> bool:
        """A card the scanner reported (the tracker reports each placement once).

        True if the card was drawn or held. The card just drawn, or the card
        waiting for the reveal, reported again is ignored without a word: it
        is still lying on the scan spot. Any other card that cannot come now
        gets a notice with the reason.
        """
        cid = self._known(card_id)
        if cid is None:
            return False
        state = self.state
        if cid == self._held:
            return False
        if state.phase in (Phase.DRAW, Phase.CHOOSE) and state.path and state.path[-1].card == cid:
            return False
        return self._take(cid)

    def enter_card(self, card_id: str) -> bool:
        """A card entered by hand (no camera, or the camera missed it)."""
        cid = self._known(card_id)
        return cid is not None and self._take(cid)

    def _take(self, cid: str) -> bool:
        state = self.state
        if state.phase is Phase.GAME_OVER:
            self.say(GameIsOver(cid))
            return False
        # While choices are due the next draw can be any card of the deck.
        possible = state.deck if state.phase is Phase.CHOOSE else state.possible_draws()
        if cid not in possible:
            self.say(CannotCome(cid, why_unplayable(state, cid) or Unplayable.NOT_NOW), "warning")
            return False
        if state.phase is Phase.CHOOSE:
            self._held = cid
            self.say(CardHeld(cid))
            return True
        if self._ending:
            self._held = cid
            self.say(HeldForSummary(cid))
            return True
        return self._accept(Draw(cid))

    # --- a round's end ---------------------------------------------------------------

    def show_round_end(self) -> None:
        """The round's end is on show (its bust, then its summary).

        Until :meth:`round_end_seen`, a card turned for the next round waits,
        as one turned before a reveal does: the start player must read which
        hazard to take out and which artifact to shuffle in before the next
        round's deck is right. Nothing to show unless a round has just ended.
        """
        if self.state.phase is Phase.ROUND_OVER and not self._ending:
            self._ending = True
            self._changed()

    def round_end_seen(self) -> bool:
        """The round's summary has been seen: a card that waited for it is drawn
        now. True if one was."""
        if not self._ending:
            return False
        self._ending = False
        held, self._held = self._held, None
        if held is None:
            self._changed()
            return False
        return self._accept(Draw(held))

    # --- choices -------------------------------------------------------------------

    def press(self, seat: int, choice: Choice) -> bool:
        """A seat pressed torch or camp; False if no choice of that seat is due.

        The buttons of a bot seat are ignored: the bot has chosen already.
        """
        if seat in self.bots:
            return False
        self._quiet += 1
        try:
            taken = self.collector.press(seat, choice)
            if taken:
                self._withdraw_question()  # a seat's button: the table goes on
        except Exception as e:  # the reveal runs inside press when the countdown is 0
            taken = False
            self._failed(Step.PRESS, e)
        finally:
            self._quiet -= 1
        if taken:
            self._changed()
        return taken

    def tick(self) -> bool:
        """Drive the countdown (call a few times a second); True if it revealed now.

        Listeners hear of a reveal once, after the held card (if any) is drawn
        too, so the screen never shows the step in between.
        """
        self._quiet += 1
        self._revealed = False
        try:
            ticked = self.collector.tick()
        except Exception as e:
            ticked = False
            self._failed(Step.REVEAL, e)
        finally:
            self._quiet -= 1
        if ticked:
            self._changed()
        return self._revealed

    def _on_reveal(self, camp: tuple[int, ...]) -> None:
        self._quiet += 1
        try:
            revealed = self._revealed = self._accept(Reveal(camp))
            held = self._held if revealed else None
            if held is not None:
                self._held = None
                if self.state.phase is Phase.DRAW:
                    self._accept(Draw(held))
                else:
                    self.say(HeldReturned(held))
        finally:
            self._quiet -= 1

    # --- fixes ---------------------------------------------------------------------

    def undo(self) -> bool:
        """Take back the latest step (a held card is dropped first)."""
        if self._held is not None:
            held, self._held = self._held, None
            self.say(HeldDropped(held))
            return True
        if not self.session.can_undo:
            self.say(NothingToUndo())
            return False
        undone = self.session.effective[-1]
        assert isinstance(undone, Draw | Reveal | Correct)
        chosen = self.collector.chosen
        if chosen and self._undo_armed != (self._steps, chosen):
            # Presses are never thrown away silently: the first tap says what
            # would go, a second tap (with nothing changed) confirms. The
            # question holds the reveal until it is answered or withdrawn.
            self._undo_armed = (self._steps, chosen)
            self._quiet += 1
            try:
                self.collector.hold()
            finally:
                self._quiet -= 1
            self.say(UndoWouldDropChoices(len(chosen), undone), "warning")
            return False
        self._undo_armed = None
        if not self._accept(Undo()):
            self.collector.release()
            return False
        self.say(Undone(undone, len(chosen)))
        return True

    @property
    def asking(self) -> bool:
        """Undo's question ("tap again") is open: the reveal waits for its answer."""
        return self._undo_armed is not None

    def _withdraw_question(self) -> None:
        if self._undo_armed is not None:
            self._undo_armed = None
            self.collector.release()
            self._steps += 1  # the question's notice ends with it

    def correct(self, pos: int, card_id: str) -> bool:
        """The card at path position ``pos`` is really ``card_id``."""
        cid = self._known(card_id)
        return cid is not None and self._accept(Correct(pos, cid))

    def _known(self, card_id: str) -> str | None:
        """The card's id in upper case, or None (and a notice) if it is no card."""
        try:
            return card(card_id).id
        except UnknownCard:
            self.say(NotACard(card_id), "warning")
            return None

    # --- the one way an event gets in ----------------------------------------------------

    def _accept(self, event: Event) -> bool:
        """Check, store, apply, show. False (and a notice) if refused or not saved."""
        try:
            self.session.preview(event)
        except RuleError as e:
            self.say(StepRefused(type(e).__name__, str(e)), "warning")
            return False
        except Exception as e:
            self._failed(Step.CHECK, e)
            return False
        try:
            self.store.append(self.game, event)
        except Exception as e:  # disk full, card pulled, ...: nothing was applied
            self._failed(Step.SAVE, e)
            if isinstance(event, Reveal):
                # Not saved (a full disk): the same choices are tried again
                # after the countdown, nobody has to press twice.
                due = self.state.due
                self.collector.open(
                    due, {s: Choice.CAMP if s in event.camp else Choice.TORCH for s in due}
                )
            else:
                self._sync_collector()
            return False
        self.session.apply(event)
        self._steps += 1
        self._withdraw_question()  # the step the question was about is past
        if self.state.phase is not Phase.ROUND_OVER:
            self._ending = False
        self._sync_collector()
        self._changed()
        return True

    def _failed(self, step: Step, error: Exception) -> None:
        _log.error("%s failed", step.value, exc_info=error)
        self.say(Failed(step, str(error)), "error")

    def _sync_collector(self) -> None:
        """Open the collector for the turn on show, or close it.

        A correction or an undo that leaves the same turn (same round, same
        path length, same seats due) keeps the choices already made.
        """
        state = self.state
        if state.phase is not Phase.CHOOSE:
            self._turn = None
            self.collector.close()
            return
        turn = (state.round, len(state.path), state.due)
        if turn != self._turn or not self.collector.is_open:
            self._turn = turn
            self.collector.open(state.due)
            self._bots_choose(state)

    def _bots_choose(self, state: State) -> None:
        """Every bot seat still in chooses now, counted as pressed like a person.

        It sees only its :class:`~companion.bots.View` (never the other
        choices); what it chose stays in the collector until the reveal.
        """
        for seat in state.due:
            strategy = self.bots.get(seat)
            if strategy is not None:
                choice = bots.decide(strategy, bots.view(state, seat, seed=self._bot_seed))
                self.collector.press(seat, choice)

    def close(self) -> None:
        """Stop the turn and forget the listeners (the store is the caller's)."""
        self.collector.close()
        self._listeners.clear()

