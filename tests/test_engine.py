"""Rules beyond the worked examples: phases, decks, artifacts by rule set, scores."""

from __future__ import annotations

import pytest
from helpers import lefts, play

from companion import engine
from companion.cards import ALL_IDS
from companion.engine import (
    BadSeat,
    BadStart,
    CardNotInDeck,
    ChoiceDue,
    GameOver,
    NoChoiceDue,
    Phase,
)
from companion.events import Draw, Reveal, Start
from companion.session import Session


def test_new_game_starts_in_draw_phase_with_the_round_1_deck() -> None:
    state = engine.new_game(["Ana", "Bo", "Cy"])
    assert (state.round, state.phase) == (1, Phase.DRAW)
    assert len(state.deck) == 15 + 15 + 1
    assert "A1" in state.deck and "A2" not in state.deck
    assert state.deck == tuple(sorted(state.deck))


def test_diamant_has_no_artifacts() -> None:
    state = engine.new_game(["Ana", "Bo", "Cy"], "diamant")
    assert len(state.deck) == 30
    with pytest.raises(CardNotInDeck, match="without artifacts"):
        engine.draw(state, "A1")


@pytest.mark.parametrize(
    ("seats", "message"),
    [
        (["Ana", "Bo"], "2 seats"),
        ([f"P{i}" for i in range(9)], "9 seats"),
        (["Ana", "Ana", "Bo"], "two seats are named 'Ana'"),
        (["Ana", "", "Bo"], "seat 1 has no name"),
    ],
)
def test_bad_starts_are_refused(seats: list[str], message: str) -> None:
    with pytest.raises(BadStart, match=message):
        engine.new_game(seats)


def test_first_card_needs_no_choice_then_a_choice_is_due() -> None:
    game = play(3, "incan-gold", "T5A")
    assert game.state.phase is Phase.CHOOSE
    assert game.state.due == (0, 1, 2)
    with pytest.raises(ChoiceDue):
        engine.draw(game.state, "T7A")


def test_reveal_refusals() -> None:
    game = play(3, "incan-gold")
    with pytest.raises(NoChoiceDue):
        engine.reveal(game.state, [0])
    game = play(3, "incan-gold", "T3", [1])
    game.apply(Draw("T4"))
    with pytest.raises(BadSeat, match="out of range"):
        engine.reveal(game.state, [3])
    with pytest.raises(BadSeat, match=r"seat 1 \(Bo\) is not in the temple"):
        engine.reveal(game.state, [1])
    with pytest.raises(BadSeat, match="twice"):
        engine.reveal(game.state, [0, 0])
    with pytest.raises(BadSeat, match="whole number"):
        engine.reveal(game.state, [True])


def test_a_card_cannot_come_twice_in_a_round() -> None:
    game = play(3, "incan-gold", "T5A", [])
    with pytest.raises(CardNotInDeck, match="T5A is already on the path"):
        engine.draw(game.state, "t5a")


def test_artifacts_enter_one_per_round() -> None:
    game = play(3, "incan-gold", "T1", [0, 1, 2])
    with pytest.raises(CardNotInDeck, match="A3 is shuffled in at round 3, this is round 2"):
        engine.draw(game.state, "A3")
    game.apply(Draw("A2"))
    assert game.state.round == 2


def test_deck_shrinks_as_cards_are_turned() -> None:
    game = play(3, "incan-gold", "T5A", [], "SNAKE1")
    assert "T5A" not in game.state.deck and "SNAKE1" not in game.state.deck
    assert len(game.state.deck) == 31 - 2


def test_everyone_leaving_ends_the_round_and_the_next_draw_starts_the_next() -> None:
    game = play(3, "incan-gold", "T13", [0, 1, 2])
    state = game.state
    assert state.phase is Phase.ROUND_OVER
    # 13 / 3 = 4 each with 1 left; the leavers split the 1: 0 each, 1 stays.
    assert [s.banked for s in state.seats] == [4, 4, 4]
    assert lefts(game) == [1]
    game.apply(Draw("T13"))  # every card returns to the deck for round 2
    assert (game.state.round, game.state.phase) == (2, Phase.CHOOSE)
    assert [s.hand for s in game.state.seats] == [4, 4, 4]
    assert game.state.returned == 1


def test_2020_artifacts_keep_their_printed_value() -> None:
    game = play(3, "incan-gold-2020", "A1", [0], "T1", [1, 2])
    for rnd in range(2, 6):
        game.apply(Draw(f"A{rnd}"))
        game.apply(Reveal((rnd % 3,)))
        game.apply(Draw("T2"))
        game.apply(Reveal(tuple(i for i in range(3) if i != rnd % 3)))
    values = [[a.value for a in s.artifacts] for s in game.state.seats]
    # Ana carries A1 and A3, Bo A4, Cy A2 and A5.
    assert values == [[5, 8], [10], [7, 12]]
    assert game.state.phase is Phase.GAME_OVER


def test_incan_gold_artifact_values_by_order_carried_out() -> None:
    game = play(3, "incan-gold", "A1", [0], "T1", [1, 2])
    for rnd in range(2, 6):
        game.apply(Draw(f"A{rnd}"))
        game.apply(Reveal((rnd % 3,)))
        game.apply(Draw("T2"))
        game.apply(Reveal(tuple(i for i in range(3) if i != rnd % 3)))
    values = [[a.value for a in s.artifacts] for s in game.state.seats]
    # Order carried out: A1 Ana, A2 Cy, A3 Ana (5 each), then A4 Bo, A5 Cy (10 each).
    assert values == [[5, 5], [10], [5, 10]]


def _final(banked: list[int], artifacts: list[int]) -> engine.State:
    from dataclasses import replace

    state = engine.new_game(["Ana", "Bo", "Cy"])
    seats = tuple(
        replace(s, banked=b, artifacts=tuple(engine.Carried(f"A{j + 1}", 5) for j in range(a)))
        for s, b, a in zip(state.seats, banked, artifacts, strict=True)
    )
    return replace(state, seats=seats, phase=Phase.GAME_OVER, round=5)


def test_winner_is_the_highest_score() -> None:
    assert _final([20, 30, 10], [0, 0, 0]).winners == (1,)


def test_tie_broken_by_number_of_artifacts() -> None:
    # Ana: 20 + 5 = 25 with one artifact; Bo: 25 with none.
    state = _final([20, 25, 10], [1, 0, 0])
    assert state.scores == (25, 25, 10)
    assert state.winners == (0,)


def test_a_tie_after_the_tie_break_stays_a_tie() -> None:
    assert _final([25, 25, 10], [0, 0, 1]).winners == (0, 1)


def test_five_rounds_then_game_over() -> None:
    game = Session.replay(
        [engine_start()] + [e for _ in range(5) for e in (Draw("T9"), Reveal((0, 1, 2)))]
    )
    state = game.state
    assert (state.round, state.phase) == (5, Phase.GAME_OVER)
    assert [s.banked for s in state.seats] == [15, 15, 15]  # 3 each a round
    assert state.history[-1] == (15, 15, 15)
    assert len(state.history) == 5
    with pytest.raises(GameOver):
        engine.draw(state, "T1")
    json_state = engine.to_json(state)
    assert json_state["winners"] == [0, 1, 2]
    assert json_state["phase"] == "game_over"


def engine_start():  # type: ignore[no-untyped-def]
    from companion.events import Start

    return Start(("Ana", "Bo", "Cy"))


def test_state_json_has_the_contract_fields() -> None:
    game = play(3, "incan-gold", "T11A", [0], "SPIDER1")
    out = engine.to_json(game.state)
    assert out["rules"] == "incan-gold" and out["round"] == 1 and out["phase"] == "choose"
    assert out["seats"][0] == {
        "name": "Ana", "status": "camp", "hand": 0, "banked": 5, "artifacts": [],
    }  # fmt: skip
    assert out["seats"][1]["hand"] == 3
    assert out["path"] == [{"card": "T11A", "left": 0}, {"card": "SPIDER1", "left": 0}]
    assert out["deck"] == sorted(set(ALL_IDS) - {"T11A", "SPIDER1", "A2", "A3", "A4", "A5"})
    assert out["removed"] == [] and out["lost"] == []
    assert out["scores"] == [5, 0, 0]
    assert "winners" not in out


def test_score_history_counts_the_artifacts_the_banked_history_does_not() -> None:
    s = play(3, "incan-gold", "A1", [0], "SNAKE1", [], "SNAKE2").state  # Ana leaves with A1
    assert s.history == ((0, 0, 0),)
    assert s.score_history == ((5, 0, 0),)


def test_a_pooled_remainder_belongs_to_the_path_not_to_a_card() -> None:
    # Leftovers 2 (T11A among 3) and 1 (T7A among 3): 3 on the path; two leave: 1 each, 1 stays.
    s = play(3, "incan-gold", "T11A", [], "T7A", [0, 1]).state
    assert s.pooled == (1, 1) and s.left_on_path == 1  # kept on the last card, for the JSON
    s = engine.draw(s, "T5A")  # the one seat left takes 5: nothing new stays
    assert s.pooled == (1, 1)
    s = engine.draw(engine.reveal(s, []), "T9")
    assert [p.left for p in s.path] == [0, 1, 0, 0] and s.pooled == (1, 1)
    assert play(3, "diamant", "T11A", [], "T7A", [0, 1]).state.pooled is None  # per card
    assert play(3, "incan-gold", "T11A", [], "T7A").state.pooled is None
    assert play(3, "incan-gold", "T11A", [0, 1, 2], "T1").state.pooled is None  # next round


def test_artifact_worth_follows_the_order_carried_out() -> None:
    # Incan Gold: the first three artifacts carried out are worth 5, later ones 10.
    s = play(3, "incan-gold", "A1", [0], "SNAKE1", [], "SNAKE2").state
    s = engine.draw(s, "A2")
    assert s.artifact_worth() == {"A2": 5}
    assert play(3, "diamant", "T1").state.artifact_worth() == {}
    assert play(3, "incan-gold-2020", "A1").state.artifact_worth() == {"A1": 5}


def test_a_later_pooled_split_that_leaves_nothing_clears_the_shared_remainder() -> None:
    # 5 seats: T11A gives 2 each, 1 left; two leave: 0 each from 1, 1 stays (pooled).
    s = play(5, "incan-gold", "T11A", [0, 1]).state
    assert s.pooled == (0, 1)
    # T9 among the 3 still in: 3 each, 0 left; one leaves alone and takes the 1.
    s = engine.reveal(engine.draw(s, "T9"), [2])
    assert [p.left for p in s.path] == [0, 0] and s.pooled is None


def test_a_bust_in_the_last_round_takes_no_card_out() -> None:
    s = Session.start(Start(("Ana", "Bo", "Cy")))
    for card in ("T3", "T4", "T5A", "T7A"):
        s.apply(Draw(card))
        s.apply(Reveal((0, 1, 2)))
    s.apply(Draw("SNAKE1"))
    s.apply(Reveal(()))
    state = s.apply(Draw("SNAKE2"))
    assert (state.round, state.phase) == (5, Phase.GAME_OVER)
    assert state.removed == ("SNAKE2",) and state.to_remove is None
    assert engine.to_json(state)["remove"] is None


def test_the_start_seat_passes_to_the_left_each_round() -> None:
    s = play(3, "incan-gold").state
    assert [s.start_seat_of(r) for r in range(1, 6)] == [0, 1, 2, 0, 1]
    assert s.start_seat == 0
    s = play(3, "incan-gold", "SPIDER1", [], "SPIDER2", "T1").state  # round 2's first card
    assert (s.round, s.start_seat) == (2, 1)
