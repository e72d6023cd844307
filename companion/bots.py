"""Bot seats: the device plays a seat with a simple strategy (docs/bots.md).

A bot chooses torch or camp from what a player at the table can see, and
nothing else. Its strategy is given a :class:`View` built from the state:
the path, the gems on it, its own hand, how many seats are still in, and the
cards that can still come this round as a *set* (anyone can count them:
the hazards taken out, the artifacts lost or carried, the path). The state
itself holds no deck order, and the view holds no state, no session and no
other seat's choice, so a strategy cannot peek even by mistake.

The table records a bot's choice as pressed the moment a turn opens, through
the same collector as a person's press; it is revealed with the others.

>>> from companion.engine import draw, new_game
>>> s = draw(new_game(["Ana", "Bo", "Cy"]), "T11A")
>>> v = view(s, 1, seed="Ana")
>>> v.hand, v.leftovers, v.seats_in, v.bust
(3, 2, 3, Fraction(0, 1))
>>> decide("cautious", v), decide("greedy", v)
(<Choice.TORCH: 'torch'>, <Choice.TORCH: 'torch'>)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from companion.choices import Choice
from companion.engine import State
from companion.events import STRATEGIES
from companion.odds import odds

__all__ = [
    "CAUTIOUS_THRESHOLD",
    "RANDOM_CAMP",
    "STRATEGIES",
    "Strategy",
    "View",
    "cautious",
    "decide",
    "greedy",
    "randomised",
    "view",
]

#: The cautious bot leaves once the next card busts more often than this:
#: one in eight, i.e. as soon as two kinds of hazard lie on the path (4 in 28).
CAUTIOUS_THRESHOLD = Fraction(1, 8)
#: The randomised bot leaves with this chance at every turn.
RANDOM_CAMP = Fraction(1, 3)


@dataclass(frozen=True)
class View:
    """What one seat can see when its choice is due (never the deck's order)."""

    seat: int
    round: int
    hand: int  # the gems this seat holds in the temple
    leftovers: int  # gems lying on the path
    artifacts_on_path: int  # artifacts lying on the path, not yet carried out
    seats_in: int  # seats still in the temple, this one included
    cards_left: int  # cards that can still come this round
    bust: Fraction  # the chance that the next card is a second hazard
    treasure_gain: Fraction  # what the next card adds to this seat's hand, on average
    roll: Fraction  # a fair draw in [0, 1) for this seat and turn, from the seed


Strategy = Callable[[View], Choice]


def view(state: State, seat: int, *, seed: str) -> View:
    """The view of ``seat`` in ``state``; ``seed`` makes the roll repeatable.

    The roll depends on the seed, the round, the length of the path and the
    seat only: the same game replayed rolls the same, whatever comes next.
    """
    o = odds(state)
    gain = Fraction(0)
    bust = Fraction(0)
    cards_left = 0
    if o is not None:
        gain = o.treasure * o.treasure_each
        bust = o.bust
        cards_left = o.cards_left
    digest = hashlib.sha256(f"{seed}|{state.round}|{len(state.path)}|{seat}".encode()).digest()
    return View(
        seat=seat,
        round=state.round,
        hand=state.seats[seat].hand,
        leftovers=state.left_on_path,
        artifacts_on_path=sum(
            1 for p in state.path if p.kind.is_artifact and p.taken_by is None
        ),
        seats_in=len(state.in_temple),
        cards_left=cards_left,
        bust=bust,
        treasure_gain=gain,
        roll=Fraction(int.from_bytes(digest[:8], "big"), 1 << 64),
    )


def cautious(v: View) -> Choice:
    """Leave once the chance that the next card busts exceeds the threshold."""
    return Choice.CAMP if v.bust > CAUTIOUS_THRESHOLD else Choice.TORCH


def greedy(v: View) -> Choice:
    """Stay while one more card's expected gain exceeds its expected loss.

    The gain is the next card's average treasure share; the loss is the hand
    this seat would lose to a bust, times the chance of one.
    """
    return Choice.TORCH if v.treasure_gain > v.bust * v.hand else Choice.CAMP


def randomised(v: View) -> Choice:
    """Leave with a fixed chance at every turn, whatever the cards."""
    return Choice.CAMP if v.roll < RANDOM_CAMP else Choice.TORCH


_STRATEGY: dict[str, Strategy] = {
    "cautious": cautious,
    "greedy": greedy,
    "random": randomised,
}
assert tuple(_STRATEGY) == STRATEGIES


def decide(strategy: str, v: View) -> Choice:
    """The choice of the named strategy (one of :data:`STRATEGIES`)."""
    return _STRATEGY[strategy](v)
