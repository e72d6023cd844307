"""The post-game review: decisions worked out by hand, the sums, the command."""

from __future__ import annotations

import json
import math
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


def _default_leave_chance(bust: float, hand: int, gain: float, take: float) -> float:
    """The default model by hand (docs/review.md): weights -3.6, 6, 0.8, -0.8, 0.1, 0.5
    on 1, bust, bust x hand, gain, take, hand / 10."""
    z = -3.6 + 6 * bust + 0.8 * bust * hand - 0.8 * gain + 0.1 * take + 0.5 * hand / 10
    return 1 / (1 + math.exp(-z))


def test_ana_leaving_after_the_first_card_was_the_mistake() -> None:
    r = review(Session.replay(GAME))
    assert (r.model.name, r.model.decisions, r.model.games) == ("default", 5, 1)
    ana = r.seats[0]
    (d,) = ana.decisions
    # Leaving: her hand 3 and the 2 left on T11A if she leaves alone (5), 3 + 1 with one
    # other (4), 3 + 0 with both (3). Each of Bo and Cy leaves by the default model:
    # no hazard, hand 3, the next card's share floor(v / 3) of the 14 treasures left,
    # 32 over 30 cards, 2 gems on the path for 3 seats: q = 0.0142.
    q = _default_leave_chance(0, 3, 32 / 30, 2 / 3)
    assert round(q, 4) == 0.0142
    leave = 5 * (1 - q) ** 2 + 4 * 2 * q * (1 - q) + 3 * q * q  # = 5 - 2q
    assert d.left and d.leave == F(round(leave * 1000), 1000) == F(1243, 250)
    assert d.outcome == 5  # Bo and Cy stayed: she took both gems
    # Staying: the round played on. The two references: 10.81 if the others never
    # leave and she stops at the best moment, 7.54 +- 0.17 if they play greedy.
    assert 7.54 < d.stay < 10.81
    assert d.stay - d.leave > d.uncertainty and d.mistake
    assert ana.choices == d.leave - d.stay
    # Luck: the first card gave 3 each, on average the first of 31 cards gives floor(v / 3)
    # over the 15 treasures (32 + 3 for T11A = 35) / 31; and the others staying gave her
    # the 2 gems where she could expect 5 - 2q.
    assert ana.luck == 3 - F(35, 31) + 5 - d.leave
    assert ana.total == 5 and ana.expected == 5 - ana.luck


def test_bo_staying_twice_and_busting() -> None:
    bo = review(Session.replay(GAME)).seats[1]
    first, second = bo.decisions
    # 1. The same leave as Ana's (the same hand, path and seats in); he stayed, SNAKE1 came.
    assert not first.left and first.leave == F(1243, 250) and first.outcome == 3
    assert first.stay > first.leave + first.uncertainty and not first.mistake
    # 2. After SNAKE1 only Bo and Cy are in: leaving alone takes 3 (nothing is left on
    #    the path: Ana took it), with Cy 3 as well.
    assert second.leave == 3 and second.outcome == 0  # SNAKE2
    assert not second.mistake
    # Luck: the first card's, then what came after each stay: the value of his next
    # choice minus the stay's, then 0 (the bust) minus the second stay's: the stays'
    # values cancel but the first.
    assert bo.luck == (3 - F(35, 31)) + (second.stay - first.stay) + (0 - second.stay)
    assert bo.total == 0 and bo.expected == -bo.luck
    assert bo.choices == first.gain + second.gain


def test_a_table_where_nobody_busts_rates_no_stay_as_a_mistake() -> None:
    # Four seats: T17, T15, T11A, T7A with everyone going on, then T3 and everyone leaves.
    # With no hazard on the path a seat that stays can still leave at the next reveal.
    game: list[Event] = [Start(NAMES[:4])]
    for card in ("T17", "T15", "T11A", "T7A"):
        game += [Draw(card), Reveal(())]
    game += [Draw("T3"), Reveal((0, 1, 2, 3))]
    r = review(Session.replay(game))
    for seat in r.seats:
        stays = [d for d in seat.decisions if not d.left]
        assert len(stays) == 4 and not any(d.mistake for d in stays), seat.name
        assert seat.total == 13  # 4 + 3 + 2 + 1 + 0 in hand, 3 of the 12 left on the path
        assert seat.expected + seat.luck == seat.total


def test_a_stay_when_every_card_left_busts_is_worth_nothing_exactly() -> None:
    # Round 5, three seats: every treasure, A1 to A5 and one hazard of each kind turned
    # (the four rounds before ended at once: everyone left after T1). The 10 cards left
    # are the other two of each kind: the next card busts for sure, staying is worth 0
    # with no uncertainty; leaving takes the hand and a share of the path.
    game: list[Event] = [Start(NAMES[:3])]
    for _ in range(4):
        game += [Draw("T1"), Reveal((0, 1, 2))]
    session = Session.replay(game)
    cards = [c for c in session.state.possible_draws() if "1" in c or not c[-1].isdigit()]
    path = [c for c in session.state.possible_draws() if not c.startswith(
        ("SNAKE", "SPIDER", "MUMMY", "FIRE", "ROCKS"))] + [
        "SNAKE1", "SPIDER1", "MUMMY1", "FIRE1", "ROCKS1"]  # fmt: skip
    del cards
    for card in path:
        session.apply(Draw(card))
        session.apply(Reveal(()))
    session.apply(Draw("SNAKE2"))
    assert session.state.phase.value == "game_over"
    last = [s.decisions[-1] for s in review(session).seats]
    for d in last:
        assert (d.stay, d.uncertainty, d.outcome) == (0, 0, 0)
        assert d.leave > 0 and d.mistake


def test_the_three_largest_swings_come_first() -> None:
    from incan_companion.commands.game import load_session

    seat = review(load_session(EXAMPLES / "game.jsonl")).seats[0]
    gaps = sorted((abs(d.gain) for d in seat.decisions), reverse=True)
    assert [abs(d.gain) for d in seat.swings] == gaps[:3]


def test_the_model_is_fitted_to_the_players_stored_games() -> None:
    from companion.review import MIN_FITTED, fit_model
    from companion.rollout import DEFAULT_MODEL, Situation

    # 12 stored games: after the first card (T11A, 3 each) Ana always leaves, Bo and Cy
    # go on until SNAKE1 and SNAKE2 bust them.
    history = [Session.replay(GAME) for _ in range(12)]
    model, info = fit_model(history[0], history[1:])
    assert (info.name, info.decisions, info.games) == ("fitted", 60, 12)
    assert info.decisions >= MIN_FITTED
    s = Situation(bust=0.0, hand=3, gain=32 / 30, take=2 / 3, seats_in=3)
    assert model.chance(0, s) > 0.5 > DEFAULT_MODEL.chance(0, s)  # Ana leaves early
    assert model.chance(1, s) < 0.1  # Bo does not (his own fit, from the table's)
    # One game is too few: the default, and it says how many choices it had.
    assert fit_model(history[0])[1] == type(info)("default", 5, 1)


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
    assert doc["model"] == {"name": "default", "decisions": 25, "games": 1, "rollouts": 300}
    ana = doc["seats"][0]
    d = ana["decisions"][0]
    assert set(d) == {"round", "cards", "choice", "stay", "leave", "gain", "outcome",
                      "uncertainty", "mistake"}  # fmt: skip
    assert (d["round"], d["cards"], d["choice"], d["outcome"]) == (1, 1, "torch", "2")
    assert F(d["gain"]) == F(d["stay"]) - F(d["leave"])
    assert d["mistake"] is (-F(d["gain"]) > F(d["uncertainty"]))
    assert len(ana["swings"]) == 3
    assert ana["total"] == 13 and F(ana["expected"]) + F(ana["luck"]) == 13


def test_review_of_a_hand_made_log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.events import to_line

    log = tmp_path / "g.jsonl"
    log.write_text("".join(to_line(e) + "\n" for e in GAME), encoding="utf-8")
    assert main(["review", str(log), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    expected = review(Session.replay(GAME))
    assert [s["choices"] for s in doc["seats"]] == [str(s.choices) for s in expected.seats]
    assert doc["seats"][0]["decisions"][0]["mistake"] is True


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
    assert out[0] == (
        "Model of the other seats: the default (25 choices of these players, too few to fit)"
    )
    assert out[1].startswith("Ana: 13 · expected ")
    assert out[2] == "  Largest swings:"
    assert out[3].startswith("    round ") and " ± " in out[3]
    assert out[6] == "  Every decision:"
    assert out[7].startswith("    round 1, card 1: torch; staying ")


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
    # The stored games of these players: game 1 (Ana, Bo, Cy) only, 5 choices.
    assert doc["model"] == {"name": "default", "decisions": 5, "games": 1, "rollouts": 300}
    expected = review(Session.replay(GAME))
    assert [s["choices"] for s in doc["seats"]] == [str(s.choices) for s in expected.seats]
    assert main(["review", str(path), "--json"]) == 0  # the latest: no decision yet
    doc = json.loads(capsys.readouterr().out)
    assert [s["bot"] for s in doc["seats"]] == [None, None, "greedy"]
    assert all(s["decisions"] == [] for s in doc["seats"])
    assert main(["review", str(path), "--game", "3"]) == 2
    assert capsys.readouterr().err == f"incan-companion: there is no game 3 in {path}\n"
