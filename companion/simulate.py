"""Random legal play: the demo's simulated table, and the property tests' games.

``random_events`` plays a whole game as a table would: it shuffles the real
deck for each round, turns cards, and lets each seat decide with a simple
greedy-but-nervous policy. With ``mistakes`` it also makes the slips a real
table makes (a misread fixed by ``correct``, a step taken back by ``undo``),
so the log exercises every event of docs/game-log.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.cards import ALL_IDS
from companion.engine import MAX_SEATS, MIN_SEATS, Phase, RuleError, State
from companion.events import Correct, Draw, Event, Reveal, Start, Undo
from companion.rules import RULE_SETS
from companion.session import Session

SEAT_NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")


def wants_to_leave(state: State, seat: int, rng: random.Random) -> bool:
    """A seat's torch/camp choice: riskier with more hazards out and more in hand."""
    hand = state.seats[seat].hand
    hazards = len(state.hazards_on_path())
    on_path = state.left_on_path
    chance = 0.05 + 0.12 * hazards + 0.012 * (hand + on_path)
    return rng.random() < min(chance, 0.95)


def choose_camp(state: State, rng: random.Random) -> tuple[int, ...]:
    return tuple(i for i in state.due if wants_to_leave(state, i, rng))


def next_card(state: State, rng: random.Random) -> str:
    """A card the table could turn now, as from a shuffled deck."""
    return rng.choice(state.possible_draws())


def random_events(
    rng: random.Random,
    *,
    seats: int | None = None,
    rules: str | None = None,
    mistakes: float = 0.0,
) -> Iterator[tuple[Event, Session]]:
    """Play one random game; yields each accepted event and the session after it."""
    n = seats if seats is not None else rng.randint(MIN_SEATS, MAX_SEATS)
    start = Start(SEAT_NAMES[:n], rules if rules is not None else rng.choice(tuple(RULE_SETS)))
    session = Session.start(start)
    yield start, session
    while session.state.phase is not Phase.GAME_OVER:
        state = session.state
        event: Event
        roll = rng.random()
        if mistakes and roll < mistakes and session.can_undo:
            event = Undo()
        elif mistakes and roll < 2 * mistakes and state.path:
            # A misread: any card of the game; the session refuses what cannot be.
            event = Correct(rng.randrange(len(state.path)), rng.choice(ALL_IDS))
            try:
                session.apply(event)
            except RuleError:
                continue
            yield event, session
            continue
        elif state.phase is Phase.CHOOSE:
            # With every card of the round on the path, only leaving is left.
            event = Reveal(choose_camp(state, rng) if state.deck else state.due)
        else:
            event = Draw(next_card(state, rng))
        session.apply(event)
        yield event, session


class VirtualClock:
    """Time that moves only when told to: the demo's clock and the tests', so a
    countdown or the debouncing never depends on how fast the machine is."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
