"""Bot seats: strategies on what a player can see, recorded like a press, ignored buttons."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from helpers import NAMES, play

from companion import bots, rollout
from companion.choices import Choice
from companion.engine import State
from companion.events import BadEvent, Draw, Reveal, Start, from_line, to_line
from companion.memory import MemoryStore
from companion.session import BadBots, LogError, Session
from companion.simulate import VirtualClock
from companion.table import Table

TORCH, CAMP = Choice.TORCH, Choice.CAMP


def test_a_view_holds_no_state_and_nothing_but_numbers() -> None:
    s = play(4, "incan-gold", "T11A").state
    v = bots.view(s, 2, seed="x")
    for f in dataclasses.fields(v):
        value = getattr(v, f.name)
        if isinstance(value, tuple):  # counts: per seat, per card, per kind, per choice
            flat = [x for item in value for x in (item if isinstance(item, tuple) else (item,))]
            assert all(isinstance(x, int | float) for x in flat), f.name
        else:
            assert isinstance(value, int | Fraction), f.name
        assert not isinstance(value, State | Session)


def test_a_view_holds_only_what_a_player_can_count() -> None:
    # Nothing about the order of the cards, nor another seat's choice before the
    # reveal: the fields are exactly these, and a strategy gets nothing else.
    assert [f.name for f in dataclasses.fields(bots.View)] == [
        "seat", "round", "hand", "leftovers", "artifacts_on_path", "seats_in", "cards_left",
        "bust", "treasure_gain", "roll", "scores", "in_temple", "lefts", "path_artifacts",
        "treasures_left", "hazards_left", "hazards_seen", "artifacts_left", "artifacts_carried",
        "artifacts_held", "printed_values", "pooled", "seen",
    ]  # fmt: skip


def test_what_a_careful_player_counts() -> None:
    # Four seats, T11A (2 each, 3 left), everyone on; SNAKE1; Ana leaves with the 3;
    # A1, then T5A for the three still in: 1 each, 2 left.
    session = play(4, "incan-gold", "T11A", [], "SNAKE1", [0], "A1", [], "T5A")
    v = bots.view(session.state, 1, seed="s",
                  seen=rollout.seen_choices(session.moves, session.states))  # fmt: skip
    assert (v.scores, v.in_temple, v.hand) == ((5, 0, 0, 0), (1, 2, 3), 3)
    assert (v.lefts, v.path_artifacts, v.artifacts_carried) == ((2,), (5,), 0)
    assert v.hazards_left == (2, 3, 3, 3, 3) and v.hazards_seen == (1, 0, 0, 0, 0)
    assert sorted(v.treasures_left) == [1, 2, 3, 4, 5, 7, 7, 9, 11, 13, 14, 15, 17]
    assert v.artifacts_left == () and v.cards_left == 27  # 31 - 4 turned
    # The reveals so far: 4 choices after T11A, 4 after SNAKE1, 3 after A1; Ana's leave.
    assert [(c[0], c[-1]) for c in v.seen] == [
        (0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 0), (2, 0), (3, 0), (1, 0), (2, 0), (3, 0)
    ]


def test_after_the_last_round_a_tie_on_score_goes_to_the_most_artifacts() -> None:
    standing = rollout.standing
    # Ana and Bo on 10 after the round: artifacts decide, and a tie after that is shared.
    assert standing((10, 10, 4), 0, (0, 0, 0), 0) == 0.5  # none counted: a tie stays a tie
    assert standing((10, 10, 4), 0, (0, 0, 0), 0, (1, 0, 0)) == 1.0
    assert standing((10, 10, 4), 0, (0, 0, 0), 0, (0, 1, 0)) == 0.0
    assert standing((10, 10, 4), 0, (0, 0, 0), 0, (1, 1, 0)) == 0.5
    # Ana carries two out in the round (and 7 gems) to tie Bo, who holds one.
    assert standing((3, 10, 4), 0, (7, 0, 0), 0, (0, 1, 0), (2, 0, 0)) == 1.0
    # Only the seats tied on the best score count: Cy's five artifacts do not.
    assert standing((10, 10, 8), 0, (0, 0, 0), 0, (1, 0, 5)) == 1.0
    assert standing((10, 10, 10), 0, (0, 0, 0), 0, (1, 2, 0)) == 0.0
    # Ahead or behind on score, artifacts change nothing.
    assert standing((11, 10, 4), 0, (0, 0, 0), 0, (0, 3, 0)) == 1.0
    assert standing((9, 10, 4), 0, (0, 0, 0), 0, (3, 0, 0)) == 0.0


def test_a_view_counts_each_seats_artifacts() -> None:
    # Ana leaves alone with A1 in round 1, Bo with A2 in round 2 and with A3 in round 3.
    session = play(3, "incan-gold", "A1", [0], "SNAKE1", [1, 2],
                   "A2", [1], "T1", [0, 2], "A3", [1], "T2", [0, 2])  # fmt: skip
    session.apply(Draw("T5A"))
    assert session.state.round == 4
    v = bots.view(session.state, 2, seed="s")
    assert v.artifacts_held == (1, 2, 0) and v.artifacts_carried == 3
    assert bots.position(v).held == (1, 2, 0)


def test_the_expert_takes_what_leaving_alone_banks() -> None:
    # Eight seats on T7A T5A SNAKE1 SPIDER1 MUMMY1 A1 FIRE1 (the case): 4 kinds of
    # hazard out, 8 of the 24 cards left bust (1/3); leaving alone banks the hand
    # (0 + 0), the leftovers (7 + 5 = 12) and A1 (5): 17. Greedy has nothing in hand
    # to lose, and stays; the expert leaves.
    s = play(8, "incan-gold", "T7A", [], "T5A", [], "SNAKE1", [], "SPIDER1", [], "MUMMY1", [],
             "A1", [], "FIRE1").state  # fmt: skip
    v = bots.view(s, 0, seed="s")
    assert (v.hand, v.cards_left, v.bust) == (0, 24, Fraction(1, 3))
    assert rollout.leave_now(bots.position(v), 0, 0) == 17
    assert bots.decide("greedy", v) is TORCH
    assert bots.decide("expert", v) is CAMP


def test_the_expert_stays_when_nothing_can_bust() -> None:
    s = play(4, "incan-gold", "T11A").state
    v = bots.view(s, 0, seed="s")
    # T11A for four: 2 each, 3 on the path that a lone leaver would take. The values
    # are chances to win the game: staying's is the larger, by more than its error.
    stay, leave, se = bots.expert_values(v)
    assert v.bust == 0 and stay > leave + se
    assert bots.decide("expert", v) is TORCH


def test_the_expert_leaves_when_every_card_left_busts() -> None:
    # Round 1, three seats: every treasure, A1 and one hazard of each kind on the path
    # (21 cards, everyone in): the 10 cards left are all second hazards.
    treasures = ["T1", "T2", "T3", "T4", "T5A", "T5B", "T7A", "T7B", "T9", "T11A", "T11B",
                 "T13", "T14", "T15", "T17", "A1"]  # fmt: skip
    steps: list[str | list[int]] = []
    for card in [*treasures, "SNAKE1", "SPIDER1", "MUMMY1", "FIRE1", "ROCKS1"]:
        steps += [card, []]
    s = play(3, "incan-gold", *steps[:-1]).state
    v = bots.view(s, 2, seed="s")
    assert (v.cards_left, v.bust) == (10, Fraction(1))
    assert bots.decide("expert", v) is CAMP


def test_a_stored_game_with_bots_resumes_with_them() -> None:
    store = MemoryStore()
    first = Table.new(store, Start(NAMES[:3], bots=((0, "greedy"),)))
    first.scan("T11A")
    again = Table.resume(store, first.game)
    assert again.bots == {0: "greedy"} and again.collector.chosen == {0}


def test_the_view_in_numbers() -> None:
    # T11A with four seats: 2 each, 3 left; then SNAKE1 and SPIDER1.
    # Left: 31 - 3 = 28 cards, 2 snakes + 2 spiders: bust 4/28 = 1/7.
    # Treasures left (14, no 11A): floor(v/4) = 0+0+0+1+1+1+1+1+2+2+3+3+3+4 = 22,
    # gain = 14/28 * 22/14 = 22/28 = 11/14.
    s = play(4, "incan-gold", "T11A", [], "SNAKE1", [], "SPIDER1").state
    v = bots.view(s, 1, seed="s")
    assert (v.hand, v.leftovers, v.seats_in, v.cards_left) == (2, 3, 4, 28)
    assert v.bust == Fraction(1, 7)
    assert v.treasure_gain == Fraction(11, 14)
    # Cautious: 1/7 > 1/8, leave. Greedy: 11/14 > 1/7 * 2 = 4/14, stay.
    assert bots.decide("cautious", v) is CAMP
    assert bots.decide("greedy", v) is TORCH


def test_greedy_leaves_when_the_loss_outweighs_the_gain() -> None:
    # T17 for three seats: 5 each, 2 left; Bo and Cy leave; T15 for Ana alone:
    # hand 5 + 15 = 20. Then SNAKE1, SPIDER1, MUMMY1: 31 - 5 = 26 cards left,
    # 6 of them snakes, spiders or mummies: bust 6/26 = 3/13.
    s = play(3, "incan-gold", "T17", [1, 2], "T15", [], "SNAKE1", [], "SPIDER1", [],
             "MUMMY1").state  # fmt: skip
    v = bots.view(s, 0, seed="s")
    assert (v.hand, v.seats_in, v.cards_left) == (20, 1, 26)
    assert v.bust == Fraction(3, 13)
    # 13 treasures left alone: 1+2+3+4+5+5+7+7+9+11+11+13+14 = 92; gain 92/26 = 46/13.
    assert v.treasure_gain == Fraction(46, 13)
    # Loss 3/13 * 20 = 60/13 > 46/13: leave.
    assert bots.decide("greedy", v) is CAMP


def test_the_random_bot_is_repeatable_and_leaves_about_a_third_of_the_time() -> None:
    s = play(3, "incan-gold", "T11A").state
    rolls = [bots.view(s, 0, seed=str(i)).roll for i in range(3000)]
    assert rolls == [bots.view(s, 0, seed=str(i)).roll for i in range(3000)]
    camps = sum(bots.randomised(bots.view(s, 0, seed=str(i))) is CAMP for i in range(3000))
    assert 900 < camps < 1100


def test_bots_in_the_start_line_round_trip_and_old_lines_stay() -> None:
    old = '{"event": "start", "seats": ["Ana", "Bo", "Cy"], "rules": "incan-gold"}'
    assert to_line(from_line(old)) == old
    line = ('{"event": "start", "seats": ["Ana", "Bo", "Cy"], "rules": "incan-gold", '
            '"bots": [{"seat": 2, "strategy": "greedy"}]}')  # fmt: skip
    start = from_line(line)
    assert isinstance(start, Start) and start.bots == ((2, "greedy"),)
    assert start.bot(2) == "greedy" and start.bot(0) is None
    assert to_line(start) == line


@pytest.mark.parametrize(
    ("bots_field", "reason"),
    [
        ('"greedy"', 'start\'s \'bots\' must be a list of {"seat": n, "strategy": name}'),
        ('[{"seat": 1}]', 'start\'s \'bots\' must be a list of {"seat": n, "strategy": name}'),
        ('[{"seat": "1", "strategy": "greedy"}]', 'a bot\'s seat must be a whole number, not "1"'),
        ('[{"seat": 1, "strategy": "clever"}]',
         'unknown strategy "clever" (one of cautious, greedy, random, expert)'),
    ],
)  # fmt: skip
def test_a_bad_bots_field_is_refused_by_the_parser(bots_field: str, reason: str) -> None:
    with pytest.raises(BadEvent) as e:
        from_line(f'{{"event": "start", "seats": ["Ana", "Bo", "Cy"], "bots": {bots_field}}}')
    assert str(e.value) == reason


@pytest.mark.parametrize(
    ("bots_", "reason"),
    [
        (((3, "greedy"),), "line 1: bot seat 3 is out of range (seats 0 to 2)"),
        (((1, "greedy"), (1, "random")), "line 1: seat 1 is named twice in bots"),
        (((0, "greedy"), (1, "random"), (2, "cautious")),
         "line 1: every seat is a bot: a game needs at least one person"),
    ],
)  # fmt: skip
def test_bots_a_game_cannot_have_are_refused(
    bots_: tuple[tuple[int, str], ...], reason: str
) -> None:
    with pytest.raises(LogError) as e:
        Session.replay([Start(NAMES[:3], bots=bots_)])
    assert str(e.value) == reason
    with pytest.raises(BadBots):
        Table.new(MemoryStore(), Start(NAMES[:3], bots=bots_))


def _table(bots_: tuple[tuple[int, str], ...]) -> tuple[Table, VirtualClock]:
    clock = VirtualClock(0.0)
    store = MemoryStore()
    table = Table.new(store, Start(NAMES[:3], bots=bots_), countdown=1.0, clock=clock)
    return table, clock


def test_a_bot_has_chosen_when_the_turn_opens_and_its_buttons_are_ignored() -> None:
    table, clock = _table(((1, "cautious"), (2, "greedy")))
    assert table.scan("T11A")
    # Both bots have chosen (their LEDs light), nobody can tell what.
    assert table.collector.chosen == {1, 2} and table.collector.leds() == {1, 2}
    assert table.collector.waiting_for == {0}
    assert not table.press(1, CAMP)  # a bot seat's button
    assert table.press(0, CAMP)
    clock.advance(1.0)
    assert table.tick()
    # No hazard on the path: both bots go on; Ana leaves alone.
    assert table.store.session(table.game).log[-1] == Reveal((0,))


def test_a_table_of_bots_plays_on_when_the_person_has_left() -> None:
    # Ana leaves; the cautious bot leaves once two hazard kinds are out.
    table, clock = _table(((1, "cautious"), (2, "cautious")))
    table.scan("T11A")
    table.press(0, CAMP)
    clock.advance(1.0)
    table.tick()
    table.scan("SNAKE1")
    assert table.collector.chosen == {1, 2}  # no person due: the countdown runs at once
    clock.advance(1.0)
    assert table.tick()
    table.scan("SPIDER1")  # bust chance 4/28 > 1/8: both leave, the round ends
    clock.advance(1.0)
    assert table.tick()
    assert table.state.phase.value == "round_over"
    assert table.store.session(table.game).log[-1] == Reveal((1, 2))


def test_undo_to_the_same_turn_keeps_a_bots_choice_while_its_view_is_the_same() -> None:
    table, clock = _table(((2, "greedy"),))
    table.scan("T11A")
    assert table.press(0, Choice.TORCH)
    assert table.correct(0, "T11B")  # same turn, the same 11 gems: the bot's view is alike
    assert table.collector.chosen == {0, 2}
    assert table.undo()  # the correction taken back at once: the same turn, no choice goes
    assert table.collector.chosen == {0, 2}
    assert table.press(1, Choice.CAMP)
    clock.advance(1.0)
    assert table.tick()
    # No hazard on the path: the greedy bot goes on, whatever the corrections.
    assert table.store.session(table.game).log[-1] == Reveal((1,))


def test_a_correction_that_changes_what_a_bot_sees_makes_it_choose_again() -> None:
    # T11A, SNAKE1 and a misread T1: 28 cards left, 2 snakes, bust 1/14 < 1/8: the
    # cautious bot goes on. Card 3 was SPIDER1: 2 snakes and 2 spiders in 28, bust
    # 1/7 > 1/8: it leaves. The people's presses stay as they were.
    table, clock = _table(((2, "cautious"),))
    for card in ("T11A", "SNAKE1"):
        table.scan(card)
        table.press(0, TORCH)
        table.press(1, TORCH)
        clock.advance(1.0)
        assert table.tick()
    table.scan("T1")
    table.press(0, TORCH)
    table.press(1, TORCH)
    assert table.correct(2, "SPIDER1")
    assert table.collector.chosen == {0, 1, 2}
    clock.advance(1.0)
    assert table.tick()
    assert table.store.session(table.game).log[-1] == Reveal((2,))


def test_a_new_game_with_bots_gets_its_seed_from_the_os_and_keeps_it() -> None:
    from companion.games import Games

    seeds = iter([11, 2**64 - 1])
    games = Games(MemoryStore(), entropy=lambda: next(seeds))
    first = games.new_game(Start(NAMES[:3], bots=((2, "random"),)))
    second = games.new_game(Start(NAMES[:3], bots=((2, "random"),)))
    assert first.session.start_event.seed == 11
    assert second.session.start_event.seed == 2**64 - 1
    # Stored in the log: the game replays with the same seed when it is resumed.
    assert games.store.session(first.game).start_event.seed == 11
    assert Table.resume(games.store, first.game).session.start_event.seed == 11
    # Without bots nothing is drawn, and the start line stays as it was.
    plain = games.new_game(Start(NAMES[:3]))
    assert plain.session.start_event.seed is None
    # The OS's own randomness: two games, two seeds.
    os_games = Games(MemoryStore())
    a = os_games.new_game(Start(NAMES[:3], bots=((2, "random"),))).session.start_event.seed
    b = os_games.new_game(Start(NAMES[:3], bots=((2, "random"),))).session.start_event.seed
    assert a is not None and b is not None and a != b


def test_the_random_bot_rolls_from_the_games_seed() -> None:
    # The same names, round and path: the seed alone decides the roll. Over 200 seeds
    # (as 200 games set up alike) seat 2 leaves at card 3 of round 1 about a third
    # of the time, not nearly always as when the roll came from the names.
    s = play(3, "incan-gold", "T11A", [], "T1", [], "T2").state
    camps = sum(
        bots.decide("random", bots.view(s, 2, seed=str(seed))) is CAMP for seed in range(200)
    )
    assert 50 <= camps <= 85
    table = Table.new(MemoryStore(), Start(NAMES[:3], bots=((2, "random"),), seed=7))
    assert table._bot_seed == "7"


def test_the_seed_in_the_start_line_round_trips_and_old_lines_stay() -> None:
    line = (
        '{"event": "start", "seats": ["Ana", "Bo", "Cy"], "rules": "incan-gold", '
        '"bots": [{"seat": 2, "strategy": "random"}], "seed": 18446744073709551615}'
    )
    start = from_line(line)
    assert isinstance(start, Start) and start.seed == 2**64 - 1
    assert to_line(start) == line
    old = '{"event": "start", "seats": ["Ana", "Bo", "Cy"], "rules": "incan-gold"}'
    start = from_line(old)
    assert isinstance(start, Start) and start.seed is None and to_line(start) == old
    for bad, reason in (
        ('"7"', 'seed must be a whole number, not "7"'),
        ("-1", "seed must be from 0 to 2**64 - 1, not -1"),
        ("18446744073709551616", "seed must be from 0 to 2**64 - 1, not 18446744073709551616"),
    ):
        with pytest.raises(BadEvent) as e:
            from_line(f'{{"event": "start", "seats": ["Ana", "Bo", "Cy"], "seed": {bad}}}')
        assert str(e.value) == reason


def test_an_expert_seat_at_the_table_sees_the_reveals_so_far() -> None:
    # Ana leaves after T11A, Bo goes on; the expert (seat 2) goes on too. At SNAKE1 its
    # view holds the three choices of the first reveal, as the table saw them.
    table, clock = _table(((2, "expert"),))
    table.scan("T11A")
    table.press(0, CAMP)
    table.press(1, TORCH)
    clock.advance(1.0)
    assert table.tick()
    assert table.store.session(table.game).log[-1] == Reveal((0,))  # nothing can bust
    table.scan("SNAKE1")
    seen = table._bot_views[2].seen
    assert [(c[0], c[-1]) for c in seen] == [(0, 1), (1, 0), (2, 0)]
    assert seen[0][2] == 3  # each had 3 in hand
