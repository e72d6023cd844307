"""``stats`` and ``export --all``: exact figures, a spreadsheet's table, clear refusals."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from test_history_store import stored
from test_stats import GAME_1, GAME_2

from companion.events import Draw, Start, from_json
from companion.session import Session
from incan_companion import cli
from storage import Store


@pytest.fixture
def data(tmp_path: Path) -> Path:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        stored(store, Start(("Ana", "Bo", "Cy")), GAME_1)
        stored(store, Start(("Anna", "Bo", "Cy")), GAME_2)
        stored(store, Start(("Ana", "Bo", "Dee")), ("T9",))  # unfinished
        by_name = {p.name: p.id for p in store.players()}
        store.merge_players(by_name["Ana"], by_name["Anna"])
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_stats_json_has_every_figure(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "stats", str(data), "--json")
    assert (code, err) == (0, "")
    said = json.loads(out)
    assert (said["games"], said["unfinished"]) == (2, 1)
    ana = said["players"][0]
    assert ana == {
        "name": "Ana", "games": 2, "wins": 1, "win_rate": 0.5, "mean_score": 21.0,
        "best_score": 22, "busts": 1, "rounds": 10, "bust_rate": 0.1, "banked": 42,
        "banked_per_round": 4.2, "artifacts": 0,
        "head_to_head": [
            {"other": "Bo", "games": 2, "ahead": 1, "behind": 1, "level": 0},
            {"other": "Cy", "games": 2, "ahead": 2, "behind": 0, "level": 0},
        ],
    }  # fmt: skip
    assert [p["name"] for p in said["players"]] == ["Ana", "Bo", "Cy"]
    assert [(g["players"], g["games"]) for g in said["groups"]] == [(["Ana", "Bo", "Cy"], 2)]


def test_stats_csv_opens_as_a_table(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", str(data), "--csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out, newline="")))
    assert rows[0][:4] == ["name", "games", "wins", "win_rate"]
    assert rows[1:] == [
        ["Ana", "2", "1", "0.5", "21.0", "22", "1", "10", "0.1", "42", "4.2", "0"],
        ["Bo", "2", "1", "0.5", "20.5", "25", "2", "10", "0.2", "36", "3.6", "1"],
        ["Cy", "2", "0", "0.0", "15.0", "16", "2", "10", "0.2", "30", "3.0", "0"],
    ]
    assert out.endswith("\r\n")


def test_stats_readable_and_for_one_player(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats", str(data), "--player", "Bo")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "2 finished games · 1 unfinished"
    assert lines[2].split() == ["Bo", "2", "1", "50%", "20.5", "25", "20%", "3.6", "1"]
    assert "  Ana: 1 ahead, 1 behind, 0 level" in lines
    assert "  Cy: 1 ahead, 0 behind, 1 level" in lines


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--player", "Zed"], "no finished game of a player named 'Zed'"),
        (["--json", "--csv"], "not allowed with argument"),
    ],
)
def test_stats_refuses_bad_input_in_one_line(
    data: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    before = data.read_bytes()
    code, out, err = run(capsys, "stats", str(data), *args)
    assert (code, out) == (2, "")
    assert err.startswith("incan-companion: ") and said in err and err.count("\n") == 1
    assert data.read_bytes() == before


def test_stats_of_what_is_no_data_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "log.jsonl").write_text('{"event": "start", "seats": ["A", "B", "C"]}\n')
    (tmp_path / "damaged.sqlite").write_bytes(b"SQLite format 3\x00" + b"\xff" * 2000)
    for name, said in (
        ("missing.sqlite", "no such file"),
        ("log.jsonl", "is not an incan-companion data file (not SQLite)"),
        ("damaged.sqlite", ""),
    ):
        code, out, err = run(capsys, "stats", str(tmp_path / name))
        assert (code, out) == (2, ""), name
        assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_export_all_writes_every_game_as_its_log_one_after_the_other(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "export", str(data), "--all")
    assert code == 0
    games: list[list[dict[str, Any]]] = []
    for line in out.splitlines():
        event = json.loads(line)
        if event["event"] == "start":  # each game begins with its start line
            games.append([])
        games[-1].append(event)
    assert len(games) == 3
    # The log keeps the name as played.
    assert games[1][0] == {"event": "start", "seats": ["Anna", "Bo", "Cy"],
                           "rules": "incan-gold"}  # fmt: skip
    assert len(games[0]) == 1 + len(GAME_1)
    assert games[2][1:] == [{"event": "draw", "card": "T9"}]
    # Each game, cut out of the whole, is a log that replays.
    for game in games:
        Session.replay(from_json(e) for e in game)


def test_stats_speaks_the_configured_language_and_its_data_never(
    data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    from ui.kivyfree import i18n

    config = tmp_path / "config.toml"
    config.write_text('[game]\nlanguage = "pl"\n', encoding="utf-8")
    monkeypatch.setenv("INCAN_CONFIG", str(config))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    try:
        code, out, _ = run(capsys, "stats", str(data))
        assert code == 0
        lines = out.splitlines()
        assert lines[0] == "2 ukończone gry · 1 niedokończona"
        assert lines[1].split()[:3] == ["gracz", "gry", "wygrane"]
        assert lines[2].split() == ["Ana", "2", "1", "50%", "21.0", "22", "10%", "4.2", "0"]
        # Every row as wide in a terminal as the headings.
        assert len({i18n.text_width(line) for line in lines[1:5]}) == 1
        # The data formats never read the configured language: the one in use
        # stays as it was.
        for args in (["--json"], ["--csv"]):
            i18n.set_language("ja")
            code, out, _ = run(capsys, "stats", str(data), *args)
            assert code == 0 and "win_rate" in out
            assert i18n.language() == "ja"
    finally:
        i18n.set_language("en")


def test_stats_names_a_player_typed_decomposed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        stored(store, Start(("Zoë", "Bo", "Cy")), GAME_1)
    code, out, err = run(capsys, "stats", str(path), "--player", "Zoe\u0308", "--csv")
    assert (code, err) == (0, "")
    assert [row[:3] for row in csv.reader(io.StringIO(out, newline=""))] == [
        ["name", "games", "wins"], ["Zoë", "1", "0"],
    ]  # fmt: skip


def test_stats_leaves_out_a_game_altered_in_place_as_replay_does(
    data: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    """The kept summary still matches the count of events; the chain does not."""
    assert run(capsys, "stats", str(data), "--json")[0] == 0  # summaries kept
    with sqlite3.connect(data) as db:
        db.execute("UPDATE events SET line = replace(line, '\"camp\": [0]', '\"camp\": [1]') "
                   "WHERE game = 1 AND seq = (SELECT MIN(seq) FROM events WHERE game = 1 "
                   "AND line LIKE '%\"camp\": [0]%')")  # fmt: skip
        assert db.total_changes == 1
    db.close()
    code, out, err = run(capsys, "replay", str(data), "--game", "1")
    assert code == 2 and "is not the one stored (altered or moved)" in err
    code, out, err = run(capsys, "stats", str(data), "--json")
    assert code == 0
    said = json.loads(out)
    assert (said["games"], said["unfinished"]) == (1, 1)  # game 2 and the unfinished one
    assert said["players"][0]["games"] == 1
    assert [r.getMessage().partition(": ")[2] for r in caplog.records] == [
        "game 1: event 2 is not the one stored (altered or moved): the game is left out"
    ]


def test_a_store_checks_a_games_chain_again_once_its_count_of_events_changes(
    data: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Checked once per count of events (the statistics screen opens again and
    again); a game that changed is checked again."""
    with Store(data) as store:
        assert [g.game for g in store.history()] == [3, 2, 1]
        assert store._proven == {3: 2, 2: 14, 1: 23}  # each game and its count of events
        with sqlite3.connect(data) as db:  # game 3's first card altered, then one more
            db.execute("UPDATE events SET line = replace(line, 'T9', 'T8') "
                       "WHERE game = 3 AND seq = 1")  # fmt: skip
        db.close()
        store.append(3, Draw("T1"))
        assert [g.game for g in store.history()] == [2, 1]
    assert "game 3: event 1 is not the one stored" in caplog.text
