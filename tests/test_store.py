"""The SQLite data file: durable appends, several games, foreign and damaged files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from helpers import sqlite_connections

from companion.events import Draw, Reveal, Start, Undo
from companion.notices import DataFileSetAside
from companion.ports import NoSuchGameError
from storage import (
    APPLICATION_ID,
    DamagedFile,
    NotOurFile,
    Store,
    StoreError,
    open_or_set_aside,
)
from ui.kivyfree.notice_words import notice_text

START = Start(("Ana", "Bo", "Cy"), "diamant")


def test_a_game_is_stored_event_by_event(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        game = store.new_game(START)
        for event in (Draw("T9"), Reveal((0,)), Draw("T3"), Undo()):
            store.append(game, event)
    with Store(path, readonly=True) as store:
        assert store.events(game) == [START, Draw("T9"), Reveal((0,)), Draw("T3"), Undo()]
        state = store.session(game).state
        assert [s.banked for s in state.seats] == [3, 0, 0]


def test_a_games_table_options_are_kept_apart_from_its_log(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        first, second = store.new_game(START), store.new_game(START)
        store.set_option(first, "hidden_tents", "1")
        store.set_option(first, "hidden_tents", "0")
        store.set_option(second, "hidden_tents", "1")
    with Store(path, readonly=True) as store:
        assert store.option(first, "hidden_tents") == "0"
        assert store.option(second, "hidden_tents") == "1"
        assert store.option(second, "other") is None
        assert store.events(second) == [START]  # the game log is untouched


def test_durability_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    opened = sqlite_connections(monkeypatch)
    with Store(tmp_path / "g.sqlite"):
        (db,) = opened  # the store's own connection: synchronous is set per connection
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_several_games_latest_and_unfinished(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        first = store.new_game(START)
        for _ in range(5):
            store.append(first, Draw("T9"))
            store.append(first, Reveal((0, 1, 2)))
        second = store.new_game(START)
        store.append(second, Draw("T1"))
        assert [g.id for g in store.games()] == [first, second]
        assert store.latest() == second
        assert store.unfinished() == second
        assert store.session(first).state.phase.value == "game_over"
        with pytest.raises(NoSuchGameError):
            store.events(99)
        with pytest.raises(NoSuchGameError):
            store.append(99, Draw("T1"))


def test_an_empty_file_has_no_game(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite") as store:
        with pytest.raises(NoSuchGameError):
            store.latest()
        assert store.unfinished() is None


def test_a_text_file_is_not_ours_and_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("shopping list\n")
    with pytest.raises(NotOurFile, match="not an incan-companion data file"):
        Store(path)
    assert path.read_text() == "shopping list\n"


def test_another_programs_sqlite_is_not_ours(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE x (y)")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(NotOurFile, match="another program"):
        Store(path)
    assert path.read_bytes() == before


def damage(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(4096, min(len(data), 8192)):
        data[i] = 0x5A
    path.write_bytes(bytes(data))


def stored_game(path: Path, draws: int = 40) -> None:
    with Store(path) as store:
        game = store.new_game(START)
        for i in range(draws):
            store.append(game, Draw("T9") if i % 2 == 0 else Reveal(()))
        db = sqlite3.connect(path)
        try:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            db.close()


def test_a_damaged_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    stored_game(path)
    damage(path)
    with pytest.raises(StoreError), Store(path, readonly=True) as store:
        store.session(store.latest())


def test_open_or_set_aside_keeps_the_bad_file_and_starts_anew(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_text("not a database")
    store, reason = open_or_set_aside(path)
    with store:
        assert isinstance(reason, DataFileSetAside)
        assert reason.aside.startswith("games.sqlite.bad-")
        assert "set aside as games.sqlite.bad-" in notice_text(reason)
        store.new_game(START)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("games.sqlite.bad-")]
    assert len(aside) == 1
    assert aside[0].name == reason.aside
    assert aside[0].read_text() == "not a database"


def test_open_or_set_aside_on_a_good_file_says_nothing(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    stored_game(path, 4)
    store, reason = open_or_set_aside(path)
    with store:
        assert reason is None
        assert len(store.events(store.latest())) == 5


def test_damaged_page_is_detected_on_open(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    stored_game(path, 400)
    damage(path)
    with pytest.raises((DamagedFile, NotOurFile)), Store(path) as store:
        for game in store.games():
            store.session(game.id)
