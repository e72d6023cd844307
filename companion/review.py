"""The post-game review: every seat's torch/camp decisions against the odds.

At every reveal, each seat still in the temple chose torch (stay) or camp
(leave). For each of those decisions this values both choices from what the
table knew at that moment, in gems the seat takes home from the round
(docs/review.md):

- the other seats choose by a model (:class:`companion.rollout.LeaveModel`),
  at that reveal too (nobody knew what they would do), fitted to how these
  players chose in the stored games, or the default when there are too few
  of those (:data:`MIN_FITTED`);
- **leave**: what the seat takes home now, its hand plus its share of the
  path's leftovers and any artifact it carries out alone, averaged over how
  many others leave with it (exact under the model);
- **stay**: the round played on to its end :data:`REVIEW_ROLLOUTS` times, the
  cards in a fresh order each time, for each of the seat's plans
  (:data:`companion.rollout.PLANS`: leave at the next reveal, at the one
  after, or by :func:`companion.rollout.ev_rule`): the best plan's mean take,
  with an uncertainty of two standard errors. The same log gives the same
  figures: the rollouts' randomness comes from the decision's place in the game.

A decision is a *mistake* only when the other choice was worth more by more
than the uncertainty.

Summed up per seat:

- ``choices``: the sum over the seat's decisions of (value of what it chose
  minus value of the other choice).
- ``luck``: what the cards and the others gave beyond what could be
  expected: for the first card of a round, its share minus the average share;
  after a stay, the value of the seat's next position (what it then chose, or
  0 after a bust) minus the value of staying; after a leave, what it took with
  the others as they chose minus the value of leaving.
- ``expected``: the seat's total (score, plus its hand if a round is still
  under way) minus its luck, so ``total = expected + luck`` exactly.

>>> from companion.events import Draw, Reveal, Start
>>> from companion.session import Session
>>> s = Session.replay([Start(("Ana", "Bo", "Cy")), Draw("T11A"), Reveal((0,))])
>>> r = review(s)
>>> ana = r.seats[0].decisions[0]
>>> ana.leave, ana.stay > ana.leave + ana.uncertainty, ana.mistake, r.model.name
(Fraction(1243, 250), True, True, 'default')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from random import Random

from companion import rollout
from companion.cards import CATALOGUE
from companion.engine import Phase, State, Status
from companion.events import Draw, Reveal
from companion.ports import EventStore
from companion.rollout import LeaveModel
from companion.session import Session

__all__ = [
    "MIN_FITTED",
    "REVIEW_ROLLOUTS",
    "Decision",
    "Review",
    "SeatReview",
    "fit_model",
    "review",
    "stored_games",
]

#: Rollouts of the rest of the round for each decision's value of staying.
REVIEW_ROLLOUTS = 300
#: Fewer stored choices than this (the reviewed game's included): the default model.
MIN_FITTED = 60
#: Figures from rollouts are kept to a thousandth of a gem, as exact fractions,
#: so that the sums stay exact.
_GRAIN = 1000


def _kept(x: float) -> Fraction:
    return Fraction(round(x * _GRAIN), _GRAIN)


@dataclass(frozen=True)
class Decision:
    """One seat's choice at one reveal, with the value of either choice."""

    round: int
    cards: int  # cards on the path when the seat chose
    left: bool  # True: the seat chose camp
    stay: Fraction  # what staying takes home from the round, on average
    leave: Fraction  # what leaving takes home now
    outcome: Fraction | None  # what came of it (None: the next card is not turned yet)
    uncertainty: Fraction = Fraction(0)  # two standard errors of stay - leave

    @property
    def gain(self) -> Fraction:
        """The value of the choice made minus the value of the other."""
        return self.leave - self.stay if self.left else self.stay - self.leave

    @property
    def mistake(self) -> bool:
        """The other choice was worth more, by more than the uncertainty."""
        return -self.gain > self.uncertainty


@dataclass(frozen=True)
class SeatReview:
    seat: int
    name: str
    total: int  # score, plus the hand of a round under way
    decisions: tuple[Decision, ...]
    choices: Fraction
    luck: Fraction

    @property
    def expected(self) -> Fraction:
        return self.total - self.luck

    @property
    def swings(self) -> tuple[Decision, ...]:
        """The three decisions with the largest gap between the two choices,
        largest first (a tie: the earlier first)."""
        order = sorted(range(len(self.decisions)), key=lambda i: (-abs(self.decisions[i].gain), i))
        return tuple(self.decisions[i] for i in order[:3])


@dataclass(frozen=True)
class ModelInfo:
    """Which model of the other seats the review played: ``default`` or
    ``fitted`` to ``decisions`` stored choices of these players in ``games`` games."""

    name: str
    decisions: int
    games: int


@dataclass(frozen=True)
class Review:
    seats: tuple[SeatReview, ...]
    model: ModelInfo = ModelInfo("default", 0, 0)


def fit_model(session: Session, history: Sequence[Session] = ()) -> tuple[LeaveModel, ModelInfo]:
    """The model of the seats of ``session``: each player's leaving fitted to
    their choices in ``history`` and in this game (matched by name), pulled
    towards the table's own fit, itself pulled towards the default. Fewer than
    :data:`MIN_FITTED` choices in all: the default."""
    names = session.start_event.seats
    games = [session, *(h for h in history if h is not session)]
    by_name: dict[str, list[tuple[rollout.Situation, bool]]] = {n: [] for n in names}
    used = 0
    for g in games:
        seats = g.start_event.seats
        if not any(n in by_name for n in seats):
            continue
        used += 1
        for seat, b, h, gain, t, n, left in rollout.seen_choices(g.moves, g.states):
            name = seats[seat]
            if name in by_name:
                by_name[name].append((rollout.Situation(b, h, gain, t, n), bool(left)))
    count = sum(len(v) for v in by_name.values())
    if count < MIN_FITTED:
        return rollout.DEFAULT_MODEL, ModelInfo("default", count, used)
    table = rollout.fit([x for v in by_name.values() for x in v])
    per_seat = tuple(
        (seat, rollout.fit(by_name[name], table, rollout.PRIOR_DECISIONS))
        for seat, name in enumerate(names)
    )
    return LeaveModel(table, per_seat, count), ModelInfo("fitted", count, used)


#: How many stored games (the latest sharing a player) a model is fitted to.
HISTORY_GAMES = 50


def stored_games(
    store: EventStore, session: Session, game: int | None = None, limit: int = HISTORY_GAMES
) -> list[Session]:
    """The latest stored games that share a player with ``session``, stored as
    ``game`` (left out: the review counts its choices itself). A game that no
    longer replays, or a store that cannot be read, teaches nothing."""
    names = set(session.start_event.seats)
    out: list[Session] = []
    try:
        for played in store.history(0, None):
            if len(out) >= limit:
                break
            if played.game != game and names & set(played.players):
                try:
                    out.append(store.session(played.game))
                except Exception:
                    continue
    except Exception:
        return out
    return out


def _first_card_each(state: State) -> Fraction:
    """The average gems each seat gets from the first card of the next round."""
    deck = state.possible_draws()
    if not deck:
        return Fraction(0)
    n = len(state.seats)
    gems = sum(CATALOGUE[c].value // n for c in deck if CATALOGUE[c].is_treasure)
    return Fraction(gems, len(deck))


def _values(
    before: State, seat: int, model: LeaveModel, rng: Random, rollouts: int
) -> tuple[Fraction, Fraction, Fraction]:
    """Staying's and leaving's mean take-home from the round, and two standard
    errors of staying's (leaving's is exact under the model)."""
    p = rollout.position(before)
    leave = _kept(rollout.leave_value(p, seat, model))
    if not before.deck:  # no card can come: everyone goes home
        return leave, leave, Fraction(0)
    stay, se = rollout.stay_value(p, seat, model, rng, rollouts, float(leave))
    return _kept(stay), leave, _kept(2 * se)


def review(
    session: Session,
    model: LeaveModel | None = None,
    info: ModelInfo | None = None,
    *,
    rollouts: int = REVIEW_ROLLOUTS,
) -> Review:
    """The review of a game, from its moves with every correction applied.

    ``model``: the other seats' model (None: fitted to this game's choices
    alone, which is the default model unless the game is long enough).
    """
    if model is None:
        model, info = fit_model(session)
    moves, states = session.moves, session.states
    n = len(states[0].seats)
    decisions: list[list[Decision]] = [[] for _ in range(n)]
    luck = [Fraction(0)] * n
    # The value of staying of each seat that stayed, awaiting its next position.
    pending: dict[int, Fraction] = {}
    for k in range(1, len(moves)):
        move, before, after = moves[k], states[k - 1], states[k]
        if isinstance(move, Draw):
            if before.phase is Phase.ROUND_OVER or (before.phase is Phase.DRAW and not before.path):
                each = _first_card_each(before)
                pending = {}
                for seat in range(n):
                    luck[seat] += after.seats[seat].hand - each
            for seat, value in list(pending.items()):
                got = after.seats[seat].hand  # 0 if the card busted the seat
                decisions[seat][-1] = replace(decisions[seat][-1], outcome=Fraction(got))
                if after.seats[seat].status is Status.BUSTED:
                    luck[seat] += 0 - value
                    del pending[seat]
        elif isinstance(move, Reveal):
            camp = set(move.camp)
            for seat in before.due:
                rng = Random(f"{k}|{seat}")
                stay, leave, uncertainty = _values(before, seat, model, rng, rollouts)
                left = seat in camp
                if seat in pending:  # the card after its stay led here
                    luck[seat] += (leave if left else stay) - pending.pop(seat)
                took: Fraction | None = None
                if left:
                    # What it took with the others as they really chose: their
                    # choices were no more known to it than the cards.
                    took = Fraction(after.seats[seat].score - before.seats[seat].score)
                    luck[seat] += took - leave
                else:
                    pending[seat] = stay
                decisions[seat].append(
                    Decision(before.round, len(before.path), left, stay, leave, took,
                             uncertainty)
                )  # fmt: skip
    final = states[-1]
    seats = []
    for seat in range(n):
        ds = decisions[seat]
        seats.append(
            SeatReview(
                seat=seat,
                name=final.seats[seat].name,
                total=final.seats[seat].score + final.seats[seat].hand,
                decisions=tuple(ds),
                choices=sum((d.gain for d in ds), Fraction(0)),
                luck=luck[seat],
            )
        )
    return Review(tuple(seats), info if info is not None else ModelInfo(model.name, 0, 0))
