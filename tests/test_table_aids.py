"""Table aids: the odds of the next card and the round log, each case worked out by hand."""

from __future__ import annotations

from fractions import Fraction

from helpers import play

from companion.events import Correct, Draw, Undo
from companion.odds import odds


def test_before_the_first_card_nothing_can_bust() -> None:
    # Round 1 of Incan Gold: 15 treasures, 15 hazards and artifact 1 = 31 cards.
    o = odds(play(4, "incan-gold").state)
    assert o is not None
    assert (o.bust, o.by_hazard, o.cards_left, o.gems_left) == (Fraction(0), (), 31, 124)
    assert o.treasure == Fraction(15, 31)
    # floor(v / 4) of 1 2 3 4 5 5 7 7 9 11 11 13 14 15 17 = 0+0+0+1+1+1+1+1+2+2+2+3+3+3+4 = 24
    assert o.treasure_each == Fraction(24, 15) and o.seats_in == 4


def test_two_hazard_kinds_on_the_path() -> None:
    # Snakes and spiders turned: 29 cards left, two of each kind among them.
    o = odds(play(3, "incan-gold", "SNAKE1", [], "SPIDER1").state)
    assert o is not None
    assert o.by_hazard == (("SNAKE", Fraction(2, 29)), ("SPIDER", Fraction(2, 29)))
    assert o.bust == Fraction(4, 29)
    assert o.treasure_each == Fraction(35, 15)  # floor(v / 3): 0+0+1+1+1+1+2+2+3+3+3+4+4+5+5


def test_two_snakes_seen_one_of_them_out_of_the_game() -> None:
    # Round 1 busts on snakes (SNAKE2 leaves the game); round 2 turns SNAKE3 first.
    # Left: 15 treasures, 13 hazards (15 - SNAKE2 - SNAKE3), A1 and A2 = 30 cards,
    # of which one snake (SNAKE1): the next card busts with 1 chance in 30.
    s = play(3, "incan-gold", "SNAKE1", [], "SNAKE2", "SNAKE3").state
    assert s.round == 2 and s.removed == ("SNAKE2",)
    o = odds(s)
    assert o is not None
    assert (o.bust, o.cards_left, o.gems_left) == (Fraction(1, 30), 30, 124)


def test_diamant_counts_no_artifacts_and_the_seats_still_in() -> None:
    # 30 cards, T5A and SPIDER1 turned: 28 left, 2 spiders; gems 124 - 5 = 119.
    # Ana left after T5A: two seats in, floor(v / 2) of the 14 treasures left:
    # 0+1+1+2+2+3+3+4+5+5+6+7+7+8 = 54.
    o = odds(play(3, "diamant", "T5A", [0], "SPIDER1").state)
    assert o is not None
    assert (o.bust, o.cards_left, o.gems_left, o.seats_in) == (Fraction(2, 28), 28, 119, 2)
    assert o.treasure == Fraction(14, 28) and o.treasure_each == Fraction(54, 14)


def test_the_odds_follow_undo_and_correction_at_once() -> None:
    session = play(3, "incan-gold", "T9", [], "SNAKE1")
    with_snake = odds(session.state)
    session.apply(Undo())
    assert odds(session.state) == odds(play(3, "incan-gold", "T9", []).state)
    session.apply(Draw("SNAKE1"))
    assert odds(session.state) == with_snake
    session.apply(Correct(1, "FIRE1"))  # it was fire, not snakes
    o = odds(session.state)
    assert o is not None and o.by_hazard == (("FIRE", Fraction(2, 29)),)  # 31 - T9 - FIRE1


def test_no_odds_once_the_round_is_over() -> None:
    assert odds(play(3, "incan-gold", "SNAKE1", [], "SNAKE2").state) is None
    assert odds(play(3, "incan-gold", "T1", [0, 1, 2]).state) is None


def test_the_odds_panel_in_words() -> None:
    from ui.kivyfree import i18n
    from ui.kivyfree.presenters import odds_text

    state = play(3, "incan-gold", "SNAKE1", [], "SPIDER1").state
    assert odds_text(state) == (
        "Next card busts: 4/29 (14 %): snakes 2/29, spiders 2/29\n"
        "29 cards and 124 gems left; a treasure gives each of the 3 about 2.3"
    )
    try:
        i18n.set_language("pl")  # a decimal comma where the language writes one
        assert odds_text(state).endswith("skarb da każdemu z 3 około 2,3")
    finally:
        i18n.set_language("en")
    assert odds_text(play(3, "incan-gold", "SNAKE1", [], "SNAKE2").state) == ""  # round over


def test_the_round_log_follows_undo_and_correction() -> None:
    from ui.kivyfree.presenters import round_log

    session = play(3, "incan-gold", "T11A", [], "A1", [0], "SNAKE1", [], "SNAKE2")
    assert round_log(session.moves, session.states) == (
        "Round 1",
        "Treasure 11: 11 split 3 ways: 3 each, 2 left on the card.",
        "Everyone goes on.",
        "An artifact lies on the path; only a seat that leaves alone takes it.",
        "Ana leaves: 2 from the path, and takes the artifact worth 5.",
        "Snakes: nothing happens yet; a second one ends the round.",
        "Everyone goes on.",
        "Second snakes: everyone in the temple loses their gems; "
        "put one snakes card out of the game.",
        "Busted: Bo (lost 3), Cy (lost 3)",
    )
    session.apply(Correct(3, "FIRE1"))  # the last card was fire, not snakes: no bust
    log = round_log(session.moves, session.states)
    assert log[-1] == "Fire: nothing happens yet; a second one ends the round."
    assert not any(line.startswith("Busted") for line in log)
    session.apply(Undo())  # the correction taken back: the bust again
    assert round_log(session.moves, session.states)[-1] == "Busted: Bo (lost 3), Cy (lost 3)"
    session.apply(Undo())  # and the second snakes too
    assert round_log(session.moves, session.states)[-1] == "Everyone goes on."


def test_a_hazard_kind_with_no_copy_left_is_not_listed() -> None:
    from ui.kivyfree.presenters import odds_text

    # Rockslides bust rounds 1 and 2 (ROCKS2 and ROCKS3 go out of the game); round 3
    # turns ROCKS1, then SNAKE1. Round 3's deck: 15 treasures, 13 hazards, A1 to A3 = 31;
    # less ROCKS1 and SNAKE1: 29 cards, the two other snakes bust, no rockslide can.
    state = play(3, "incan-gold", "ROCKS1", [], "ROCKS2", "ROCKS1", [], "ROCKS3",
                 "ROCKS1", [], "SNAKE1").state  # fmt: skip
    assert state.round == 3
    assert odds_text(state).splitlines()[0] == "Next card busts: 2/29 (7 %): snakes 2/29"
    from ui.kivyfree.presenters import table_view

    tiles = table_view(state, show_odds=True).path  # ROCKS1 and SNAKE1: only snakes pair
    assert [t.chance for t in tiles] == ["", "2/29"]
    # Rockslide alone on the path: nothing can bust, and no kind is listed.
    alone = play(3, "incan-gold", "ROCKS1", [], "ROCKS2", "ROCKS1", [], "ROCKS3",
                 "ROCKS1").state  # fmt: skip
    assert odds_text(alone).splitlines()[0] == "Next card busts: 0 (0 %)"


def test_a_half_per_cent_rounds_up() -> None:
    from ui.kivyfree.presenters import odds_text

    # SNAKE1 and 14 of the 15 treasures (all but T17) turned in round 1: 31 - 15 = 16
    # cards left, SNAKE2 and SNAKE3 among them: 2/16 = 12.5 %, said 13 %.
    treasures = ["T1", "T2", "T3", "T4", "T5A", "T5B", "T7A", "T7B", "T9", "T11A", "T11B",
                 "T13", "T14", "T15"]  # fmt: skip
    steps: list[str | list[int]] = ["SNAKE1"]
    for t in treasures:
        steps += [[], t]
    state = play(3, "incan-gold", *steps).state
    assert odds_text(state).splitlines()[0] == "Next card busts: 2/16 (13 %): snakes 2/16"


# The table: eight seats on T7A T5A SNAKE1 SPIDER1 MUMMY1 A1 FIRE1, everyone in.
EIGHT = ("T7A", [], "T5A", [], "SNAKE1", [], "SPIDER1", [], "MUMMY1", [], "A1", [], "FIRE1")


def test_what_leaving_now_banks_and_the_chance_to_survive_the_next_cards() -> None:
    from companion.odds import choice_odds

    c = choice_odds(play(8, "incan-gold", *EIGHT).state)
    assert c is not None
    # T7A: 0 each, 7 left; T5A: 0 each, 5 left: 12 gems pooled on the path, no hand.
    # Alone: the 12 and A1 (the first artifact carried out: 5) = 17; all 8: 12 // 8 = 1.
    assert (c.alone, c.all_leave, c.seats_in) == (17, 1, 8)
    # 24 cards left: 13 treasures, 3 rockslides, 2 of each of the 4 kinds on the path.
    # 1 card: 16/24 = 2/3. 2 cards: a treasure then one of the 15 safe of 23, or a
    # rockslide then one of the 13 safe of 23: (13 * 15 + 3 * 13) / (24 * 23) = 39/92.
    assert c.survive[:2] == (Fraction(2, 3), Fraction(39, 92))
    # 3 cards: treasure, treasure, then one of 11 treasures and 3 rockslides (of 22);
    # treasure, rockslide, then one of 12 treasures (the other rockslides now bust);
    # rockslide, treasure, then the same 12; two rockslides bust.
    three = Fraction(13 * 12 * 14 + 13 * 3 * 12 + 3 * 13 * 12, 24 * 23 * 22)
    assert c.survive[2] == three == Fraction(65, 253)


def test_one_more_card_against_leaving_for_a_seat_alone() -> None:
    from companion.odds import choice_odds

    # T17 for three: 5 each, 2 left; Bo and Cy leave (1 each). Ana alone, hand 5, then
    # the next card: no hazard is on the path, nothing can bust. Leaving now: 5.
    # One more card, then leaving: 5, plus the 107 gems of the 14 treasures left and
    # A1 (5) over the 30 cards that can come.
    state = play(3, "incan-gold", "T17", [1, 2], "T1").state
    # T1 (1 gem, alone): hand 6. Now 29 cards: 13 treasures (106 gems), A1, 15 hazards.
    c = choice_odds(state)
    assert c is not None and (c.alone, c.all_leave, c.seats_in) == (6, 6, 1)
    assert c.leave == 6
    assert abs(c.one_more - (6 + (106 + 5) / 29)) < 1e-9
    # No hazard on the path yet; two cards bust only as a hazard and its twin:
    # 15/29 * 2/28 = 15/406.
    assert c.survive[:2] == (1, 1 - Fraction(15, 406))


def test_the_choice_odds_follow_a_correction() -> None:
    from companion.odds import choice_odds

    session = play(8, "incan-gold", *EIGHT)
    session.apply(Correct(6, "T1"))  # the last card was T1, not FIRE1
    assert choice_odds(session.state) == choice_odds(
        play(8, "incan-gold", *EIGHT[:-1], "T1").state
    )
    c = choice_odds(session.state)
    assert c is not None and c.survive[0] == Fraction(18, 24)  # 6 of 24 bust now
    assert choice_odds(play(3, "incan-gold", "T1", []).state) is None  # no choice due


def test_the_choice_panel_in_words() -> None:
    from ui.kivyfree import i18n
    from ui.kivyfree.presenters import choice_text

    i18n.set_language("en")
    assert choice_text(play(8, "incan-gold", *EIGHT).state).splitlines()[:2] == [
        "Leaving now banks 17 alone, 1 if all 8 leave",
        "No bust in the next 1, 2, 3 cards: 67 %, 42 %, 26 %",
    ]
    assert choice_text(play(3, "incan-gold", "T17", [1, 2], "T1").state).splitlines() == [
        "Leaving now banks 6",
        "No bust in the next 1, 2, 3 cards: 100 %, 96 %, 89 %",
        "One more card, then leaving: 9.8 on average; leaving now: 6.0",
    ]


def test_the_round_log_is_a_round_a_page_and_opens_on_the_round_on_the_table() -> None:
    from ui.kivyfree.presenters import LogPage, round_log_pages

    long_round: list[str | list[int]] = []
    for card in ("T1", "T2", "T3", "T4", "T5A", "T5B"):  # two lines a card: 12 lines
        long_round += [card, []]
    session = play(3, "incan-gold", *long_round, "T7A", [0, 1, 2], "SNAKE1")
    pages = round_log_pages(session.moves, session.states, 8)
    assert [(p.heading, len(p.lines)) for p in pages] == [
        ("Round 1", 6), ("Round 1", 8), ("Round 2", 1)  # a long round: its heading again
    ]
    assert pages[-1] == LogPage(
        "Round 2", ("Snakes: nothing happens yet; a second one ends the round.",)
    )
    assert pages[1].lines[-1] == "Ana, Bo and Cy leave: 3 each from the path."  # 9 left
    start = play(3, "incan-gold")  # nothing played yet: the round, and no line
    assert round_log_pages(start.moves, start.states, 8) == (LogPage("Round 1", ()),)


def test_a_chance_is_never_said_as_nil_or_certain_when_it_is_not() -> None:
    from ui.kivyfree.presenters.odds import _per_cent, cards_of

    # Whole per cent, half rounding up; but 0 % and 100 % only for nil and certain.
    assert [_per_cent(f) for f in (Fraction(0), Fraction(1, 285), Fraction(1, 200),
                                   Fraction(1, 8), Fraction(199, 200), Fraction(1))] == [
        "0", "<1", "1", "13", ">99", "100"]  # fmt: skip
    # Cards of the cards left, as a player counts them: two of ten, not "1/5".
    assert cards_of(Fraction(2, 10), 10) == "2/10" and cards_of(Fraction(1), 10) == "10/10"


def test_the_choice_panel_says_both_for_two_seats() -> None:
    from ui.kivyfree import i18n
    from ui.kivyfree.presenters import choice_text

    # T17 three ways: 5 each, 2 left; Cy takes the 2. T7 two ways: 3 each, 1 left.
    state = play(3, "incan-gold", "T17", [2], "T7A").state
    i18n.set_language("en")
    assert choice_text(state).splitlines()[0] == "Leaving now banks 9 alone, 8 if both leave"
    i18n.set_language("es")
    assert choice_text(state).splitlines()[0] == (
        "Salir ahora da 9 en solitario, 8 si salen los dos")
    i18n.set_language("en")
