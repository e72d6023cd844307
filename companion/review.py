"""The post-game review: every seat's torch/camp decisions against the odds.

At every reveal, each seat still in the temple chose torch (stay) or camp
(leave). For each of those decisions this computes, as exact fractions, the
expected value of both choices from what the table knew at that moment: the
cards that could still come this round (the table's box, the cards taken out,
lost or carried), the path and who else was in. The model is one card ahead
(docs/review.md):

- the other seats do what they actually did at that reveal;
- **leave**: what the seat takes home now, its hand plus its share of the
  path's leftovers and any artifact it carries out alone (exactly what the
  engine's reveal gives);
- **stay**: the seat's hand after one more card, on average over every card
  that could come: a treasure adds its share among the seats still in, a
  second hazard loses the whole hand, anything else leaves the hand as it is.
  These are the odds panel's own figures (:func:`companion.odds.odds`).

Summed up per seat:

- ``choices``: the sum over the seat's decisions of (value of what it chose
  minus value of the other choice). Positive: it chose the better option more,
  or by more, than the worse one.
- ``luck``: what the cards gave beyond what could be expected. For every card
  turned with the seat in the temple, the gems it really got (or lost) minus
  the average over every card that could have come; for a card after a
  decision that is (hand after the card) minus the value of staying.
- ``expected``: the seat's total (score, plus its hand if a round is still
  under way) minus its luck: what its choices were worth on average.

>>> from companion.events import Draw, Reveal, Start
>>> from companion.session import Session
>>> s = Session.replay([Start(("Ana", "Bo", "Cy")), Draw("T11A"), Reveal((0,))])
>>> ana = review(s).seats[0]
>>> ana.decisions[0].leave, ana.decisions[0].stay, ana.choices
(Fraction(5, 1), Fraction(61, 15), Fraction(14, 15))
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from companion import engine
from companion.cards import CATALOGUE
from companion.engine import Phase, State
from companion.events import Draw, Reveal
from companion.odds import odds
from companion.session import Session

__all__ = ["Decision", "Review", "SeatReview", "review"]


@dataclass(frozen=True)
class Decision:
    """One seat's choice at one reveal, with the value of either choice."""

    round: int
    cards: int  # cards on the path when the seat chose
    left: bool  # True: the seat chose camp
    stay: Fraction  # the expected hand after one more card (0 on a bust)
    leave: Fraction  # what leaving takes home now
    outcome: Fraction | None  # what came of it (None: the next card is not turned yet)

    @property
    def gain(self) -> Fraction:
        """The value of the choice made minus the value of the other."""
        return self.leave - self.stay if self.left else self.stay - self.leave


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


@dataclass(frozen=True)
class Review:
    seats: tuple[SeatReview, ...]


def _first_card_each(state: State) -> Fraction:
    """The average gems each seat gets from the first card of the next round."""
    deck = state.possible_draws()
    if not deck:
        return Fraction(0)
    n = len(state.seats)
    gems = sum(CATALOGUE[c].value // n for c in deck if CATALOGUE[c].is_treasure)
    return Fraction(gems, len(deck))


def _stay_value(after: State, seat: int) -> Fraction:
    """The seat's expected hand after one more card, from ``after`` (the reveal taken)."""
    hand = after.seats[seat].hand
    o = odds(after)
    if o is None:  # no card can come: the hand is what it is
        return Fraction(hand)
    return hand * (1 - o.bust) + o.treasure * o.treasure_each


def review(session: Session) -> Review:
    """The review of a game, from its moves with every correction applied."""
    moves, states = session.moves, session.states
    n = len(states[0].seats)
    decisions: list[list[Decision]] = [[] for _ in range(n)]
    luck = [Fraction(0)] * n
    # The value of staying of each seat that stayed, awaiting the next card.
    pending: dict[int, Fraction] = {}
    for k in range(1, len(moves)):
        move, before, after = moves[k], states[k - 1], states[k]
        if isinstance(move, Draw):
            if before.phase is Phase.ROUND_OVER or (before.phase is Phase.DRAW and not before.path):
                each = _first_card_each(before)
                for seat in range(n):
                    luck[seat] += after.seats[seat].hand - each
            else:
                for seat, value in pending.items():
                    got = after.seats[seat].hand  # 0 if the card busted the seat
                    luck[seat] += got - value
                    decisions[seat][-1] = replace(decisions[seat][-1], outcome=Fraction(got))
            pending = {}
        elif isinstance(move, Reveal):
            camp = set(move.camp)
            pending = {}
            for seat in before.due:
                others = camp - {seat}
                went = engine.reveal(before, sorted(others | {seat}))
                leave = Fraction(went.seats[seat].score - before.seats[seat].score)
                stay = _stay_value(engine.reveal(before, sorted(others)), seat)
                left = seat in camp
                if not left:
                    pending[seat] = stay
                decisions[seat].append(
                    Decision(before.round, len(before.path), left, stay, leave,
                             leave if left else None)
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
    return Review(tuple(seats))
