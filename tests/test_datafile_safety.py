"""Issue 14: the data file against two writers, a full disk, missing permissions,
a damaged index and bad input; every refusal is one line with the right exit code.

The same cases run end to end (real ``demo`` runs 2 s apart, a real full
tmpfs) in ``bench/datafile_faults.py``; here they are small and fast: a full
disk is SQLite's own ``max_page_count`` or an error SQLite really raised,
permissions are met by a child process that has dropped CAP_DAC_OVERRIDE
when the tests run as root.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from helpers import load_bench, paced, run, sqlite_connections

from companion.events import BadEvent, Draw, Reveal, Start, from_line, to_line
from companion.notices import Failed, Step
from companion.session import LogError
from incan_companion import cli, config
from incan_companion.commands import game as game_cmd
from incan_companion.errors import BadInput
from storage import (
    APPLICATION_ID,
    DamagedFile,
    InUse,
    NoAccess,
    NotOurFile,
    StorageFailed,
    Store,
    is_sqlite,
    open_or_set_aside,
)

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "game.jsonl"
START = Start(("Ana", "Bo", "Cy"), "incan-gold")
bench = load_bench("datafile_faults")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def stored_game(path: Path, names: tuple[str, ...] = ("Ana", "Bo", "Cy")) -> int:
    with Store(path) as store:
        game = store.new_game(Start(names, "incan-gold"))
        for event in (Draw("T1"), Reveal(()), Draw("T2"), Reveal((0,)), Draw("T3")):
            store.append(game, event)
    return game


def set_aside(folder: Path) -> list[Path]:
    return [p for p in folder.iterdir() if ".bad-" in p.name and not p.name.endswith(".tail")]


def cli_run(*args: str, seconds: float = 120, env: dict[str, str] | None = None,
            drop: tuple[str, ...] = (), **kw: Any) -> subprocess.CompletedProcess[Any]:  # fmt: skip
    """``incan-companion ARGS`` as a user runs it (text unless ``text=False``),
    without the variables named in ``drop`` too."""
    gone = ("INCAN_DEBUG", "INCAN_DATA", *drop)
    full = {k: v for k, v in os.environ.items() if k not in gone}
    full.update(PYTHONPATH=str(ROOT), INCAN_CONFIG=str(ROOT / "no-such-config.toml"))
    full.update(env or {})
    kw.setdefault("text", True)
    return run([sys.executable, "-m", "incan_companion", *args], cwd=ROOT, env=full,
               seconds=seconds, **kw)


def main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[:2000]
    assert "Traceback" not in err
    return lines[0]


def real_sqlite_error(code: str) -> sqlite3.Error:
    """An error SQLite itself raised, with its result code (a full disk, a read-only file)."""
    db = sqlite3.connect(":memory:")
    try:
        if code == "full":
            db.execute("PRAGMA max_page_count=2")
            db.execute("CREATE TABLE t (x)")
            db.execute("INSERT INTO t VALUES (zeroblob(100000))")
        raise AssertionError("no error")
    except sqlite3.Error as e:
        return e
    finally:
        db.close()


# --- 1. one writer at a time --------------------------------------------------------------


HOLD = """
import sys, time
from storage import Store
store = Store(sys.argv[1])
print("holding", flush=True)
time.sleep(600)
"""


@pytest.fixture
def holder(tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """Another process that has the data file open for writing (it holds the lock)."""
    data = tmp_path / "games.sqlite"
    stored_game(data)
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(data)], stdout=subprocess.PIPE,
                            text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "holding"
    try:
        yield data, proc
    finally:
        proc.kill()
        proc.wait()


def test_a_second_writer_is_refused_naming_the_process_that_holds_the_file(
    holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    data, proc = holder
    before = sha(data)
    with pytest.raises(InUse) as refused:
        Store(data)
    message = str(refused.value)
    assert str(data) in message and f"process {proc.pid}" in message and "-c" in message
    assert "\n" not in message
    with pytest.raises(InUse):
        open_or_set_aside(data)  # the app: refused too, and nothing is set aside
    assert set_aside(data.parent) == []
    assert sha(data) == before
    # Reading goes on while the file is held.
    with Store(data, readonly=True) as store:
        assert len(store.events(1)) == 6


def test_a_lock_left_by_a_killed_writer_blocks_nothing(
    holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    data, proc = holder
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # The lock was the data file's own, and the kernel dropped it with the writer.
    with Store(data) as store:
        store.append(1, Reveal(()))
    assert sorted(p.name for p in data.parent.iterdir() if p.name.startswith(data.name)) == [
        data.name, f"{data.name}.tail"  # no lock file beside it; the log's tail
    ]


def test_the_command_line_refuses_a_second_writer_and_reads_on(
    holder: tuple[Path, subprocess.Popen[str]],
) -> None:
    data, proc = holder
    demo = cli_run("demo", "--autoplay", "--data", str(data))
    assert demo.returncode == 2
    line = one_line(demo.stderr)
    assert line.startswith(f"incan-companion: {data} is in use by process {proc.pid} ")
    assert line.endswith("one program at a time writes a data file")
    for command in ("replay", "export"):
        done = cli_run(command, str(data))
        assert done.returncode == 0, done.stderr


def test_the_app_refuses_a_second_writer(
    holder: tuple[Path, subprocess.Popen[str]], tmp_path: Path
) -> None:
    data, proc = holder
    done = cli_run("run", "--buttons", "keyboard", "--camera", "none", "--quit-after", "0.1",
                   "--data", str(data), env={"KIVY_HOME": str(tmp_path / "kivy")},
                   drop=("KIVY_NO_CONSOLELOG",))  # as a user runs it: Kivy's log on stderr
    assert done.returncode == 2, done.stderr[-2000:]
    # One line and nothing before it: refused before Kivy loads (which printed its
    # 21 lines of start-up and opened a window first).
    assert one_line(done.stderr).startswith(f"incan-companion: {data} is in use by process "
                                            f"{proc.pid} ")  # fmt: skip
    assert set_aside(data.parent) == []


def test_the_stores_of_one_process_share_its_lock(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    first = Store(data)
    second = Store(data)  # a second connection of the same process (the demo's own check)
    game = first.new_game(START)
    second.append(game, Draw("T9"))
    first.close()
    probe = run([sys.executable, "-c", HOLD.replace("time.sleep(600)", ""), str(data)],
                text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, seconds=60)
    assert probe.returncode == 1 and "InUse" in probe.stderr  # still held by `second`
    second.close()
    second.close()  # closing twice releases once
    with Store(data) as again:
        assert again.events(game) == [START, Draw("T9")]


def test_the_set_aside_path_holds_the_lock_throughout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At every step of setting a file aside (each link, unlink and the new file's
    move into place) another process finds the path locked."""
    data = tmp_path / "games.sqlite"
    data.write_text("not a database", encoding="utf-8")
    Path(f"{data}-wal").write_bytes(b"a wal of the file")
    seen: list[tuple[str, bool]] = []

    def probing(name: str, real: Any) -> Any:
        def step(*args: Any, **kwargs: Any) -> Any:
            probe = run([sys.executable, "-c", HOLD.replace("time.sleep(600)", ""), str(data)],
                        text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                        seconds=60)
            seen.append((name, "in use by process" in probe.stderr))
            return real(*args, **kwargs)

        return step

    for name in ("link", "unlink", "replace"):
        monkeypatch.setattr(os, name, probing(name, getattr(os, name)))
    store, aside = open_or_set_aside(data)
    store.close()
    assert aside is not None
    assert [name for name, _ in seen if name != "unlink"] == ["link", "link", "replace"]
    assert all(locked for _, locked in seen), seen


# --- 2. a full disk sets nothing aside ---------------------------------------------------------


class _FullDisk(sqlite3.Connection):
    """A connection on a disk too full for the -shm: the WAL switch fails as SQLite fails."""

    error = real_sqlite_error("full")

    def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:  # type: ignore[override]
        if sql.startswith("PRAGMA journal_mode=WAL"):
            raise self.error
        return super().execute(sql, *args)


def test_a_full_disk_at_start_up_sets_no_good_file_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "games.sqlite"
    game = stored_game(data)
    before = sha(data)
    assert _FullDisk.error.sqlite_errorcode == 13  # SQLITE_FULL, raised by SQLite
    real = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *a, **k: real(*a, factory=_FullDisk, **k))
    with pytest.raises(StorageFailed, match="the disk is full") as failed:
        open_or_set_aside(data)
    assert str(data) in str(failed.value) and "\n" not in str(failed.value)
    assert set_aside(tmp_path) == []
    assert sha(data) == before
    monkeypatch.undo()  # space freed: the same file, its unfinished game offered
    store, aside = open_or_set_aside(data)
    with store:
        assert aside is None
        assert store.unfinished() == game


def test_the_app_exits_1_on_a_full_disk_so_the_service_tries_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import ui.kivy_setup
    from incan_companion import compose

    def full(*args: Any, **kwargs: Any) -> Any:
        raise StorageFailed(f"{tmp_path}/games.sqlite: cannot open: the disk is full (...)")

    monkeypatch.setattr(ui.kivy_setup, "configure", lambda **options: None)
    monkeypatch.setattr(compose, "build", full)
    # No Kivy in this process: it would take stderr over.
    monkeypatch.setitem(sys.modules, "ui.app", SimpleNamespace(CompanionApp=None, post=None))
    # A data file of its own: the user's default one may be open (their app, another run).
    (tmp_path / "empty.toml").write_text("", encoding="utf-8")  # the defaults
    code, _out, err = main(capsys, "run", "--config", str(tmp_path / "empty.toml"),
                           "--data", str(tmp_path / "games.sqlite"))
    assert code == 1
    assert one_line(err) == (f"incan-companion: error: {tmp_path}/games.sqlite: cannot open: "
                             "the disk is full (...)")  # fmt: skip


def test_a_full_disk_while_playing_is_a_failed_save_not_damage(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    store = Store(data)
    game = store.new_game(START)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count={pages}")  # SQLite's own full disk
    with pytest.raises(StorageFailed, match="the disk is full"):
        for _ in range(2000):
            store.append(game, Draw("T1"))
    store.close()
    with Store(data) as again:  # nothing is damaged: the file opens, checked whole
        assert again.events(game)[0] == START


# --- 3. permissions are not damage ------------------------------------------------------------


def as_another_user(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a child that meets file permissions (root drops CAP_DAC_OVERRIDE)."""
    if not bench.can_drop_dac():
        pytest.skip("cannot drop CAP_DAC_OVERRIDE here")
    return run([sys.executable, "-c", code, *args], text=True, cwd=ROOT,
               env={**os.environ, "PYTHONPATH": str(ROOT)}, preexec_fn=bench.drop_dac,
               seconds=60)


OPEN = """
import sys
from storage import open_or_set_aside, StoreError
try:
    open_or_set_aside(sys.argv[1])
except StoreError as e:
    print(type(e).__name__, e, sep=": ")
else:
    print("opened")
"""


def test_an_unreadable_file_is_not_taken_for_not_sqlite(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    stored_game(data)
    before = sha(data)
    data.chmod(0)
    try:
        done = as_another_user(OPEN, str(data))
    finally:
        data.chmod(0o644)
    assert done.stdout.startswith("NoAccess: "), done.stdout + done.stderr
    assert "Permission denied" in done.stdout
    assert set_aside(tmp_path) == [] and sha(data) == before


def test_a_read_only_folder_is_said_in_one_line_and_nothing_moves(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    data = folder / "games.sqlite"
    stored_game(data)
    before, listing = sha(data), sorted(p.name for p in folder.iterdir())
    folder.chmod(0o555)
    try:
        with_file = as_another_user(OPEN, str(data))
        new_file = as_another_user(OPEN, str(folder / "new.sqlite"))
        new_folder = as_another_user(OPEN, str(folder / "sub" / "games.sqlite"))
        read = as_another_user(
            "import sys; from storage import Store;"
            "print(len(Store(sys.argv[1], readonly=True).events(1)))", str(data))
    finally:
        folder.chmod(0o755)
    for done in (with_file, new_file, new_folder):
        assert done.stdout.startswith("NoAccess: "), done.stdout + done.stderr
        assert str(folder) in done.stdout and "ermission denied" in done.stdout
    assert read.stdout.strip() == "6", read.stderr  # a read-only copy still replays
    assert sha(data) == before and sorted(p.name for p in folder.iterdir()) == listing


def test_a_full_disk_still_lets_the_reading_commands_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """SQLite cannot make the -shm it reads a WAL file with on a full disk (was exit 1
    for replay, export, stats and review); with no -wal to read, the file is all
    there is. A -wal with frames in it still fails: its events are not read past."""
    data = tmp_path / "games.sqlite"
    stored_game(data)
    real_connect, full = sqlite3.connect, real_sqlite_error("full")

    def full_disk(target: str, *args: Any, **kw: Any) -> sqlite3.Connection:
        if "immutable=1" not in str(target):
            raise full  # as SQLite says it, making the -shm on a disk with no room
        return real_connect(target, *args, **kw)

    monkeypatch.setattr(sqlite3, "connect", full_disk)
    assert cli.main(["replay", str(data), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["round"] == 1
    Path(f"{data}-wal").write_bytes(b"\x37\x7f\x06\x82" + bytes(28))  # a WAL's header
    assert cli.main(["replay", str(data), "--json"]) == 1
    assert "the disk is full" in capsys.readouterr().err


def test_permission_errors_are_never_set_aside_even_for_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same, in this process: the file cannot be opened (EACCES) or SQLite says
    "attempt to write a readonly database"."""
    data = tmp_path / "games.sqlite"
    stored_game(data)
    before = sha(data)
    real_open = Path.open

    def denied(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self == data:
            raise PermissionError(13, "Permission denied")
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", denied)
    with pytest.raises(NoAccess, match="Permission denied"):
        is_sqlite(data)
    with pytest.raises(NoAccess, match="Permission denied"):
        open_or_set_aside(data)
    monkeypatch.undo()

    # "attempt to write a readonly database": the switch to WAL of a file in
    # rollback-journal mode, on a disk that takes no writes.
    db = sqlite3.connect(data)
    db.execute("PRAGMA journal_mode=DELETE")
    db.close()
    before = sha(data)
    real = sqlite3.connect

    def read_only(target: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if str(target) == str(data):
            return real(f"{data.as_uri()}?mode=ro", *args, **{**kwargs, "uri": True})
        return real(target, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(NoAccess, match="readonly database"):
        open_or_set_aside(data)
    monkeypatch.undo()
    assert set_aside(tmp_path) == [] and sha(data) == before


def test_a_folder_or_a_pipe_at_the_data_path_is_refused_not_moved(tmp_path: Path) -> None:
    folder = tmp_path / "games.sqlite"
    folder.mkdir()
    with pytest.raises(NoAccess, match="is a folder"):
        open_or_set_aside(folder)
    assert folder.is_dir() and set_aside(tmp_path) == []
    fifo = tmp_path / "fifo.sqlite"
    os.mkfifo(fifo)
    with pytest.raises(NoAccess, match="not a regular file"):
        Store(fifo)  # and it did not hang on the pipe
    assert not is_sqlite(folder) and not is_sqlite(fifo)


# --- 4. index damage is damage ---------------------------------------------------------------


def test_a_damaged_key_index_is_found_at_open_and_set_aside(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games.sqlite"
    game = stored_game(data)
    assert bench.hide_rows_from_index(data, game, 3) == 3
    assert bench.check(data, "quick_check") == ["ok"]  # what the store used to check
    damaged = sha(data)
    for readonly in (False, True):
        with pytest.raises(DamagedFile) as refused:
            Store(data, readonly=readonly)
        message = str(refused.value)
        assert message.startswith(f"{data} is damaged: row ")
        assert "missing from index sqlite_autoindex_events_1" in message
        assert "\n" not in message and len(message) < 400
    for command in ("replay", "export"):
        code, out, err = main(capsys, command, str(data))
        assert code == 2 and out == ""
        assert "is damaged: row" in one_line(err)
    assert sha(data) == damaged
    store, aside = open_or_set_aside(data)
    with store:
        assert aside is not None and "missing from index" in aside.problem
        assert store.games() == []  # a new file: nothing written into the damaged one
    (copy,) = set_aside(tmp_path)
    assert sha(copy) == damaged


def test_a_damaged_page_gives_one_line(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    with Store(data) as store:
        for _ in range(40):
            game = store.new_game(START)
            for card in ("T1", "T2", "T3", "T4", "T5A"):
                store.append(game, Draw(card))
    raw = bytearray(data.read_bytes())
    middle = (len(raw) // 4096 // 2) * 4096
    raw[middle : middle + 4096] = bytes(range(256)) * 16
    data.write_bytes(bytes(raw))
    with pytest.raises(DamagedFile) as refused:
        Store(data, readonly=True)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 400


# --- 5. bad input is exit 2 ---------------------------------------------------------------------


def test_integers_of_more_than_4300_digits_are_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "big.jsonl"
    log.write_text(to_line(START) + '\n{"event": "reveal", "camp": [' + "9" * 5000 + "]}\n")
    code, _out, err = main(capsys, "replay", str(log))
    assert code == 2
    assert one_line(err) == "incan-companion: line 2: bad JSON: a number with more than 4300 digits"
    toml = tmp_path / "big.toml"
    toml.write_text("[game]\nseats = " + "9" * 5000 + "\n")
    with pytest.raises(config.ConfigError, match="more than 4300 digits"):
        config.load(toml)
    code, _out, err = main(capsys, "run", "--config", str(toml))
    assert code == 2 and "more than 4300 digits" in one_line(err)


def test_toml_nested_deeply_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "deep.toml"
    toml.write_text("x = " + "[" * 1200 + "]" * 1200 + "\n")
    code, _out, err = main(capsys, "run", "--config", str(toml))
    assert code == 2
    assert one_line(err) == f"incan-companion: {toml}: not valid TOML: nested too deeply"
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * (2 * 1024 * 1024) + b"\n")
    with pytest.raises(config.ConfigError, match="larger than a config file"):
        config.load(big)
    with pytest.raises(config.ConfigError, match=r"\[data\] file"):
        config.parse('[data]\nfile = "a\\u0000b"\n')


def _poke(data: Path, value: object, *, allow_null: bool = False) -> None:
    db = sqlite3.connect(data)
    try:
        if allow_null:
            db.execute("PRAGMA writable_schema=ON")
            db.execute("UPDATE sqlite_master SET sql = replace(sql, 'line TEXT NOT NULL', "
                       "'line TEXT') WHERE name = 'events'")  # fmt: skip
            version = db.execute("PRAGMA schema_version").fetchone()[0]
            db.execute(f"PRAGMA schema_version={version + 1}")
            db.commit()
            db.close()
            db = sqlite3.connect(data)
        db.execute("UPDATE events SET line = ? WHERE seq = 2", (value,))
        db.commit()
    finally:
        db.close()


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (None, "the stored line is NULL, not text"),
        (b'{"event": "reveal", "camp": []}', "the stored line is a BLOB, not text"),
        (b"\xff\xfe", "the stored line is a BLOB, not text"),
    ],
    ids=["null", "blob-json", "blob-bytes"],
)
def test_null_and_blob_rows_are_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: object, said: str
) -> None:
    data = tmp_path / "games.sqlite"
    game = stored_game(data)
    _poke(data, value, allow_null=value is None)
    with Store(data, readonly=True) as store, pytest.raises(LogError, match=said):
        store.events(game)
    for command in ("replay", "export"):
        code, _out, err = main(capsys, command, str(data))
        assert code == 2
        assert one_line(err) == f"incan-companion: line 3: {said}"
    with Store(data) as store:
        assert store.unfinished() is None  # passed over, as a log that does not replay


def test_text_that_is_not_utf8_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games.sqlite"
    stored_game(data)
    db = sqlite3.connect(data)
    db.execute("UPDATE events SET line = CAST(x'7bff7d' AS TEXT) WHERE seq = 1")
    db.commit()
    db.close()
    code, _out, err = main(capsys, "replay", str(data))
    assert code == 2
    assert one_line(err) == "incan-companion: line 2: the stored line is not UTF-8 text"


def test_a_seat_name_with_a_lone_surrogate_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "surrogate.jsonl"
    log.write_text('{"event": "start", "seats": ["Ana", "\\ud800", "Cy"]}\n', encoding="utf-8")
    for extra in ((), ("--json",)):
        code, out, err = main(capsys, "replay", str(log), *extra)
        assert code == 2 and out == ""
        assert one_line(err) == ("incan-companion: line 1: seat 1's name is not Unicode text "
                                 "(a lone surrogate)")  # fmt: skip
    with pytest.raises(BadEvent, match="lone surrogate"):
        from_line('{"event": "start", "seats": ["\\udfff", "B", "C"]}')


def test_replay_of_dev_zero_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = main(capsys, "replay", "/dev/zero")
    assert code == 2
    assert one_line(err) == "incan-companion: /dev/zero: larger than a game log can be (16 MiB)"


def test_a_huge_game_number_is_no_such_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games.sqlite"
    stored_game(data)
    code, _out, err = main(capsys, "export", str(data), "--game", "9" * 30)
    assert code == 2 and "there is no game 999" in one_line(err)


# --- 6. other bad input ---------------------------------------------------------------------


def test_an_error_line_is_capped_however_long_the_bad_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "long.jsonl"
    log.write_text(to_line(START) + '\n{"event": "draw", "card": "' + "x" * 2_000_000 + '"}\n')
    code, _out, err = main(capsys, "replay", str(log))
    assert code == 2
    line = one_line(err)
    assert len(line) < 600 and line.endswith("more characters)")
    assert line.startswith("incan-companion: line 2: 'xxxx")


def test_an_error_line_shows_control_characters_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "twice.jsonl"
    log.write_text('{"event": "start", "seats": ["A\\u001b[2J", "A\\u001b[2J", "C"]}\n')
    code, _out, err = main(capsys, "replay", str(log))
    assert code == 2 and "\x1b" not in err
    assert one_line(err) == "incan-companion: line 1: two seats are named 'A\\x1b[2J'"


NAMES = ("Ana\u2028Bo", "Cy\u2029", "Dee\u0085", "E\x1b[31mli\x07")


def test_line_separators_in_names_survive_export_and_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games.sqlite"
    stored_game(data, NAMES)
    code, exported, _err = main(capsys, "export", str(data))
    assert code == 0 and len(exported.split("\n")) == 7  # six events, one per line
    log = tmp_path / "exported.jsonl"
    log.write_text(exported, encoding="utf-8")
    states = []
    for source in (data, log):
        code, out, err = main(capsys, "replay", str(source), "--json")
        assert code == 0, err
        states.append(out)
    assert states[0] == states[1]
    assert "Ana\u2028Bo" in states[0]


def test_replay_prints_control_characters_in_names_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games.sqlite"
    stored_game(data, NAMES)
    code, out, _err = main(capsys, "replay", str(data))
    assert code == 0
    assert not any(ch in out for ch in "\x1b\x07\u2028\u2029\u0085")
    assert "E\\x1b[31mli\\x07" in out and "Ana\\u2028Bo" in out
    assert game_cmd.printable("plain\ttext") == "plain\\x09text"


def test_a_log_through_a_pipe_is_read_once(tmp_path: Path) -> None:
    want = game_cmd.replay_log(EXAMPLE).state
    read, write = os.pipe()
    text = EXAMPLE.read_bytes()

    def feed() -> None:
        os.write(write, text)
        os.close(write)

    threading.Thread(target=feed).start()
    try:
        assert game_cmd.load_session(Path(f"/dev/fd/{read}")).state == want
    finally:
        os.close(read)
    # As a user types it: `cat log | incan-companion replay /dev/stdin`.
    piped = cli_run("replay", "/dev/stdin", "--json", input=EXAMPLE.read_text())
    direct = cli_run("replay", str(EXAMPLE), "--json")
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout == direct.stdout


def test_a_fifo_with_no_writer_is_refused_not_waited_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fifo = tmp_path / "log.fifo"
    os.mkfifo(fifo)
    monkeypatch.setattr(game_cmd, "FIFO_WAIT_S", 0.2)
    refused: list[str] = []

    def refuse() -> None:
        for attempt in (lambda: game_cmd.load_session(fifo),
                        lambda: game_cmd.cmd_export(SimpleNamespace(data_file=str(fifo),
                                                                    game=None))):  # fmt: skip
            try:
                attempt()
            except BadInput as e:
                refused.append(str(e))

    # Waited for, it would never come back (no writer ever opens the pipe): on
    # a thread, given a time-out at this machine's pace, so a regression fails
    # instead of hanging the suite.
    worker = threading.Thread(target=refuse, daemon=True)
    worker.start()
    worker.join(paced(30))
    assert not worker.is_alive(), "the pipe with no writer was waited for"
    assert len(refused) == 2, refused
    assert re.search(r"nothing came through this pipe in 0\.2 s", refused[0]), refused
    assert re.search(r"not an incan-companion data file \(not a regular", refused[1]), refused
    # A writer that comes within the wait is read.
    writer = threading.Thread(target=lambda: fifo.write_bytes(EXAMPLE.read_bytes()))
    monkeypatch.setattr(game_cmd, "FIFO_WAIT_S", 30.0)
    writer.start()
    assert game_cmd.load_session(fifo).state == game_cmd.replay_log(EXAMPLE).state
    writer.join()


def test_a_data_file_through_a_pipe_is_refused(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    stored_game(data)
    done = cli_run("replay", "/dev/stdin", input=data.read_bytes(), text=False)
    assert done.returncode == 2
    assert b"a data file is read from a regular file, not a pipe" in done.stderr


def test_our_mark_on_foreign_tables_is_refused_before_any_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.sqlite"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id={APPLICATION_ID}")
    db.execute("PRAGMA user_version=1")
    db.execute("CREATE TABLE notes (x)")
    db.commit()
    db.close()
    before = path.read_bytes()
    assert before[18:20] == b"\x01\x01"  # rollback journal, as that program left it
    opened = sqlite_connections(monkeypatch)
    with pytest.raises(NotOurFile, match=r"has the mark of a data file but not its tables \(meta"):
        Store(path)
    assert all(not _in_wal(db) for db in opened)
    monkeypatch.undo()
    assert path.read_bytes() == before  # not switched to WAL, nothing written
    store, aside = open_or_set_aside(path)
    store.close()
    assert aside is not None and "not its tables" in aside.problem


def _in_wal(db: sqlite3.Connection) -> bool:
    try:
        return bool(db.execute("PRAGMA journal_mode").fetchone()[0] == "wal")
    except sqlite3.ProgrammingError:  # closed
        return False


def test_the_demo_stops_when_saves_keep_failing(tmp_path: Path, caplog: Any) -> None:
    """The demo's driver on a real device whose data file stops taking writes."""
    from companion.simulate import VirtualClock
    from incan_companion.autoplay import MAX_FAILED_SAVES, Autoplay, OneLineFailures
    from incan_companion.compose import build
    from incan_companion.config import Config

    clock = VirtualClock()
    data = tmp_path / "games.sqlite"
    device = build(Config(countdown=1.0, data_file=data), clock=clock, seat_input="mock",
                   camera="none", data_file=data, set_aside=False, threaded=False)  # fmt: skip
    table_log = logging.getLogger("companion.table")
    one_line_filter = OneLineFailures()
    table_log.addFilter(one_line_filter)
    try:
        device.games.new_game(START)
        autoplay = Autoplay(device, clock, 3)
        app = SimpleNamespace(on_refresh=[], show_screen=lambda name: None)
        for _ in range(10):
            assert autoplay(app) is False
        assert device.games.table is not None
        stored = len(device.games.table.session.log)

        def full(game: int, event: Any) -> None:
            raise StorageFailed(f"{data}: the disk is full (database or disk is full)")

        device.store.append = full  # type: ignore[method-assign]
        with caplog.at_level(logging.ERROR, logger="companion.table"):
            frames = 0
            while not autoplay(app):
                frames += 1
                assert frames < 50, "the demo kept trying"
        assert autoplay.stopped is not None
        assert autoplay.stopped.startswith(
            f"the data file cannot be written ({MAX_FAILED_SAVES} failed saves in a row)")
        assert "disk is full" in autoplay.stopped
        assert autoplay(app) is True  # and stays stopped
        failures = [r for r in caplog.records
                    if r.name == "companion.table" and r.levelno >= logging.ERROR]
        assert len(failures) == MAX_FAILED_SAVES
        assert all(r.exc_info is None and "disk is full" in r.getMessage() for r in failures)
        assert len(device.games.table.session.log) == stored
    finally:
        table_log.removeFilter(one_line_filter)
        device.close()


def test_only_the_disks_failures_lose_their_traceback() -> None:
    from incan_companion.autoplay import OneLineFailures

    def record(error: BaseException) -> logging.LogRecord:
        return logging.LogRecord("companion.table", logging.ERROR, __file__, 1, "%s failed",
                                 ("save",), (type(error), error, None))  # fmt: skip

    disk = record(StorageFailed("g.sqlite: the disk is full\n(x)"))
    assert OneLineFailures().filter(disk)
    assert disk.exc_info is None
    assert disk.getMessage() == "save failed: g.sqlite: the disk is full (x)"
    bug = record(KeyError("bug"))
    assert OneLineFailures().filter(bug)
    assert bug.exc_info is not None
    # The table's notice of the same failure, logged as its repr: not a line more.
    notice = logging.LogRecord("companion.table", logging.WARNING, __file__, 1, "%s",
                               (Failed(Step.SAVE, "g.sqlite: the disk is full"),), None)
    assert not OneLineFailures().filter(notice)


DEMO_ON_A_FILLING_DISK = """
import sys
from incan_companion import cli
from storage import StorageFailed, Store
real, calls = Store.append, [0]
def append(self, game, event):
    calls[0] += 1
    if calls[0] > 6:
        raise StorageFailed(f"{self.path}: the disk is full (database or disk is full)")
    return real(self, game, event)
Store.append = append
sys.exit(cli.main(["demo", "--autoplay", "--seats", "3", "--data", sys.argv[1]]))
"""


@pytest.mark.slow
def test_the_demo_ends_with_exit_1_and_a_few_lines_when_the_disk_fills(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "INCAN_DEBUG"}
    env.update(PYTHONPATH=str(ROOT), KIVY_HOME=str(tmp_path / "kivy"))
    done = run([sys.executable, "-c", DEMO_ON_A_FILLING_DISK, str(tmp_path / "g.sqlite")],
               text=True, cwd=ROOT, env=env, seconds=180)
    assert done.returncode == 1, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert len(done.stderr) < 5000 and "Failed(" not in done.stderr
    last = [ln for ln in done.stderr.splitlines() if ln.startswith("demo: ")][-1]
    assert "stopped after" in last and "the data file cannot be written" in last


def test_each_error_is_sorted_by_its_cause(tmp_path: Path) -> None:
    """Only what SQLite calls corruption or "not a database" is damage."""
    import errno

    from storage.errors import os_problem as _os_problem
    from storage.errors import sqlite_problem as _sqlite_problem

    def raised(target: str, sql: str, **kw: Any) -> sqlite3.Error:
        try:
            db = sqlite3.connect(target, **kw)
            try:
                db.execute(sql)
            finally:
                db.close()
        except sqlite3.Error as e:
            return e
        raise AssertionError(f"{sql} did not fail")

    header_only = tmp_path / "header.sqlite"
    header_only.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84)
    good = tmp_path / "good.sqlite"
    stored_game(good)
    errors = {
        "full": real_sqlite_error("full"),
        "cantopen": raised(str(tmp_path / "no" / "such" / "x.sqlite"), "SELECT 1 FROM t"),
        "readonly": raised(f"{good.as_uri()}?mode=ro", "DELETE FROM events", uri=True),
        "notadb": raised(str(header_only), "SELECT * FROM sqlite_master"),
    }
    kinds = {name: type(_sqlite_problem(good, e)) for name, e in errors.items()}
    assert kinds == {"full": StorageFailed, "cantopen": NoAccess, "readonly": NoAccess,
                     "notadb": DamagedFile}  # fmt: skip
    assert "the disk is full" in str(_sqlite_problem(good, errors["full"]))
    os_kinds = {
        code: type(_os_problem(good, OSError(code, os.strerror(code)), "cannot open"))
        for code in (errno.ENOSPC, errno.EIO, errno.EACCES, errno.EROFS, errno.ENOTDIR)
    }
    assert os_kinds == {errno.ENOSPC: StorageFailed, errno.EIO: StorageFailed,
                        errno.EACCES: NoAccess, errno.EROFS: NoAccess,
                        errno.ENOTDIR: NoAccess}  # fmt: skip
    assert str(_os_problem(good, OSError(errno.EROFS, "x"), "cannot open")).endswith(
        "cannot write: the disk holding it is read-only")


def test_a_closed_store_used_again_is_a_bug_not_a_disk(tmp_path: Path) -> None:
    import sqlite3

    from companion.events import Draw, Start
    from storage import Store, StoreError

    store = Store(tmp_path / "games.sqlite")
    game = store.new_game(Start(("Ana", "Bo", "Cy")))
    store.close()
    with pytest.raises(sqlite3.ProgrammingError) as caught:
        store.append(game, Draw("T1"))
    assert not isinstance(caught.value, StoreError)  # the trace is kept, no restart loop
