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

from dataclasses import dataclass, replace
from fractions import Fraction

from companion import rollout
from companion.cards import CATALOGUE
from companion.engine import Phase, State

__all__ = ["ChoiceOdds", "Odds", "choice_odds", "odds", "survival"]


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


# --- what a choice would give: for the seats still in -------------------------------


@dataclass(frozen=True)
class ChoiceOdds:
    """What staying or leaving gives each seat still in the temple (they all
    hold the same hand), while the choices are due.

    ``alone`` and ``all_leave`` are exact; ``survive`` are exact fractions; the
    two values under the model (``one_more``, ``leave``) are exact for that
    model, with no sampling: the others' choices are a binomial count, every
    next card is counted.
    """

    alone: int  # leaving alone banks: the hand, every leftover and the artifacts
    all_leave: int  # everyone still in leaves: the hand and an even share
    seats_in: int
    survive: tuple[Fraction, Fraction, Fraction]  # no bust in the next 1, 2, 3 cards
    one_more: float  # one more card, then leaving: the average take, by the model
    leave: float  # leaving now: the average take, the others leaving by the model
    model: str  # the model's name ("default" or "fitted")


def survival(
    deck_hazards: tuple[int, ...], seen: tuple[int, ...], safe: int, cards: int
) -> Fraction:
    """The chance that the next ``cards`` cards hold no second hazard of a kind.

    ``deck_hazards``: per kind the copies that can come; ``seen``: per kind 1
    if one lies on the path; ``safe``: the treasures and artifacts that can come.

    >>> survival((2, 3, 3, 3, 3), (1, 0, 0, 0, 0), 16, 1)  # 2 snakes in 30 cards
    Fraction(14, 15)
    """
    total = safe + sum(deck_hazards)
    if cards == 0 or total == 0:
        return Fraction(1)
    p = Fraction(0)
    if safe:
        p = Fraction(safe, total) * survival(deck_hazards, seen, safe - 1, cards - 1)
    for k, left in enumerate(deck_hazards):
        if left and not seen[k]:
            after = (*deck_hazards[:k], left - 1, *deck_hazards[k + 1 :])
            now = (*seen[:k], 1, *seen[k + 1 :])
            p += Fraction(left, total) * survival(after, now, safe, cards - 1)
    return p


def _after_card(p: rollout.Position, card: int, stayed: int) -> rollout.Position | None:
    """The position after the next card with ``stayed`` seats in (None: a bust)."""
    if card < 0:
        kind = -1 - card
        hazards = (*p.hazards[:kind], p.hazards[kind] - 1, *p.hazards[kind + 1 :])
        if p.seen[kind]:
            return None
        return replace(p, hazards=hazards, seen=(*p.seen[:kind], 1, *p.seen[kind + 1 :]))
    if card >= 100:
        arts = list(p.artifacts)
        arts.remove(card - 100)
        return replace(p, artifacts=tuple(arts), path_artifacts=(*p.path_artifacts, card - 100))
    each, left = divmod(card, stayed)
    rest = list(p.treasures)
    rest.remove(card)
    lefts = p.lefts
    if left:
        lefts = (lefts[0] + left,) if p.pooled and lefts else (*lefts, left)
    return replace(p, hand=p.hand + each, treasures=tuple(rest), lefts=lefts)


def choice_odds(
    state: State, model: rollout.LeaveModel = rollout.DEFAULT_MODEL
) -> ChoiceOdds | None:
    """What leaving now or after one more card gives a seat still in; None unless
    choices are due."""
    if state.phase is not Phase.CHOOSE or not state.due:
        return None
    p = rollout.position(state)
    seat = p.in_temple[0]
    n = len(p.in_temple)
    safe = len(p.treasures) + len(p.artifacts)
    survive = tuple(survival(p.hazards, p.seen, safe, k) for k in (1, 2, 3))
    leave = rollout.leave_value(p, seat, model)
    # One more card: how many others leave now (each by the model), then every
    # card that can come, then leaving at the next reveal, the others by the model.
    sit = rollout.situation(p)
    ways = [1.0]
    for other in p.in_temple[1:]:
        q = model.chance(other, sit)
        ways = [a * (1 - q) + (ways[k - 1] * q if k else 0.0)
                for k, a in enumerate([*ways, 0.0])]  # fmt: skip
    deck = [*p.treasures, *(-1 - k for k, h in enumerate(p.hazards) for _ in range(h)),
            *(100 + v for v in p.artifacts)]  # fmt: skip
    one_more = 0.0
    for k, w in enumerate(ways):
        if not w:
            continue
        # The ``k`` leavers take their share of the path now; the artifacts only if alone.
        stayed = n - k
        lefts = tuple(left % k for left in p.lefts) if k else p.lefts
        arts = () if k == 1 else p.path_artifacts
        carried = p.carried + (len(p.path_artifacts) if k == 1 else 0)
        now = replace(
            p, lefts=lefts, path_artifacts=arts, in_temple=p.in_temple[:stayed], carried=carried
        )
        total = 0.0
        for card in deck:
            after = _after_card(now, card, stayed)
            if after is not None:
                total += rollout.leave_value(after, seat, model) if after.cards_left else after.hand
        one_more += w * total / len(deck)
    return ChoiceOdds(
        alone=rollout.leave_now(p, seat, 0),
        all_leave=rollout.leave_now(p, seat, n - 1),
        seats_in=n,
        survive=(survive[0], survive[1], survive[2]),
        one_more=one_more,
        leave=leave,
        model=model.name,
    )
