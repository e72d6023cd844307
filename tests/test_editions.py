"""The table's own box: an edition of the deck in the start line, refused cards, odds."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from helpers import NAMES

from companion import engine
from companion.cards import EDITIONS, TREASURES
from companion.engine import Unplayable, why_unplayable
from companion.events import BadEvent, Draw, Start, from_line, to_line
from companion.memory import MemoryStore
from companion.notices import CannotCome
from companion.odds import odds
from companion.session import LogError, Session
from companion.table import Table

EXAMPLES = Path(__file__).parent.parent / "examples"


def test_the_editions_hold_these_treasures() -> None:
    assert [v.value for v in TREASURES] == [1, 2, 3, 4, 5, 5, 7, 7, 9, 11, 11, 13, 14, 15, 17]
    assert len(EDITIONS["incan-gold"]) == 15
    assert EDITIONS["14-treasures"] == (
        "T1", "T2", "T3", "T4", "T5A", "T5B", "T7A", "T7B", "T9", "T11A", "T11B", "T13",
        "T14", "T15",
    )  # fmt: skip


def test_a_start_without_deck_is_the_default_and_is_written_as_before() -> None:
    for log in sorted(EXAMPLES.glob("*.jsonl")):
        first = log.read_text(encoding="utf-8").split("\n", 1)[0]
        start = from_line(first)
        assert isinstance(start, Start) and start.deck == "incan-gold"
        assert "deck" not in to_line(start)


def test_the_14_card_box_refuses_the_17_like_any_impossible_card() -> None:
    s = Session.start(Start(NAMES[:3], deck="14-treasures"))
    assert why_unplayable(s.state, "T17") is Unplayable.NOT_IN_BOX
    with pytest.raises(engine.CardNotInDeck, match="T17 is not in the 14-treasures deck"):
        s.apply(Draw("T17"))
    with pytest.raises(LogError, match="line 2: T17 is not in the 14-treasures deck"):
        Session.replay([Start(NAMES[:3], deck="14-treasures"), Draw("T17")])
    table = Table.new(MemoryStore(), Start(NAMES[:3], deck="14-treasures"))
    assert not table.scan("T17")
    assert table.notice is not None
    assert table.notice.reason == CannotCome("T17", Unplayable.NOT_IN_BOX)
    from ui.kivyfree import i18n
    from ui.kivyfree.notice_words import notice_text

    i18n.set_language("en")
    assert notice_text(table.notice.reason) == "Treasure 17 (T17) is not in this table's box."
    assert "T17" not in table.entry_options()


def test_the_odds_use_the_box() -> None:
    # 14 treasures (sum 124 - 17 = 107), 15 hazards, A1: 30 cards before the first.
    o = odds(Session.start(Start(NAMES[:3], deck="14-treasures")).state)
    assert o is not None
    assert (o.cards_left, o.gems_left, o.treasure) == (30, 107, Fraction(14, 30))
    # floor(v/3) of 1 2 3 4 5 5 7 7 9 11 11 13 14 15 = 0+0+1+1+1+1+2+2+3+3+3+4+4+5 = 30
    assert o.treasure_each == Fraction(30, 14)


def test_the_state_json_names_a_box_other_than_the_default() -> None:
    plain = engine.to_json(engine.new_game(NAMES[:3]))
    assert "edition" not in plain
    other = engine.to_json(engine.new_game(NAMES[:3], deck="14-treasures"))
    assert other["edition"] == "14-treasures" and "T17" not in other["deck"]


def test_an_unknown_deck_is_refused() -> None:
    with pytest.raises(BadEvent, match=r'unknown deck "box" \(one of incan-gold, 14-treasures\)'):
        from_line('{"event": "start", "seats": ["Ana", "Bo", "Cy"], "deck": "box"}')
    with pytest.raises(engine.BadStart, match="unknown deck 'box'"):
        engine.new_game(NAMES[:3], deck="box")


def test_the_deck_round_trips_in_the_start_line() -> None:
    line = ('{"event": "start", "seats": ["Ana", "Bo", "Cy"], "rules": "diamant", '
            '"deck": "14-treasures"}')  # fmt: skip
    assert to_line(from_line(line)) == line
