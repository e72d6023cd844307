"""A damaged or foreign data file is set aside with a message, never overwritten.

Checked on ``open_or_set_aside`` (the store), on a whole device
(``incan_companion.compose.build``: the message reaches the table's status line),
and on the app's own start (``incan-companion run``): in every case the
bytes that were at the path are found again, unchanged, in the set-aside
copy, and a new data file is started.
"""

from __future__ import annotations

import hashlib
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from helpers import paced

from companion.events import Draw, Reveal, Start
from companion.notices import DataFileSetAside
from storage import (
    SCHEMA_VERSION,
    DamagedFile,
    NewerFile,
    StorageFailed,
    Store,
    open_or_set_aside,
)
from ui.kivyfree.notice_words import notice_text

ROOT = Path(__file__).resolve().parent.parent
START = Start(("Ana", "Bo", "Cy"), "incan-gold")


def a_data_file(path: Path, games: int = 40) -> bytes:
    """A real data file of several pages (WAL checkpointed into it); its bytes."""
    with Store(path) as store:
        for _ in range(games):
            game = store.new_game(START)
            for card in ("T1", "T2", "T3", "T4", "T5A"):
                store.append(game, Draw(card))
                store.append(game, Reveal(()))
    assert not Path(f"{path}-wal").exists()
    return path.read_bytes()


def damage_the_middle(path: Path) -> bytes:
    """Overwrite a whole page in the middle of the file with noise; the damaged bytes."""
    data = bytearray(path.read_bytes())
    page = 4096
    pages = len(data) // page
    assert pages >= 8, pages
    middle = (pages // 2) * page
    data[middle : middle + page] = random.Random(1).randbytes(page)
    path.write_bytes(bytes(data))
    return bytes(data)


def another_programs_sqlite(path: Path) -> bytes:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")
    db.execute("INSERT INTO notes (text) VALUES ('shopping: gems')")
    db.commit()
    db.close()
    return path.read_bytes()


def set_aside_copies(folder: Path, name: str = "games.sqlite") -> list[Path]:
    return sorted(
        p
        for p in folder.iterdir()
        if p.name.startswith(f"{name}.bad-") and not p.name.endswith(("-wal", "-shm", ".tail"))
    )


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- the store ---------------------------------------------------------------------


def test_a_file_damaged_in_the_middle_is_refused_by_the_store(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    a_data_file(path)
    damaged = damage_the_middle(path)
    with pytest.raises(DamagedFile, match="is damaged"):
        Store(path)
    assert path.read_bytes() == damaged  # refusing wrote nothing


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda p: (a_data_file(p), damage_the_middle(p))[1], "is damaged"),
        (lambda p: (p.write_text("my game notes\n", "utf-8"), p.read_bytes())[1], "not SQLite"),
        (another_programs_sqlite, "SQLite file of another program"),
        (lambda p: (p.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84), p.read_bytes())[1],
         "is damaged"),
    ],
    ids=["damaged", "text", "foreign-sqlite", "header-only"],
)  # fmt: skip
def test_set_aside_keeps_every_byte_and_starts_a_new_file(
    tmp_path: Path, make: object, words: str
) -> None:
    path = tmp_path / "games.sqlite"
    original = make(path)  # type: ignore[operator]
    store, aside = open_or_set_aside(path)
    try:
        assert isinstance(aside, DataFileSetAside)
        assert words in aside.problem
        copies = set_aside_copies(tmp_path)
        assert len(copies) == 1
        assert aside.aside == copies[0].name
        message = notice_text(aside)
        assert words in message
        assert f"It was set aside as {copies[0].name}; a new data file was started." in message
        assert sha(copies[0].read_bytes()) == sha(original)
        # The path now holds a new, empty data file of ours.
        assert store.games() == []
        game = store.new_game(START)
        store.append(game, Draw("T9"))
    finally:
        store.close()
    assert sha(copies[0].read_bytes()) == sha(original)
    with Store(path, readonly=True) as reread:
        assert [g.id for g in reread.games()] == [1]


def test_set_aside_takes_the_wal_and_shm_along(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_text("not a database", encoding="utf-8")
    Path(f"{path}-wal").write_bytes(b"wal bytes")
    Path(f"{path}-shm").write_bytes(b"shm bytes")
    store, aside = open_or_set_aside(path)
    store.close()
    assert aside is not None
    (copy,) = set_aside_copies(tmp_path)
    assert aside.aside == copy.name
    assert copy.read_text("utf-8") == "not a database"
    assert Path(f"{copy}-wal").read_bytes() == b"wal bytes"
    assert Path(f"{copy}-shm").read_bytes() == b"shm bytes"


def test_a_file_from_a_newer_version_is_refused_and_left_in_place(tmp_path: Path) -> None:
    """Setting it aside hid every game from the newer version too (issue 27, item 10)."""
    path = tmp_path / "games.sqlite"
    a_data_file(path, games=1)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    original = path.read_bytes()
    with pytest.raises(NewerFile, match=r"newer version of incan-companion \(schema 99; this one "
                       rf"reads {SCHEMA_VERSION} at most\): update the app to use it"):  # fmt: skip
        open_or_set_aside(path)
    assert set_aside_copies(tmp_path) == []
    assert path.read_bytes() == original
    done = subprocess.run(
        [sys.executable, "-m", "incan_companion", "demo", "--autoplay", "--data", str(path)],
        capture_output=True, text=True, timeout=paced(120), check=False,
        env={**os.environ, "KIVY_NO_ARGS": "1"}, cwd=Path(__file__).resolve().parent.parent,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().endswith("update the app to use it"), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert path.read_bytes() == original and set_aside_copies(tmp_path) == []


def test_a_damaged_header_is_set_aside_not_an_endless_restart(tmp_path: Path) -> None:
    """One byte at offset 47 (the schema format): SQLite's generic "unsupported file
    format" at open, the same on every start; the kiosk restarted every 2 s for ever
    and replay, export, stats and review exited 1 (issue 27, item 3)."""
    path = tmp_path / "games.sqlite"
    a_data_file(path, games=3)
    data = bytearray(path.read_bytes())
    data[47] = 9
    path.write_bytes(bytes(data))
    for command in ("replay", "export", "stats", "review"):
        done = subprocess.run(
            [sys.executable, "-m", "incan_companion", command, str(path)],
            capture_output=True, text=True, timeout=paced(60), check=False,
            env={**os.environ, "KIVY_NO_ARGS": "1"}, cwd=Path(__file__).resolve().parent.parent,
        )  # fmt: skip
        assert (done.returncode, done.stdout) == (2, ""), (command, done.stderr)
        assert done.stderr == f"incan-companion: {path} is damaged: unsupported file format\n"
    store, aside = open_or_set_aside(path)
    store.close()
    assert aside is not None and "unsupported file format" in aside.problem
    assert set_aside_copies(tmp_path)[0].read_bytes() == bytes(data)


def test_no_inode_left_is_a_full_disk_not_a_permission_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk with no inode left cannot make the -wal: SQLite says it cannot open
    the file, which read as "no permission" (exit 2, the service stopped)."""
    from storage.errors import sqlite_problem

    try:
        sqlite3.connect(tmp_path / "no" / "such" / "folder.sqlite")
    except sqlite3.Error as e:
        cantopen = e
    real = os.statvfs
    assert not isinstance(sqlite_problem(tmp_path / "g.sqlite", cantopen), StorageFailed)

    def no_inodes(path: Any) -> Any:
        st = real(path)
        return os.statvfs_result((*st[:6], 0, 0, *st[8:]))  # f_ffree, f_favail = 0

    monkeypatch.setattr(os, "statvfs", no_inodes)
    problem = sqlite_problem(tmp_path / "g.sqlite", cantopen, "cannot open: ")
    assert isinstance(problem, StorageFailed)
    assert "no free inodes" in str(problem)


def _frozen() -> datetime:
    return datetime(2026, 11, 22, 10, 15, 0, tzinfo=UTC)


def test_two_bad_files_in_the_same_second_keep_both_copies(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    path.write_text("first bad file", encoding="utf-8")
    open_or_set_aside(path, clock=_frozen)[0].close()
    path.unlink()
    path.write_text("second bad file", encoding="utf-8")
    open_or_set_aside(path, clock=_frozen)[0].close()
    texts = sorted(p.read_text("utf-8") for p in set_aside_copies(tmp_path))
    assert texts == ["first bad file", "second bad file"]


def test_a_good_file_is_never_set_aside(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    original = a_data_file(path, games=2)
    store, aside = open_or_set_aside(path)
    store.close()
    assert aside is None
    assert set_aside_copies(tmp_path) == []
    assert path.read_bytes() == original


def test_a_store_error_that_is_not_the_files_fault_is_raised_not_set_aside(
    tmp_path: Path,
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root can write into a read-only folder")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        from storage import StoreError

        with pytest.raises(StoreError):
            open_or_set_aside(folder / "games.sqlite")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


# -- the whole device ------------------------------------------------------------------


def test_the_device_shows_the_message_and_plays_on_a_new_file(tmp_path: Path) -> None:
    from incan_companion.compose import build
    from incan_companion.config import Config

    path = tmp_path / "games.sqlite"
    original = another_programs_sqlite(path)
    device = build(Config(data_file=path), seat_input="keyboard", camera="none")
    try:
        asides = [r for r, _level in device.games.startup if isinstance(r, DataFileSetAside)]
        assert len(asides) == 1
        (aside,) = asides
        table = device.games.new_game(START)
        reasons = [n.reason for n in table.notices]
        assert aside in reasons
        assert [n.level for n in table.notices if n.reason == aside] == ["warning"]
        assert table.enter_card("T9")
    finally:
        device.close()
    (copy,) = set_aside_copies(tmp_path)
    assert aside.aside == copy.name
    assert copy.read_bytes() == original
    with Store(path, readonly=True) as store:
        assert store.events(1) == [START, Draw("T9")]


def test_the_app_starts_with_a_damaged_data_file_and_sets_it_aside(tmp_path: Path) -> None:
    path = tmp_path / "data" / "games.sqlite"
    path.parent.mkdir()
    a_data_file(path)
    damaged = damage_the_middle(path)
    env = {
        **os.environ,
        "INCAN_DATA": str(path),
        "INCAN_CONFIG": str(tmp_path / "missing.toml"),
        "KIVY_HOME": tempfile.mkdtemp(prefix="kivy-", dir=tmp_path),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
    }
    result = subprocess.run(
        [sys.executable, "-m", "incan_companion", "run", "--buttons", "keyboard",
         "--camera", "none", "--quit-after", "0.5"],
        env=env, capture_output=True, text=True, timeout=paced(120), check=False, cwd=ROOT,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    (copy,) = set_aside_copies(path.parent)
    assert copy.read_bytes() == damaged
    with Store(path, readonly=True) as store:
        assert store.games() == []


def test_a_name_that_is_not_utf8_is_shown_and_named_not_fatal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """One bad byte in a player's name made `stats` exit 1 and the app show no players."""
    path = tmp_path / "games.sqlite"
    with Store(path) as store:
        game = store.new_game(START)
        store.link_players(game, START.seats)
    db = sqlite3.connect(path)
    db.execute("UPDATE players SET name = CAST(X'416e61ff' AS TEXT) WHERE name = 'Ana'")
    db.commit()
    db.close()
    with Store(path) as store, caplog.at_level("WARNING"):
        names = sorted(p.name for p in store.players())
    assert names == ["Ana\ufffd", "Bo", "Cy"]
    assert "player 1's name is not UTF-8 text" in caplog.text
    done = subprocess.run(
        [sys.executable, "-m", "incan_companion", "stats", str(path), "--json"],
        capture_output=True, text=True, timeout=paced(60), check=False,
        env={**os.environ, "KIVY_NO_ARGS": "1"}, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
