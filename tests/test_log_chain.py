"""Issue 27, item 8: the log proves it is whole. An event altered, removed or
moved, or the end of a game lost with a damaged ``-wal``, is found and named,
never replayed as a shorter game (SQLite's integrity check sees none of these)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.events import Draw, Reveal, Start
from incan_companion import cli
from storage import Store
from storage.chain import read_tail

START = Start(("Ana", "Bo", "Cy"), "incan-gold")
CARDS = ("T1", "T2", "T3", "T4", "T5A", "T5B", "T7A", "T7B", "T9", "T11A", "T11B",
         "T13", "T14", "T15", "T17", "A1", "A2", "A3", "A4", "A5", "SNAKE1")  # fmt: skip


def stored(path: Path, draws: int = 5) -> int:
    with Store(path) as store:
        game = store.new_game(START)
        for card in CARDS[:draws]:
            store.append(game, Draw(card))
            store.append(game, Reveal(()))
    return game


def poke(path: Path, sql: str) -> None:
    db = sqlite3.connect(path)
    db.executescript(sql)
    db.commit()
    db.close()
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def replay(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> tuple[int, str]:
    code = cli.main(["replay", str(path), *extra])
    return code, capsys.readouterr().err.strip()


def test_a_whole_log_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "games.sqlite"
    stored(path)
    assert replay(capsys, path, "--json")[0] == 0
    tail = read_tail(path)
    assert tail is not None and (tail.game, tail.seq) == (1, 10)


@pytest.mark.parametrize(
    ("sql", "said"),
    [
        # another card, well-formed: only the chain can tell
        ("UPDATE events SET line = '{\"event\": \"draw\", \"card\": \"T17\"}' WHERE seq = 3",
         "game 1: event 3 is not the one stored (altered or moved)"),
        ("DELETE FROM events WHERE seq = 4", "game 1: event 4 is missing"),
        # two events swapped
        ("UPDATE events SET seq = 99 WHERE seq = 1; UPDATE events SET seq = 1 WHERE seq = 3; "
         "UPDATE events SET seq = 3 WHERE seq = 99",
         "game 1: event 1 is not the one stored (altered or moved)"),
    ],
    ids=["altered", "removed", "reordered"],
)
def test_a_changed_log_is_named_not_replayed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], sql: str, said: str
) -> None:
    path = tmp_path / "games.sqlite"
    stored(path)
    poke(path, sql)
    for command in ("replay", "export"):
        code = cli.main([command, str(path)])
        err = capsys.readouterr().err.strip()
        assert code == 2, command
        assert err.endswith(f"{said}: the stored log is not whole"), err
    with Store(path) as store:
        assert store.unfinished() is None  # never resumed


def test_a_bit_flipped_in_the_wal_loses_no_event_silently(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The power goes with the last commits in the -wal; one bit of it is then
    flipped: SQLite drops that commit and every later one, and integrity_check
    says ok. 43 events were acknowledged: replay must not show fewer."""
    live = tmp_path / "live" / "games.sqlite"
    live.parent.mkdir()
    store = Store(live)
    game = store.new_game(START)
    store._db.execute("PRAGMA wal_autocheckpoint=0")  # the commits stay in the -wal
    for card in CARDS:
        store.append(game, Draw(card))
        store.append(game, Reveal(()))
    # The power cut: the files as they are on the card now, the store still open.
    cut = tmp_path / "after" / "games.sqlite"
    cut.parent.mkdir()
    for suffix in ("", "-wal", ".tail"):
        shutil.copyfile(f"{live}{suffix}", f"{cut}{suffix}")
    store.close()
    wal = bytearray(Path(f"{cut}-wal").read_bytes())
    wal[len(wal) * 2 // 3] ^= 0x10
    Path(f"{cut}-wal").write_bytes(bytes(wal))
    db = sqlite3.connect(cut)
    kept = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    db.close()
    assert 1 <= kept < 43  # SQLite dropped the end, silently
    code, err = replay(capsys, cut)
    assert code == 2
    assert err.endswith(
        f"game 1 ends at event {kept - 1} in the file, but its events up to 42 were stored: "
        f"the last {43 - kept} are lost: the stored log is not whole"
    ), err


def test_an_old_file_gets_its_chain_and_replays_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    stored(path, draws=3)
    db = sqlite3.connect(path)  # as schema 2 left it: no chain
    db.execute("DROP TABLE chain")
    db.execute("PRAGMA user_version=2")
    db.commit()
    db.close()
    (tmp_path / "games.sqlite.tail").unlink()
    with Store(path) as store:
        assert len(store.events(1)) == 7
        store.append(1, Draw("T9"))
    with Store(path, readonly=True) as store:
        assert len(store.events(1)) == 8
    assert sqlite3.connect(path).execute("SELECT COUNT(*) FROM chain").fetchone()[0] == 8


def test_a_tail_that_is_a_symlink_is_never_written_through(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "games.sqlite"
    victim = tmp_path / "notes.txt"
    victim.write_text("someone's notes", encoding="utf-8")
    tail = tmp_path / "games.sqlite.tail"
    tail.symlink_to(victim)
    stored(path, draws=2)  # a new file: a tail left there is removed, the link not followed
    assert not tail.is_symlink() and read_tail(path) is not None
    tail.unlink()
    tail.symlink_to(victim)  # planted beside a file in use
    with caplog.at_level("WARNING"), Store(path) as store:
        store.append(1, Draw("T9"))
    assert victim.read_text(encoding="utf-8") == "someone's notes"
    assert tail.is_symlink()
    assert "games.sqlite.tail: cannot open it" in caplog.text  # refused, and said
    assert read_tail(path) is None  # nor read through it
