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
    from ui import i18n
    from ui.presenters import odds_text

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
    from ui.presenters import round_log

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


def test_the_round_log_is_a_round_a_page_and_opens_on_the_round_on_the_table() -> None:
    from ui.presenters import LogPage, round_log_pages

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
