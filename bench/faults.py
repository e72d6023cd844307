"""Fault figures for the device: kill -9 at random moments, the camera coming back,
and service start to first screen.

    python bench/faults.py kill [--points 50] [--seed 1] [--demo-points 6]
    python bench/faults.py camera [--repeats 5]
    python bench/faults.py startup [--repeats 5]
    python bench/faults.py datafile [--only two-writers,full-disk,permissions,index]
    python bench/faults.py all

``kill``: a child process plays random games into a data file, printing one
``ACK game seq line`` after each ``Store.append`` has returned (the moment the
app would show the event). The parent kills it with SIGKILL at random moments
(right at start, while opening the file, between and inside appends), then
checks: ``PRAGMA integrity_check`` is ``ok``, every acknowledged event is in the
file with the same text, at most one more event is there (committed but not
yet acknowledged), every game replays, and the next run resumes the game at
the next event. After the last kill the game is played to its end. With
``--demo-points`` the same is done to ``incan-companion demo --autoplay --data``
(acknowledged = committed and visible to a reader just before the kill).

``camera``: a whole device (incan_companion.compose.build) with a camera that is
unplugged mid-game (raises / returns nothing / stalls) and plugged back; the
time from the camera delivering frames again to the table saying so.

``startup``: the service's command (``incan-companion run --fullscreen``) with
the unit's environment, offscreen: time from process start to the first frame.

``datafile``: the data file against two writers, a full disk, missing
permissions and a damaged index, end to end, as a table (bench/datafile_faults.py).

``python bench/faults.py writer DATA SEED`` is the child (also used by
tests/test_faults_kill.py).
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

THIS = Path(__file__).resolve()


# --- the child: play and store ------------------------------------------------------


def writer(path: Path, seed: int, *, mistakes: float = 0.08) -> int:
    """Play random games into ``path`` until one ends; resume an unfinished one first.

    Prints ``ACK <game> <seq> <line>`` after each event is stored, ``DONE <game>``
    at the end. Each step is checked by the session before it is stored, as the
    app's table does.
    """
    from companion.cards import ALL_IDS
    from companion.engine import Phase, RuleError
    from companion.events import Correct, Draw, Event, Reveal, Start, Undo, to_line
    from companion.rules import RULE_SETS
    from companion.session import Session
    from companion.simulate import SEAT_NAMES, choose_camp, next_card
    from storage import Store

    rng = random.Random(seed)
    out = sys.stdout

    def ack(game: int, seq: int, event: Event) -> None:
        out.write(f"ACK {game} {seq} {to_line(event)}\n")
        out.flush()

    store = Store(path)  # not open_or_set_aside: a damaged file must fail loudly here
    game = store.unfinished()
    if game is None:
        start = Start(SEAT_NAMES[: rng.randint(3, 8)], rng.choice(tuple(RULE_SETS)))
        session = Session.start(start)
        game = store.new_game(start)
        seq = 0
        ack(game, seq, start)
    else:
        events = store.events(game)
        session = Session.replay(events)
        seq = len(events) - 1
        out.write(f"RESUME {game} {seq}\n")
        out.flush()
    while session.state.phase is not Phase.GAME_OVER:
        state = session.state
        roll = rng.random()
        event: Event
        if roll < mistakes and session.can_undo:
            event = Undo()
        elif roll < 2 * mistakes and state.path:
            # A misread fixed: any card; the session refuses what cannot be.
            event = Correct(rng.randrange(len(state.path)), rng.choice(ALL_IDS))
        elif state.phase is Phase.CHOOSE:
            event = Reveal(choose_camp(state, rng) if state.deck else state.due)
        else:
            event = Draw(next_card(state, rng))
        try:
            session.apply(event)  # checked first ...
        except RuleError:
            continue
        store.append(game, event)  # ... then stored (durably) ...
        seq += 1
        ack(game, seq, event)  # ... and only then shown
    out.write(f"DONE {game}\n")
    out.flush()
    store.close()
    return 0


# --- the parent: kill and check ------------------------------------------------------


class Reader(threading.Thread):
    """Reads a child's stdout lines as they come (a killed child's last line may be cut)."""

    def __init__(self, stream: object) -> None:
        super().__init__(daemon=True)
        self.stream = stream
        self.lines: list[str] = []
        self.cond = threading.Condition()
        self.closed = False

    def run(self) -> None:
        for raw in self.stream:  # type: ignore[attr-defined]
            with self.cond:
                self.lines.append(raw)
                self.cond.notify_all()
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def acks(self) -> int:
        with self.cond:
            return sum(1 for line in self.lines if line.startswith("ACK "))

    def wait_acks(self, n: int, timeout: float) -> None:
        with self.cond:
            self.cond.wait_for(
                lambda: self.closed or sum(ln.startswith("ACK ") for ln in self.lines) >= n,
                timeout,
            )


@dataclass
class KillReport:
    kills: int = 0  # children actually killed while running
    finished_early: int = 0  # children that ended their game before the kill came
    acknowledged: int = 0  # events acknowledged across all runs
    lost: int = 0  # acknowledged events missing or changed after a kill
    extra: int = 0  # events stored but not acknowledged (killed between commit and print)
    resumed_right: int = 0  # of those, how many went on at the next event of the stored game
    restarts: int = 0  # runs that found an unfinished game and resumed it
    games_finished: int = 0
    problems: list[str] = field(default_factory=list)


def integrity(path: Path) -> str:
    db = sqlite3.connect(path)
    try:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        db.close()


def stored_lines(path: Path) -> dict[int, list[str]]:
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if "events" not in tables:  # killed before the new file's schema was committed
            return {}
        rows = db.execute("SELECT game, seq, line FROM events ORDER BY game, seq").fetchall()
    finally:
        db.close()
    games: dict[int, list[str]] = {}
    for game, seq, line in rows:
        lines = games.setdefault(game, [])
        if seq != len(lines):
            raise AssertionError(f"game {game}: seq {seq} after {len(lines)} events")
        lines.append(line)
    return games


def check_file(
    path: Path,
    acked: dict[tuple[int, int], str],
    known: dict[tuple[int, int], str],
    report: KillReport,
) -> None:
    """The checks after a kill; problems are recorded in ``report``.

    ``known``: events found stored but never acknowledged after earlier kills
    (committed, then killed before the print); new ones are added to it.
    """
    from storage import Store

    if not path.exists():  # killed before the file was made
        report.lost += len(acked)
        if acked:
            report.problems.append(f"{path} is gone")
        return
    verdict = integrity(path)
    if verdict != "ok":
        report.problems.append(f"integrity_check: {verdict}")
        return
    games = stored_lines(path)
    for (game, seq), line in acked.items():
        lines = games.get(game, [])
        if seq >= len(lines) or lines[seq] != line:
            report.lost += 1
            report.problems.append(f"lost: game {game} event {seq}: {line}")
    new = [
        (game, seq, line)
        for game, lines in games.items()
        for seq, line in enumerate(lines)
        if (game, seq) not in acked and (game, seq) not in known
    ]
    if len(new) > 1:
        report.problems.append(f"{len(new)} events stored but not acknowledged: {new}")
    for game, seq, line in new:
        known[game, seq] = line
        report.extra += 1
    with Store(path) as store:  # the app's own open: integrity_check, ours, writable
        for info in store.games():
            store.session(info.id)  # replays, or raises


def run_writer(
    path: Path, seed: int, kill: Callable[[Reader], None] | None, timeout: float = 60.0
) -> tuple[list[str], bool]:
    """Start the child, let ``kill`` decide when to SIGKILL it; its lines and whether it died."""
    proc = subprocess.Popen(
        [sys.executable, str(THIS), "writer", str(path), str(seed)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    reader = Reader(proc.stdout)
    reader.start()
    killed = False
    try:
        if kill is not None:
            kill(reader)
            if proc.poll() is None:
                os.kill(proc.pid, signal.SIGKILL)
                killed = True
        proc.wait(timeout)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(10)
    err = proc.stderr.read() if proc.stderr else ""
    if killed and proc.returncode == 0:
        killed = False  # it ended its game between the last look and the signal
    if not killed and proc.returncode != 0:
        raise RuntimeError(f"writer failed ({proc.returncode}): {err.strip()}")
    if killed and proc.returncode != -signal.SIGKILL:
        raise RuntimeError(f"writer ended with {proc.returncode}, not SIGKILL")
    return reader.lines, killed


def kill_points(path: Path, points: int, seed: int) -> KillReport:
    """SIGKILL the writer at ``points`` random moments, checking the file after each."""
    rng = random.Random(seed)
    report = KillReport()
    acked: dict[tuple[int, int], str] = {}
    known: dict[tuple[int, int], str] = {}
    run = 0

    def take(lines: Sequence[str]) -> tuple[int, int] | None:
        """Record the ACKs; return the RESUME point if the run resumed."""
        resumed = None
        for raw in lines:
            if not raw.endswith("\n"):
                continue  # cut by the kill: never acknowledged
            parts = raw.rstrip("\n").split(" ", 3)
            if parts[0] == "ACK":
                acked[int(parts[1]), int(parts[2])] = parts[3]
                report.acknowledged += 1
            elif parts[0] == "RESUME":
                resumed = (int(parts[1]), int(parts[2]))
            elif parts[0] == "DONE":
                report.games_finished += 1
        return resumed

    while report.kills < points:
        before = stored_lines(path) if path.exists() else {}
        unfinished = _unfinished(path) if before else None
        # Where to strike: a third of the time by the clock from the start
        # (interpreter start-up, opening and checking the file, the first
        # appends), otherwise after a random number of acknowledged events
        # plus a jitter of up to 2 ms (between or inside appends).
        by_clock = rng.random() < 0.33
        delay = rng.uniform(0.0, 0.4) if by_clock else rng.uniform(0.0, 0.002)
        target = 0 if by_clock else rng.randint(1, 60)

        def strike(reader: Reader, target: int = target, delay: float = delay) -> None:
            if target:
                reader.wait_acks(target, 30.0)
            time.sleep(delay)

        lines, killed = run_writer(path, seed * 1000 + run, strike)
        run += 1
        resumed = take(lines)
        if unfinished is not None:
            want = (unfinished, len(before[unfinished]) - 1)
            if resumed is not None:
                report.restarts += 1
                report.resumed_right += resumed == want
            if resumed != want and (resumed is not None or any(ln.startswith("ACK ")
                                                                for ln in lines)):
                report.problems.append(f"run {run}: resumed at {resumed}, expected {want}")
        if killed:
            report.kills += 1
        else:
            report.finished_early += 1
        check_file(path, acked, known, report)
    # Finally play the game in progress to its end.
    lines, _killed = run_writer(path, seed * 1000 + run, None)
    take(lines)
    check_file(path, acked, known, report)
    if _unfinished(path) is not None:
        report.problems.append("the last game did not reach its end")
    return report


def _unfinished(path: Path) -> int | None:
    from storage import Store

    with Store(path, readonly=True) as store:
        return store.unfinished()


# --- the demo, killed -----------------------------------------------------------------


def demo_env(kivy_home: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        KIVY_NO_ARGS="1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        KIVY_HOME=str(kivy_home),
        INCAN_DEBUG="",
    )
    env.pop("SDL_VIDEODRIVER", None)
    return env


def demo_command(data: Path, seed: int) -> list[str]:
    return [sys.executable, "-m", "incan_companion", "demo", "--autoplay", "--seats", "3",
            "--seed", str(seed), "--data", str(data), "--json"]  # fmt: skip


def committed_events(path: Path) -> list[str]:
    """What a reader sees committed right now (empty before the file exists)."""
    if not path.exists() or path.stat().st_size == 0:
        return []
    try:
        games = stored_lines(path)
    except sqlite3.Error:
        return []  # the schema is being created
    return [line for game in sorted(games) for line in games[game]]


@dataclass
class DemoKillReport:
    kills: int = 0
    committed_before_kill: int = 0  # the most events a reader saw just before a kill
    lost: int = 0
    resumed: int = 0  # runs that said "demo: resuming game" (killed ones and the last)
    last_resumed: bool = False  # the last (unkilled) run went on with the stored game
    finished: bool = False
    final_events: int = 0
    pace_s: float = 0.0  # launch to the first stored event, in the first run: the machine's pace
    problems: list[str] = field(default_factory=list)


def demo_kill_points(
    path: Path, kivy_home: Path, points: int, seed: int, *, events: tuple[int, int] = (2, 6)
) -> DemoKillReport:
    """SIGKILL ``demo --autoplay --data path`` at ``points`` moments, then let it finish.

    The moments follow the machine's own pace, never fixed seconds: each run
    is killed once it has stored a random number (``events``) of new events,
    so a slow CPU (a Pi, an emulator) is killed mid-game just as this one is.
    The waits are bounded by the pace measured in the first run.
    """
    from storage import Store

    rng = random.Random(seed)
    report = DemoKillReport()
    env = demo_env(kivy_home)
    for _ in range(points):
        started = time.monotonic()
        at_start = len(committed_events(path))
        wanted = at_start + rng.randint(*events)
        proc = subprocess.Popen(
            demo_command(path, seed), env=env, cwd=ROOT, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        seen = committed_events(path)
        grew_at = started
        # No new event for this long means the run is stuck, not slow.
        stall = max(120.0, 30.0 * report.pace_s) if report.pace_s else 600.0
        while len(seen) < wanted and proc.poll() is None:
            time.sleep(0.02)
            now = committed_events(path)
            if len(now) > len(seen):
                if len(seen) <= at_start and not report.pace_s:
                    report.pace_s = time.monotonic() - started
                grew_at = time.monotonic()
            seen = now
            if time.monotonic() - grew_at > stall:
                report.problems.append(f"no new event for {stall:.0f} s")
                break
        seen = committed_events(path)  # the last look, then at once:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
        _out, err = proc.communicate(timeout=max(60.0, 10.0 * report.pace_s))
        report.kills += proc.returncode == -signal.SIGKILL
        report.resumed += "demo: resuming game" in err
        report.committed_before_kill = max(report.committed_before_kill, len(seen))
        verdict = integrity(path)
        if verdict != "ok":
            report.problems.append(f"integrity_check: {verdict}")
            continue
        after = committed_events(path)
        if after[: len(seen)] != seen:
            report.lost += sum(1 for i, line in enumerate(seen) if i >= len(after)
                               or after[i] != line)  # fmt: skip
            report.problems.append(f"{len(seen)} events seen before the kill, {len(after)} after")
        if after:
            with Store(path) as store:
                for info in store.games():
                    store.session(info.id)
    before = committed_events(path)
    # A whole game is some 40 events: give the last run a hundred times the
    # pace of the first event, and never less than five minutes.
    result = subprocess.run(demo_command(path, seed), env=env, cwd=ROOT, capture_output=True,
                            text=True, timeout=max(300.0, 100.0 * report.pace_s),
                            check=False)  # fmt: skip
    report.last_resumed = "demo: resuming game" in result.stderr
    report.resumed += report.last_resumed
    after = committed_events(path)
    report.final_events = len(after)
    if after[: len(before)] != before:
        report.problems.append("the resumed demo changed events stored before it")
    report.finished = result.returncode == 0 and '"phase": "game_over"' in result.stdout
    if not report.finished:
        report.problems.append(f"demo exit {result.returncode}: {result.stderr.strip()[-300:]}")
    if integrity(path) != "ok":
        report.problems.append("integrity_check after the finished demo")
    return report


# --- the camera coming back --------------------------------------------------------------


class UiQueue:
    """Stands in for the Kivy clock: adapters post callbacks, one thread runs them."""

    def __init__(self) -> None:
        self._q: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()

    def post(self, fn: Callable[[], None]) -> None:
        self._q.put(fn)

    def pump(self) -> None:
        while True:
            try:
                fn = self._q.get_nowait()
            except queue.Empty:
                return
            fn()

    def wait(self, check: Callable[[], bool], timeout: float) -> float:
        """Run posted callbacks until ``check()``; the monotonic time it became true."""
        deadline = time.monotonic() + timeout
        while True:
            self.pump()
            if check():
                return time.monotonic()
            if time.monotonic() > deadline:
                raise TimeoutError("condition not reached in time")
            time.sleep(0.002)


def camera_recovery(
    mode: str,
    outage: float,
    *,
    stall_timeout: float = 2.0,
    backoff: tuple[float, float] | None = None,
) -> dict[str, float]:
    """A device whose camera fails in ``mode`` for ``outage`` s, then comes back.

    Seconds from the failure to "no camera" on the table, and from the camera
    being back (delivering on its next open or read) to the table showing it
    ok; with the real reopening back-off of vision.sources unless ``backoff``.
    """
    from companion.events import Start
    from companion.notices import CameraStatus
    from incan_companion.compose import build
    from incan_companion.config import CameraConfig, Config

    shown_ok, shown_none = CameraStatus.OK, CameraStatus.NO_CAMERA
    ui = UiQueue()
    camera = flaky_camera(seed=5, backoff=backoff)
    with tempfile.TemporaryDirectory() as tmp:
        config = Config(camera=CameraConfig(source="v4l2"), data_file=Path(tmp) / "g.sqlite")
        device = build_with_source(build, config, camera, stall_timeout, ui.post)
        try:
            table = device.games.new_game(Start(("Ana", "Bo", "Cy")))
            ui.wait(lambda: camera.reads > 3 and table.camera is shown_ok, 30)
            t_fail = time.monotonic()
            camera.fail(mode)
            t_noticed = ui.wait(lambda: table.camera is shown_none, 60)
            end = t_fail + outage
            while time.monotonic() < end:
                ui.pump()
                time.sleep(0.01)
            t_back = time.monotonic()
            camera.recover()
            t_ok = ui.wait(lambda: table.camera is shown_ok, 60)
        finally:
            device.close()
    return {"noticed": t_noticed - t_fail, "recovered": t_ok - t_back}


def build_with_source(
    build: Callable[..., Any],
    config: Any,
    source: Any,
    stall_timeout: float,
    post: Callable[[Callable[[], None]], None] | None = None,
) -> Any:
    """incan_companion.compose.build with ``source`` as the configured camera.

    Everything else is the real device: the vision Scanner thread (with this
    ``stall_timeout``), the Device, its Table and the data file.
    """
    import vision.scanner
    import vision.sources

    real_open = vision.sources.open_source
    real_scanner = vision.scanner.Scanner

    class Scanner(real_scanner):  # type: ignore[misc, valid-type]
        def __init__(self, *a: Any, **k: Any) -> None:
            k.setdefault("stall_timeout", stall_timeout)
            super().__init__(*a, **k)

    vision.sources.open_source = lambda kind, **opts: source  # type: ignore[assignment]
    vision.scanner.Scanner = Scanner  # type: ignore[misc]
    try:
        extra = {} if post is None else {"post": post}
        return build(config, camera="config", seat_input="keyboard", **extra)
    finally:
        vision.sources.open_source = real_open
        vision.scanner.Scanner = real_scanner  # type: ignore[misc]


def flaky_camera(
    seed: int = 0, *, backoff: tuple[float, float] | None = None, broken: str | None = None
) -> Any:
    """A camera that can be unplugged: reads raise, return nothing, or hang.

    It films the virtual table (``place(card)`` lays a card under it).
    ``backoff`` replaces the sources' reopening back-off (start, max) for
    fast tests; ``broken`` starts it unplugged in that mode.
    """
    from vision.sources import FrameSource, VirtualTable

    class Flaky(FrameSource):
        name = "flaky"

        def __init__(self) -> None:
            super().__init__(fps=30.0)
            if backoff is not None:
                self.BACKOFF_START, self.BACKOFF_MAX = backoff
            self.table = VirtualTable(seed, fps=None)
            self.mode = "ok"
            self.opens = 0
            self.reads = 0
            self._scene = threading.Lock()
            self._back = threading.Event()
            self._back.set()

        def fail(self, mode: str) -> None:
            assert mode in ("raise", "none", "stall"), mode
            self.mode = mode
            if mode == "stall":
                self._back.clear()

        def recover(self) -> None:
            self.mode = "ok"
            self._back.set()

        def place(self, card: str | None) -> None:
            with self._scene:
                self.table.place(card)

        def _open(self) -> None:
            if self.mode != "ok":
                raise OSError("no such device")  # unplugged: it cannot be opened either
            self.opens += 1

        def _read(self) -> Any:
            if self.mode == "raise":
                raise OSError("camera unplugged")
            if self.mode == "none":
                return None
            if self.mode == "stall":
                self._back.wait()  # a driver that hangs until the camera is back
            with self._scene:
                self.reads += 1
                return self.table.next_image()

    camera = Flaky()
    if broken is not None:
        camera.fail(broken)
    return camera


# --- service start to first screen ------------------------------------------------------


def service_environment(tmp: Path) -> dict[str, str]:
    """The unit's Environment= lines, with its paths moved into ``tmp`` and offscreen."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    unit = (ROOT / "deploy" / "incan-companion.service").read_text(encoding="utf-8")
    for line in unit.splitlines():
        if line.startswith("Environment="):
            key, _, value = line.removeprefix("Environment=").partition("=")
            env[key] = value
    for key, value in list(env.items()):
        env[key] = value.replace("/var/lib/incan-companion", str(tmp / "data")).replace(
            "/etc/incan-companion", str(tmp / "etc")
        )
    env.pop("SDL_VIDEODRIVER")  # kmsdrm needs the Pi's display; here Kivy goes offscreen
    env["LG_WD"] = str(tmp)
    (tmp / "data" / "kivy").mkdir(parents=True, exist_ok=True)
    (tmp / "data" / "kivy" / "config.ini").write_bytes(
        (ROOT / "deploy" / "kivy-config.ini").read_bytes()
    )
    return env


def startup_time(tmp: Path) -> dict[str, float]:
    """Process start to first frame of the unit's command, offscreen.

    The app prints ``incan-companion: first screen ...`` from its first-frame
    hook (flushed), so the time from spawning the process to reading that
    line is the figure; the app's own count (from its command module's
    import) is kept beside it.
    """
    env = service_environment(tmp)
    command = [sys.executable, "-m", "incan_companion", "run", "--fullscreen",
               "--buttons", "keyboard", "--camera", "virtual", "--quit-after", "1.0"]  # fmt: skip
    t0 = time.monotonic()
    proc = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            text=True, cwd=tmp)  # fmt: skip
    assert proc.stderr is not None
    seen = None
    inside = None
    for line in proc.stderr:
        if seen is None and "first screen " in line:
            seen = time.monotonic() - t0
            after = line.split("first screen ", 1)[1]
            if after.split()[1:3] == ["s", "after"]:
                inside = float(after.split()[0])
    proc.wait(60)
    if seen is None:
        raise RuntimeError(f"no 'first screen' line (exit {proc.returncode})")
    return {"total": seen, "app": inside if inside is not None else float("nan")}


# --- command line ------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    w = sub.add_parser("writer")
    w.add_argument("data")
    w.add_argument("seed", type=int)
    k = sub.add_parser("kill")
    k.add_argument("--points", type=int, default=50)
    k.add_argument("--seed", type=int, default=1)
    k.add_argument("--demo-points", type=int, default=6)
    c = sub.add_parser("camera")
    c.add_argument("--repeats", type=int, default=3)
    s = sub.add_parser("startup")
    s.add_argument("--repeats", type=int, default=5)
    d = sub.add_parser("datafile")
    d.add_argument("--only", default="two-writers,full-disk,permissions,index")
    a = sub.add_parser("all")
    a.add_argument("--points", type=int, default=50)
    args = parser.parse_args(argv)

    if args.what == "writer":
        return writer(Path(args.data), args.seed)
    if args.what == "datafile":
        import importlib.util

        spec = importlib.util.spec_from_file_location("datafile_faults",
                                                      THIS.with_name("datafile_faults.py"))
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # its dataclasses look themselves up there
        spec.loader.exec_module(module)
        return int(module.main(["cases", "--only", args.only]))
    if args.what in ("kill", "all"):
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.monotonic()
            r = kill_points(Path(tmp) / "games.sqlite", args.points, getattr(args, "seed", 1))
            took = time.monotonic() - t0
        print(f"kill -9 of a store writer: {r.kills} kills ({r.finished_early} runs ended "
              f"before their kill), {r.acknowledged} events acknowledged, "
              f"{r.lost} lost, {r.extra} stored-not-acknowledged, "
              f"{r.resumed_right}/{r.restarts} restarts resumed at the next event, "
              f"{r.games_finished} games finished; {took:.1f} s")  # fmt: skip
        for p in r.problems:
            print(f"  PROBLEM: {p}")
        demo_points = getattr(args, "demo_points", 6)
        if demo_points:
            with tempfile.TemporaryDirectory() as tmp:
                d = demo_kill_points(Path(tmp) / "demo.sqlite", Path(tmp) / "kivy", demo_points,
                                     getattr(args, "seed", 1))  # fmt: skip
            print(f"kill -9 of demo --autoplay: {d.kills} kills, {d.lost} committed events "
                  f"lost, {d.resumed} runs resumed a stored game, last run finished: "
                  f"{d.finished}, {d.final_events} events stored; pace (launch to the "
                  f"first stored event) {d.pace_s:.2f} s")  # fmt: skip
            for p in d.problems:
                print(f"  PROBLEM: {p}")
    if args.what in ("camera", "all"):
        for mode in ("raise", "none", "stall"):
            for outage in (1.0, 5.0, 20.0):
                runs = [camera_recovery(mode, outage) for _ in range(getattr(args, "repeats", 1))]
                rec = [r["recovered"] for r in runs]
                noticed = [r["noticed"] for r in runs]
                print(f"camera {mode:5} for {outage:4.0f} s: 'no camera' after "
                      f"{statistics.median(noticed):.2f} s; back to 'ok' "
                      f"{statistics.median(rec):.2f} s (max {max(rec):.2f}) after "
                      "the camera returned")  # fmt: skip
    if args.what in ("startup", "all"):
        times = []
        for _ in range(getattr(args, "repeats", 3)):
            with tempfile.TemporaryDirectory() as tmp:
                times.append(startup_time(Path(tmp)))
        print("service start to first screen (offscreen, the unit's command and environment): "
              f"median {statistics.median(t['total'] for t in times):.2f} s, "
              f"max {max(t['total'] for t in times):.2f} s over {len(times)} starts "
              f"(the app's own count from its command import: "
              f"{statistics.median(t['app'] for t in times):.2f} s)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
