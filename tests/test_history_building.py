"""The games' summaries made once, off the UI thread, after a migration; and kept by
``stats`` when it may write (issue 27, item 11). Real SQLite files, a real offscreen
window, the real thread."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from helpers import paced  # noqa: E402
from ui_helpers import frames  # noqa: E402

from companion.events import Draw, Start  # noqa: E402
from companion.games import Games  # noqa: E402
from companion.session import Session  # noqa: E402
from companion.simulate import random_events  # noqa: E402
from companion.stats import summarize  # noqa: E402
from incan_companion.cli import main  # noqa: E402
from incan_companion.commands import app as app_command  # noqa: E402
from incan_companion.commands.history import stored_games  # noqa: E402
from storage import Store  # noqa: E402
from storage.history import make_summaries  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FINISHED = 5  # whole games, then one left after its first card


def kept(path: Path) -> dict[int, int]:
    """The kept summaries: game -> the events each was made from."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return dict(db.execute("SELECT game, events FROM summaries").fetchall())
    finally:
        db.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Games stored event by event, as the app stores them: no summary kept (as
    after a migration, or a file built by another program)."""
    path = tmp_path_factory.mktemp("built") / "games.sqlite"
    rng = random.Random(27)
    with Store(path) as store:
        for _ in range(FINISHED):
            game = -1
            for event, _session in random_events(rng, seats=3):
                if isinstance(event, Start):
                    game = store.new_game(event)
                    store.link_players(game, event.seats)
                else:
                    store.append(game, event)
        last = store.new_game(Start(("Ana", "Bo", "Cy")))
        store.append(last, Draw("T9"))
    assert kept(path) == {}
    return path


@pytest.fixture
def data(built: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "games.sqlite"
    copy.write_bytes(built.read_bytes())
    return copy


def test_the_missing_summaries_are_made_by_a_reader_and_kept_by_the_writer(data: Path) -> None:
    with Store(data) as store:
        missing = store.missing_summaries()
        assert missing == [6, 5, 4, 3, 2, 1]  # newest first: the one to offer first
        batches = list(make_summaries(data, missing, batch=4))
        assert [[g for g, _n, _s in b] for b in batches] == [[6, 5, 4, 3], [2, 1]]
        store.delete_game(2)  # gone while its summary was being made: none kept for it
        for batch in batches:
            store.keep_summaries(batch)
        assert store.missing_summaries() == []
        for batch in batches:
            for game, events, summary in batch:
                if game != 2:
                    log = store.events(game)
                    assert events == len(log)
                    assert summary == summarize(Session.replay(log))
    assert sorted(kept(data)) == [1, 3, 4, 5, 6]


@pytest.fixture
def few(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(app_command, "FEW_SUMMARIES", 2)
    monkeypatch.setattr(app_command, "SUMMARY_BATCH", 4)
    yield


def test_the_first_screen_is_drawn_before_the_summaries_and_says_how_far_they_are(
    data: Path, few: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ui import history_building
    from ui.app import CompanionApp, post
    from ui.kivyfree.controls import Controls

    said: list[str] = []
    real = history_building.progress

    def progress(app: CompanionApp, made: int, of: int) -> None:
        real(app, made, of)
        said.append(app.setup_screen.history_note)

    monkeypatch.setattr(history_building, "progress", progress)

    store = Store(data)
    games = Games(store)
    start = app_command.build_history_later(games, store, post)
    assert start is not None and games.building == (0, 6)
    app = CompanionApp(games, Controls())
    try:
        app._run_prepare()  # the first screen, before any summary is made
        setup = app.setup_screen
        assert setup.resume_text == "" and kept(data) == {}
        start(app)  # the first frame's hook: the thread starts, the screen says so
        assert setup.history_note == "Building the history: 0 of 6 games"
        assert setup.ids.resume.text == setup.history_note and setup.ids.resume.disabled
        statistics = [w for w in setup.walk() if getattr(w, "text", None) == "Statistics"]
        assert len(statistics) == 1 and statistics[0].disabled
        assert app.history_screen.history_note == setup.history_note
        # The thread's batches are kept on this thread, at frames: frames until
        # it is done, bounded by a time-out at this machine's pace (a count of
        # frames ran out first on a loaded machine).
        deadline = time.monotonic() + paced(60)
        while games.building is not None and time.monotonic() < deadline:
            frames(1)
        assert games.building is None and setup.history_note == ""
        assert said == ["Building the history: 0 of 6 games",
                        "Building the history: 4 of 6 games",
                        "Building the history: 6 of 6 games"]  # fmt: skip
        assert kept(data) == {g.id: g.events for g in store.games()}
        # Known now: the unfinished game is offered, and the statistics open.
        assert app.sm is not None and app.sm.current == "setup"
        assert games.unfinished() == 6 and setup.resume_text
        assert setup.ids.resume.text == setup.resume_text and not statistics[0].disabled
    finally:
        app.stop()
        frames(1)
        store.close()


def test_few_missing_summaries_are_made_as_before(data: Path) -> None:
    from ui.app import post

    with Store(data) as store:
        games = Games(store)
        assert app_command.build_history_later(games, store, post) is None  # 6 <= 20
        assert games.building is None and games.unfinished() == 6


def stats(data: Path) -> int:
    return main(["stats", str(data)])


def test_stats_keeps_the_summaries_it_makes_on_its_own_file(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games, made = stored_games(data)
    assert [g.game for g in games] == [6, 5, 4, 3, 2, 1]
    assert [m[0] for m in made] == [6, 5, 4, 3, 2, 1] and kept(data) == {}  # read-only
    assert stats(data) == 0
    shown = capsys.readouterr().out
    with Store(data, readonly=True) as store:
        assert kept(data) == {g.id: g.events for g in store.games()}
    assert stored_games(data) == (games, [])  # read from what was kept: the same games
    assert stats(data) == 0 and capsys.readouterr().out == shown


def test_stats_keeps_nothing_on_bad_input(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = data.read_bytes()
    assert main(["stats", str(data), "--player", "Zed"]) == 2
    assert "no finished game of a player named 'Zed'" in capsys.readouterr().err
    assert data.read_bytes() == before and kept(data) == {}


def test_stats_only_reads_a_file_in_use_or_of_another_user(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    holder = subprocess.Popen(  # the app, another process, holds the writer's lock
        [sys.executable, "-c", "import sys; from storage import Store; s = Store(sys.argv[1]); "
         "print('held', flush=True); sys.stdin.read()", str(data)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        assert stats(data) == 0
    finally:
        holder.communicate("", timeout=60)
    shown = capsys.readouterr().out
    assert "1 unfinished" in shown and kept(data) == {}
    if os.geteuid() != 0:
        return  # the other user's file needs root to make
    os.chown(data, 65534, 65534)
    before = data.read_bytes()
    assert stats(data) == 0 and capsys.readouterr().out == shown
    assert kept(data) == {} and data.read_bytes() == before
