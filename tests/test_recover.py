"""Issue 27, item 9: a way back from damage. ``recover`` never writes the damaged
file, mends index damage with REINDEX, salvages the rows SQLite can still read
around damaged pages, keeps each game whole or up to its first bad event by its hash
chain, and says what it saved."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from pathlib import Path

import pytest
from helpers import load_bench

from companion.events import Draw, Reveal, Start
from incan_companion import cli
from storage import Store

bench = load_bench("datafile_faults")
CARDS = ("T1", "T2", "T3", "T4", "T5A", "T5B", "T7A", "T7B", "T9", "T11A")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def a_file(path: Path, games: int) -> None:
    with Store(path) as store:
        for g in range(games):
            game = store.new_game(Start(("Ana", "Bo", f"Cy{g}")))
            for card in CARDS:
                store.append(game, Draw(card))
                store.append(game, Reveal(()))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_index_damage_is_mended_by_reindex_every_game_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Set aside, the history showed 0 games though REINDEX mends it all."""
    data = tmp_path / "games.sqlite"
    a_file(data, 3)
    assert bench.hide_rows_from_index(data, 2, 3) == 18  # 21 events, from the 4th on
    damaged = sha(data)
    out = tmp_path / "saved.sqlite"
    code, said, err = run(capsys, "recover", str(data), "--out", str(out))
    assert (code, err) == (0, "")
    assert said.splitlines()[0] == f"recover {data}: copied, reindexed"
    assert "saved whole: 3, in part: 0, lost: 0" in said
    assert sha(data) == damaged  # never written
    with Store(out, readonly=True) as store:
        assert [len(store.events(g)) for g in (1, 2, 3)] == [21, 21, 21]
        assert store.events(3)[0] == Start(("Ana", "Bo", "Cy2"))


def test_a_damaged_page_is_rebuilt_and_each_game_judged_by_its_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games.sqlite"
    a_file(data, 40)
    raw = bytearray(data.read_bytes())
    page = 4096
    middle = (len(raw) // page // 2) * page
    raw[middle : middle + page] = random.Random(3).randbytes(page)
    data.write_bytes(bytes(raw))
    with pytest.raises(Exception, match=r"damaged|malformed"):
        Store(data, readonly=True)
    out = tmp_path / "saved.sqlite"
    code, said, _err = run(capsys, "recover", str(data), "--out", str(out))
    assert code == 0
    assert said.splitlines()[0].endswith("rows read past the damage")
    last = said.splitlines()[-2]
    whole = int(last.split("saved whole: ")[1].split(",")[0])
    assert 30 <= whole < 40, said  # most games come back whole, one page's worth do not
    assert "lost: event 0 is missing" in said or "in part: event" in said
    with Store(out, readonly=True) as store:
        for info in store.games():
            events = store.events(info.id)  # every saved game replays, chained
            assert isinstance(events[0], Start)


def test_it_refuses_to_overwrite_and_reads_nothing_that_is_not_there(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games.sqlite"
    a_file(data, 1)
    taken = tmp_path / "taken.sqlite"
    taken.write_text("mine", encoding="utf-8")
    code, _out, err = run(capsys, "recover", str(data), "--out", str(taken))
    assert code == 2 and err.strip().endswith("exists already: name a new file for what is saved")
    assert taken.read_text(encoding="utf-8") == "mine"
    code, _out, err = run(capsys, "recover", str(tmp_path / "none.sqlite"))
    assert code == 2 and "no such data file" in err
    folder = tmp_path / "a-folder.sqlite"  # there, but no file: said so, not "no such"
    folder.mkdir()
    code, _out, err = run(capsys, "recover", str(folder))
    assert code == 2 and err.strip().endswith(f"{folder}: not a file")
    loop = tmp_path / "loop.sqlite"  # a link to itself: said so too, not "no such"
    loop.symlink_to(loop)
    code, _out, err = run(capsys, "recover", str(loop))
    assert code == 2 and err.strip().endswith(f"{loop}: Too many levels of symbolic links")


def test_a_game_altered_in_the_middle_is_saved_up_to_the_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "games.sqlite"
    a_file(data, 2)
    db = sqlite3.connect(data)
    db.execute("UPDATE events SET line = '{\"event\": \"draw\", \"card\": \"T17\"}' "
               "WHERE game = 2 AND seq = 5")  # fmt: skip
    db.commit()
    db.close()
    out = tmp_path / "saved.sqlite"
    code, said, _ = run(capsys, "recover", str(data), "--out", str(out))
    assert code == 0
    rows = [line.split() for line in said.splitlines()[2:4]]
    assert rows[0][:5] == ["1", "21", "21", "1", "whole"]
    assert rows[1][:5] == ["2", "21", "5", "2", "in"]
    assert "event 5 is not the one stored" in said
    with Store(out, readonly=True) as store:
        assert len(store.events(2)) == 5


def test_a_file_without_its_chain_is_cut_at_a_gap_or_an_unreadable_event(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With no hash kept (the chain's table gone), only the events themselves
    judge a game: it is saved up to a missing event or one that cannot be read."""
    data = tmp_path / "games.sqlite"
    a_file(data, 3)
    db = sqlite3.connect(data)
    db.execute("DROP TABLE chain")
    db.execute("UPDATE events SET line = 'not an event' WHERE game = 1 AND seq = 4")
    db.execute("DELETE FROM events WHERE game = 2 AND seq = 7")
    db.commit()
    db.close()
    out = tmp_path / "saved.sqlite"
    code, said, _ = run(capsys, "recover", str(data), "--out", str(out))
    assert code == 0, said
    assert "event 4 cannot be read" in said
    assert "event 7 is missing" in said
    with Store(out, readonly=True) as store:
        assert [len(store.events(g)) for g in (1, 2, 3)] == [4, 7, 21]
