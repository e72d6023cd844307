"""Every worked example of docs/rules.md, with its exact numbers."""

from __future__ import annotations

from helpers import lefts, play

from companion.engine import Phase, Status


def hands(session):  # type: ignore[no-untyped-def]
    return [s.hand for s in session.state.seats]


def test_example_1_four_seats_treasure_11() -> None:
    game = play(4, "incan-gold", "T11A")
    assert hands(game) == [2, 2, 2, 2]
    assert lefts(game) == [3]


def test_example_2_three_seats_treasure_11() -> None:
    game = play(3, "incan-gold", "T11A")
    assert hands(game) == [3, 3, 3]
    assert lefts(game) == [2]


def test_example_3_two_seats_in_the_temple_treasure_11() -> None:
    # Cy leaves first (taking the 1 left on T1), so two seats are in the temple.
    game = play(3, "incan-gold", "T1", [2], "T11A")
    assert [s.status for s in game.state.seats] == [Status.IN, Status.IN, Status.CAMP]
    assert hands(game) == [5, 5, 0]
    assert lefts(game) == [0, 1]


# Five seats: T7A leaves 2, T11A leaves 1, T13 leaves 3, T1 leaves 1 on the path.
# Everyone goes on between the cards ([] is a reveal with nobody in camp).
LEFTOVERS_2_1_3_1 = ("T7A", [], "T11A", [], "T13", [], "T1")
# T7A leaves 2, T11A 1, T11B 1, T1 1.
LEFTOVERS_2_1_1_1 = ("T7A", [], "T11A", [], "T11B", [], "T1")
HAND_AFTER_2_1_3_1 = 1 + 2 + 2 + 0
HAND_AFTER_2_1_1_1 = 1 + 2 + 2 + 0


def test_example_4_pooled_two_leave() -> None:
    game = play(5, "incan-gold", *LEFTOVERS_2_1_3_1)
    assert lefts(game) == [2, 1, 3, 1]
    game.apply(game_reveal([0, 1]))
    assert game.state.last.share == 3  # type: ignore[union-attr]
    assert sum(lefts(game)) == 1
    assert [s.banked for s in game.state.seats] == [HAND_AFTER_2_1_3_1 + 3] * 2 + [0, 0, 0]


def test_example_4_per_card_two_leave() -> None:
    game = play(5, "diamant", *LEFTOVERS_2_1_3_1)
    game.apply(game_reveal([0, 1]))
    assert game.state.last.share == 1 + 0 + 1 + 0  # type: ignore[union-attr]
    assert lefts(game) == [0, 1, 1, 1]
    assert [s.banked for s in game.state.seats] == [HAND_AFTER_2_1_3_1 + 2] * 2 + [0, 0, 0]


def test_example_5_per_card_three_leave_nobody_gets_anything() -> None:
    game = play(5, "diamant", *LEFTOVERS_2_1_1_1)
    game.apply(game_reveal([0, 1, 2]))
    assert game.state.last.share == 0  # type: ignore[union-attr]
    assert lefts(game) == [2, 1, 1, 1]
    assert [s.banked for s in game.state.seats] == [HAND_AFTER_2_1_1_1] * 3 + [0, 0]


def test_example_5_pooled_three_leave() -> None:
    game = play(5, "incan-gold", *LEFTOVERS_2_1_1_1)
    game.apply(game_reveal([0, 1, 2]))
    assert game.state.last.share == 1  # type: ignore[union-attr]
    assert sum(lefts(game)) == 2
    assert lefts(game) == [0, 0, 0, 2]  # the remainder shows on the last card
    assert [s.banked for s in game.state.seats] == [HAND_AFTER_2_1_1_1 + 1] * 3 + [0, 0]


def test_example_6_lone_leaver_takes_both_artifacts_worth_5_and_5() -> None:
    game = play(
        3, "incan-gold",
        "A1", [0], "T1", [1, 2],           # round 1: Ana carries A1 out (the 1st: 5)
        "T2", [0, 1, 2],                    # round 2: all leave; A2 stays in the deck
        "A2", [], "A3", [1], "T3", [0, 2],   # round 3: Bo alone takes A2 and A3
    )  # fmt: skip
    assert [a.value for a in game.state.seats[1].artifacts] == [5, 5]
    assert [a.card for a in game.state.seats[1].artifacts] == ["A2", "A3"]
    for step in ("A4", [2], "T4", [0, 1]):  # round 4: the 4th artifact carried out
        game.apply(game_draw_or_reveal(step))
    assert [a.value for a in game.state.seats[2].artifacts] == [10]
    # banked: Ana 1 + 2, Bo 2, Cy 1 (T3 and T4 split between the two in the temple)
    assert [s.banked for s in game.state.seats] == [3, 2, 1]
    assert game.state.scores == (3 + 5, 2 + 5 + 5, 1 + 10)


def test_example_7_two_leavers_take_no_artifact_and_it_is_lost() -> None:
    game = play(3, "incan-gold", "T9", [], "A1", [0, 1])
    assert game.state.seats[0].artifacts == game.state.seats[1].artifacts == ()
    assert game.state.lost == ()
    # Cy, alone in the temple, busts: the round ends with A1 still on the path.
    for step in ("SNAKE1", [], "SNAKE2"):
        game.apply(game_draw_or_reveal(step))
    assert game.state.phase is Phase.ROUND_OVER
    assert game.state.lost == ("A1",)
    assert "A1" not in game.state.possible_draws()
    assert "A2" in game.state.possible_draws()


def test_example_8_second_spiders_bust() -> None:
    game = play(3, "incan-gold", "SPIDER1", [], "T9", [])
    assert hands(game) == [3, 3, 3]
    game.apply(game_draw_or_reveal("SPIDER2"))
    state = game.state
    assert state.phase is Phase.ROUND_OVER
    assert hands(game) == [0, 0, 0]
    assert [s.status for s in state.seats] == [Status.BUSTED] * 3
    assert [s.banked for s in state.seats] == [0, 0, 0]
    assert state.removed == ("SPIDER2",)
    assert state.to_remove == "SPIDER2"
    next_deck = [c for c in state.possible_draws() if c.startswith("SPIDER")]
    assert next_deck == ["SPIDER1", "SPIDER3"]


def game_reveal(camp: list[int]):  # type: ignore[no-untyped-def]
    from companion.events import Reveal

    return Reveal(tuple(camp))


def game_draw_or_reveal(step):  # type: ignore[no-untyped-def]
    from companion.events import Draw

    return game_reveal(step) if isinstance(step, list) else Draw(step)
