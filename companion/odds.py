"""Exact odds of the next card, from the cards that can still come this round.

Every card left in the round's deck is equally likely to be turned next: the
table shuffles, and the companion never knows the order. So the chances are
fractions of whole cards, computed exactly (no simulation), and they follow
undo and correction at once because they are a function of the state alone.

>>> from companion.engine import draw, new_game, reveal
>>> s = draw(reveal(draw(new_game(["Ana", "Bo", "Cy"]), "SNAKE1"), []), "SPIDER1")
>>> o = odds(s)
>>> o.bust, dict(o.by_hazard), o.cards_left, o.gems_left
(Fraction(4, 29), {'SNAKE': Fraction(2, 29), 'SPIDER': Fraction(2, 29)}, 29, 124)
>>> o.treasure_each  # floor(v / 3) over the 15 treasures left: 35 / 15
Fraction(7, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from companion.cards import CATALOGUE
from companion.engine import Phase, State

__all__ = ["Odds", "odds"]


@dataclass(frozen=True)
class Odds:
    """What the next card may bring, as exact fractions."""

    bust: Fraction  # the chance the next card is a second hazard and ends the round
    by_hazard: tuple[tuple[str, Fraction], ...]  # per hazard kind on the path, in path order
    cards_left: int  # cards that can still come this round
    gems_left: int  # gems on the treasure cards among them
    treasure: Fraction  # the chance the next card is a treasure
    treasure_each: Fraction  # what a treasure gives each seat in the temple, on average
    seats_in: int  # the seats in the temple the split is for


def odds(state: State) -> Odds | None:
    """The odds of the next card of this round; None when no card of it can come.

    Only while the round goes on: before the first card (draw phase) and
    while choices are due; the split is for the seats in the temple now.
    """
    if state.phase not in (Phase.DRAW, Phase.CHOOSE) or not state.in_temple:
        return None
    deck = [CATALOGUE[c] for c in state.deck]
    if not deck:
        return None
    total = len(deck)
    kinds: list[str] = []
    for p in state.path:
        kind = p.kind.hazard
        if kind is not None and kind not in kinds:
            kinds.append(kind)
    by_hazard = tuple(
        (kind, Fraction(sum(1 for c in deck if c.hazard == kind), total)) for kind in kinds
    )
    treasures = [c.value for c in deck if c.is_treasure]
    seats = len(state.in_temple)
    each = (
        Fraction(sum(v // seats for v in treasures), len(treasures)) if treasures else Fraction(0)
    )
    return Odds(
        bust=sum((f for _k, f in by_hazard), Fraction(0)),
        by_hazard=by_hazard,
        cards_left=total,
        gems_left=sum(treasures),
        treasure=Fraction(len(treasures), total),
        treasure_each=each,
        seats_in=seats,
    )
