"""The data file against two writers, a full disk, missing permissions and a damaged index.

    python bench/datafile_faults.py [cases] [--only two-writers,full-disk,permissions,index]
    python bench/datafile_faults.py cost [--games 5000] [--dir DIR]
    python bench/datafile_faults.py delete [--games 100] [--kills 20]
    python bench/faults.py datafile          # the same cases, from the fault bench

``cases`` runs each case end to end through the real command line (``demo``,
``run``, ``replay``, ``export`` as subprocesses) and prints one table row per
check: what was done, what the rules want, what happened (exit status and
the first line of stderr), whether the data file's bytes are unchanged, and
PASS or FAIL. The exit status is 1 if any row failed.

- two writers: ``demo --autoplay --data F`` twice, 2 s apart (issue 14's
  reproduction); ``replay`` and ``export`` of F while the first plays; ``run``
  on F while the first plays; a demo killed with SIGKILL, then run again
  (its lock file is left behind and must not block).
- full disk: a good data file on a 400 KiB tmpfs filled with ``dd``, then
  ``run --quit-after 2``; the space freed and ``run`` again; a demo whose disk
  fills mid-game. Needs root (it mounts tmpfs); otherwise the rows say skipped.
- permissions: an unreadable data file, a read-only folder with a data file
  and one without, as seen by a process without CAP_DAC_OVERRIDE (root drops
  it in the child, so the checks mean the same as for the service's user).
- index damage: rows of a game taken out of the primary-key index behind
  SQLite's back (``PRAGMA quick_check`` still says ok); ``replay``, ``export``
  and ``run`` on it.

``delete`` deletes games one by one in a process killed with SIGKILL at
random moments: after each kill every game is whole or gone without a trace
(:func:`delete_kill_points`).

``cost`` builds a data file of N whole random games through the real
:class:`~storage.store.Store` (each event its own durable commit, as
in the app), then times ``PRAGMA quick_check``, ``PRAGMA integrity_check`` and
the store's own open (read-only and for writing).
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import hashlib
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CLI = [sys.executable, "-m", "incan_companion"]
CASES = ("two-writers", "full-disk", "permissions", "index")


# --- building and damaging data files ---------------------------------------------------


def play_games(path: Path, games: int, seed: int = 1, *, finish: bool = True) -> list[int]:
    """``games`` random games stored through the real Store; the last one is left
    unfinished (after a few events) unless ``finish``. Returns the game numbers."""
    from companion.engine import Phase
    from companion.events import Draw, Reveal, Start
    from companion.session import Session
    from companion.simulate import SEAT_NAMES, choose_camp, next_card
    from storage import Store

    rng = random.Random(seed)
    made = []
    with Store(path) as store:
        for n in range(games):
            start = Start(SEAT_NAMES[: rng.randint(3, 6)], "incan-gold")
            session = Session.start(start)
            game = store.new_game(start)
            made.append(game)
            last = n == games - 1 and not finish
            steps = 0
            while session.state.phase is not Phase.GAME_OVER and not (last and steps >= 6):
                state = session.state
                event = (
                    Reveal(choose_camp(state, rng) if state.deck else state.due)
                    if state.phase is Phase.CHOOSE
                    else Draw(next_card(state, rng))
                )
                session.apply(event)
                store.append(game, event)
                steps += 1
    return made


_DELETER = """
import sys
sys.path.insert(0, sys.argv[1])
from storage import Store
with Store(sys.argv[2]) as store:
    store.history()  # every game's summary in the file, so that deleting removes one
    print("READY", flush=True)
    for game in sys.argv[3:]:
        store.delete_game(int(game))
        print("DELETED", game, flush=True)
"""


# Where a game has rows: each table and its column naming the game.
_GAME_ROWS = (("games", "id"), ("events", "game"), ("seats", "game"), ("summaries", "game"))


def delete_kill_points(path: Path, games: int, kills: int, seed: int) -> tuple[list[str], int]:
    """Games deleted one by one by a child killed with SIGKILL at random moments.

    After each kill the file must pass its integrity check, and each game
    must be whole (all its events, seat links and summary) or gone without a
    trace (no event, link, summary or option left), and every game the child
    said it deleted must be gone. Returns the problems found (none: []) and
    how many kills came before the child had deleted every game."""
    from storage import Store

    rng = random.Random(seed)
    made = play_games(path, games, seed=seed)
    with Store(path) as store:
        for game in made:
            store.set_option(game, "hidden_tents", "1")
            start = store.events(game)[0]
            store.link_players(game, getattr(start, "seats", ()))
    db = sqlite3.connect(path)
    whole = {g: db.execute("SELECT COUNT(*) FROM events WHERE game = ?", (g,)).fetchone()[0]
             for g in made}  # fmt: skip
    db.close()
    problems: list[str] = []
    deleted: set[int] = set()
    interrupted = 0
    for kill in range(kills):
        left = [g for g in made if g not in deleted]
        rng.shuffle(left)
        proc = subprocess.Popen([sys.executable, "-c", _DELETER, str(ROOT), str(path),
                                 *map(str, left)], stdout=subprocess.PIPE, text=True)  # fmt: skip
        assert proc.stdout is not None
        if proc.stdout.readline().strip() != "READY":
            proc.kill()
            proc.wait()
            return [*problems, f"kill {kill}: the deleter did not start"], interrupted
        time.sleep(rng.uniform(0.0, 0.01))
        proc.send_signal(signal.SIGKILL)
        said = proc.stdout.read().split()
        interrupted += proc.wait() == -signal.SIGKILL
        deleted |= {int(g) for g in said[1::2]}
        db = sqlite3.connect(path)
        try:
            verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
            if verdict != "ok":
                problems.append(f"kill {kill}: integrity_check: {verdict}")
            for game, events in whole.items():
                rows = {
                    table: db.execute(f"SELECT COUNT(*) FROM {table} WHERE {key} = ?", (game,))
                    .fetchone()[0]
                    for table, key in _GAME_ROWS
                }
                options = db.execute("SELECT COUNT(*) FROM meta WHERE key LIKE ?",
                                     (f"game.{game}.%",)).fetchone()[0]  # fmt: skip
                gone = not any(rows.values()) and options == 0
                kept = (rows["games"] == 1 and rows["events"] == events and rows["seats"] > 0
                        and rows["summaries"] == 1 and options == 1)  # fmt: skip
                if gone:
                    deleted.add(game)
                elif not kept:
                    problems.append(f"kill {kill}: game {game} is half deleted: {rows}, "
                                    f"{options} options")  # fmt: skip
                elif game in deleted:
                    problems.append(f"kill {kill}: game {game} was said deleted, but is whole")
        finally:
            db.close()
    return problems, interrupted


def _bump_schema(db: sqlite3.Connection) -> None:
    version = db.execute("PRAGMA schema_version").fetchone()[0]
    db.execute(f"PRAGMA schema_version={version + 1}")


def hide_rows_from_index(path: Path, game: int, first_seq: int) -> int:
    """Damage the primary-key index: the events of ``game`` from ``first_seq`` on
    stay in the table but leave the index (as a bad sector or a torn index page
    would leave it). ``PRAGMA quick_check`` still says ok; ``integrity_check``
    reports the missing rows. Returns how many rows were hidden.

    How: the rows are deleted (table and index), SQLite is made to forget the
    index for a moment (``writable_schema``), the rows go back into the table
    only, and the index is declared again with its old pages.
    """
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=DELETE")
        rows = db.execute(
            "SELECT rowid, game, seq, line, at FROM events WHERE game = ? AND seq >= ?",
            (game, first_seq),
        ).fetchall()
        db.execute("DELETE FROM events WHERE game = ? AND seq >= ?", (game, first_seq))
        index = db.execute(
            "SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master "
            "WHERE name = 'sqlite_autoindex_events_1'"
        ).fetchone()
        table_sql = db.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()[0]
        without_key = table_sql.replace(",\n    PRIMARY KEY (game, seq)", "")
        assert without_key != table_sql, table_sql
        db.execute("PRAGMA writable_schema=ON")
        db.execute("DELETE FROM sqlite_master WHERE name = 'sqlite_autoindex_events_1'")
        db.execute("UPDATE sqlite_master SET sql = ? WHERE name = 'events'", (without_key,))
        _bump_schema(db)
    finally:
        db.close()
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.executemany("INSERT INTO events (rowid, game, seq, line, at) VALUES (?, ?, ?, ?, ?)",
                       rows)  # fmt: skip
        db.execute("PRAGMA writable_schema=ON")
        db.execute("UPDATE sqlite_master SET sql = ? WHERE name = 'events'", (table_sql,))
        db.execute("INSERT INTO sqlite_master VALUES (?, ?, ?, ?, ?)", index)
        _bump_schema(db)
    finally:
        db.close()
    return len(rows)


def check(path: Path, pragma: str = "integrity_check") -> list[str]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return [str(r[0]) for r in db.execute(f"PRAGMA {pragma}")]
    finally:
        db.close()


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def set_aside(folder: Path, name: str) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.name.startswith(f"{name}.bad-")
                  and not p.name.endswith(("-wal", "-shm")))  # fmt: skip


# --- processes ------------------------------------------------------------------------------


def environment(home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_NO_FILELOG="1",
        KIVY_HOME=str(home / "kivy"), INCAN_CONFIG=str(home / "no-config.toml"),
        PYTHONPATH=str(ROOT),
    )  # fmt: skip
    for key in ("INCAN_DEBUG", "INCAN_DATA", "SDL_VIDEODRIVER"):
        env.pop(key, None)
    return env


def drop_dac() -> None:
    """In a child before exec: without CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH,
    root meets file permissions as any user does (a no-op for other users)."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def can_drop_dac() -> bool:
    try:
        done = subprocess.run(["true"], preexec_fn=drop_dac, check=False, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@dataclass
class Result:
    code: int | None  # None: still running when given up on
    err: str
    out: str = ""
    seconds: float = 0.0

    @property
    def lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]

    @property
    def said(self) -> str:
        """The process's last line on stderr (its verdict), without Kivy's log lines."""
        own = [ln for ln in self.lines if not ln.startswith("[")]
        return own[-1] if own else ""


def run_cli(args: Sequence[str], env: dict[str, str], *, timeout: float = 120.0,
            preexec: Callable[[], None] | None = None) -> Result:  # fmt: skip
    t0 = time.monotonic()
    try:
        done = subprocess.run([*CLI, *args], env=env, cwd=ROOT, capture_output=True, text=True,
                              timeout=timeout, preexec_fn=preexec, check=False)  # fmt: skip
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode("utf-8", "replace") if isinstance(e.stderr, bytes) else ""
        return Result(None, err, "", time.monotonic() - t0)
    return Result(done.returncode, done.stderr, done.stdout, time.monotonic() - t0)


def app(data: Path, env: dict[str, str], seconds: float = 2.0, **kw: object) -> Result:
    return run_cli(["run", "--buttons", "keyboard", "--camera", "none", "--quit-after",
                    str(seconds), "--data", str(data)], env, **kw)  # type: ignore[arg-type]


def demo_args(data: Path, seed: int = 0) -> list[str]:
    return ["demo", "--autoplay", "--seats", "3", "--seed", str(seed), "--json",
            "--data", str(data)]  # fmt: skip


def stored_events(path: Path) -> int:
    if not path.exists() or path.stat().st_size == 0:
        return 0
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
        finally:
            db.close()
    except sqlite3.Error:
        return 0


def wait_events(path: Path, n: int, proc: subprocess.Popen[str], timeout: float = 120.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if stored_events(path) >= n:
            return True
        if proc.poll() is not None:
            return False
        time.sleep(0.05)
    return False


# --- the table ---------------------------------------------------------------------------


@dataclass
class Row:
    case: str
    check: str
    wanted: str
    got: str
    kept: str  # the data file's bytes: "same", "changed", "set aside", "-"
    ok: bool | None  # None: skipped


@dataclass
class Table:
    rows: list[Row] = field(default_factory=list)

    def add(self, case: str, check: str, wanted: str, got: str, kept: str,
            ok: bool | None) -> None:  # fmt: skip
        self.rows.append(Row(case, check, wanted, got, kept, ok))
        mark = "skip" if ok is None else "PASS" if ok else "FAIL"
        print(f"  [{mark}] {case}: {check}: {got}", file=sys.stderr, flush=True)

    def render(self) -> str:
        head = ("case", "check", "wanted", "got", "file", "")
        body = [(r.case, r.check, r.wanted, r.got, r.kept,
                 "skip" if r.ok is None else "PASS" if r.ok else "FAIL") for r in self.rows]
        cells = [head, *body]
        widths = [max(len(_cut(c[i])) for c in cells) for i in range(len(head))]
        lines = []
        for n, c in enumerate(cells):
            lines.append("| " + " | ".join(_cut(v).ljust(w) for v, w in zip(c, widths,
                                                                        strict=True)) + " |")
            if n == 0:
                lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        return "\n".join(lines)


def _cut(text: str, n: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def outcome(r: Result) -> str:
    if r.code is None:
        return f"still running after {r.seconds:.0f} s ({len(r.err) / 1e6:.1f} MB on stderr)"
    extra = f", {len(r.lines)} lines" if len(r.lines) > 1 else ""
    tb = ", traceback" if "Traceback" in r.err else ""
    return f"exit {r.code}{extra}{tb}: {r.said}" if r.said else f"exit {r.code}{extra}{tb}"


def one_line_exit(r: Result, code: int, *words: str) -> bool:
    own = [ln for ln in r.lines if not ln.startswith("[")]
    return (r.code == code and len(own) == 1 and "Traceback" not in r.err
            and all(w in own[0] for w in words) and len(own[0]) < 600)  # fmt: skip


# --- the cases ------------------------------------------------------------------------------


def case_two_writers(table: Table, tmp: Path) -> None:
    env = environment(tmp)
    data = tmp / "two" / "games.sqlite"
    data.parent.mkdir()
    first = subprocess.Popen([*CLI, *demo_args(data, 3)], env=env, cwd=ROOT, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        time.sleep(2.0)  # issue 14: "two demo runs started 2 s apart"
        second = run_cli(demo_args(data, 4), env, timeout=300)
        table.add("two writers", "second `demo --data F`, 2 s later",
                  "exit 2, one line naming F and the first's pid", outcome(second), "-",
                  one_line_exit(second, 2, str(data), str(first.pid)))  # fmt: skip
        wait_events(data, 4, first, 120)
        playing = first.poll() is None
        for command in ("replay", "export"):
            r = run_cli([command, str(data)], env, timeout=60)
            table.add("two writers", f"`{command} F` while the first plays",
                      "exit 0" + ("" if playing else " (the first had ended)"), outcome(r), "-",
                      r.code == 0)  # fmt: skip
        if first.poll() is None:
            r = app(data, env, 1.0, timeout=120)
            table.add("two writers", "`run --data F` while the first plays",
                      "exit 2, one line naming the holder", outcome(r), "-",
                      one_line_exit(r, 2, str(first.pid)))  # fmt: skip
        first.communicate(timeout=300)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    replay = run_cli(["replay", str(data), "--json"], env, timeout=60)
    ok = first.returncode == 0 and replay.code == 0 and '"phase": "game_over"' in replay.out
    table.add("two writers", "the first demo's game, read back", "exit 0, replays to its end",
              f"demo exit {first.returncode}; replay {outcome(replay)[:60]}", "-", ok)
    # A writer killed mid-game: its lock (on the data file) goes with it, and the
    # next one must not be blocked; no lock file is ever left beside the file.
    stale = tmp / "stale" / "games.sqlite"
    stale.parent.mkdir()
    proc = subprocess.Popen([*CLI, *demo_args(stale, 5)], env=env, cwd=ROOT, text=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    wait_events(stale, 5, proc, 120)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    lock_left = Path(f"{stale}.lock").exists()
    again = run_cli(demo_args(stale, 5), env, timeout=300)
    table.add("two writers", "demo killed (SIGKILL), then demo again",
              "exit 0, resumes the stored game",
              f"{outcome(again)[:50]}; lock file left: {'yes' if lock_left else 'no'}; "
              f"resumed: {'yes' if 'resuming game' in again.err else 'no'}", "-",
              again.code == 0 and "resuming game" in again.err)  # fmt: skip


@contextlib.contextmanager
def tmpfs(where: Path, size: str) -> Iterator[Path]:
    where.mkdir(parents=True, exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(where)],
                   check=True, capture_output=True, timeout=30)  # fmt: skip
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False, capture_output=True, timeout=30)


def fill(folder: Path) -> None:
    subprocess.run(["dd", "if=/dev/zero", f"of={folder / 'fill'}", "bs=4k"],
                   capture_output=True, check=False, timeout=60)  # fmt: skip


def case_full_disk(table: Table, tmp: Path) -> None:
    env = environment(tmp)
    try:
        with tmpfs(tmp / "full", "400k") as disk:
            data = disk / "games.sqlite"
            (game,) = play_games(data, 1, finish=False)
            before = sha(data)
            fill(disk)
            r = app(data, env)
            same = data.exists() and sha(data) == before
            asides = set_aside(disk, data.name)
            table.add("full disk", "400 KiB tmpfs filled by dd, `run --quit-after 2`",
                      "exit 1 (the service retries), one line, file left as it is", outcome(r),
                      "same" if same else "set aside" if asides else "changed",
                      one_line_exit(r, 1, "disk is full") and same and not asides)  # fmt: skip
            (disk / "fill").unlink()
            r = app(data, env)
            from storage import Store

            try:
                with Store(data, readonly=True) as store:
                    offered = store.unfinished()
            except Exception as e:
                offered = None
                r.err += f"\n{e}"
            table.add("full disk", "space freed, `run --quit-after 2` again",
                      "exit 0, the unfinished game still offered",
                      f"{outcome(r)[:50]}; unfinished game: {offered}", "-",
                      r.code == 0 and offered == game)  # fmt: skip
    except (OSError, subprocess.CalledProcessError) as e:
        table.add("full disk", "start-up on a full disk", "-", f"skipped: cannot mount tmpfs "
                  f"({getattr(e, 'stderr', b'') or e})", "-", None)  # fmt: skip
        return
    try:
        with tmpfs(tmp / "full2", "4m") as disk:
            data = disk / "games.sqlite"
            proc = subprocess.Popen([*CLI, *demo_args(data, 6)], env=env, cwd=ROOT, text=True,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
            wait_events(data, 6, proc, 120)
            fill(disk)
            t0 = time.monotonic()
            try:
                _out, err = proc.communicate(timeout=60)
                r = Result(proc.returncode, err, "", time.monotonic() - t0)
            except subprocess.TimeoutExpired:
                proc.kill()
                _out, err = proc.communicate()
                r = Result(None, err, "", time.monotonic() - t0)
            table.add("full disk", "disk filled while `demo` plays",
                      "exit 1 soon, a few lines, no traceback",
                      f"{outcome(r)[:70]}; {len(r.err) / 1000:.0f} kB stderr in "
                      f"{r.seconds:.1f} s", "-",
                      r.code == 1 and "Traceback" not in r.err and len(r.err) < 20_000)
    except (OSError, subprocess.CalledProcessError) as e:
        table.add("full disk", "disk filled while `demo` plays", "-", f"skipped: {e}", "-", None)


def case_permissions(table: Table, tmp: Path) -> None:
    env = environment(tmp)
    if not can_drop_dac():
        table.add("permissions", "all", "-", "skipped: cannot drop CAP_DAC_OVERRIDE", "-", None)
        return
    base = tmp / "perm"
    base.mkdir(mode=0o755)
    (tmp / "kivy").mkdir(exist_ok=True)
    # 1. an unreadable data file
    data = base / "unreadable" / "games.sqlite"
    data.parent.mkdir()
    play_games(data, 1, finish=False)
    before = sha(data)
    data.chmod(0)
    try:
        r = app(data, env, preexec=drop_dac)
        asides = set_aside(data.parent, data.name)
        rp = run_cli(["replay", str(data)], env, preexec=drop_dac)
    finally:
        data.chmod(0o644)
    same = sha(data) == before
    table.add("permissions", "unreadable data file (mode 000), `run`",
              "exit 2, one line, never set aside", outcome(r),
              "same" if same and not asides else "set aside" if asides else "changed",
              one_line_exit(r, 2, str(data)) and same and not asides)  # fmt: skip
    table.add("permissions", "unreadable data file, `replay`", "exit 2, one line: permission",
              outcome(rp), "-", one_line_exit(rp, 2, str(data), "ermission"))
    # 2. a read-only folder holding a good data file
    data = base / "ro-with-file" / "games.sqlite"
    data.parent.mkdir()
    play_games(data, 1, finish=False)
    before = sha(data)
    before_listing = sorted(p.name for p in data.parent.iterdir())
    data.parent.chmod(0o555)
    try:
        r = app(data, env, preexec=drop_dac)
        listing = sorted(p.name for p in data.parent.iterdir())
        rp = run_cli(["replay", str(data)], env, preexec=drop_dac)
    finally:
        data.parent.chmod(0o755)
    same = sha(data) == before
    table.add("permissions", "read-only folder with a good file, `run`",
              "exit 2, one line, file untouched", outcome(r),
              "same" if same and listing == before_listing else "changed",
              one_line_exit(r, 2, str(data)) and same)  # fmt: skip
    table.add("permissions", "read-only folder with a good file, `replay`", "exit 0",
              outcome(rp)[:60], "-", rp.code == 0)
    # 3. a read-only folder, no data file yet (and a folder to be made inside it)
    folder = base / "ro-empty"
    folder.mkdir(mode=0o555)
    try:
        r = app(folder / "games.sqlite", env, preexec=drop_dac)
        r2 = app(folder / "sub" / "games.sqlite", env, preexec=drop_dac)
    finally:
        folder.chmod(0o755)
    table.add("permissions", "read-only folder, no data file, `run`", "exit 2, one line",
              outcome(r), "-", one_line_exit(r, 2, str(folder)))
    table.add("permissions", "read-only folder, data file in a new sub-folder, `run`",
              "exit 2, one line", outcome(r2), "-", one_line_exit(r2, 2, str(folder)))
    # 4. a read-only disk: refused even for root
    try:
        with tmpfs(base / "ro-disk", "4m") as disk:
            data = disk / "games.sqlite"
            play_games(data, 1, finish=False)
            before = sha(data)
            subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True,
                           capture_output=True, timeout=30)  # fmt: skip
            r = app(data, env)
            rp = run_cli(["replay", str(data)], env)
            same = sha(data) == before
    except (OSError, subprocess.CalledProcessError) as e:
        table.add("permissions", "read-only disk", "-", f"skipped: {e}", "-", None)
        return
    table.add("permissions", "read-only disk (tmpfs remounted ro), `run` as root",
              "exit 2, one line: read-only", outcome(r), "same" if same else "changed",
              one_line_exit(r, 2, "read-only") and same)  # fmt: skip
    table.add("permissions", "read-only disk, `replay`", "exit 0", outcome(rp)[:60], "-",
              rp.code == 0)


def case_index(table: Table, tmp: Path) -> None:
    env = environment(tmp)
    data = tmp / "index" / "games.sqlite"
    data.parent.mkdir()
    games = play_games(data, 3, finish=False)
    hidden = hide_rows_from_index(data, games[-1], 3)
    quick = check(data, "quick_check")
    verdict = check(data)
    damaged = sha(data)
    table.add("index", f"{hidden} events of game {games[-1]} taken out of the key index",
              "quick_check ok, integrity_check not", f"quick_check: {quick[0]}; "
              f"integrity_check: {verdict[0]} (+{len(verdict) - 1})", "-",
              quick == ["ok"] and verdict != ["ok"])  # fmt: skip
    for command in ("replay", "export"):
        r = run_cli([command, str(data)], env, timeout=60)
        table.add("index", f"`{command}` of the damaged file", "exit 2, one line: damaged",
                  outcome(r), "same" if sha(data) == damaged else "changed",
                  one_line_exit(r, 2, "damaged") and sha(data) == damaged)  # fmt: skip
    r = app(data, env)
    asides = set_aside(data.parent, data.name)
    kept = bool(asides) and sha(asides[0]) == damaged
    from storage import Store

    try:
        with Store(data, readonly=True) as store:
            new_games = len(store.games())
    except Exception:
        new_games = -1
    table.add("index", "`run` on the damaged file",
              "exit 0, set aside byte for byte, a new file started",
              f"{outcome(r)[:40]}; set aside: {len(asides)}; games in the new file: {new_games}",
              "set aside" if kept else "same" if sha(data) == damaged else "changed",
              r.code == 0 and kept and new_games == 0)  # fmt: skip


def cases(only: Sequence[str]) -> int:
    table = Table()
    runners = {
        "two-writers": case_two_writers,
        "full-disk": case_full_disk,
        "permissions": case_permissions,
        "index": case_index,
    }
    for name in only:
        print(f"{name} ...", file=sys.stderr, flush=True)
        with tempfile.TemporaryDirectory(prefix=f"incan-{name}-") as tmp:
            Path(tmp).chmod(0o755)
            t0 = time.monotonic()
            try:
                runners[name](table, Path(tmp))
            except Exception as e:  # a broken case is a failed row, not a lost table
                table.add(name, "the case itself", "runs", f"{type(e).__name__}: {e}", "-",
                          False)
            print(f"{name}: {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
    print(table.render())
    failed = sum(r.ok is False for r in table.rows)
    skipped = sum(r.ok is None for r in table.rows)
    print(f"\n{len(table.rows) - failed - skipped} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


# --- the cost of the check at open ------------------------------------------------------------


def cost(games: int, folder: Path | None, repeats: int = 5) -> int:
    from storage import Store

    with tempfile.TemporaryDirectory(prefix="incan-cost-", dir=folder) as tmp:
        path = Path(tmp) / "games.sqlite"
        t0 = time.monotonic()
        play_games(path, games, seed=games, finish=True)
        built = time.monotonic() - t0
        events = stored_events(path)
        size = path.stat().st_size
        times: dict[str, list[float]] = {}
        cold = _can_drop_caches()
        for _ in range(repeats):
            for name, fn in (
                ("quick_check", lambda: check(path, "quick_check")),
                ("integrity_check", lambda: check(path)),
                ("Store(readonly=True)", lambda: Store(path, readonly=True).close()),
                ("Store() for writing", lambda: Store(path).close()),
            ):
                for state in ("warm", "cold") if cold else ("warm",):
                    if state == "cold":
                        _drop_caches()
                    t = time.perf_counter()
                    fn()
                    times.setdefault(f"{name}, {state}", []).append(time.perf_counter() - t)
        assert check(path) == ["ok"]
    where = folder or tempfile.gettempdir()
    print(f"{games} games, {events} events, {size / 1e6:.1f} MB; built through Store "
          f"(one durable commit per event) in {built:.0f} s "
          f"({built / max(events, 1) * 1000:.2f} ms per event) in {where}")
    for name, ts in times.items():
        print(f"  {name:28} median {statistics.median(ts) * 1000:7.1f} ms, "
              f"max {max(ts) * 1000:7.1f} ms over {len(ts)}")
    return 0


def _can_drop_caches() -> bool:
    try:
        _drop_caches()
    except OSError:
        return False
    return True


def _drop_caches() -> None:
    """The page cache emptied (root): the next read comes from the disk."""
    os.sync()
    Path("/proc/sys/vm/drop_caches").write_text("3\n")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what")
    c = sub.add_parser("cases")
    c.add_argument("--only", default=",".join(CASES))
    k = sub.add_parser("cost")
    k.add_argument("--games", type=int, default=5000)
    k.add_argument("--dir", type=Path, default=None)
    k.add_argument("--repeats", type=int, default=5)
    d = sub.add_parser("delete")
    d.add_argument("--games", type=int, default=100)
    d.add_argument("--kills", type=int, default=20)
    d.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.what == "cost":
        return cost(args.games, args.dir, args.repeats)
    if args.what == "delete":
        with tempfile.TemporaryDirectory(prefix="incan-delete-") as tmp:
            problems, interrupted = delete_kill_points(Path(tmp) / "games.sqlite", args.games,
                                                       args.kills, args.seed)  # fmt: skip
        print(f"{args.kills} kills while deleting {args.games} games one by one, "
              f"{interrupted} before the deleter was through: "
              f"{len(problems)} problems")  # fmt: skip
        for problem in problems:
            print(f"  {problem}")
        return 1 if problems else 0
    only = getattr(args, "only", ",".join(CASES)).split(",")
    unknown = [o for o in only if o not in CASES]
    if unknown:
        parser.error(f"unknown case {unknown[0]!r} (one of {', '.join(CASES)})")
    return cases(only)


if __name__ == "__main__":
    with contextlib.suppress(BrokenPipeError):
        sys.exit(main())
