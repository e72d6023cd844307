"""Issue 27, items 1, 2 and 10: a lock that cannot be fooled, and a set-aside
that a crash cannot split.

The writer's lock is the data file's own (its inode): no lock file to point
elsewhere, delete or truncate, and every path to the file meets it. Setting
a damaged file aside keeps all its bytes, its ``-wal`` included, under one
name or the other whatever step a crash stops it at.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import paced

from companion.events import Draw, Reveal, Start
from storage import InUse, Store, open_or_set_aside

ROOT = Path(__file__).resolve().parent.parent
START = Start(("Ana", "Bo", "Cy"), "incan-gold")

HOLD = """
import sys
from storage import Store
store = Store(sys.argv[1])
print("holding", flush=True)
sys.stdin.read()
"""


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def a_game(path: Path) -> None:
    with Store(path) as store:
        game = store.new_game(START)
        for event in (Draw("T1"), Reveal(()), Draw("T2")):
            store.append(game, event)


@pytest.fixture
def held(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A data file with a game, held by a writer in another process."""
    data = tmp_path / "games.sqlite"
    a_game(data)
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(data)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline() == "holding\n"
    yield data, proc
    proc.communicate("", timeout=paced(60))


def test_a_lock_file_symlinked_to_the_data_file_empties_nothing(tmp_path: Path) -> None:
    """`ln -sfn games.sqlite games.sqlite.lock` then a start: both were emptied."""
    data = tmp_path / "games.sqlite"
    a_game(data)
    before = sha(data)
    (tmp_path / "games.sqlite.lock").symlink_to("games.sqlite")
    victim = tmp_path / "notes.txt"
    victim.write_text("someone's notes", encoding="utf-8")
    store, aside = open_or_set_aside(data)
    with store:
        assert aside is None
        assert [type(e).__name__ for e in store.events(1)] == ["Start", "Draw", "Reveal", "Draw"]
    assert sha(data) == before  # opened, read, closed: not a byte changed
    assert victim.read_text(encoding="utf-8") == "someone's notes"
    with Store(data, readonly=True) as again:
        assert len(again.events(1)) == 4


@pytest.mark.parametrize("alias", ["symlink", "hard link", "dotted path"])
def test_every_path_to_the_file_meets_the_one_lock(
    held: tuple[Path, subprocess.Popen[str]], alias: str
) -> None:
    data, proc = held
    other = data.parent / "other"
    other.mkdir()
    if alias == "symlink":
        path = other / "g.sqlite"
        path.symlink_to(data)
    elif alias == "hard link":
        path = other / "g.sqlite"
        os.link(data, path)
    else:
        path = other / ".." / data.name
    with pytest.raises(InUse, match=rf"in use by process {proc.pid} "):
        Store(path)
    with pytest.raises(InUse):
        open_or_set_aside(path)
    with Store(path, readonly=True) as reader:  # reading goes on
        assert len(reader.events(1)) == 4


def test_deleting_files_beside_it_lets_no_second_writer_in(
    held: tuple[Path, subprocess.Popen[str]],
) -> None:
    data, proc = held
    for leftover in data.parent.glob(f"{data.name}.lock"):
        leftover.unlink()  # a lock file of an older version, deleted mid-game
    with pytest.raises(InUse, match=rf"in use by process {proc.pid} "):
        Store(data)
    assert not any(p.name.endswith(".lock") for p in data.parent.iterdir())


def test_a_data_file_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    from storage import NoAccess

    fifo = tmp_path / "games.sqlite"
    os.mkfifo(fifo)
    with pytest.raises(NoAccess, match="not a regular file"):
        Store(fifo)


# --- a crash at any step of setting a file aside ---------------------------------------

CRASH_AT = """
import os, sys
from pathlib import Path
from storage import open_or_set_aside
data, step = Path(sys.argv[1]), int(sys.argv[2])
count = [0]
for name in ("link", "unlink", "replace", "rename"):
    real = getattr(os, name)
    def crashing(*args, _real=real, **kwargs):
        count[0] += 1
        if count[0] == step:
            os._exit(9)  # the power goes, mid-step
        return _real(*args, **kwargs)
    setattr(os, name, crashing)
store, aside = open_or_set_aside(data)
store.close()
print("done", flush=True)
"""


def damaged_with_a_wal(data: Path) -> dict[str, bytes]:
    """A data file whose header is damaged while its -wal holds the last commits."""
    a_game(data)
    db_bytes = bytearray(data.read_bytes())
    db_bytes[:16] = b"not SQLite any more"[:16]  # the file is no longer ours
    data.write_bytes(bytes(db_bytes))
    Path(f"{data}-wal").write_bytes(b"the last commits " * 64)
    return {"": data.read_bytes(), "-wal": Path(f"{data}-wal").read_bytes()}


@pytest.mark.parametrize("step", range(1, 9))
def test_a_crash_at_any_step_of_a_set_aside_loses_no_byte(tmp_path: Path, step: int) -> None:
    data = tmp_path / "games.sqlite"
    original = damaged_with_a_wal(data)
    crashed = subprocess.run(
        [sys.executable, "-c", CRASH_AT, str(data), str(step)], capture_output=True, text=True,
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=paced(60), check=False,
    )  # fmt: skip
    assert crashed.returncode in (0, 9), crashed.stderr
    # The next start finishes the job (or does it again): the path is a good, new file.
    store, _ = open_or_set_aside(data)
    store.close()
    # Somewhere beside it, under one set-aside name, the whole set as it was.
    whole = [
        aside for aside in tmp_path.glob("games.sqlite.bad-*")
        if not aside.name.endswith(("-wal", "-shm"))
        and aside.read_bytes() == original[""]
        and Path(f"{aside}-wal").exists()
        and Path(f"{aside}-wal").read_bytes() == original["-wal"]
    ]  # fmt: skip
    assert whole, sorted(p.name for p in tmp_path.iterdir())
    # And never a -wal left beside the new file that is not its own.
    wal = Path(f"{data}-wal")
    assert not wal.exists() or wal.read_bytes() != original["-wal"]
    assert not list(tmp_path.glob("games.sqlite.new-*"))
