"""Undo and correct: the log-level events, and every refusal of docs/game-log.md."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import pytest
from helpers import lefts, play

from companion.engine import Phase, Status
from companion.events import Correct, Draw, Reveal, Start, Undo
from companion.session import (
    CorrectionRefused,
    LogError,
    NothingToUndoError,
    Session,
    StaleCheck,
)
from incan_companion.commands.game import replay_log
from incan_companion.errors import BadInput


def test_undo_takes_back_the_latest_event_and_is_repeatable() -> None:
    game = play(3, "incan-gold", "T11A", [0], "T5A")
    game.apply(Undo())
    assert [p.card for p in game.state.path] == ["T11A"]
    assert game.state.phase is Phase.DRAW
    game.apply(Undo())
    assert game.state.seats[0].status is Status.IN
    assert game.state.phase is Phase.CHOOSE
    game.apply(Undo())
    assert game.state.path == ()
    with pytest.raises(NothingToUndoError):
        game.apply(Undo())
    assert len(game.log) == 7  # start, 3 events, 3 undos: the refused undo is not logged


def test_undo_of_a_correction_restores_the_misread_card() -> None:
    game = play(3, "incan-gold", "T11A", [], "T5A")
    game.apply(Correct(0, "T14"))
    assert [s.hand for s in game.state.seats] == [4 + 1, 4 + 1, 4 + 1]
    game.apply(Undo())
    assert [p.card for p in game.state.path] == ["T11A", "T5A"]
    assert [s.hand for s in game.state.seats] == [3 + 1, 3 + 1, 3 + 1]


def test_undo_of_a_correction_under_later_moves_replays_its_round_as_it_was() -> None:
    game = play(3, "incan-gold", "T11A", [], "T5A")
    game.apply(Correct(0, "T14"))  # 14 / 3 = 4 each, 2 left; T5A: 1 each, 2 left
    game.apply(Reveal((0,)))  # Ana camps alone with both leftovers
    game.apply(Draw("T9"))  # Bo and Cy: 9 / 2 = 4 each, 1 left
    assert [s.banked for s in game.state.seats] == [4 + 1 + 2 + 2, 0, 0]
    assert [s.hand for s in game.state.seats] == [0, 5 + 4, 5 + 4]
    game.apply(Undo())
    game.apply(Undo())
    game.apply(Undo())
    # As before the correction: 11 / 3 = 3 each, 2 left; then 5 / 3 = 1 each, 2 left
    assert [s.hand for s in game.state.seats] == [3 + 1, 3 + 1, 3 + 1]
    assert lefts(game) == [2, 2]
    assert game.states == Session.replay(game.effective).states
    assert game.moves == (game.start_event, Draw("T11A"), Reveal(()), Draw("T5A"))


def test_each_correction_holds_what_it_changed_not_a_copy_of_the_game() -> None:
    """A log may hold thousands of corrections (a table that fixes misreads
    for hours): each must keep what it changed, as a Pi's memory could not
    hold a copy of the game for each."""
    cards = ("T3", "T4", "T7A", "T9", "T13", "T15")
    game = play(3, "incan-gold", *[step for card in cards for step in (card, [])])
    fixes = [Correct(0, "T1" if i % 2 else "T2") for i in range(600)]
    tracemalloc.start()
    try:
        for fix in fixes[:200]:
            game.apply(fix)
        before = tracemalloc.get_traced_memory()[0]
        for fix in fixes[200:]:
            game.apply(fix)
        each = (tracemalloc.get_traced_memory()[0] - before) / 400
    finally:
        tracemalloc.stop()
    # The last fix is T1 (nothing each), then T4, T7A, T9, T13, T15 by 3
    assert game.state.seats[0].hand == 0 + 1 + 2 + 3 + 4 + 5
    assert each < 1024, f"{each:.0f} bytes a correction"


def test_correct_recomputes_everything_after_it() -> None:
    game = play(3, "incan-gold", "T11A", [0], "T5A", [1])
    # Bo: 3 from T11A, 2 from T5A, and the 1 left on T5A
    assert [s.banked for s in game.state.seats] == [3 + 2, 3 + 2 + 1, 0]
    game.apply(Correct(0, "T17"))  # 17 / 3 = 5 each, 2 left
    assert [s.banked for s in game.state.seats] == [5 + 2, 5 + 2 + 1, 0]
    assert [s.hand for s in game.state.seats] == [0, 0, 7]
    assert lefts(game) == [0, 0]


def test_correct_can_turn_a_card_into_a_bust_at_the_end() -> None:
    game = play(3, "incan-gold", "SNAKE1", [], "T9")
    game.apply(Correct(1, "SNAKE2"))
    assert game.state.phase is Phase.ROUND_OVER
    assert game.state.removed == ("SNAKE2",)


def test_correct_refused_when_the_log_after_it_would_be_invalid() -> None:
    game = play(3, "incan-gold", "T9", [], "T5A", [])
    with pytest.raises(CorrectionRefused, match="already on the path"):
        game.apply(Correct(0, "T5A"))
    # SNAKE at 0 and 1 would bust at position 1, but a reveal followed it.
    game = play(3, "incan-gold", "SNAKE1", [], "T9", [])
    with pytest.raises(CorrectionRefused, match="invalid"):
        game.apply(Correct(1, "SNAKE2"))
    with pytest.raises(CorrectionRefused, match="no card at path position 5"):
        game.apply(Correct(5, "T1"))
    assert [p.card for p in game.state.path] == ["SNAKE1", "T9"]


def test_correct_refused_when_the_round_would_end_early() -> None:
    game = play(3, "incan-gold", "SNAKE1", [], "T9", [], "SNAKE2")
    # A bust at position 1 would end the round before SNAKE2 was turned.
    with pytest.raises(CorrectionRefused):
        game.apply(Correct(1, "SNAKE3"))


def test_correct_works_on_the_round_on_show_only() -> None:
    game = play(3, "incan-gold", "T9", [0, 1, 2], "T3")
    assert game.state.round == 2
    game.apply(Correct(0, "T4"))  # position 0 of round 2, not round 1's T9
    assert [p.card for p in game.state.path] == ["T4"]
    assert [s.banked for s in game.state.seats] == [3, 3, 3]


def test_correction_options_are_the_cards_that_fit() -> None:
    game = play(3, "incan-gold", "T9", [], "SNAKE1")
    options = game.correction_options(0)
    assert "T9" not in options and "SNAKE1" not in options
    assert "SNAKE2" in options  # a snake at 0 then SNAKE1 at 1: a bust at the end
    assert "A2" not in options
    assert game.correction_options(7) == ()


def test_preview_changes_nothing() -> None:
    game = play(3, "incan-gold", "T9")
    after = game.preview(Reveal((0,))).state
    assert after.seats[0].banked == 3
    assert game.state.seats[0].banked == 0
    assert len(game.log) == 2


def test_effective_log_leaves_out_undone_events() -> None:
    game = play(3, "incan-gold", "T9", [0], "T1")
    game.apply(Undo())
    game.apply(Draw("T2"))
    assert game.effective == (
        Start(("Ana", "Bo", "Cy")), Draw("T9"), Reveal((0,)), Draw("T2"),
    )  # fmt: skip
    assert Session.replay(game.effective).state == game.state


# --- invalid logs: each refusal names the line and the reason --------------------


def write(tmp_path: Path, *lines: object) -> Path:
    path = tmp_path / "game.jsonl"
    path.write_text(
        "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    )
    return path


START = {"event": "start", "seats": ["Ana", "Bo", "Cy"]}


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        ([], "line 1: the log is empty"),
        (["{not json"], "line 1: bad JSON"),
        (["[1, 2]"], "line 1: an event must be a JSON object"),
        ([{"event": "draw", "card": "T1"}], "line 1: the first line must be a start event"),
        ([{"event": "start", "seats": ["Ana", "Bo"]}], "line 1: 2 seats"),
        ([{"event": "start", "seats": ["A", "B", "A"]}], "line 1: two seats are named 'A'"),
        ([{"event": "start", "seats": ["A", "B", ""]}], "line 1: seat 2 has no name"),
        ([{"event": "start", "seats": "ABC"}], "line 1: start needs 'seats'"),
        ([{"event": "start", "seats": ["A", "B", "C"], "rules": "x"}], "line 1: unknown rules"),
        ([START, START], "line 2: start is only allowed on the first line"),
        ([START, {"event": "dance"}], 'line 2: unknown event "dance"'),
        ([START, {"card": "T1"}], "line 2: the object has no 'event'"),
        ([START, {"event": "draw", "card": "T12"}], "line 2: 'T12' is not a card of the game"),
        ([START, {"event": "draw", "card": "\u017fnake1"}],
         "line 2: '\u017fnake1' is not a card of the game"),  # U+017F folds to "S"
        ([START, {"event": "draw"}], "line 2: draw needs 'card'"),
        ([START, {"event": "draw", "card": 5}], "line 2: card must be a card id"),
        ([START, {"event": "draw", "card": "A2"}], "line 2: A2 is shuffled in at round 2"),
        ([START, {"event": "reveal", "camp": [0]}], "line 2: no choice is due"),
        (
            [START, {"event": "draw", "card": "T1"}, {"event": "reveal", "camp": [3]}],
            "line 3: seat 3 is out of range",
        ),
        (
            [START, {"event": "draw", "card": "T1"}, {"event": "reveal", "camp": [-1]}],
            "line 3: seat -1 is out of range",
        ),
        (
            [START, {"event": "draw", "card": "T1"}, {"event": "reveal", "camp": ["0"]}],
            "line 3: a seat index must be a whole number",
        ),
        (
            [START, {"event": "draw", "card": "T1"}, {"event": "reveal"}],
            "line 3: reveal needs 'camp'",
        ),
        (
            [START, {"event": "draw", "card": "T1"}, {"event": "draw", "card": "T2"}],
            "line 3: seats still have to choose",
        ),
        (
            [
                START,
                {"event": "draw", "card": "T1"},
                {"event": "reveal", "camp": []},
                {"event": "draw", "card": "T1"},
            ],
            "line 4: T1 is already on the path",
        ),
        ([START, {"event": "undo"}], "line 2: nothing to undo"),
        ([START, {"event": "correct", "pos": 0, "card": "T1"}], "line 2: no card at path"),
        (
            [
                START,
                {"event": "draw", "card": "T1"},
                {"event": "correct", "pos": "0", "card": "T2"},
            ],
            "line 3: pos must be a whole number",
        ),
        ([START, '{"event": "draw", "card": "T1"} trailing'], "line 2: bad JSON"),
    ],
)
def test_invalid_logs_name_the_line_and_reason(
    tmp_path: Path, lines: list[object], error: str
) -> None:
    with pytest.raises(BadInput) as caught:
        replay_log(write(tmp_path, *lines))
    assert str(caught.value).startswith(error)


def test_blank_lines_are_skipped_but_counted(tmp_path: Path) -> None:
    path = write(tmp_path, START, "", {"event": "reveal", "camp": []})
    with pytest.raises(BadInput, match=r"^line 3: no choice is due"):
        replay_log(path)


def test_log_error_index_is_zero_based_line_is_one_based() -> None:
    with pytest.raises(LogError) as caught:
        Session.replay([Start(("A", "B", "C")), Reveal(())])
    assert caught.value.index == 1
    assert str(caught.value).startswith("line 2:")


def test_ids_are_read_case_insensitively_and_written_upper_case(tmp_path: Path) -> None:
    path = write(tmp_path, START, {"event": "draw", "card": "t11a"})
    session = replay_log(path)
    assert session.state.path[0].card == "T11A"


def test_a_checked_event_is_committed_as_it_was_checked() -> None:
    game = play(3, "incan-gold", "T9")
    checked = game.preview(Reveal((0,)))
    assert game.commit(checked) is checked.state  # the rules ran once, in the check
    assert game.state.seats[0].banked == 3 and game.log[-1] == Reveal((0,))
    undo = game.preview(Undo())
    assert game.commit(undo) is undo.state and game.log[-1] == Undo()
    game.apply(Reveal((0,)))
    stale = game.preview(Draw("T1"))
    game.apply(Draw("T2"))  # the session moved on since the check
    with pytest.raises(StaleCheck):
        game.commit(stale)
    assert game.log[-1] == Draw("T2") and [p.card for p in game.state.path] == ["T9", "T2"]
