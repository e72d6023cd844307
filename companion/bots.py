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
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from random import Random

from companion import rollout
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
    "expert",
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
    # What a careful player counts besides (docs/bots.md): the standing, who is
    # still in, the path's leftovers and artifacts, and the cards left by kind.
    scores: tuple[int, ...] = ()  # every seat's score (banked and artifacts carried)
    in_temple: tuple[int, ...] = ()  # the seats still in, this one among them
    lefts: tuple[int, ...] = ()  # leftovers per path card (one pool when they are pooled)
    path_artifacts: tuple[int, ...] = ()  # printed values of the artifacts on the path
    treasures_left: tuple[int, ...] = ()  # the gems of each treasure that can still come
    hazards_left: tuple[int, ...] = ()  # per kind (snakes, spiders, mummies, fire, rocks)
    hazards_seen: tuple[int, ...] = ()  # per kind, 1 if one lies on the path
    artifacts_left: tuple[int, ...] = ()  # printed values of the artifacts that can come
    artifacts_carried: int = 0  # carried out so far this game (their worth depends on it)
    artifacts_held: tuple[int, ...] = ()  # each seat's artifacts (a tie on score goes to the most)
    printed_values: bool = False  # artifacts keep their printed values
    pooled: bool = True  # the leftovers are one pool
    # Every choice made at this game's reveals so far, as the table saw them
    # (rollout.Seen: seat, bust, hand, gain, take, seats in, 1 if it left).
    seen: tuple[rollout.Seen, ...] = ()


Strategy = Callable[[View], Choice]


def view(state: State, seat: int, *, seed: str, seen: tuple[rollout.Seen, ...] = ()) -> View:
    """The view of ``seat`` in ``state``; ``seed`` makes the roll repeatable;
    ``seen``: the choices of the game's reveals so far
    (:func:`companion.rollout.seen_choices`), for a bot that learns the table.

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
    p = rollout.position(state)
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
        scores=p.scores,
        in_temple=p.in_temple,
        lefts=p.lefts,
        path_artifacts=p.path_artifacts,
        treasures_left=p.treasures,
        hazards_left=p.hazards,
        hazards_seen=p.seen,
        artifacts_left=p.artifacts,
        artifacts_carried=p.carried,
        artifacts_held=p.held,
        printed_values=p.printed,
        pooled=p.pooled,
        seen=seen,
    )


def position(v: View) -> rollout.Position:
    """The rollouts' position, from what the view holds."""
    return rollout.Position(
        round=v.round,
        hand=v.hand,
        lefts=v.lefts,
        path_artifacts=v.path_artifacts,
        treasures=v.treasures_left,
        hazards=v.hazards_left,
        seen=v.hazards_seen,
        artifacts=v.artifacts_left,
        carried=v.artifacts_carried,
        printed=v.printed_values,
        pooled=v.pooled,
        in_temple=v.in_temple,
        scores=v.scores,
        held=v.artifacts_held,
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


#: The expert's rollouts: at least this many, then more in batches of 16 until
#: the better choice is clear by three standard errors, or the most are played.
EXPERT_MIN_ROLLOUTS = 32
EXPERT_MAX_ROLLOUTS = 96
#: From this round on the expert plays for the standing, before it for gems.
EXPERT_STANDING_FROM = 1


def expert_values(v: View) -> tuple[float, float, float]:
    """The expert's value of staying and of leaving, and the standard error of
    their difference. Before the last rounds in gems taken home this round;
    from :data:`EXPERT_STANDING_FROM` on as the chance to win the game
    (:func:`companion.rollout.standing` at the round's end).
    """
    p = position(v)
    model = rollout.model_of(v.seen, [s for s in p.in_temple if s != v.seat])
    ready = rollout.prepare(p, model)
    seed = int(v.roll * (1 << 32))
    n = 0
    total = sq = 0.0
    se = 0.0
    if p.round < EXPERT_STANDING_FROM:
        leave = rollout.leave_value(p, v.seat, model)
        rng = Random(seed)
        while n < EXPERT_MAX_ROLLOUTS:
            x = rollout.play_out(p, v.seat, False, rng, model, prepared=ready)[v.seat]
            n += 1
            total += x
            sq += x * x
            se, clear = _settled(n, total, sq, leave, se)
            if clear:
                break
        return total / n, leave, se
    after = rollout.rounds_after(p)
    stays = leaves = 0.0
    while n < EXPERT_MAX_ROLLOUTS:
        # The same cards for both choices: their difference is the clearer.
        rng = Random(seed + n)
        cards = rng.getstate()
        arts_stay, arts_leave = [0] * len(p.scores), [0] * len(p.scores)
        got_stay = rollout.play_out(p, v.seat, False, rng, model, to_the_end=True,
                                    prepared=ready, carried_out=arts_stay)  # fmt: skip
        rng.setstate(cards)
        got_leave = rollout.play_out(p, v.seat, True, rng, model, to_the_end=True,
                                     prepared=ready, carried_out=arts_leave)  # fmt: skip
        stay = rollout.standing(p.scores, v.seat, got_stay, after, p.held, arts_stay)
        leave_ = rollout.standing(p.scores, v.seat, got_leave, after, p.held, arts_leave)
        stays += stay
        leaves += leave_
        d = stay - leave_
        n += 1
        total += d
        sq += d * d
        se, clear = _settled(n, total, sq, 0.0, se)
        if clear:
            break
    return stays / n, leaves / n, se


def _settled(n: int, total: float, sq: float, against: float, se: float) -> tuple[float, bool]:
    """Every 16 rollouts past the minimum: the mean's standard error, and whether the
    mean of ``n`` rollouts (``total``, sum of squares ``sq``) is three of them clear of
    ``against``; in between, ``se`` as it was and not clear."""
    if n < EXPERT_MIN_ROLLOUTS or n % 16:
        return se, False
    mean = total / n
    se = math.sqrt(max(sq / n - mean * mean, 0.0) / (n - 1))
    return se, abs(mean - against) > 3 * se


def expert(v: View) -> Choice:
    """Play to win the game: rollouts of the rest of the round, the other seats
    by the default model, counting leftovers and the artifacts a lone leaver
    takes; the last round valued by the chance to win the game."""
    if not v.cards_left:
        return Choice.CAMP
    if v.bust == 0 and not v.leftovers and not v.path_artifacts:
        # Nothing can bust and nothing waits for a lone leaver: staying keeps the
        # hand and can still leave at the next reveal, so it is never worse.
        return Choice.TORCH
    stay, leave, _se = expert_values(v)
    return Choice.TORCH if stay >= leave else Choice.CAMP


_STRATEGY: dict[str, Strategy] = {
    "cautious": cautious,
    "greedy": greedy,
    "random": randomised,
    "expert": expert,
}
assert tuple(_STRATEGY) == STRATEGIES


def decide(strategy: str, v: View) -> Choice:
    """The choice of the named strategy (one of :data:`STRATEGIES`)."""
    return _STRATEGY[strategy](v)
