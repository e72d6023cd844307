"""Presenters: a state in, exactly the words and numbers the table reads out."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import play

from companion import engine
from companion.engine import Phase
from companion.events import Draw, Reveal, Start
from companion.notices import CameraStatus, Corrected, NotACard
from companion.session import Session
from ui.kivyfree.presenters import (
    ARTIFACT_BG,
    HAZARD_BG,
    HIDDEN,
    LONGEST_PATH,
    SEAT_COLOURS,
    TREASURE_BG,
    card_face,
    game_over_view,
    gem_pieces,
    longest_path,
    picker_view,
    pieces_text,
    prompt,
    resume_text,
    round_end_view,
    seat_colours,
    setup_problem,
    table_view,
)


@pytest.mark.parametrize(
    ("n", "pieces"),
    [(0, (0, 0, 0)), (1, (0, 0, 1)), (4, (0, 0, 4)), (5, (0, 1, 0)), (9, (0, 1, 4)),
     (10, (1, 0, 0)), (13, (1, 0, 3)), (17, (1, 1, 2)), (29, (2, 1, 4))],
)  # fmt: skip
def test_fewest_gem_pieces(n: int, pieces: tuple[int, int, int]) -> None:
    assert gem_pieces(n) == pieces
    tens, fives, ones = pieces
    assert 10 * tens + 5 * fives + ones == n


def test_pieces_text() -> None:
    assert pieces_text(13) == "1 × 10, 0 × 5, 3 × 1"  # noqa: RUF001


def test_presenters_and_controller_load_no_kivy() -> None:
    code = (
        "import sys, ui.kivyfree.presenters, companion.table; "
        "bad = [m for m in ('kivy', 'cv2', 'gpiozero') if m in sys.modules]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# --- the table screen ------------------------------------------------------------


def test_a_split_with_the_choice_open() -> None:
    s = play(4, "incan-gold", "T11A").state
    v = table_view(s, due=s.due, chosen={1})
    assert v.heading == "Round 1 of 5"
    assert v.rules == "Incan Gold"
    assert v.event == "11 split 4 ways: 2 each, 3 left on the card."
    assert v.pieces == "Gems for each: 0 × 10, 0 × 5, 2 × 1"  # noqa: RUF001
    assert v.prompt == "Torch or camp? Waiting for Ana, Cy and Dee."
    assert [c.face.title for c in v.path] == ["11"]
    assert [c.left for c in v.path] == ["3 left"]
    assert [(x.name, x.status, x.hand, x.banked, x.choice) for x in v.seats] == [
        ("Ana", "in temple", "2", "0", "choosing…"),
        ("Bo", "in temple", "2", "0", "chosen"),
        ("Cy", "in temple", "2", "0", "choosing…"),
        ("Dee", "in temple", "2", "0", "choosing…"),
    ]
    assert v.countdown == ""


def test_the_issue_example_split() -> None:
    v = table_view(play(3, "incan-gold", "T11A").state)
    assert v.event == "11 split 3 ways: 3 each, 2 left on the card."


def test_countdown_is_shown_in_whole_seconds() -> None:
    s = play(3, "incan-gold", "T11A").state
    v = table_view(s, due=s.due, chosen={0, 1, 2}, countdown=1.2)
    assert v.countdown == "2"
    assert v.prompt == "Everyone has chosen. Reveal in 2…"
    assert all(seat.chosen for seat in v.seats)


def test_leavers_share_the_path_with_pieces() -> None:
    s = play(3, "incan-gold", "T11A", [0, 1]).state
    v = table_view(s)
    assert v.event == "Ana and Bo leave: 1 each from the path."
    assert v.pieces == "Gems for each: 0 × 10, 0 × 5, 1 × 1"  # noqa: RUF001
    assert [(x.status, x.hand, x.banked) for x in v.seats] == [
        ("in camp", "0", "4"),
        ("in camp", "0", "4"),
        ("in temple", "3", "0"),
    ]
    assert v.prompt == "Turn the next card."


def test_a_bust_says_what_to_remove() -> None:
    s = play(3, "incan-gold", "SPIDER1", [], "T9", [], "SPIDER2").state
    v = table_view(s)
    assert v.event == (
        "Second spiders: everyone in the temple loses their gems; "
        "put one spiders card out of the game."
    )
    assert v.remove == "Take one spiders card (SPIDER2) out of the game."
    assert v.hazards == "Hazards: spiders, spiders"
    assert [c.note for c in v.path] == ["", "", "second!"]
    assert [x.status for x in v.seats] == ["busted"] * 3
    assert v.pieces == ""
    # The start seat passes to the left: Bo turns round 2's first card.
    assert v.prompt == "Round 1 is over. Bo turns the first card of round 2."
    assert v.prompt_short == "Round 1 is over. Turn the first card of round 2."


def test_hidden_tents_hide_totals_until_the_end() -> None:
    s = play(3, "incan-gold", "T11A", [0]).state
    v = table_view(s, hidden_tents=True)
    assert [x.banked for x in v.seats] == [HIDDEN, HIDDEN, HIDDEN]
    assert [x.hand for x in v.seats] == ["0", "3", "3"]
    assert table_view(s).seats[0].banked == "5"


def test_an_artifact_taken_by_a_lone_leaver() -> None:
    s = play(3, "incan-gold", "A1", [0]).state
    v = table_view(s)
    assert v.path[0].face.title == "Artifact"
    assert v.path[0].note == "Ana took it"
    assert v.path[0].faded
    assert v.seats[0].artifacts == "5"
    assert v.event == "Ana leaves: no gems from the path, and takes the artifact worth 5."


def test_status_line_joins_camera_held_card_and_notice() -> None:
    s = play(3, "incan-gold", "T11A").state
    v = table_view(
        s, camera=CameraStatus.OK, held="T5A", notice=NotACard("IG:T12"), notice_level="warning"
    )
    assert v.status == (
        "camera ok · Waiting for the reveal: treasure 5 · Not a card: \u201cIG:T12\u201d")
    assert v.status_level == "warning"


def test_first_card_prompt_names_the_start_seat() -> None:
    s = play(3, "incan-gold").state
    assert prompt(s) == "Ana turns the first card."
    s = play(3, "incan-gold", "SPIDER1", [], "SPIDER2", "T1").state
    assert s.round == 2
    assert table_view(s).heading == "Round 2 of 5"


def test_card_faces() -> None:
    assert card_face("T17").title == "17" and card_face("T17").background == TREASURE_BG
    assert card_face("ROCKS2").title == "Rockslide" and card_face("ROCKS2").background == HAZARD_BG
    assert card_face("A4").subtitle == "no. 4" and card_face("A4").background == ARTIFACT_BG


# --- picker ---------------------------------------------------------------------------


def test_picker_offers_one_face_per_look() -> None:
    session = play(3, "incan-gold", "T11A")
    options = session.correction_options(0)
    assert "T11B" in options and "T5A" in options and "T5B" in options
    v = picker_view(session.state, options, pos=0)
    assert v.title == "Card 1 is really… (now: treasure 11)"
    ids = [f.card for f in v.faces]
    assert "T5A" in ids and "T5B" not in ids  # the two fives look the same
    assert "T11B" in ids  # the other 11 is the only 11 left
    assert v.empty == ""


def test_picker_for_a_card_by_hand() -> None:
    s = play(3, "diamant").state
    v = picker_view(s, s.possible_draws())
    assert v.title == "Which card was turned?"
    assert [f.title for f in v.faces][:3] == ["1", "2", "3"]
    assert len(v.faces) == 12 + 5  # 15 treasures with two pairs of twins; 5 hazard kinds
    assert picker_view(s, ()).empty == "No other card is possible here."


# --- round end and game end ------------------------------------------------------------


def test_round_end_after_everyone_left() -> None:
    s = play(3, "incan-gold", "T11A", [0], "A1", [1], "T4", [2]).state
    assert s.phase is Phase.ROUND_OVER
    v = round_end_view(s)
    assert v.heading == "Round 1 is over"
    assert v.how == "Everyone has left the temple."
    assert [(x.name, x.result, x.banked, x.artifacts, x.new_artifacts, x.score)
            for x in v.seats] == [
        ("Ana", "kept 5 gems", "5", "", "", "5"),
        ("Bo", "kept 3 gems", "3", "5", "5", "8"),  # the tent holds gems only
        ("Cy", "kept 7 gems", "7", "", "", "7"),
    ]  # fmt: skip
    assert v.remove == ""
    assert v.next_artifact == "Shuffle artifact 2 (A2) into the deck for round 2."


def test_round_end_after_a_bust_with_a_lost_artifact() -> None:
    s = play(3, "incan-gold", "T9", [0], "A1", [], "FIRE1", [], "FIRE2").state
    v = round_end_view(s, hidden_tents=True)
    assert [(x.result, x.banked) for x in v.seats] == [
        ("kept 3 gems", HIDDEN),
        ("busted, lost 3", HIDDEN),
        ("busted, lost 3", HIDDEN),
    ]
    assert v.remove == "Take one fire card (FIRE2) out of the game."
    assert v.lost == "Left on the path and gone for good: artifact 1."


def test_diamant_has_no_artifact_to_shuffle_in() -> None:
    s = play(3, "diamant", "T9", [0, 1, 2]).state
    assert round_end_view(s).next_artifact == ""


def test_game_over_with_an_artifact_tie_break() -> None:
    steps: list[str | list[int]] = [
        "A1", [0], "T11A", [1, 2],  # Ana carries A1 out (5); Bo and Cy 5 each, 1 stays
        *(["T3", [0, 1, 2]] * 4),  # then 1 each in every round
    ]  # fmt: skip
    s = play(3, "incan-gold", *steps).state
    assert s.phase is Phase.GAME_OVER
    v = game_over_view(s)
    assert v.heading == "Game over"
    assert [(x.rank, x.name, x.banked, x.artifacts, x.score, x.winner) for x in v.seats] == [
        ("1st", "Ana", "4", "5", "9", True),
        ("2nd", "Bo", "9", "", "9", False),
        ("2nd", "Cy", "9", "", "9", False),
    ]
    assert v.winners == "Winner: Ana"
    assert v.tie_break == "Tied on 9; more artifacts decide."
    # scores, the artifact included: Ana's line starts at 5, not at her empty tent
    assert v.chart.series == ((5, 6, 7, 8, 9), (5, 6, 7, 8, 9), (5, 6, 7, 8, 9))
    assert v.chart.top == 10
    assert v.chart.labels == ("Ana", "Bo", "Cy")


def test_an_unfinished_game_says_no_tie_break() -> None:
    """A past game not over, every seat on 1: its page said "Tied on 1 and on
    artifacts: a shared win." of a game nobody has finished yet."""
    s = play(3, "incan-gold", "T3", [0, 1, 2]).state
    assert s.phase is not Phase.GAME_OVER and s.scores == (1, 1, 1)
    assert game_over_view(s).tie_break == ""


def test_an_unfinished_game_gives_no_places() -> None:
    """Its seats stand best first, but "1st" and "2nd" are places only the
    game's end gives."""
    s = play(3, "incan-gold", "T9", [0], "T4", [1, 2]).state  # Ana 3, Bo 5, Cy 5
    assert s.phase is not Phase.GAME_OVER
    v = game_over_view(s)
    assert [(f.name, f.score, f.rank) for f in v.seats] == [
        ("Bo", "5", ""), ("Cy", "5", ""), ("Ana", "3", "")]
    assert v.winners == ""


def test_shared_win_text() -> None:
    steps: list[str | list[int]] = ["T3", [0, 1, 2]] * 5
    s = play(3, "diamant", *steps).state
    v = game_over_view(s)
    assert v.winners == "Winners: Ana, Bo and Cy"
    assert v.tie_break == "Tied on 5: a shared win."  # Diamant has no artifacts
    assert v.chart.series == ((1, 2, 3, 4, 5),) * 3
    assert v.chart.top == 10


# --- set-up ---------------------------------------------------------------------------


def test_setup_problems() -> None:
    assert setup_problem(["Ana", "Bo"]) == "A game has 3 to 8 seats."
    assert setup_problem(["Ana", " ", "Cy"]) == "Seat 2 has no name."
    assert setup_problem(["Ana", "Bo", "Ana"]) == "Two seats are called Ana."
    assert setup_problem(["Ana", "Bo", "Cy"]) == ""


def test_resume_text() -> None:
    s = play(3, "incan-gold", "T1", [0, 1, 2], "T2").state
    assert resume_text(s) == "Resume: round 2, Ana, Bo, Cy"


def test_a_bot_seat_is_marked_and_a_table_needs_a_person() -> None:
    from ui.kivyfree.presenters import bot_name, bots_label, deck_label, seat_kind_label

    view = table_view(play(3, "incan-gold", "T9").state, bots=(2,))
    assert [s.name for s in view.seats] == ["Ana", "Bo", "\u25c6 Cy"] == [
        "Ana", "Bo", bot_name("Cy")
    ]  # fmt: skip
    assert setup_problem(["Ana", "Bo", "Cy"], ["greedy", "random", "cautious"]) == (
        "At least one seat must be a person."
    )
    assert setup_problem(["Ana", "Bo", "Cy"], ["person", "random", "cautious"]) == ""
    assert bots_label(["person"] * 3) == "Bots: none"
    assert bots_label(["person", "greedy"]) == "Bots: 1 seat"
    assert bots_label(["random", "greedy"]) == "Bots: 2 seats"
    assert seat_kind_label("greedy") == "bot: greedy" and seat_kind_label("person") == "person"
    assert deck_label("14-treasures") == "Box: 14 treasures"


def test_the_review_view_says_choices_and_luck_with_their_signs() -> None:
    from companion.events import Draw, Reveal, Start
    from companion.session import Session
    from ui.kivyfree.presenters import review_view
    from ui.kivyfree.words import signed

    session = Session.replay(
        [Start(("Ana", "Bo", "Cy")), Draw("T11A"), Reveal((0,)), Draw("SNAKE1"), Reveal(()),
         Draw("SNAKE2")]
    )  # fmt: skip
    from companion.review import review

    view = review_view(session, bots=(1,))
    # The figures of companion.review (tests/test_review.py works them out), signed
    # with one decimal: Ana's leave was the mistake, her choices are negative.
    r = review(session)
    ana = r.seats[0]
    assert ana.choices < 0 < ana.luck
    assert [(v.name, v.total, v.choices, v.luck) for v in view.rows] == [
        (name, str(s.total), signed(s.choices), signed(s.luck))
        for name, s in zip(("Ana", "\u25c6 Bo", "Cy"), r.seats, strict=True)
    ]
    assert view.rows[0].choices.startswith("\u2212")
    # Ana made one decision, her leave, the mistake: it is her largest swing.
    (swing,) = view.rows[0].swings
    assert swing.startswith("round 1, card 1: camp; staying ") and swing.endswith(" · a mistake")
    assert len(view.rows[1].swings) == 2  # Bo's two stays
    # The swings page says whose they are (a bot by its mark) and which model valued them.
    assert [v.swings_title for v in view.rows] == [
        "Ana: the largest swings", "\u25c6 Bo: the largest swings", "Cy: the largest swings",
    ]  # fmt: skip
    assert view.model == (
        "Model of the other seats: the default (5 choices of these players, too few to fit)"
    )


def test_a_correction_says_no_tent_when_tents_are_hidden() -> None:
    s = play(3, "incan-gold", "T9", [0]).state
    said = Corrected(0, "T11A", "T9", (("Bo", 3, 3),), (("Ana", 3, 5),))
    shown = table_view(s, notice=said).status
    assert shown == "Card 1: treasure 11 → treasure 9; Bo: hand 3 → 3; Ana: tent 3 → 5"
    hidden = table_view(s, notice=said, hidden_tents=True).status
    assert hidden == "Card 1: treasure 11 → treasure 9; Bo: hand 3 → 3"


# --- the path as tiles, and a player's colour ----------------------------------------


def test_a_pooled_leftover_is_said_while_the_round_goes_on() -> None:
    # T11A and T7A among 3 leave 2 and 1; two leave: 1 each, 1 stays on the path,
    # on no card of its own. The tiles show none of it, so the path total says it
    # before the next card (it once did only while choices were due) as after.
    drawn = play(3, "incan-gold", "T11A", [], "T7A", [0, 1]).state
    assert drawn.phase is Phase.DRAW and drawn.pooled == (1, 1)
    assert [t.gems for t in table_view(drawn).path] == ["", ""]
    assert table_view(drawn).on_path == "Shared leftover on the path: 1 gem"
    choosing = engine.draw(drawn, "T1")  # Cy alone takes it: the 1 stays shared
    assert table_view(choosing).on_path == "Shared leftover on the path: 1 gem"
    over = engine.reveal(choosing, [2])  # the last one leaves: the round is over
    assert over.phase is not Phase.CHOOSE and table_view(over).on_path == ""


def test_a_tile_carries_its_number_its_leftover_and_its_picture() -> None:
    s = play(4, "incan-gold", "T11A", [], "SPIDER1", [], "A1").state
    v = table_view(s, show_odds=True)
    assert [(c.icon, c.value, c.gems) for c in v.path] == [
        ("gem", "11", "3"), ("spider", "", ""), ("artifact", "5", "")]
    # Round 1's deck of 31 less the 3 turned: 28 cards, 2 of them spiders.
    assert [c.chance for c in v.path] == ["", "2/28", ""]
    assert v.odds_short == ("Next card busts: 2/28 (7 %)\n28 cards and 113 gems left; "
                            "a treasure gives each of the 4 about 1.6")
    assert table_view(s).path[1].chance == ""  # the odds off: no chance on the tile


def test_an_artifact_carried_out_wears_its_takers_colour() -> None:
    s = play(3, "incan-gold", "A1", [1]).state
    colours = ((1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1))
    v = table_view(s, colours=colours)
    assert (v.path[0].taker, v.path[0].value, v.path[0].faded) == ((0, 1, 0, 1), "", True)
    assert [x.colour for x in v.seats] == list(colours)
    assert [x.artifacts_worth for x in v.seats] == ["", "5", ""]


def test_the_longest_path_of_a_round() -> None:
    assert longest_path(play(3, "incan-gold").state) == 15 + 5 + 1 + 1
    assert longest_path(play(3, "diamant").state) == 15 + 5 + 1
    # A1 carried out in round 1 is not in round 2's deck; A2 is.
    s = play(3, "incan-gold", "A1", [0], "T1", [1, 2], "T2").state
    assert s.round == 2 and longest_path(s) == 15 + 5 + 1 + 1
    assert LONGEST_PATH == 26


def test_a_seat_wears_its_players_colour_else_one_nobody_wears() -> None:
    red, gold = SEAT_COLOURS[0], SEAT_COLOURS[1]
    assert seat_colours(["Ana", "Bo", "Cy"], {"Bo": red, "Cy": red}) == (
        gold, red, SEAT_COLOURS[2])  # Ana nobody remembers; Cy's red is Bo's already
    assert len(set(seat_colours([str(i) for i in range(8)], {}))) == 8


def test_every_name_of_the_package_is_what_its_module_holds_whatever_was_imported_first() -> None:
    # Importing a submodule sets the package's attribute of the same name;
    # the lazy names must still be the functions and classes, not modules.
    import importlib
    import pkgutil
    import types

    import ui.kivyfree.presenters as package

    for info in pkgutil.iter_modules(package.__path__):
        importlib.import_module(f"{package.__name__}.{info.name}")
    for name in package.__all__:
        value = getattr(package, name)
        assert not isinstance(value, types.ModuleType), name
    assert callable(package.round_log)
    assert package.round_log.__module__ == "ui.kivyfree.presenters.round_log"


def test_a_name_longer_than_a_seat_row_is_cut_on_every_screen() -> None:
    """The log takes a name of any length (a data file written elsewhere); the
    screens show its first 12 columns, as the set-up's keyboard allows."""
    long = "Bartholomäus-Maximilian" + "x" * 20_000
    session = Session.start(Start((long, "Bo", "渡辺みなみ子さくら")))
    for step in ("A1", Reveal((0,)), "T11A", Reveal((1, 2))):
        session.apply(Draw(step) if isinstance(step, str) else step)
    for _ in range(4):
        for step in ("T3", Reveal((0, 1, 2))):
            session.apply(Draw(step) if isinstance(step, str) else step)
    cut, japanese = "Bartholomäus", "渡辺みなみ子"
    assert resume_text(session.states[3]) == f"Resume: round 1, {cut}, Bo, {japanese}"
    row = table_view(session.states[2]).seats[0]
    assert row.name == cut
    over = game_over_view(session.state)
    assert [x.name for x in over.seats if x.winner] == [cut]
    assert over.chart.labels == (cut, "Bo", japanese)
    assert round_end_view(session.states[4]).seats[0].name == cut
