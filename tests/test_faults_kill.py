"""kill -9 at random moments of a game, then restart: nothing accepted is lost.

The harness lives in bench/faults.py (the benchmark runs it with 50 kill
points; here fewer, to stay fast). A child process plays random games into a
data file and prints ``ACK game seq line`` once ``Store.append`` has returned;
it is killed with SIGKILL at random moments (at start, while opening the file,
between and inside appends). After each kill: ``PRAGMA integrity_check`` is
ok, every acknowledged event is in the file unchanged, at most one event more
is stored (committed, killed before the print), every game replays, and the
next run resumes the stored game at its next event. The last run plays the
game to its end.

Then the same for the app's own pipeline: ``incan-companion demo --autoplay
--data FILE`` killed mid-game, restarted, resumes and finishes.
"""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import QUICK_START, load_bench, quick_rounds, sqlite_connections

ROOT = Path(__file__).resolve().parent.parent


faults = load_bench("faults")


def test_the_writer_alone_plays_a_whole_game_and_stores_what_it_acknowledges(
    tmp_path: Path,
) -> None:
    data = tmp_path / "games.sqlite"
    lines, killed = faults.run_writer(data, 5, None)
    assert not killed
    acks = [line.rstrip("\n").split(" ", 3) for line in lines if line.startswith("ACK ")]
    assert lines[-1] == "DONE 1\n"
    assert [int(a[2]) for a in acks] == list(range(len(acks)))
    assert faults.stored_lines(data) == {1: [a[3] for a in acks]}
    # The stored game is a finished game, readable by the command line.
    result = subprocess.run(
        [sys.executable, "-m", "incan_companion", "replay", str(data), "--json"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    assert json.loads(result.stdout)["phase"] == "game_over"


def test_kill_9_at_random_moments_loses_no_accepted_event(tmp_path: Path) -> None:
    report = faults.kill_points(tmp_path / "games.sqlite", 10, seed=20261122)
    assert report.problems == []
    assert report.kills == 10
    assert report.lost == 0
    assert report.acknowledged > 100
    # Restarts found the unfinished game and went on at its next event.
    assert report.restarts >= 3
    assert report.resumed_right == report.restarts
    # The last run finished the game it resumed; nothing is left unfinished.
    assert report.games_finished >= 1
    assert faults.integrity(tmp_path / "games.sqlite") == "ok"


def test_an_event_stored_but_not_yet_acknowledged_is_kept_and_replayed(tmp_path: Path) -> None:
    """A kill between the commit and the screen: the event stays (it was valid)."""
    from companion.events import Draw, Start
    from storage import Store

    data = tmp_path / "games.sqlite"
    with Store(data) as store:
        game = store.new_game(Start(("Ana", "Bo", "Cy"), "diamant"))
        store.append(game, Draw("T9"))
    lines, killed = faults.run_writer(data, 9, None)
    assert not killed
    assert lines[0] == f"RESUME {game} 1\n"
    assert lines[1].startswith(f"ACK {game} 2 ")
    stored = faults.stored_lines(data)[game]
    assert stored[:2] == ['{"event": "start", "seats": ["Ana", "Bo", "Cy"], "rules": "diamant"}',
                          '{"event": "draw", "card": "T9"}']  # fmt: skip


def test_the_data_file_is_in_wal_mode_with_full_sync(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What makes a power cut (not only a kill) lose nothing that was shown."""
    data = tmp_path / "games.sqlite"
    faults.run_writer(data, 1, None)
    from storage import Store

    opened = sqlite_connections(monkeypatch)
    with Store(data):
        (db,) = opened  # the store's own connection: synchronous is set per connection
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_kill_9_of_demo_autoplay_then_resume(tmp_path: Path) -> None:
    if importlib.util.find_spec("incan_companion.commands.app") is None:
        pytest.skip("the demo command has not landed")
    from storage import Store

    data = tmp_path / "demo.sqlite"
    with Store(data) as store:  # killed and resumed with two rounds to play
        game = store.new_game(QUICK_START)
        for event in quick_rounds(3):
            store.append(game, event)
    stored = len(faults.committed_events(data))
    assert stored == 1 + len(quick_rounds(3))
    report = faults.demo_kill_points(data, tmp_path / "kivy", 2, seed=8)
    assert report.problems == []
    assert report.kills == 2
    assert report.pace_s > 0  # the kill moments followed this machine's measured pace
    assert report.committed_before_kill >= stored + 2  # killed after events of its own
    assert report.lost == 0
    assert report.last_resumed
    assert report.resumed >= 2  # the run after a kill mid-game, and the last run
    assert report.finished
    with sqlite3.connect(data) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 1
    assert report.final_events == len(faults.committed_events(data))


def test_kill_9_while_deleting_games_leaves_each_whole_or_gone(tmp_path: Path) -> None:
    """Deleting is one transaction per game: a kill (or a power cut: WAL, full
    sync) in the middle leaves the game whole, never half gone."""
    from storage import Store

    datafile = load_bench("datafile_faults")
    data = tmp_path / "games.sqlite"
    problems, interrupted = datafile.delete_kill_points(data, games=40, kills=4, seed=13)
    assert problems == []
    assert interrupted >= 1  # a kill came before the deleter was through
    with Store(data) as store:  # what is left opens and replays
        for played in store.history():
            assert played.summary.finished and len(store.events(played.game)) > 10
