"""What the log's proof costs: a hash chained to every event and the tail beside
the file (storage/chain.py).

    python bench/chain.py [--games 5000] [--appends 300] [--dir DIR]

- **per append**: ``Store.append`` of one event, committed and synced as in the
  app, with the chain and the tail, against the same store without them (as
  schema 2 wrote) and the same insert and commit done by the plain sqlite3
  module on a file with the same settings (WAL, synchronous FULL). Median of
  ``--appends``, on the disk of ``--dir`` (default: the temp dir; a tmpfs
  syncs for free, a card does not).
- **at open / a whole check**: every event of a ``--games`` file (random whole
  games of 20 to 80 events) read and its chain checked, against reading the same
  rows alone (``SELECT`` of every event); and one game's check, as ``replay``
  does it.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.events import Draw, Reveal, Start, to_line  # noqa: E402
from storage import Store, chain  # noqa: E402

START = Start(("Ana", "Bo", "Cy", "Dee"), "incan-gold")


def _appends(path: Path, appends: int, proof: bool) -> list[float]:
    with Store(path) as store:
        game = store.new_game(START)
        if not proof:
            store._version = 2  # as before schema 3: no chain row, no tail
        times = []
        for i in range(appends):
            event = Draw("T1") if i % 2 == 0 else Reveal(())
            t = time.perf_counter()
            store.append(game, event)
            times.append(time.perf_counter() - t)
    return times


def per_append(folder: Path, appends: int) -> tuple[float, float, float]:
    """Median seconds of one append: ours with the proof, ours without it, and the
    same insert and commit through the plain sqlite3 module; interleaved in rounds
    of 20 so that a change of load on a shared machine meets all three alike."""
    with_proof: list[float] = []
    without: list[float] = []
    base: list[float] = []
    plain = folder / "plain.sqlite"
    db = sqlite3.connect(plain, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE events (game INTEGER, seq INTEGER, line TEXT, at TEXT, "
               "PRIMARY KEY (game, seq))")  # fmt: skip
    for round_ in range(max(1, appends // 20)):
        with_proof += _appends(folder / f"ours-{round_}.sqlite", 20, proof=True)
        without += _appends(folder / f"bare-{round_}.sqlite", 20, proof=False)
        for i in range(20):
            line = to_line(Draw("T1") if i % 2 == 0 else Reveal(()))
            t = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            seq = db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM events WHERE game = 1"
            ).fetchone()
            db.execute("INSERT INTO events VALUES (1, ?, ?, ?)", (seq[0], line, "2026-11-24"))
            db.execute("COMMIT")
            base.append(time.perf_counter() - t)
    db.close()
    return statistics.median(with_proof), statistics.median(without), statistics.median(base)


def a_big_file(path: Path, games: int) -> int:
    """A file of ``games`` games written through the real Store, in one transaction
    each (the bench measures reading; events are chained as the app chains them)."""
    rng = random.Random(1)
    events = 0
    with Store(path) as store:
        db = store._db
        db.execute("PRAGMA synchronous=OFF")
        for _ in range(games):
            game = store.new_game(START)
            previous = db.execute("SELECT hash FROM chain WHERE game = ?", (game,)).fetchone()[0]
            rows = []
            for seq in range(1, rng.randint(20, 80)):
                line = to_line(Draw("T1") if seq % 2 else Reveal(()))
                previous = chain.next_hash(previous, line.encode())
                rows.append((game, seq, line, previous))
            db.execute("BEGIN")
            db.executemany("INSERT INTO events VALUES (?, ?, ?, '2026-11-24')",
                           [r[:3] for r in rows])  # fmt: skip
            db.executemany("INSERT INTO chain VALUES (?, ?, ?)", [(r[0], r[1], r[3]) for r in rows])
            db.execute("COMMIT")
            events += len(rows) + 1
    return events


def best(fn, runs: int = 5) -> float:  # type: ignore[no-untyped-def]
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return min(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000)
    parser.add_argument("--appends", type=int, default=300)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        ours, bare, plain = per_append(folder, args.appends)
        print(f"per append ({args.appends}, median): {ours * 1e3:.2f} ms with the chain and "
              f"tail, {bare * 1e3:.2f} ms without them ({ours / bare:.2f}x), "
              f"{plain * 1e3:.2f} ms plain sqlite3 ({ours / plain:.2f}x)")  # fmt: skip
        big = folder / "big.sqlite"
        events = a_big_file(big, args.games)
        db = sqlite3.connect(f"{big.as_uri()}?mode=ro", uri=True)
        read = best(lambda: db.execute("SELECT game, seq, line FROM events "
                                       "ORDER BY game, seq").fetchall())  # fmt: skip
        check = best(lambda: chain.verify(chain.chained_rows(db)))
        one = best(lambda: chain.verify(chain.chained_rows(db, args.games // 2)), runs=50)
        db.close()
        print(f"whole check, {args.games} games, {events} events: {check * 1e3:.0f} ms; "
              f"reading the rows alone {read * 1e3:.0f} ms: {check / read:.2f}x")  # fmt: skip
        print(f"one game's check (replay, export): {one * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
