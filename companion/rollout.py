"""Rollouts of the rest of a round, and the model of the other seats they play.

The expert bot (``companion.bots``), the review (``companion.review``) and the
odds panel's "one more card" all value a choice the same way: from a
:class:`Position` (what every seat can count at a reveal: the hand of the
seats in the temple, the leftovers, the artifacts on the path, the cards that
can still come, the scores), the round is played on to its end many times,
each time with the cards in a fresh random order. The other seats choose by a
:class:`LeaveModel` (the chance that a seat leaves, from what it sees); the
seat being valued plays on by :func:`ev_rule`, the best simple rule we know.

A model is a logistic curve over five figures of the moment: the chance of a
bust, the gems at stake in a bust, the next card's average gain, what leaving
now adds to the hand (the leftovers and artifacts, per seat in), and the hand.
:data:`DEFAULT_WEIGHTS` is a middling table: before any hazard, with 3 in
hand, it leaves about one time in seventy; with 10 in hand at one chance in
seven of a bust, one time in seven; with 20 at one in four, nine times in ten.
:func:`fit` fits the weights to stored choices, pulled towards the default by
a prior worth :data:`PRIOR_DECISIONS` choices, so a few choices move it little.

Everything here is pure Python on plain numbers: a rollout is some tens of
microseconds, a decision of the expert bot some milliseconds.

>>> import random
>>> from companion.engine import draw, new_game
>>> p = position(draw(new_game(["Ana", "Bo", "Cy"]), "T11A"))
>>> p.hand, p.lefts, p.in_temple, len(p.treasures), p.hazards
(3, (2,), (0, 1, 2), 14, (3, 3, 3, 3, 3))
>>> leave_now(p, 0, 0)  # alone: the hand and both gems left on the card
5
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from random import Random

from companion.cards import CATALOGUE, HAZARD_TYPES, ROUNDS
from companion.engine import State

__all__ = [
    "DEFAULT_MODEL",
    "DEFAULT_WEIGHTS",
    "PRIOR_DECISIONS",
    "LeaveModel",
    "Position",
    "Situation",
    "ev_rule",
    "fit",
    "leave_now",
    "leave_value",
    "play_out",
    "position",
    "situation",
    "stay_value",
]

_KIND = {kind: i for i, kind in enumerate(HAZARD_TYPES)}


@dataclass(frozen=True)
class Position:
    """A round at a reveal, as any seat at the table can count it."""

    round: int
    hand: int  # the gems of each seat in the temple (they all got the same shares)
    lefts: tuple[int, ...]  # leftovers per path card (pooled rules: one pool)
    path_artifacts: tuple[int, ...]  # printed values of the artifacts lying on the path
    treasures: tuple[int, ...]  # the treasures that can still come
    hazards: tuple[int, ...]  # per kind of HAZARD_TYPES, the copies that can still come
    seen: tuple[int, ...]  # per kind, 1 if one lies on the path
    artifacts: tuple[int, ...]  # printed values of the artifacts that can still come
    carried: int  # artifacts carried out so far this game
    printed: bool  # artifacts keep their printed values (else 5, 5, 5, then 10)
    pooled: bool  # leftovers are one pool (Incan Gold) or per card (Diamant)
    in_temple: tuple[int, ...]  # the seats still in
    scores: tuple[int, ...]  # every seat's score (banked and artifacts)
    # Every seat's artifacts carried out so far: a tie on score after the last
    # round goes to the most (none given: ties stay ties).
    held: tuple[int, ...] = ()

    @property
    def cards_left(self) -> int:
        return len(self.treasures) + sum(self.hazards) + len(self.artifacts)

    @property
    def bust_cards(self) -> int:
        return sum(h for h, s in zip(self.hazards, self.seen, strict=True) if s)


def position(state: State) -> Position:
    """The position of ``state`` (a reveal due, or a round going on)."""
    deck = [CATALOGUE[c] for c in state.deck]
    hazards = [0] * len(HAZARD_TYPES)
    seen = [0] * len(HAZARD_TYPES)
    for c in deck:
        if c.hazard is not None:
            hazards[_KIND[c.hazard]] += 1
    for p in state.path:
        if p.kind.hazard is not None:
            seen[_KIND[p.kind.hazard]] = 1
    lefts = tuple(p.left for p in state.path if p.left)
    if state.rules.pooled:
        lefts = (sum(lefts),) if lefts else ()
    in_temple = state.in_temple
    return Position(
        round=state.round,
        hand=state.seats[in_temple[0]].hand if in_temple else 0,
        lefts=lefts,
        path_artifacts=tuple(
            p.kind.value for p in state.path if p.kind.is_artifact and p.taken_by is None
        ),
        treasures=tuple(c.value for c in deck if c.is_treasure),
        hazards=tuple(hazards),
        seen=tuple(seen),
        artifacts=tuple(c.value for c in deck if c.is_artifact),
        carried=len(state.carried),
        printed=state.rules.printed_artifact_values,
        pooled=state.rules.pooled,
        in_temple=in_temple,
        scores=state.scores,
        held=tuple(len(seat.artifacts) for seat in state.seats),
    )


def _worth(printed: bool, value: int, carried_before: int) -> int:
    if printed:
        return value
    return 5 if carried_before < 3 else 10


def leave_now(p: Position, seat: int, others_leaving: int) -> int:
    """What ``seat`` takes home leaving now with ``others_leaving`` other seats."""
    n = others_leaving + 1
    got = p.hand + sum(left // n for left in p.lefts)
    if n == 1:
        got += sum(_worth(p.printed, v, p.carried + i) for i, v in enumerate(p.path_artifacts))
    return got


# --- the model of a seat's choice ----------------------------------------------------


@dataclass(frozen=True)
class Situation:
    """The five figures a seat's choice is modelled on (see the module's text)."""

    bust: float  # the chance the next card busts
    hand: int
    gain: float  # the next card's average treasure share for each seat in
    take: float  # leftovers and artifacts on the path, per seat in
    seats_in: int

    def features(self) -> tuple[float, float, float, float, float, float]:
        return _features(self.bust, self.hand, self.gain, self.take)


def _features(
    bust: float, hand: int, gain: float, take: float
) -> tuple[float, float, float, float, float, float]:
    return (1.0, bust, bust * hand, gain, take, hand / 10)


def situation(p: Position) -> Situation:
    n = len(p.in_temple) or 1
    cards = p.cards_left or 1
    art = sum(_worth(p.printed, v, p.carried + i) for i, v in enumerate(p.path_artifacts))
    return Situation(
        bust=p.bust_cards / cards,
        hand=p.hand,
        gain=sum(v // n for v in p.treasures) / cards,
        take=(sum(p.lefts) + art) / n,
        seats_in=n,
    )


#: Weights of the default model, on (1, bust, bust x hand, gain, take, hand / 10).
DEFAULT_WEIGHTS: tuple[float, ...] = (-3.6, 6.0, 0.8, -0.8, 0.1, 0.5)
#: How many choices the default counts as, against a table's stored ones.
PRIOR_DECISIONS = 40


def _chance(weights: Sequence[float], x: Sequence[float]) -> float:
    z = sum(w * f for w, f in zip(weights, x, strict=True))
    if z < -30:
        return 0.0
    if z > 30:
        return 1.0
    return 1 / (1 + math.exp(-z))


@dataclass(frozen=True)
class LeaveModel:
    """The chance that a seat leaves, by seat; ``fitted`` counts the stored
    choices it was fitted on (0: the default)."""

    weights: tuple[float, ...] = DEFAULT_WEIGHTS
    per_seat: tuple[tuple[int, tuple[float, ...]], ...] = ()
    fitted: int = 0

    @property
    def name(self) -> str:
        return "default" if not self.fitted else "fitted"

    def weights_of(self, seat: int) -> tuple[float, ...]:
        return next((w for s, w in self.per_seat if s == seat), self.weights)

    def chance(self, seat: int, s: Situation) -> float:
        """The chance that ``seat`` leaves in situation ``s``."""
        return _chance(self.weights_of(seat), s.features())


DEFAULT_MODEL = LeaveModel()


def fit(
    samples: Sequence[tuple[Situation, bool]],
    prior: Sequence[float] = DEFAULT_WEIGHTS,
    strength: float = PRIOR_DECISIONS,
    steps: int = 8,
) -> tuple[float, ...]:
    """Logistic weights for ``samples`` (a situation, and whether the seat left),
    pulled towards ``prior`` (a Gaussian prior; Newton's method, a few steps).

    With no samples the prior comes back as it is.
    """
    w = list(prior)
    if not samples:
        return tuple(w)
    xs = [s.features() for s, _left in samples]
    ys = [1.0 if left else 0.0 for _s, left in samples]
    k = len(w)
    # The prior's precision: as much as ``strength`` choices at an even chance
    # with features of the size of the samples' own.
    scale = [max(1e-3, sum(x[i] * x[i] for x in xs) / len(xs)) for i in range(k)]
    lam = [strength * 0.25 * scale[i] for i in range(k)]
    for _step in range(steps):
        grad = [lam[i] * (w[i] - prior[i]) for i in range(k)]
        hess = [[lam[i] if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, ys, strict=True):
            p = _chance(w, x)
            r = p - y
            v = p * (1 - p)
            for i in range(k):
                grad[i] += r * x[i]
                row = hess[i]
                vi = v * x[i]
                for j in range(k):
                    row[j] += vi * x[j]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(si) for si in step) < 1e-6:
            break
    return tuple(w)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination (``a`` is small and positive definite)."""
    n = len(b)
    m = [[*row[:], b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        d = m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / d
            if f:
                row, top = m[r], m[c]
                for j in range(c, n + 1):
                    row[j] -= f * top[j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


#: A choice seen at a reveal: (seat, bust, hand, gain, take, seats in, 1 if it left).
Seen = tuple[int, float, int, float, float, int, int]


def choices_at(before: State, camp: Sequence[int]) -> tuple[Seen, ...]:
    """Every choice made at the reveal from ``before`` (``camp`` left), as seen."""
    s = situation(position(before))
    return tuple(
        (seat, s.bust, s.hand, s.gain, s.take, s.seats_in, 1 if seat in camp else 0)
        for seat in before.due
    )


def seen_choices(moves: Sequence[object], states: Sequence[State]) -> tuple[Seen, ...]:
    """Every choice of a game so far (its moves and the states after each)."""
    from companion.events import Reveal

    out: list[Seen] = []
    for k in range(1, len(moves)):
        move = moves[k]
        if isinstance(move, Reveal):
            out.extend(choices_at(states[k - 1], move.camp))
    return tuple(out)


def _samples(seen: Sequence[Seen]) -> list[tuple[Situation, bool]]:
    return [(Situation(b, h, g, t, n), bool(left)) for _s, b, h, g, t, n, left in seen]


#: How many choices the default counts as against one seat's choices in a game.
SEAT_PRIOR_DECISIONS = 12

_fits: dict[tuple[Seen, ...], tuple[float, ...]] = {}


def seat_weights(seen: tuple[Seen, ...]) -> tuple[float, ...]:
    """The weights fitted to one seat's choices (remembered: a pure function)."""
    w = _fits.get(seen)
    if w is None:
        if len(_fits) > 4096:
            _fits.clear()
        w = _fits[seen] = fit(_samples(seen), DEFAULT_WEIGHTS, SEAT_PRIOR_DECISIONS, steps=4)
    return w


def model_of(seen: Sequence[Seen], seats: Sequence[int]) -> LeaveModel:
    """A model of ``seats`` fitted to their choices in ``seen``, each seat its own,
    from the default (the default alone for a seat not seen choosing)."""
    per_seat = []
    count = 0
    for seat in seats:
        mine = tuple(x for x in seen if x[0] == seat)
        if mine:
            per_seat.append((seat, seat_weights(mine)))
            count += len(mine)
    return LeaveModel(DEFAULT_WEIGHTS, tuple(per_seat), count)


# --- the seat's own play after the choice ----------------------------------------------


def ev_rule(bust: float, hand: int, gain: float, take: float, seats_in: int) -> bool:
    """Whether to leave, by the best simple rule we know (the bench's baseline).

    Stay while one more card is worth more than what a bust would cost: the
    next card's average gain, with a round's worth of later cards counted in,
    against the chance of a bust times everything at stake (the hand, and the
    leftovers and artifacts a leaver would take now).
    """
    if bust == 0:
        return take > 6 and seats_in > 1 and take > 3 * gain
    return gain * 1.2 < bust * (hand + take)


Policy = Callable[[float, int, float, float, int], bool]


# --- a rollout ---------------------------------------------------------------------------

#: The cards that can come (a treasure's gems, -1 - kind for a hazard, 100 +
#: printed value for an artifact) and each seat's weights: what every rollout
#: of one position and model starts from.
Prepared = tuple[tuple[int, ...], dict[int, tuple[float, ...]]]


def prepare(p: Position, model: LeaveModel) -> Prepared:
    deck = (*p.treasures, *(-1 - k for k, h in enumerate(p.hazards) for _ in range(h)),
            *(100 + v for v in p.artifacts))  # fmt: skip
    return deck, {s: model.weights_of(s) for s in p.in_temple}



def play_out(
    p: Position,
    seat: int,
    leave: bool,
    rng: Random,
    model: LeaveModel = DEFAULT_MODEL,
    *,
    others: Sequence[int] | None = None,
    policy: Policy = ev_rule,
    to_the_end: bool = False,
    leave_after: int = 0,
    prepared: Prepared | None = None,
    carried_out: list[int] | None = None,
) -> list[int]:
    """Play the round to its end once, with ``seat`` staying or leaving now.

    Returns every seat's take from here (gems and artifacts banked this round,
    a busted hand counts 0). ``others``: the seats that leave with it at this
    reveal, when known (the review's case); otherwise the model draws them.
    ``to_the_end``: play on after ``seat`` is out, for the others' takes too.
    ``leave_after``: the seat leaves at that later reveal at the latest
    (0: whenever ``policy`` says). ``prepared``: :func:`prepare` of the same
    position and model, made once for many rollouts. ``carried_out``: a list
    of a count per seat, to which the artifacts each seat carries out are added.
    """
    n_seats = len(p.scores)
    got = [0] * n_seats
    if prepared is None:
        prepared = prepare(p, model)
    deck = list(prepared[0])
    weights = prepared[1]
    haz = list(p.hazards)
    seen = 0
    for k, s in enumerate(p.seen):
        if s:
            seen |= 1 << k
    bust_cards = p.bust_cards
    tsum = sum(p.treasures)
    tcount = len(p.treasures)
    lefts = list(p.lefts)
    arts = list(p.path_artifacts)
    carried = p.carried
    printed, pooled = p.printed, p.pooled
    hand = p.hand
    temple = list(p.in_temple)
    random = rng.random
    first = True
    reveals = 0
    while True:
        # The reveal: who leaves.
        n = len(temple)
        cards = len(deck)
        if not cards:
            leavers = temple
        else:
            bust = bust_cards / cards
            # floor(v / n) is v / n less (n - 1) / 2n on average.
            gain = (tsum - tcount * (n - 1) / 2) / (cards * n)
            # As :func:`situation` values them, which the weights were fitted on.
            art = sum(_worth(printed, v, carried + i) for i, v in enumerate(arts)) if arts else 0
            take = (sum(lefts) + art) / n
            bh, h10 = bust * hand, hand / 10
            leavers = []
            for s in temple:
                if s == seat:
                    if first:
                        if leave:
                            leavers.append(s)
                    elif reveals == leave_after or policy(bust, hand, gain, take, n):
                        leavers.append(s)
                elif first and others is not None:
                    if s in others:
                        leavers.append(s)
                else:
                    w = weights[s]
                    z = w[0] + w[1] * bust + w[2] * bh + w[3] * gain + w[4] * take + w[5] * h10
                    # exp(-z) for z below -30 is past any draw's reach: the seat stays.
                    if z > -30 and random() * (1 + math.exp(-z)) < 1:
                        leavers.append(s)
        first = False
        reveals += 1
        k = len(leavers)
        if k:
            share = 0
            for i, left in enumerate(lefts):
                each, rest = divmod(left, k)
                share += each
                lefts[i] = rest
            if k == 1 and arts:
                for v in arts:
                    got[leavers[0]] += _worth(printed, v, carried)
                    carried += 1
                if carried_out is not None:
                    carried_out[leavers[0]] += len(arts)
                arts = []
            for s in leavers:
                got[s] += hand + share
            temple = [s for s in temple if s not in leavers]
            if not temple or (not to_the_end and seat not in temple):
                return got
        # The next card.
        i = int(random() * cards)
        card = deck[i]
        deck[i] = deck[-1]
        deck.pop()
        n = len(temple)
        if card > 100:
            arts.append(card - 100)
        elif card > 0:
            each, left = divmod(card, n)
            hand += each
            tsum -= card
            tcount -= 1
            if left:
                if pooled and lefts:
                    lefts[0] += left
                else:
                    lefts.append(left)
        else:
            kind = -1 - card
            haz[kind] -= 1
            if seen >> kind & 1:
                return got  # a bust: the hands are lost
            seen |= 1 << kind
            bust_cards += haz[kind]


def leave_value(p: Position, seat: int, model: LeaveModel) -> float:
    """What leaving now takes home on average, the others leaving with it by the model."""
    sit = situation(p)
    # How many others leave: each seat's chance, combined seat by seat.
    ways = [1.0]
    for s in p.in_temple:
        if s != seat:
            q = model.chance(s, sit)
            ways = [a * (1 - q) + (ways[k - 1] * q if k else 0.0)
                    for k, a in enumerate([*ways, 0.0])]  # fmt: skip
    return sum(w * leave_now(p, seat, k) for k, w in enumerate(ways))


#: The seat's plans after staying, each valued by rollouts: leave at the next
#: reveal, at the one after, or whenever :func:`ev_rule` says. Staying is worth
#: the best of them: a seat that stays can still leave at the next reveal.
PLANS = (1, 2, 0)


def stay_value(
    p: Position,
    seat: int,
    model: LeaveModel,
    rng: Random,
    rollouts: int,
    against: float | None = None,
) -> tuple[float, float]:
    """Staying's mean take-home from the round and its standard error: the best
    of :data:`PLANS`, each played on the same cards.

    With ``against`` (the value of leaving), the rollouts stop early, in
    batches of :data:`BATCH`, once the best plan is clear of it by three
    standard errors; at most ``rollouts`` each.
    """
    if not p.cards_left:
        return float(p.hand), 0.0
    sums = [[0.0, 0.0] for _ in PLANS]
    ready = prepare(p, model)
    n = 0
    best = (0.0, 0.0)
    while n < rollouts:
        batch = min(BATCH, rollouts - n)
        for _ in range(batch):
            seed = rng.getrandbits(64)
            for acc, plan in zip(sums, PLANS, strict=True):
                x = play_out(p, seat, False, Random(seed), model, leave_after=plan,
                             prepared=ready)[seat]  # fmt: skip
                acc[0] += x
                acc[1] += x * x
        n += batch
        best = max(
            (total / n, math.sqrt(max(sq / n - (total / n) ** 2, 0.0) / max(n - 1, 1)))
            for total, sq in sums
        )
        if against is not None and abs(best[0] - against) > 3 * best[1]:
            break
    return best


#: Rollouts are played in batches of this many between the checks of
#: :func:`stay_value`.
BATCH = 50


def standing(
    scores: Sequence[int],
    seat: int,
    got: Sequence[int],
    rounds_after: int,
    held: Sequence[int] = (),
    carried_out: Sequence[int] = (),
) -> float:
    """How good the round's end is for ``seat``: its chance to win the game.

    After the last round exactly: a tie on score goes to the most artifacts
    (``held`` before the round and ``carried_out`` in it, when given), and a
    tie after that is a shared win, worth a half. Before it, a logistic guess
    by the lead over the best other seat, flatter the more rounds are to come
    (about 9 gems of spread a round).
    """
    mine = scores[seat] + got[seat]
    others = [s for s in range(len(scores)) if s != seat]
    best = max(scores[s] + got[s] for s in others)
    if rounds_after <= 0:
        if mine != best:
            return 1.0 if mine > best else 0.0
        if not held:
            return 0.5
        added = carried_out or [0] * len(scores)
        arts = held[seat] + added[seat]
        most = max(held[s] + added[s] for s in others if scores[s] + got[s] == best)
        return 1.0 if arts > most else 0.5 if arts == most else 0.0
    z = (mine - best) / (9.0 * math.sqrt(rounds_after))
    return 1 / (1 + math.exp(-z * 1.7))


def rounds_after(p: Position) -> int:
    return ROUNDS - p.round
