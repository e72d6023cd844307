"""The post-game review: decisions worked out by hand, the sums, the command."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest
from helpers import NAMES

from companion.events import Draw, Event, Reveal, Start
from companion.review import review
from companion.session import Session
from incan_companion.cli import main

EXAMPLES = Path(__file__).parent.parent / "examples"

# Three seats, round 1: T11A (3 each, 2 left); Ana leaves; SNAKE1; Bo and Cy go on;
# SNAKE2 busts them.
GAME: list[Event] = [
    Start(NAMES[:3]), Draw("T11A"), Reveal((0,)), Draw("SNAKE1"), Reveal(()), Draw("SNAKE2"),
]  # fmt: skip


def test_ana_leaving_after_the_first_card() -> None:
    ana = review(Session.replay(GAME)).seats[0]
    (d,) = ana.decisions
    # Leaving alone: her hand 3 and the 2 left on T11A.
    assert d.left and d.leave == 5 and d.outcome == 5
    # Staying, with Bo and Cy staying too: 30 cards can come (31 - T11A), no hazard on
    # the path; the 14 treasures left give floor(v / 3) each:
    # 1 2 3 4 5 5 7 7 9 11 13 14 15 17 -> 0+0+1+1+1+1+2+2+3+3+4+4+5+5 = 32.
    assert d.stay == 3 + F(32, 30) == F(61, 15)
    assert d.gain == 5 - F(61, 15) == F(14, 15)
    assert ana.choices == F(14, 15)
    # Luck: the first card gave 3 each; on average the first of 31 cards gives
    # floor(v / 3) over the 15 treasures (32 + 3 for T11A = 35) / 31.
    assert ana.luck == 3 - F(35, 31) == F(58, 31)
    assert ana.total == 5 and ana.expected == 5 - F(58, 31)


def test_bo_staying_twice_and_busting() -> None:
    bo = review(Session.replay(GAME)).seats[1]
    first, second = bo.decisions
    # 1. Ana leaves (as she did): Bo and Cy share the next treasure. floor(v / 2) of the
    #    14 treasures left: 0+1+1+2+2+2+3+3+4+5+6+7+7+8 = 51, over 30 cards.
    assert not first.left and first.stay == 3 + F(51, 30) == F(47, 10)
    #    Leaving with Ana: the 2 left on the path split between two: 3 + 1.
    assert first.leave == 4 and first.gain == F(7, 10)
    #    What came: SNAKE1, the hand stays 3.
    assert first.outcome == 3
    # 2. After SNAKE1: 29 cards, 2 more snakes: bust 2/29; staying keeps 3 with 27/29
    #    and a treasure adds floor(v / 2): 51/29.
    assert second.stay == 3 * F(27, 29) + F(51, 29) == F(132, 29)
    assert second.leave == 3 and second.gain == F(45, 29)
    assert second.outcome == 0  # SNAKE2
    assert bo.choices == F(7, 10) + F(45, 29)
    assert bo.luck == (3 - F(35, 31)) + (3 - F(47, 10)) + (0 - F(132, 29))
    assert bo.total == 0 and bo.expected == -bo.luck


def test_a_stay_before_its_next_card_has_no_outcome_yet() -> None:
    # The game stops after everyone chose to go on: the decision counts in choices,
    # its luck is not known yet; the total is the hand still in the temple.
    bo = review(Session.replay(GAME[:3])).seats[1]  # Bo stayed; no card after it yet
    (d,) = bo.decisions
    assert d.outcome is None and bo.total == 3
    assert bo.luck == 3 - F(35, 31) and bo.choices == F(7, 10)


def test_choices_and_luck_add_up_on_every_example() -> None:
    from incan_companion.commands.game import load_session

    for log in sorted(EXAMPLES.glob("*.jsonl")):
        session = load_session(log)
        for seat in review(session).seats:
            assert seat.expected + seat.luck == seat.total
            assert seat.choices == sum((d.gain for d in seat.decisions), F(0))


def test_review_json_is_exact_and_the_same_each_run(capsys: pytest.CaptureFixture[str]) -> None:
    log = EXAMPLES / "game.jsonl"
    assert main(["review", str(log), "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["review", str(log), "--json"]) == 0
    assert capsys.readouterr().out == first
    doc = json.loads(first)
    ana = doc["seats"][0]
    # T11A with four seats: staying gives 2 + 22/30 (floor(v / 4) of the 14 left sum to 22);
    # leaving alone gives 2 + 3 left on the card.
    assert ana["decisions"][0] == {
        "round": 1, "cards": 1, "choice": "torch", "stay": "41/15", "leave": "5",
        "gain": "-34/15", "outcome": "2",
    }  # fmt: skip
    assert ana["total"] == 13 and F(ana["expected"]) + F(ana["luck"]) == 13


def test_review_of_a_hand_made_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.events import to_line

    log = tmp_path / "g.jsonl"
    log.write_text("".join(to_line(e) + "\n" for e in GAME), encoding="utf-8")
    assert main(["review", str(log), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [s["choices"] for s in doc["seats"]] == ["14/15", "653/290", "653/290"]
    assert doc["seats"][0]["luck"] == "58/31"


def test_review_bad_input_is_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"event": "start", "seats": ["A", "B", "C"], "deck": "box"}\n')
    run = subprocess.run(
        [sys.executable, "-m", "incan_companion.cli", "review", str(bad)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr == (
        'incan-companion: line 1: unknown deck "box" (one of incan-gold, 14-treasures)\n'
    )


def test_review_text_says_each_seat(capsys: pytest.CaptureFixture[str]) -> None:
    from ui import i18n

    i18n.set_language("en")
    assert main(["review", str(EXAMPLES / "game.jsonl")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "Ana: 13 · expected 9.9 · choices \u22120.9 · luck +3.1"
    assert out[1] == "  round 1, card 1: torch; staying 2.7, leaving 5.0 (\u22122.3)"


def test_review_of_a_game_of_the_data_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from storage import Store

    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        game = store.new_game(Start(NAMES[:3]))
        for event in GAME[1:]:
            store.append(game, event)
        store.new_game(Start(("X", "Y", "Z"), bots=((2, "greedy"),)))
    assert main(["review", str(path), "--game", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [s["choices"] for s in doc["seats"]] == ["14/15", "653/290", "653/290"]
    assert main(["review", str(path), "--json"]) == 0  # the latest: no decision yet
    doc = json.loads(capsys.readouterr().out)
    assert [s["bot"] for s in doc["seats"]] == [None, None, "greedy"]
    assert all(s["decisions"] == [] for s in doc["seats"])
    assert main(["review", str(path), "--game", "3"]) == 2
    assert capsys.readouterr().err == f"incan-companion: there is no game 3 in {path}\n"
