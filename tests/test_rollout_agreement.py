"""The rollouts' own arithmetic agrees with the engine.

``companion.rollout`` works on plain numbers (a :class:`Position`) so that a
rollout costs microseconds, which means it restates a few of the rules: what a
leaver takes home (the hand, a share of the leftovers, and the artifacts only
when alone, at the value the rule set gives the next one carried out) and what
the next card does to a round (a treasure's share and remainder, an artifact
laid on the path, a hazard's pair), and a rollout plays a round on with its own
bookkeeping. Here all three are checked against the engine itself, on every
choice and every possible next card of random games under every rule set, and
on rollouts replayed card for card through the engine, so the two cannot
drift apart.
"""

from __future__ import annotations

import itertools
import random

import pytest

from companion import rollout
from companion.cards import CATALOGUE, HAZARD_TYPES
from companion.engine import Phase, State, draw, new_game, reveal
from companion.odds import _after_card
from companion.rules import RULE_SETS
from companion.simulate import SEAT_NAMES


def _choice_states(rules: str, seed: int) -> list[State]:
    """Every state of a random, legal game where choices are due. Seats often
    leave alone and artifacts come up often, so that artifacts are carried out
    early and late in the game (the fourth and fifth are worth 10 under the
    classic rules); a round ends by a bust or by everyone leaving."""
    rng = random.Random(seed)
    state = new_game(SEAT_NAMES[: rng.randint(3, 8)], rules)
    states = []
    while state.phase is not Phase.GAME_OVER:
        if state.phase is not Phase.CHOOSE:
            cards = state.possible_draws()
            # Artifacts come up more often than in a shuffle, so that a game
            # reaches the fourth and fifth.
            artifacts = [c for c in cards if CATALOGUE[c].is_artifact]
            state = draw(
                state, rng.choice(artifacts if artifacts and rng.random() < 0.3 else cards)
            )
            continue
        states.append(state)
        due = list(state.due)
        roll = rng.random()
        if roll < 0.25:
            camp = [rng.choice(due)]
        elif roll < 0.3:
            camp = rng.sample(due, rng.randint(1, len(due)))
        else:
            camp = []
        state = reveal(state, camp)
    return states


def _code(card_id: str) -> int:
    """A card as ``companion.odds`` counts it: a treasure by its value, a hazard
    as -1 - its kind, an artifact as 100 + its printed value."""
    c = CATALOGUE[card_id]
    if c.hazard is not None:
        return -1 - HAZARD_TYPES.index(c.hazard)
    return 100 + c.value if c.is_artifact else c.value


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_what_a_leaver_takes_home_is_what_the_engine_banks(rules: str) -> None:
    checked = 0
    for seed in range(6):
        for state in _choice_states(rules, seed):
            p = rollout.position(state)
            seat = p.in_temple[0]
            others = p.in_temple[1:]
            for k in range(len(others) + 1):
                # Which others leave with it does not matter, only how many.
                camp = (seat, *others[:k])
                after = reveal(state, camp)
                got = after.seats[seat].score - state.seats[seat].score
                assert rollout.leave_now(p, seat, k) == got, (state.path, camp)
                checked += 1
    # Enough choices that every rule set's artifacts and leftovers come up.
    assert checked > 300


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_the_next_card_does_to_a_position_what_the_engine_does(rules: str) -> None:
    checked = busts = 0
    for seed in range(3):
        for state in _choice_states(rules, seed):
            for camp_count in (0, 1):
                leavers = state.in_temple[:camp_count]
                if len(leavers) == len(state.in_temple):
                    continue
                before = reveal(state, leavers)
                p = rollout.position(before)
                stayed = len(before.in_temple)
                for card_id in sorted(set(before.possible_draws())):
                    drawn = draw(before, card_id)
                    mine = _after_card(p, _code(card_id), stayed)
                    if drawn.phase is not Phase.CHOOSE:
                        # A second hazard of a kind: the round is over for all in it.
                        assert mine is None, (state.path, card_id)
                        busts += 1
                        continue
                    assert mine is not None, (state.path, card_id)
                    theirs = rollout.position(drawn)
                    for field in ("hand", "lefts", "path_artifacts", "treasures", "hazards",
                                  "seen", "artifacts", "carried", "in_temple"):  # fmt: skip
                        assert getattr(mine, field) == getattr(theirs, field), (
                            field, state.path, leavers, card_id,
                        )  # fmt: skip
                    checked += 1
    assert checked > 1000 and busts > 50


def test_the_games_checked_have_artifacts_on_the_path_early_and_late() -> None:
    """The checks above meet artifacts on the path (where the rule sets with
    artifacts differ), before and after the third carried out, not only the
    easy cases. Diamant has none."""
    seen = set()
    for rules in sorted(r for r, rule_set in RULE_SETS.items() if rule_set.artifacts):
        for seed in range(6):
            for state in _choice_states(rules, seed):
                p = rollout.position(state)
                if p.path_artifacts and len(p.in_temple) > 1:
                    seen.add((rules, p.carried >= 3))
    assert seen == {(r, late) for r in ("incan-gold", "incan-gold-2020") for late in (False, True)}


def test_the_choice_states_are_not_all_alike() -> None:
    states = list(itertools.islice(
        (s for r in sorted(RULE_SETS) for s in _choice_states(r, 0)), 400
    ))  # fmt: skip
    assert len({len(s.in_temple) for s in states}) >= 3
    assert any(rollout.position(s).lefts for s in states)


class _Recorded(random.Random):
    """A seeded generator that keeps every number it gave."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.given: list[float] = []

    def random(self) -> float:
        x = super().random()
        self.given.append(x)
        return x


#: Nobody the model plays ever leaves (and no number is drawn for them), so
#: every number a rollout draws picks a card.
_STAYS = rollout.LeaveModel(weights=(-100.0, 0.0, 0.0, 0.0, 0.0, 0.0))


class _LeaveAt:
    """The valued seat's plan: leave at the ``at``-th reveal after the first."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.reveals = 0

    def __call__(self, *_figures: object) -> bool:
        self.reveals += 1
        return self.reveals >= self.at


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_a_rollout_banks_what_the_engine_banks_on_the_same_cards(rules: str) -> None:
    """A rollout of a round, replayed card for card through the engine: every
    seat's take and the artifacts it carries out are the same, for a seat that
    leaves at once (with or without others), after a few cards, alone or not,
    or busts."""
    checked = busts = carried = 0
    for seed, state in enumerate(s for g in range(4) for s in _choice_states(rules, g)):
        p = rollout.position(state)
        seat, *others = p.in_temple
        plan = random.Random(seed)
        leave_first = plan.random() < 0.3
        with_it = tuple(o for o in others if plan.random() < 0.3) if leave_first else ()
        leave_at = plan.randint(1, 4)
        rng = _Recorded(seed)
        carried_out = [0] * len(state.seats)
        got = rollout.play_out(p, seat, leave_first, rng, _STAYS, others=with_it,
                               policy=_LeaveAt(leave_at), carried_out=carried_out)  # fmt: skip

        # The same round through the engine: the same leavers, the same cards.
        codes = list(rollout.prepare(p, _STAYS)[0])
        now = reveal(state, (seat, *with_it) if leave_first else with_it)
        leave_later = _LeaveAt(leave_at)
        for x in rng.given:
            i = int(x * len(codes))
            code = codes[i]
            codes[i] = codes[-1]
            codes.pop()
            now = draw(now, next(c for c in now.deck if _code(c) == code))
            if now.phase is not Phase.CHOOSE:
                busts += 1
                break
            now = reveal(now, (seat,) if leave_later() else ())
        for s in range(len(state.seats)):
            banked = now.seats[s].score - state.seats[s].score
            assert got[s] == banked, (rules, state.path, seat, with_it, s)
            arts = len(now.seats[s].artifacts) - len(state.seats[s].artifacts)
            assert carried_out[s] == arts, (rules, state.path, seat, with_it, s)
            carried += arts
        checked += 1
    assert checked > 60 and busts > 5
    assert carried > 5 if RULE_SETS[rules].artifacts else carried == 0


def test_a_rollouts_choices_value_the_artifacts_on_the_path_as_the_model_was_fitted() -> None:
    """The take a seat weighs at a rollout's reveal counts an artifact lying
    on the path at what leaving alone would bank (12 for the fifth under
    printed values), as :func:`rollout.situation` does for the fitted
    weights, not at a flat 5."""
    none = (0,) * len(HAZARD_TYPES)
    p = rollout.Position(
        round=1, hand=3, lefts=(), path_artifacts=(12,), treasures=(3, 3, 3), hazards=none,
        seen=none, artifacts=(), carried=0, printed=True, pooled=False, in_temple=(0, 1, 2),
        scores=(0, 0, 0),
    )  # fmt: skip
    takes: list[float] = []

    def weigh(bust: float, hand: int, gain: float, take: float, seats_in: int) -> bool:
        takes.append(take)
        return True

    rollout.play_out(p, 0, False, random.Random(1), _STAYS, others=(), policy=weigh)
    # A 3 shared by three adds 1 to the hand and leaves nothing: the artifact alone.
    assert takes == [12 / 3] and rollout.situation(p).take == 12 / 3
