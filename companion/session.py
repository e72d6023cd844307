"""A game as its append-only event log, with undo and correct.

The state is always the replay of the log. Undo and correct are log-level:
undo cancels the latest event not yet cancelled, correct rewrites the card
of one draw of the round on show and replays what followed. The session
keeps the moves of the game as it stands and the state after each, and each
accepted event keeps only what it changed in them (a move added, or the draw
a correction replaced): a log of many corrections holds a few hundred bytes
a line, not a copy of the game each. Undo of a draw or a reveal is a pop;
correct, and undo of a correction, replay only the tail of the round. An
event is checked once (:meth:`Session.preview`, which runs the rules) and
what the check made is what :meth:`Session.commit` takes: the engine runs
once per event, also when the caller stores the event between the two.

>>> from companion.events import Start, Draw, Reveal, Correct, Undo
>>> s = Session.start(Start(("Ana", "Bo", "Cy")))
>>> _ = s.apply(Draw("T11A")); _ = s.apply(Reveal((0,)))
>>> s.state.seats[0].banked
5
>>> _ = s.apply(Correct(0, "T14"))
>>> s.state.seats[0].banked
6
>>> _ = s.apply(Undo()); _ = s.apply(Undo())
>>> [p.card for p in s.state.path], s.state.phase.value
(['T11A'], 'choose')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from companion import engine
from companion.cards import ALL_IDS, CATALOGUE
from companion.engine import RuleError, State
from companion.events import BadEvent, Correct, Draw, Event, Move, Reveal, Start, Undo


class LogError(ValueError):
    """An event the log cannot take; ``index`` is its 0-based place in the log."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"line {index + 1}: {reason}")
        self.index = index
        self.reason = reason


class BadBots(engine.BadStart):
    """Bot seats a game cannot have (a seat that does not exist, named twice, no person)."""


def _check_bots(start: Start) -> None:
    seen: set[int] = set()
    for seat, _name in start.bots:
        if not 0 <= seat < len(start.seats):
            raise BadBots(f"bot seat {seat} is out of range (seats 0 to {len(start.seats) - 1})")
        if seat in seen:
            raise BadBots(f"seat {seat} is named twice in bots")
        seen.add(seat)
    if len(seen) == len(start.seats):
        raise BadBots("every seat is a bot: a game needs at least one person")


class NothingToUndoError(RuleError):
    """Undo with only the start of the game left."""


class CorrectionRefused(RuleError):
    """A correct event that would leave the rest of the log invalid."""


class NotFirst(RuleError):
    """A start event that is not the first line, or a first line that is not a start."""


@dataclass(frozen=True, eq=False, slots=True)
class _Frame:
    """One accepted step: its event, and what it changed in the game's moves.

    A draw or a reveal added a move at ``at``; a correction put a new draw at
    ``at`` in place of ``replaced``. Compared by identity: it stands for the
    step, not for its contents.
    """

    entry: Event  # the accepted event (never an undo)
    at: int  # the index in the moves of the move it added or replaced
    replaced: Draw | None = None  # a correction's draw before it


class StaleCheck(ValueError):
    """A checked event committed after the session changed (checked against
    another state than the one on show)."""


@dataclass(frozen=True)
class Checked:
    """An event checked against the session, and the state it leads to.

    :meth:`Session.commit` takes it as it was made, without running the rules
    again; it holds only while the session is as it was when checked.
    """

    event: Event
    state: State
    _on: _Frame  # the frame on show when checked
    _frame: _Frame | None  # the frame it adds (None: an undo, which drops one)
    # The moves and states from ``_at`` on, as they become (an undo of a draw
    # or a reveal: none, the last move is dropped).
    _at: int
    _moves: tuple[Move, ...]
    _states: tuple[State, ...]


def _play(state: State, move: Move) -> State:
    match move:
        case Draw(card):
            return engine.draw(state, card)
        case Reveal(camp):
            return engine.reveal(state, camp)
        case Start():
            raise NotFirst("start is only allowed on the first line")


class Session:
    def __init__(self, start: Start, state: State) -> None:
        self._frames: list[_Frame] = [_Frame(start, 0)]
        self._log: list[Event] = [start]
        self._moves: list[Move] = [start]
        self._states: list[State] = [state]
        # The tuples last handed out, kept until the game changes: readers
        # (the web page at every poll) then share one copy.
        self._seen: tuple[tuple[Move, ...], tuple[State, ...]] | None = None

    @classmethod
    def start(cls, event: Start) -> Session:
        state = engine.new_game(event.seats, event.rules, event.deck)
        _check_bots(event)
        return cls(event, state)

    @classmethod
    def replay(cls, events: Iterable[Event]) -> Session:
        """The session after these events; raises :class:`LogError` naming the bad one."""
        session: Session | None = None
        for index, event in enumerate(events):
            try:
                if session is None:
                    if not isinstance(event, Start):
                        raise NotFirst("the first line must be a start event")
                    session = cls.start(event)
                else:
                    session.apply(event)
            except (RuleError, BadEvent) as e:
                raise LogError(index, str(e)) from None
        if session is None:
            raise LogError(0, "the log is empty")
        return session

    # -- reading -------------------------------------------------------------

    @property
    def state(self) -> State:
        return self._states[-1]

    @property
    def start_event(self) -> Start:
        """The game's set-up: seats, rules, the box's deck, the bot seats."""
        first = self._frames[0].entry
        assert isinstance(first, Start)
        return first

    @property
    def log(self) -> tuple[Event, ...]:
        """Every accepted event, undo included, as it would be stored."""
        return tuple(self._log)

    @property
    def effective(self) -> tuple[Event, ...]:
        """The log with undone events and the undos left out."""
        return tuple(f.entry for f in self._frames)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The game as start, draws and reveals with every correction applied."""
        return self._seen_now()[0]

    @property
    def states(self) -> tuple[State, ...]:
        """The state after each of :attr:`moves`, in order (the first: the start)."""
        return self._seen_now()[1]

    def _seen_now(self) -> tuple[tuple[Move, ...], tuple[State, ...]]:
        if self._seen is None:
            self._seen = (tuple(self._moves), tuple(self._states))
        return self._seen

    @property
    def can_undo(self) -> bool:
        return len(self._frames) > 1

    def __iter__(self) -> Iterator[Event]:
        return iter(self._log)

    # -- changing ----------------------------------------------------------------

    def apply(self, event: Event) -> State:
        """Take one event; on error nothing changes and a RuleError says why."""
        return self.commit(self.preview(event))

    def preview(self, event: Event) -> Checked:
        """``event`` checked, with the state it would lead to, without taking it
        (raises like apply); :meth:`commit` takes it."""
        frame = self._frames[-1]
        match event:
            case Undo():
                if len(self._frames) == 1:
                    raise NothingToUndoError("nothing to undo")
                if frame.replaced is None:
                    last = len(self._moves) - 1
                    return Checked(event, self._states[-2], frame, None, last, (), ())
                # The draw the correction replaced held before it: the round
                # replays as it was.
                assert isinstance(frame.entry, Correct)
                moves, states = self._corrected(frame.at, frame.entry.pos, frame.replaced.card)
                return Checked(event, states[-1], frame, None, frame.at, moves, states)
            case Start():
                raise NotFirst("start is only allowed on the first line")
            case Draw() | Reveal():
                state = _play(self._states[-1], event)
                at = len(self._moves)
                return Checked(event, state, frame, _Frame(event, at), at, (event,), (state,))
            case Correct(pos, card):
                at = self._draw_at(pos)
                replaced = self._moves[at]
                assert isinstance(replaced, Draw)
                moves, states = self._corrected(at, pos, card)
                new = _Frame(event, at, replaced)
                return Checked(event, states[-1], frame, new, at, moves, states)

    def commit(self, checked: Checked) -> State:
        """Take an event checked by :meth:`preview` on this session as it is now;
        raises :class:`StaleCheck` (and changes nothing) if the session moved on."""
        if checked._on is not self._frames[-1]:
            raise StaleCheck(f"{checked.event!r} was checked against another state")
        if checked._frame is None:
            self._frames.pop()
        else:
            self._frames.append(checked._frame)
        self._moves[checked._at :] = checked._moves
        self._states[checked._at :] = checked._states
        self._seen = None
        self._log.append(checked.event)
        return self.state

    def _round_draws(self) -> list[int]:
        """Indexes in the moves of the draws of the round on show."""
        now = self._states[-1].round
        draws = []
        # From the end back: the round's moves are the last ones.
        for i in range(len(self._moves) - 1, 0, -1):
            if self._states[i].round != now:
                break
            if isinstance(self._moves[i], Draw):
                draws.append(i)
        draws.reverse()
        return draws

    def _draw_at(self, pos: int) -> int:
        """The index in the moves of the round's draw at path position ``pos``."""
        draws = self._round_draws()
        if not 0 <= pos < len(draws):
            raise CorrectionRefused(f"no card at path position {pos} (the path has {len(draws)})")
        return draws[pos]

    def _corrected(
        self, at: int, pos: int, card: str
    ) -> tuple[tuple[Move, ...], tuple[State, ...]]:
        moves = (Draw(card), *self._moves[at + 1 :])
        states = [self._states[at - 1]]
        for i, move in enumerate(moves):
            try:
                states.append(_play(states[-1], move))
            except RuleError as e:
                what = "the card" if i == 0 else f"a later {type(move).__name__.lower()}"
                raise CorrectionRefused(
                    f"{card} at position {pos}: {what} would be invalid: {e}"
                ) from None
        before, after = self._states[-1], states[-1]
        if after.round != before.round or len(after.path) != len(before.path):
            raise CorrectionRefused(
                f"{card} at position {pos} would end the round before the cards that followed it"
            )
        return moves, tuple(states[1:])

    def correction_options(self, pos: int) -> tuple[str, ...]:
        """Every card the path card at ``pos`` could be corrected to (itself excluded).

        Whether the rest of the round still holds never depends on a card's
        gems or an artifact's value, only on whether it is a hazard and of
        which type: so the round is replayed once for each such kind (at most
        six times, not once for each of the 35 cards), and each card of the
        kind is then decided by what depends on its id alone: being in the
        deck at that point and not coming again later in the round.
        """
        draws = self._round_draws()
        if not 0 <= pos < len(draws):
            return ()
        at = draws[pos]
        before = self._states[at - 1]
        current = self._moves[at]
        assert isinstance(current, Draw)
        later = {m.card for m in self._moves[at + 1 :] if isinstance(m, Draw)}
        holds: dict[str | None, bool] = {}
        options = []
        for cid in ALL_IDS:
            if cid == current.card or cid in later:
                continue
            if engine.why_unplayable(before, cid) is not None:
                continue
            kind = CATALOGUE[cid].hazard
            if kind not in holds:
                try:
                    self._corrected(at, pos, cid)
                    holds[kind] = True
                except RuleError:
                    holds[kind] = False
            if holds[kind]:
                options.append(cid)
        return tuple(options)
