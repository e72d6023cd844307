"""The game controller: what the device does with a scanned card, a press, a tap.

Everything the table does reaches the game through one :class:`Table`: the
scanner's cards, the seat buttons, the touchscreen's fixes. It holds the
:class:`~companion.session.Session`, the store with
the game's number, and the :class:`~companion.choices.ChoiceCollector` of the
secret torch/camp choices. The store is any :class:`~companion.ports.GameLog`.

Why it exists as its own plain-Python object (no Kivy, no threads, an
injected clock): this is the device's behaviour, and it must be testable
turn by turn with fake time and a real data file.

Rules it keeps:

- Every event is first checked (``Session.preview``), then stored durably
  (``GameLog.append``), and only then applied and shown. A power cut never
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
  notice is a reason (a value), never a sentence: ``ui.kivyfree.words`` words it.
- Listeners hear once per public call that changed what can be seen (a scan
  that draws a card, a press, a reveal with the held card drawn after it),
  never of the steps in between: the seat LEDs are set once per event.

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
>>> table.scan("T5A"), table.notice is None  # a notice ends with the next action
(True, True)
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Concatenate, ParamSpec, TypeVar

from companion.cards import UnknownCard, card
from companion.choices import DEFAULT_COUNTDOWN, Choice, ChoiceCollector
from companion.engine import Phase, RuleError, State, Unplayable, why_unplayable
from companion.events import Correct, Draw, Event, Reveal, Start, Undo
from companion.notices import (
    CameraStatus,
    CannotCome,
    CardHeld,
    ChooseAgain,
    Corrected,
    Failed,
    FromEndedRound,
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
from companion.ports import Clock, GameLog
from companion.session import Session
from companion.text import without_secrets

if TYPE_CHECKING:  # the bots and their rollouts load with a game that has bots
    from companion import bots

__all__ = ["MAX_NOTICES", "Table"]

_log = logging.getLogger(__name__)

MAX_NOTICES = 20
Listener = Callable[["Table"], None]
P = ParamSpec("P")
R = TypeVar("R")


def _public(method: Callable[Concatenate[Table, P], R]) -> Callable[Concatenate[Table, P], R]:
    """A call from outside: the listeners hear of it once, at its end, if it
    changed anything they can see. Inside, the table calls only what is not
    public, so a call is never heard of twice."""

    @functools.wraps(method)
    def call(self: Table, /, *args: P.args, **kwargs: P.kwargs) -> R:
        before = self._seen()
        try:
            return method(self, *args, **kwargs)
        finally:
            if self._seen() != before:
                self._notify()

    return call


class Table:
    """One game at the table: its session, its data file and the turn's choices.

    Build it with :meth:`new` (a new game in the data file) or :meth:`resume`
    (a stored game). ``on_change`` listeners are called with the table after
    every change the screen or the seat LEDs may show.
    """

    def __init__(
        self,
        store: GameLog,
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
        self._doubted: str | None = None  # a card of the ended round read once (see scan)
        self._ending = False  # a round's end is on show: a card read now waits for it
        self._turn: tuple[int, int, tuple[int, ...]] | None = None
        self._said = 0  # notices said since this table was built
        self._steps = 0  # steps taken since this table was built
        self._actions = 0  # what the table did (a card, a press, an undo, a round's end)
        self._undo_armed: tuple[int, frozenset[int]] | None = None  # (step, chosen) warned of
        self.camera = CameraStatus.NO_CAMERA
        start = session.start_event
        self.bots: dict[int, str] = dict(start.bots)  # seat -> strategy
        # A bot's randomness comes from the seed the game was set up with, so a
        # game replays alike and the next one differs; a log from before seeds
        # were kept rolls from the names, as it did.
        self._bot_seed = "\x1f".join(start.seats) if start.seed is None else str(start.seed)
        self._bot_views: dict[int, bots.View] = {}  # what each bot chose from this turn
        self.collector = ChoiceCollector(countdown=countdown, clock=clock)
        self._sync_collector()

    # --- building ----------------------------------------------------------

    @classmethod
    def new(
        cls,
        store: GameLog,
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
        store: GameLog,
        game: int,
        *,
        countdown: float = DEFAULT_COUNTDOWN,
        clock: Clock = time.monotonic,
        pressed: bool = True,
    ) -> Table:
        """The stored game ``game``, replayed; raises StoreError or LogError.

        Presses are not stored, so a game resumed in the middle of a choice
        that a person had ``pressed`` says so: every seat due (a person, the
        bots have chosen again) chooses again, rather than a waiting line that
        silently forgets who had.
        """
        table = cls(store, game, store.session(game), countdown=countdown, clock=clock)
        state = table.state
        people = [i for i in sorted(state.due) if i not in table.bots]
        if state.phase is Phase.CHOOSE and people and pressed:
            table.say(ChooseAgain(tuple(state.seats[i].name for i in people)))
        return table

    def hold_again(self, card_id: str) -> bool:
        """A card that was waiting when the app stopped (kept beside the log):
        it waits again, if it still can come; False (and nothing changed) if not."""
        try:
            cid = card(card_id).id
        except UnknownCard:
            return False
        state = self.state
        if self._held is not None or not (
            (state.phase is Phase.CHOOSE and cid in state.deck)
            or (state.phase is Phase.ROUND_OVER and cid in state.possible_draws())
        ):
            return False
        self._held = cid
        return True

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

        A notice ends with the next thing the table does (a card turned, a
        seat's press, an undo, a correction, a reveal, a round's end, see
        :meth:`moved_on`), unless it is a lasting fact about the device.
        """
        for notice in reversed(self._notices):
            if notice.lasting or notice.step == self._actions:
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

    def _seen(self) -> tuple[object, ...]:
        """What the listeners can see of the table, as one value to compare."""
        # The held choices are there for the seats' own phones, which show a seat
        # what it chose: a change of mind is a change to them, and to nobody else.
        return (len(self.session.log), self._said, self._actions, self._held, self._ending,
                self.camera, self._undo_armed is not None, self.collector.visible,
                self.collector.held_choices)

    def _notify(self) -> None:
        for listener in list(self._listeners):
            try:
                listener(self)
            except Exception:
                # A broken screen or LED must not stop the game itself.
                _log.exception("table listener %r failed", listener)

    @_public
    def say(self, reason: Reason, level: Level = "info", *, lasting: bool = False) -> None:
        """Add a notice for the status line (also used by adapters: "not a card").

        ``lasting``: a fact about the device that does not end with the next action.
        """
        self._say(reason, level, lasting=lasting)

    def _say(self, reason: Reason, level: Level = "info", *, lasting: bool = False) -> None:
        _log.log(logging.INFO if level == "info" else logging.WARNING, "%s", reason)
        self._notices.append(Notice(reason, level, self._clock(), self._actions, lasting))
        del self._notices[:-MAX_NOTICES]
        self._said += 1

    @_public
    def moved_on(self) -> None:
        """The table did something: what was said before it is over.

        Every action of the table calls it (a card, a press, an undo, a
        correction, a reveal, a round's end); the screen calls it for what
        the core does not see (a change of language).
        """
        self._actions += 1

    @_public
    def set_camera(self, status: CameraStatus) -> None:
        """What the camera is doing, for the status line."""
        self.camera = status

    # --- cards -------------------------------------------------------------------

    @_public
    def scan(self, card_id: str) -> bool:
        """A card the scanner reported (the tracker reports each placement once).

        True if the card was drawn or held. The card just drawn, or the card
        waiting for the reveal, reported again is ignored without a word: it
        is still lying on the scan spot. Any other card that cannot come now
        gets a notice with the reason.
        """
        state = self.state
        on_show = state.path and state.phase in (Phase.DRAW, Phase.CHOOSE)
        last = state.path[-1].card if on_show else None
        if isinstance(card_id, str) and card_id.upper() in (self._held, last):
            return False  # still lying on the scan spot: nothing happened
        self._actions += 1
        cid = self._known(card_id)
        if cid is not None and self._from_ended_round(cid):
            return False
        return cid is not None and self._take(cid)

    def will_lay(self, card_id: str) -> None:
        """The virtual table's hand is laying ``card_id``: its read is a new
        placement, never a card left lying, so it is not doubted."""
        self._doubted = card_id.upper()

    def _from_ended_round(self, cid: str) -> bool:
        """A card of the round just ended, read before the next round's first
        card is drawn, is taken only when read a second time.

        It can open the next round (shuffled back in), but a card still lying
        on the scan spot is read again when a hand uncovers it, or when the
        card stacked on it is lifted: once, that is no placement. A card laid
        again is read again; one entered by hand is taken at once.
        """
        state = self.state
        if state.phase is not Phase.ROUND_OVER or cid not in state.possible_draws():
            self._doubted = None
            return False
        if cid == self._doubted or all(p.card != cid for p in state.path):
            self._doubted = None
            return False
        self._doubted = cid
        self._say(FromEndedRound(cid), "warning")
        return True

    @_public
    def enter_card(self, card_id: str) -> bool:
        """A card entered by hand (no camera, or the camera missed it)."""
        self._actions += 1
        cid = self._known(card_id)
        return cid is not None and self._take(cid)

    def _take(self, cid: str) -> bool:
        state = self.state
        if state.phase is Phase.GAME_OVER:
            self._say(GameIsOver(cid))
            return False
        # While choices are due the next draw can be any card of the deck.
        possible = state.deck if state.phase is Phase.CHOOSE else state.possible_draws()
        if cid not in possible:
            self._say(CannotCome(cid, why_unplayable(state, cid) or Unplayable.NOT_NOW), "warning")
            return False
        if state.phase is Phase.CHOOSE:
            self._held = cid
            self._say(CardHeld(cid))
            return True
        if self._ending:
            self._held = cid
            self._say(HeldForSummary(cid))
            return True
        return self._accept(Draw(cid))

    # --- a round's end ---------------------------------------------------------------

    @_public
    def show_round_end(self) -> None:
        """The round's end is on show (its bust, then its summary).

        Until :meth:`round_end_seen`, a card turned for the next round waits,
        as one turned before a reveal does: the start player must read which
        hazard to take out and which artifact to shuffle in before the next
        round's deck is right. Nothing to show unless a round has just ended.
        """
        if self.state.phase is Phase.ROUND_OVER and not self._ending:
            said = self.notice
            self._ending = True
            self._actions += 1
            # The round's end ends what was said before it, but for a card the
            # summary must name: one held for a reveal in which everyone left
            # (to shuffle back in), or one kept across a restart (Games.resume).
            if said is not None and isinstance(said.reason, HeldReturned):
                self._say(said.reason)
            elif self._held is not None:
                self._say(HeldForSummary(self._held))

    @_public
    def round_end_seen(self) -> bool:
        """The round's summary has been seen: a card that waited for it is drawn
        now. True if one was."""
        if not self._ending:
            return False
        self._ending = False
        self._actions += 1
        held, self._held = self._held, None
        return held is not None and self._accept(Draw(held))

    # --- choices -------------------------------------------------------------------

    @_public
    def press(self, seat: int, choice: Choice) -> bool:
        """A seat pressed torch or camp; False if no choice of that seat is due.

        The buttons of a bot seat are ignored: the bot has chosen already.
        """
        if seat in self.bots:
            return False
        seen = self.collector.visible
        try:
            taken = self.collector.press(seat, choice)
            if taken:
                self._withdraw_question()  # a seat's button: the table goes on
            if self.collector.visible != seen:  # the same choice again is no action
                self._actions += 1
            if taken and self.collector.countdown == 0:
                self._reveal(self.collector.tick())  # no countdown: the last press reveals
        except Exception as e:
            taken = False
            self._failed(Step.PRESS, e)
        return taken

    @_public
    def tick(self) -> bool:
        """Drive the countdown (call a few times a second); True if it revealed now.

        Listeners hear of a reveal once, after the held card (if any) is drawn
        too, so the screen never shows the step in between.
        """
        try:
            return self._reveal(self.collector.tick())
        except Exception as e:
            self._failed(Step.REVEAL, e)
            return False

    def _reveal(self, reveal: Reveal | None) -> bool:
        """Take the collector's reveal, then the card held for it; True if taken."""
        if reveal is None:
            return False
        self._actions += 1
        revealed = self._accept(reveal)
        held = self._held if revealed else None
        if held is not None:
            self._held = None
            if self.state.phase is Phase.DRAW:
                self._accept(Draw(held))
            else:
                self._say(HeldReturned(held))
        return revealed

    # --- fixes ---------------------------------------------------------------------

    @_public
    def undo(self) -> bool:
        """Take back the latest step (a held card is dropped first)."""
        self._actions += 1
        if self._held is not None:
            held, self._held = self._held, None
            self._say(HeldDropped(held))
            return True
        if not self.session.can_undo:
            self._say(NothingToUndo())
            return False
        undone = self.session.effective[-1]
        assert isinstance(undone, Draw | Reveal | Correct)
        # Undoing a correction can leave the same turn, whose choices then stay
        # (see _sync_collector): nothing to ask, nothing to say was cleared.
        chosen = frozenset() if self._keeps_turn() else self.collector.chosen
        if chosen and self._undo_armed != (self._steps, chosen):
            # Presses are never thrown away silently: the first tap says what
            # would go, a second tap (with nothing changed) confirms. The
            # question holds the reveal until it is answered or withdrawn.
            self._undo_armed = (self._steps, chosen)
            self.collector.hold()
            self._say(UndoWouldDropChoices(len(chosen), undone), "warning")
            return False
        self._undo_armed = None
        accepted = self._accept(Undo())
        # The question is answered: a turn that stays the same (a correction
        # taken back) must not stay held, or its reveal never comes.
        self.collector.release()
        if not accepted:
            return False
        self._say(Undone(undone, len(chosen)))
        return True

    def _keeps_turn(self) -> bool:
        """Whether an undo now would leave the turn on show, and its choices."""
        try:
            after = self.session.preview(Undo()).state
        except RuleError:
            return False
        return after.phase is Phase.CHOOSE and (
            after.round, len(after.path), after.due) == self._turn

    @property
    def asking(self) -> bool:
        """Undo's question ("tap again") is open: the reveal waits for its answer."""
        return self._undo_armed is not None

    def _withdraw_question(self) -> None:
        if self._undo_armed is not None:
            self._undo_armed = None
            self.collector.release()

    @_public
    def correct(self, pos: int, card_id: str) -> bool:
        """The card at path position ``pos`` is really ``card_id``; the notice
        says what it changed (the card, and each hand and tent it moved)."""
        self._actions += 1
        cid = self._known(card_id)
        before = self.state
        if cid is None or not self._accept(Correct(pos, cid)):
            return False
        after = self.state
        pairs = list(zip(before.seats, after.seats, strict=True))
        self._say(
            Corrected(
                pos,
                before.path[pos].card,
                cid,
                tuple((b.name, a.hand, b.hand) for a, b in pairs if a.hand != b.hand),
                tuple((b.name, a.banked, b.banked) for a, b in pairs if a.banked != b.banked),
            )
        )
        return True

    def _known(self, card_id: str) -> str | None:
        """The card's id in upper case, or None (and a notice) if it is no card."""
        try:
            return card(card_id).id
        except UnknownCard:
            self._say(NotACard(without_secrets(card_id)), "warning")
            return None

    # --- the one way an event gets in ----------------------------------------------------

    def _accept(self, event: Event) -> bool:
        """Check, store, apply. False (and a notice) if refused or not saved.

        The rules run once: what the check made is what is applied.
        """
        try:
            checked = self.session.preview(event)
        except RuleError as e:
            self._say(StepRefused(type(e).__name__, str(e)), "warning")
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
        self.session.commit(checked)
        self._steps += 1
        self._withdraw_question()  # the step the question was about is past
        if self.state.phase is not Phase.ROUND_OVER:
            self._ending = False
        self._sync_collector()
        return True

    def _failed(self, step: Step, error: Exception) -> None:
        _log.error("%s failed", step.value, exc_info=error)
        self._say(Failed(step, str(error)), "error")

    def _sync_collector(self) -> None:
        """Open the collector for the turn on show, or close it.

        A correction or an undo that leaves the same turn (same round, same
        path length, same seats due) keeps the choices already made; a bot
        whose view it changed chooses again.
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
            self._bot_views = {}
        self._bots_choose(state)

    def _bots_choose(self, state: State) -> None:
        """Every bot seat still in chooses, counted as pressed like a person,
        unless it chose already from what it sees now.

        It sees only its :class:`~companion.bots.View` (never the other
        choices); what it chose stays in the collector until the reveal.
        """
        if not any(s in self.bots for s in state.due):
            return
        from companion import bots, rollout

        # The game's reveals so far, public at the table: the expert learns the seats.
        past = rollout.seen_choices(self.session.moves, self.session.states)
        for seat in state.due:
            strategy = self.bots.get(seat)
            if strategy is not None:
                seen = bots.view(state, seat, seed=self._bot_seed, seen=past)
                if self._bot_views.get(seat) != seen:
                    self._bot_views[seat] = seen
                    self.collector.press(seat, bots.decide(strategy, seen))

    def close(self) -> None:
        """Stop the turn and forget the listeners (the store is the caller's)."""
        self.collector.close()
        self._listeners.clear()

