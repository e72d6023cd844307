"""The data file's players, game summaries and deletions (schema 2), and old files."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers import play
from test_stats import GAME_1, GAME_2

from companion.events import Correct, Draw, Event, Reveal, Start, Undo
from companion.games import HIDDEN_TENTS, Games
from companion.ports import EventStore, MergeRefusedError, NameTakenError, NoSuchGameError
from companion.session import Session
from companion.stats import summarize
from storage import APPLICATION_ID, SCHEMA_VERSION, Store

# The schema the first version wrote (user_version 1), as it was.
V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE games (id INTEGER PRIMARY KEY, created TEXT NOT NULL);
CREATE TABLE events (
    game INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
"""


def old_file(path: Path, *logs: list[str]) -> None:
    db = sqlite3.connect(path)
    db.executescript(V1)
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("PRAGMA user_version=1")
    db.execute("INSERT INTO meta VALUES ('app', 'incan-companion')")
    for game, lines in enumerate(logs, start=1):
        db.execute("INSERT INTO games VALUES (?, ?)", (game, f"2026-01-0{game}T10:00:00.000+00:00"))
        for seq, line in enumerate(lines):
            db.execute("INSERT INTO events VALUES (?, ?, ?, 'x')", (game, seq, line))
    db.commit()
    db.close()


def lines(*events: Event) -> list[str]:
    from companion.events import to_line

    return [to_line(e) for e in events]


def stored(store: EventStore, start: Start, steps: tuple[str | list[int], ...]) -> int:
    game = store.new_game(start)
    store.link_players(game, start.seats)
    for step in steps:
        store.append(game, Reveal(tuple(step)) if isinstance(step, list) else Draw(step))
    return game


def test_an_old_file_opens_links_its_players_and_replays_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    g1 = lines(*play(3, "incan-gold", *GAME_1).log)
    g2 = lines(Start(("Ana", "Zofia", "Bo", "Cy")), Draw("T9"))
    old_file(path, g1, g2)
    with Store(path, readonly=True) as old:  # a reader never migrates
        assert old.players() == []
        assert old.unfinished() == 2
        assert [p.summary.seats[1].score for p in old.history()] == [0, 25]
    with Store(path) as store:
        # Last seated when their latest game was made; newest player first within it.
        assert [(p.name, p.last_used[:10]) for p in store.players()] == [
            ("Zofia", "2026-01-02"), ("Cy", "2026-01-02"), ("Bo", "2026-01-02"),
            ("Ana", "2026-01-02"),
        ]  # fmt: skip
        assert store.events(1) == list(play(3, "incan-gold", *GAME_1).log)
        assert store.seat_players(2) == ("Ana", "Zofia", "Bo", "Cy")
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert [r[0] for r in db.execute("SELECT line FROM events WHERE game = 1 ORDER BY seq")] == g1
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_players_come_most_recent_first_with_distinct_colours(tmp_path: Path) -> None:
    times = iter(datetime(2026, 11, 23, 10, 0, i, tzinfo=UTC) for i in range(10))
    with Store(tmp_path / "g.sqlite", clock=lambda: next(times)) as store:
        stored(store, Start(("Ana", "Bo", "Cy")), ())
        stored(store, Start(("Dee", "Bo", "Eli")), ())
        # The latest table first (newest player first within it), then the one before.
        assert [p.name for p in store.players()] == ["Eli", "Dee", "Bo", "Cy", "Ana"]
        assert len({p.colour for p in store.players()}) == 5


def test_a_rename_shows_in_old_games_while_the_log_keeps_the_name_played(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite") as store:
        game = stored(store, Start(("Ana", "Bo", "Cy")), GAME_1)
        ana = next(p for p in store.players() if p.name == "Ana")
        store.rename_player(ana.id, "Anna")
        assert store.history()[0].players == ("Anna", "Bo", "Cy")
        assert store.events(game)[0] == Start(("Ana", "Bo", "Cy"))
        bo = next(p for p in store.players() if p.name == "Bo")
        with pytest.raises(NameTakenError):
            store.rename_player(bo.id, "Anna")


def test_a_merge_joins_two_spellings_and_refuses_two_people_of_one_table(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite") as store:
        stored(store, Start(("Ana", "Bo", "Cy")), GAME_1)
        stored(store, Start(("Anna", "Bo", "Cy")), GAME_2)
        by_name = {p.name: p.id for p in store.players()}
        with pytest.raises(MergeRefusedError):
            store.merge_players(by_name["Ana"], by_name["Bo"])
        store.merge_players(by_name["Ana"], by_name["Anna"])
        assert sorted(p.name for p in store.players()) == ["Ana", "Bo", "Cy"]
        assert [p.players for p in store.history()] == [("Ana", "Bo", "Cy")] * 2


def test_unfinished_does_not_replay_finished_games_once_summarized(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.sqlite"
    with Store(path) as store:
        for _ in range(3):
            stored(store, Start(("Ana", "Bo", "Cy")), GAME_1)
        current = stored(store, Start(("Ana", "Bo", "Cy")), ("T9",))
        stored(store, Start(("Ana", "Bo", "Cy")), GAME_2)
    replays: list[int] = []
    real = Session.replay

    def counted(events: list[Event]) -> Session:
        replays.append(len(events))
        return real(events)

    monkeypatch.setattr(Session, "replay", counted)
    with Store(path) as store:
        assert store.unfinished() == current
        assert len(replays) == 2  # the newest game, then the unfinished one: summaries kept
    with Store(path) as store:
        assert store.unfinished() == current
        store.append(current, Reveal((0, 1, 2)))
        assert store.unfinished() == current
    assert len(replays) == 3  # only the game that grew, its summary made from fewer events


def test_the_summary_cache_equals_a_fresh_replay_after_undo_correct_resume_delete(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.sqlite"

    def fresh(store: Store) -> list[tuple[int, object, tuple[str, ...]]]:
        return [
            (g.game, summarize(Session.replay(store.events(g.game))), g.players)
            for g in store.history()
        ]

    def cached(store: Store) -> list[tuple[int, object, tuple[str, ...]]]:
        return [(g.game, g.summary, g.players) for g in store.history()]

    with Store(path) as store:
        games = Games(store)
        table = games.new_game(Start(("Ana", "Bo", "Cy")))
        first = table.game
        for step in GAME_1[:10]:
            store.append(first, Reveal(tuple(step)) if isinstance(step, list) else Draw(step))
        assert cached(store) == fresh(store)
        store.append(first, Undo())
        assert cached(store) == fresh(store)
        store.append(first, Correct(0, "T14"))
        assert cached(store) == fresh(store)
        second = stored(store, Start(("Ana", "Bo", "Dee")), GAME_2)
        assert cached(store) == fresh(store)
        games.leave()
    with Store(path) as store:  # resumed after a restart
        games = Games(store)
        assert games.unfinished() == first
        games.resume(first)
        store.append(first, Draw("SPIDER1"))
        assert cached(store) == fresh(store)
        store.delete_game(second)
        assert [g for g, _, _ in cached(store)] == [first]
        assert cached(store) == fresh(store)
        # A new game takes the deleted number: nothing of the old one is left beside it.
        third = stored(store, Start(("Eli", "Fay", "Gus")), ("T3",))
        assert third == second
        assert cached(store) == fresh(store)
        assert store.option(third, HIDDEN_TENTS) is None


def test_deleting_a_game_removes_its_events_links_options_and_summary(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite"
    with Store(path) as store:
        keep = stored(store, Start(("Ana", "Bo", "Cy")), GAME_1)
        gone = stored(store, Start(("Ana", "Bo", "Dee")), GAME_2)
        store.set_option(gone, HIDDEN_TENTS, "1")
        store.history()
        store.delete_game(gone)
        with pytest.raises(NoSuchGameError):
            store.delete_game(gone)
        with pytest.raises(NoSuchGameError):
            store.events(gone)
    db = sqlite3.connect(path)
    for table in ("events", "seats", "summaries"):
        count = f"SELECT COUNT(*) FROM {table} WHERE game = ?"
        assert db.execute(count, (gone,)).fetchone() == (0,)
        assert db.execute(count, (keep,)).fetchone()[0] > 0
    assert db.execute("SELECT COUNT(*) FROM meta WHERE key LIKE 'game.%'").fetchone() == (0,)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_history_reads_a_page_of_games_newest_first(tmp_path: Path) -> None:
    with Store(tmp_path / "g.sqlite") as store:
        made = [stored(store, Start((f"A{i}", "Bo", "Cy")), ("T9",)) for i in range(5)]
        page = store.history(1, 2)
        assert [g.game for g in page] == [made[3], made[2]]
        assert [g.players[0] for g in page] == ["A3", "A2"]
        assert [g.game for g in store.history(4, 3)] == [made[0]]
        assert store.history(5, 3) == []
        assert store.game_count() == 5


@pytest.mark.parametrize("readonly", [False, True])
def test_the_page_cache_stays_small_however_large_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, readonly: bool
) -> None:
    """SQLite's default cache (2 MB a connection) filled over months of play and
    showed as the app's memory growing: every connection keeps 512 KiB."""
    from helpers import sqlite_connections

    from storage.store import CACHE_KIB

    data = tmp_path / "games.sqlite"
    with Store(data) as store:
        store.new_game(Start(("Ana", "Bo", "Cy"), "incan-gold"))
    opened = sqlite_connections(monkeypatch)
    with Store(data, readonly=readonly):
        (db,) = opened
        assert CACHE_KIB == 512
        assert db.execute("PRAGMA cache_size").fetchone()[0] == -512  # KiB, as negative
