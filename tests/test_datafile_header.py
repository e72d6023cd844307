"""A data file whose header SQLite refuses is set aside with its -wal: SQLite, closing
a connection that failed on the header, deleted the -wal, and with it the last
commits (found by bench/datafile_faults.py's set-aside-crash case)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.events import Draw, Reveal, Start
from storage import Store, open_or_set_aside
from storage.errors import DamagedFile


def last_commits_in_the_wal(data: Path) -> tuple[bytes, bytes]:
    """A file of one game of 7 events, all of them still in its -wal (the power cut
    before a checkpoint): the file's bytes and the -wal's."""
    store = Store(data)
    store._db.execute("PRAGMA wal_autocheckpoint=0")
    game = store.new_game(Start(("Ana", "Bo", "Cy")))
    for card in ("T1", "T2", "T3"):
        store.append(game, Draw(card))
        store.append(game, Reveal(()))
    files = data.read_bytes(), Path(f"{data}-wal").read_bytes()
    store.close()
    data.write_bytes(files[0])
    Path(f"{data}-wal").write_bytes(files[1])
    return files


@pytest.mark.parametrize(
    ("offset", "value", "said"),
    [
        (47, 5, "unsupported file format"),  # the schema format: 1 to 4
        (16, 3, "file is not a database"),  # the page size: a power of two
        (21, 65, "file is not a database"),  # the payload fractions: 64, 32, 32
    ],
)
def test_a_damaged_header_is_set_aside_with_its_last_commits(
    tmp_path: Path, offset: int, value: int, said: str
) -> None:
    data = tmp_path / "games.sqlite"
    original, wal = last_commits_in_the_wal(data)
    damaged = bytearray(original)
    damaged[offset] = value
    data.write_bytes(bytes(damaged))
    with pytest.raises(DamagedFile, match=said):
        Store(data, readonly=True)
    assert Path(f"{data}-wal").read_bytes() == wal  # a reader left it too
    store, notice = open_or_set_aside(data)
    store.close()
    assert notice is not None
    companions = ("-wal", "-shm", ".tail")
    (aside,) = [p for p in tmp_path.glob("games.sqlite.bad-*") if not p.name.endswith(companions)]
    assert aside.read_bytes() == bytes(damaged)
    assert Path(f"{aside}-wal").read_bytes() == wal
    # Its header mended by hand, the set-aside file holds every event acknowledged.
    mended = tmp_path / "mended.sqlite"
    mended.write_bytes(original)
    Path(f"{mended}-wal").write_bytes(wal)
    db = sqlite3.connect(mended)
    assert db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 7
    db.close()
