"""A player's name is shown, never obeyed: no forged rows, no spreadsheet
formulas, one spelling per person, and no name made of nothing visible."""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from pathlib import Path

import pytest
from test_history_store import stored
from test_stats import GAME_1

from companion import engine
from companion.engine import BadStart
from companion.events import Start, from_json, to_json
from companion.session import Session
from incan_companion import cli
from storage import Store

FORGER = "Ana\nFAKE: 999 wins"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def forged(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        stored(store, Start((FORGER, "=1+1", "-Bo")), GAME_1)
    return path


def test_a_line_feed_in_a_name_starts_no_row_of_its_own(
    forged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for command in ("replay", "review", "stats"):
        code, out, err = run(capsys, command, str(forged))
        assert (code, err) == (0, ""), command
        lines = out.splitlines()
        assert not any(line.startswith("FAKE") for line in lines), (command, out)
        assert any("Ana\\x0aFAKE: 999 wins" in line for line in lines), (command, out)


def test_the_json_keeps_the_name_as_it_was_played(
    forged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "replay", str(forged), "--json")
    assert code == 0
    assert json.loads(out)["seats"][0]["name"] == FORGER


def test_stats_csv_holds_no_formula(forged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", str(forged), "--csv")
    assert code == 0
    names = [row["name"] for row in csv.DictReader(io.StringIO(out))]
    assert sorted(names) == sorted(["'=1+1", "'-Bo", FORGER])
    # Numbers stay numbers: a negative score would be no formula.
    rows = list(csv.DictReader(io.StringIO(out)))
    assert all(row["games"] == "1" for row in rows)


@pytest.mark.parametrize("name", ["\u200b", " ", "\u200b \u2060", "\t"])
def test_a_name_with_nothing_visible_names_nobody(name: str) -> None:
    with pytest.raises(BadStart, match="seat 1 has no name"):
        engine.new_game(["Ana", name, "Cy"])


def test_one_spelling_per_name() -> None:
    composed, decomposed = "Zo\u00eb", "Zoe\u0308"
    assert composed != decomposed
    start = Start((decomposed, "Bo", "Cy"))
    assert start.seats[0] == composed
    assert to_json(from_json({"event": "start", "seats": [decomposed, "Bo", "Cy"]}))["seats"] == [
        composed, "Bo", "Cy"
    ]  # fmt: skip
    with pytest.raises(BadStart, match="two seats are named"):
        engine.new_game([composed, decomposed, "Cy"])
    session = Session.start(Start((decomposed, "Bo", "Cy")))
    assert unicodedata.is_normalized("NFC", session.state.seats[0].name)
