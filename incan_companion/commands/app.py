"""``incan-companion run`` (the app, also with no command) and ``incan-companion demo``.

No Kivy, OpenCV or gpiozero at module level: ``incan_companion.cli`` imports this
module to build its parser, and ``incan-companion --help`` must stay fast.
Kivy is configured (``KIVY_NO_ARGS`` and the window) before it is imported.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.engine import DEFAULT_SEATS, MAX_SEATS, MIN_SEATS
from companion.rules import DEFAULT_RULES, RULE_SETS
from incan_companion.commands import whole_number
from incan_companion.errors import EXIT_FAILURE, EXIT_OK, BadInput
from incan_companion.options import CAMERA_CHOICES, SEAT_INPUTS, CameraChoice, SeatInput

__all__ = ["cmd_demo", "cmd_run", "register"]

_START = time.perf_counter()


def register(sub: Any) -> None:
    """Add ``run`` and ``demo`` to ``incan-companion``'s subparsers."""
    p = sub.add_parser("run")
    p.add_argument("--config", metavar="FILE", help="config file (default: $INCAN_CONFIG or "
                   "~/.config/incan-companion/config.toml)")
    p.add_argument("--data", metavar="FILE", help="data file (default: from the config)")
    screen = p.add_mutually_exclusive_group()
    screen.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=False,
                        help="fill the screen (the device)")
    screen.add_argument("--windowed", dest="fullscreen", action="store_false",
                        help="an 800x480 window (default)")
    p.add_argument("--buttons", choices=[s for s in SEAT_INPUTS if s != SeatInput.MOCK],
                   default=SeatInput.AUTO,
                   help="seat buttons: the Pi's GPIO when present (auto), or the keyboard")
    p.add_argument("--camera", choices=CAMERA_CHOICES, default=CameraChoice.CONFIG,
                   help="card camera: as configured (virtual table when none is found), "
                   "the virtual table, or none (cards entered by tapping)")
    p.add_argument("--web", metavar="[HOST:]PORT",
                   help="serve the phones' pages from the start, on PORT (of HOST, else of "
                   "the config's [web] addresses); docs/web.md")
    p.add_argument("--screenshot", metavar="PNG", help="save the screen when quitting")
    p.add_argument("--quit-after", type=_after, metavar="SECONDS",
                   help="quit after this many seconds, and not before the first screen "
                        "is drawn (for checks and timing)")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser(
        "demo",
        description="Simulated seats press simulated gpiozero pins, a virtual table shows "
        "rendered cards to the real decoder and tracker, the engine and screens run as in a "
        "real game, and everything is stored in the data file.",
    )
    p.add_argument("--autoplay", action="store_true", help="play by itself (needed offscreen)")
    p.add_argument("--seed", type=_seed, default=0, help="same seed, same game (default 0)")
    p.add_argument("--seats", type=int, default=DEFAULT_SEATS,
                   help=f"{MIN_SEATS} to {MAX_SEATS} seats (default {DEFAULT_SEATS})")
    p.add_argument("--rules", default=DEFAULT_RULES,
                   help=f"{', '.join(RULE_SETS)} (default {DEFAULT_RULES})")
    p.add_argument("--data", metavar="FILE",
                   help="data file; an unfinished game in it is resumed (default: a temp file)")
    p.add_argument("--screenshot", metavar="PNG", help="save the last screen as a PNG")
    p.add_argument("--json", action="store_true",
                   help="print the final state (docs/state-json.md) as the last line")
    p.set_defaults(func=cmd_demo, words=True)


def _use_language(*choices: str | None) -> None:
    """The first of ``choices`` that names a language we have, else the system's.

    The language is chosen here, once per start, and every screen words
    what it shows in it (the set-up screen's buttons change it later).
    """
    from ui.kivyfree import i18n

    for code in choices:
        if not code:
            continue
        try:
            i18n.set_language(code)
            return
        except ValueError:
            logging.getLogger(__name__).warning("language %r is not available", code)
    i18n.set_language("")


def _after(text: str) -> float:
    """``--quit-after``: seconds above 0 (nan or -5 quit before the first screen,
    without its report)."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError("the seconds are a number above 0")
    return value


def _seed(text: str) -> int:
    """A demo's seed: a whole number from 0 (the virtual table's NumPy generator
    takes no negative one, and the demo went on without its camera)."""
    return whole_number(text, what="a whole number", least=0,
                        says="the seed is a whole number from 0")


def web_option(text: str, addresses: tuple[str, ...]) -> tuple[tuple[str, ...], int]:
    """``--web [HOST:]PORT`` as (addresses, port); raises BadInput naming what is wrong.

    >>> web_option("8080", ("lan",)), web_option("127.0.0.1:9000", ("lan",))
    ((('lan',), 8080), (('127.0.0.1',), 9000))
    >>> web_option("[::1]:8080", ("lan",))
    (('::1',), 8080)
    """
    from incan_companion.config import web_address

    host, sep, port = text.rpartition(":")
    # ASCII digits: "²".isdigit() holds, and int() then refuses it.
    if not (port.isascii() and port.isdigit()) or not 1 <= int(port) <= 65535:
        raise BadInput(f"run: --web {text}: the port must be a number from 1 to 65535")
    if not sep:
        return addresses, int(port)
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    try:
        return (web_address(host),), int(port)
    except ValueError:
        raise BadInput(f"run: --web {text}: {host!r} is neither an IP address a phone can "
                       'reach nor "lan"') from None


def cmd_run(args: argparse.Namespace) -> int:
    from incan_companion.config import ConfigError, load

    shot = screenshot_path(args.screenshot)

    try:
        config = load(Path(args.config).expanduser() if args.config else None,
                      named=bool(args.config))
    except ConfigError as e:
        raise BadInput(str(e)) from None
    web = web_option(args.web, config.web.addresses) if args.web else None
    from concurrent.futures import ThreadPoolExecutor

    from companion.ports import StoredDataError
    from storage import StorageFailed, lock, open_or_set_aside

    data = data_file_path(args.data) if args.data else None
    target = data if data is not None else config.data_file
    try:
        if data is not None:
            _not_a_log(data)  # before the lock, which makes a file where there is none
        # The writer's lock first, here: a file in use by another app, or one
        # this user may not write, is refused in one line before Kivy loads
        # (which printed 21 lines and opened a window first).
        early = lock.prepare(target)
    except StorageFailed:
        raise  # a full or failing disk: exit 1
    except StoredDataError as e:
        raise BadInput(str(e)) from None
    # The data file is opened, locked and checked whole (integrity_check: a
    # tenth of a second for thousands of games) on a thread of its own while
    # Kivy starts on this one; nothing else touches it until it is handed over.
    opener = ThreadPoolExecutor(max_workers=1, thread_name_prefix="open-data-file")
    opening = opener.submit(open_or_set_aside, target)
    opener.shutdown(wait=False)
    opening.add_done_callback(lambda _done: lock.unlock(early))  # the store holds its own
    from incan_companion.heap import collect_less_until_drawn

    collect_normally = collect_less_until_drawn()  # until the first frame
    from ui.kivy_setup import configure

    configure(fullscreen=args.fullscreen)
    from hardware.power import switch_off_from_environment
    from incan_companion.compose import build
    from ui.app import CompanionApp, post
    from ui.kivy_setup import require_window

    require_window()
    try:
        opened = opening.result()
        # The camera starts after the first screen is drawn (camera_later).
        device = build(config, post=post, seat_input=args.buttons, camera=args.camera,
                       data_file=data, camera_later=True, opened=opened,
                       phones=True, web=web,
                       switch_off=switch_off_from_environment(os.environ))
    except StorageFailed:
        # A full or failing disk: exit 1, so that the service tries again (once
        # space is freed the same file opens); the file is left as it is.
        raise
    except StoredDataError as e:
        # In use by another process, no permission, a read-only disk: exit 2.
        raise BadInput(str(e)) from None
    start_history = build_history_later(device.games, opened[0], post)
    # The set-up screen's last choice outranks the config's language.
    _use_language(device.games.chosen_language(), config.language)
    from ui.sound import SoundBoard

    volume, muted = device.games.sound(config.volume, config.muted)
    app = CompanionApp(device.games, device.controls(), seats=config.seats, rules=config.rules,
                       hidden_tents=config.hidden_tents,
                       sounds=SoundBoard(volume=volume, muted=muted),
                       screenshot=shot)
    _tell_systemd(app)
    app.on_first_frame.append(lambda app: collect_normally())
    if start_history is not None:
        app.on_first_frame.append(start_history)
    if args.quit_after is not None:
        from kivy.clock import Clock

        # Never before the first screen and its hooks: a machine under load
        # may take longer than the seconds asked for to draw it, and what a
        # check wants (the screenshot, the start's report) comes with it.
        drawn, due = [False], [False]

        def quit_now(dt: float) -> None:
            if not drawn[0]:
                due[0] = True
                return
            if app.screenshot_path is not None:
                app.save_screenshot(app.screenshot_path)
            app.stop()

        def first_frame(shown: CompanionApp) -> None:
            drawn[0] = True
            if due[0]:
                Clock.schedule_once(quit_now, 0)

        Clock.schedule_once(quit_now, args.quit_after)
        app.on_first_frame.append(_report_start)
        app.on_first_frame.append(first_frame)
    app.run()
    return EXIT_OK


#: Games without a kept summary replayed on the UI thread as before (about 6 ms
#: each on a Pi 4); more are made on a thread of their own, the screens saying so.
FEW_SUMMARIES = 20
#: Summaries made between two words to the UI thread (each batch one transaction,
#: one sync: with 50 a batch the 5,000 of bench/history.py took 13.1 s, with 200 8.8 s).
SUMMARY_BATCH = 200


def build_history_later(games: Any, store: Any, post: Any) -> Any:
    """After a migration (or a file built elsewhere) every game's summary is made
    once: 10 s for 5,000 games (40 s on a busy machine), which on the UI thread
    kept the first screen from being drawn. More than :data:`FEW_SUMMARIES` are
    made on a thread of their own with a read-only connection, from the first
    frame on (the hook returned; None when there are few); the UI thread keeps
    each batch (the one writer) and the set-up and history screens say how far
    it is (:mod:`ui.history_building`).
    ``games.building`` is set here, before the first screen asks for the
    unfinished game, which it would replay them all to find."""
    from companion.games import best_effort

    missing: list[int] = best_effort(
        "looking for games without a kept summary", store.missing_summaries, []
    )
    if len(missing) <= FEW_SUMMARIES:
        return None
    of = len(missing)
    games.building = (0, of)
    log = logging.getLogger(__name__)

    def start(app: Any) -> None:
        import threading

        from storage.history import make_summaries
        from ui import history_building

        history_building.progress(app, 0, of)

        def keep(batch: Any, made: int) -> None:
            store.keep_summaries(batch)
            history_building.progress(app, made, of)

        def work() -> None:
            t0 = time.perf_counter()
            made = 0
            try:
                for batch in make_summaries(store.path, missing, SUMMARY_BATCH):
                    made = min(made + SUMMARY_BATCH, of)
                    post(lambda batch=batch, made=made: keep(batch, made))
            except Exception:
                # Those not made here are replayed when asked for, as before.
                log.exception("making the games' summaries")
            log.info("%d games' summaries made in %.1f s", made, time.perf_counter() - t0)
            post(lambda: history_building.done(app))

        threading.Thread(target=work, name="history-summaries", daemon=True).start()

    return start


def _tell_systemd(app: Any) -> None:
    """Ready once the first screen is drawn; alive at every watchdog tick, sent from
    the UI loop itself, so a hung screen stops the ticks and systemd restarts the
    kiosk (deploy/incan-companion.service: Type=notify, WatchdogSec=)."""
    from kivy.clock import Clock

    from incan_companion.notify import notify, watchdog_interval

    def ready(_app: Any) -> None:
        notify("READY=1")
        interval = watchdog_interval()  # systemd watches from READY on
        if interval is not None:
            Clock.schedule_interval(lambda _dt: notify("WATCHDOG=1"), interval)

    app.on_first_frame.append(ready)


def _report_start(app: Any) -> None:
    at = app.first_frame_at
    said = f"{at - _START:.2f} s after start" if at is not None else "not drawn yet"
    # The wall clock too, for a caller timing from before the process began.
    drawn = app.first_frame_wall if app.first_frame_wall is not None else time.time()
    wall = f" (drawn at {drawn:.6f})" if os.environ.get("INCAN_REPORT_WALL") else ""
    print(f"incan-companion: first screen {said}{wall}; {_memory()}", file=sys.stderr,
          flush=True)


def _memory() -> str:
    """Peak and current resident memory of this process (Linux), for the report."""
    try:
        fields = dict(
            line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
            if ":" in line
        )
        return f"resident memory peak {fields['VmHWM'].strip()}, now {fields['VmRSS'].strip()}"
    except (OSError, KeyError):
        return "resident memory unknown"


def data_file_path(given: str) -> Path:
    """The data file named by ``--data``; BadInput for a folder (``--data /`` has no
    file name to lock or set aside, and was a traceback's exit 1)."""
    path = Path(given).expanduser()
    if not path.name or path.is_dir():
        raise BadInput(f"{given}: a folder, not a data file")
    return path


def _not_a_log(data: Path) -> None:
    """BadInput for a ``--data`` file that is not SQLite at all: a file named by
    hand that way is a mistake (a game log, most often), not a data file gone
    bad, and is never set aside for one. A damaged data file still is."""
    from storage.errors import DamagedFile, NotOurFile
    from storage.files import sniff

    try:
        sniff(data)
    except DamagedFile:
        pass
    except NotOurFile as e:
        raise BadInput(f"{e}; a game log is read with: incan-companion replay {data}") from None


def screenshot_path(given: str | None) -> Path | None:
    """Where ``--screenshot`` saves the screen; BadInput now, before a session is
    played, for a name that is no PNG (the file is one whatever its name says) or
    a folder it cannot be written in, which was exit 1 once the session was over."""
    if not given:
        return None
    path = Path(given).expanduser()
    if path.suffix.lower() != ".png":
        raise BadInput(f"--screenshot {given}: the screen is saved as a PNG: name it .png")
    folder = path.parent
    if not folder.is_dir():
        raise BadInput(f"--screenshot {given}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise BadInput(f"--screenshot {given}: {folder}: no permission to write there")
    return path


def cmd_demo(args: argparse.Namespace) -> int:
    if not args.autoplay:
        raise BadInput("demo: only --autoplay is supported (use `run --camera virtual` to play)")
    if not MIN_SEATS <= args.seats <= MAX_SEATS:
        raise BadInput(f"demo: --seats {args.seats}: a game has {MIN_SEATS} to {MAX_SEATS} seats")
    if args.rules not in RULE_SETS:
        raise BadInput(f"demo: --rules {args.rules}: one of {', '.join(RULE_SETS)}")
    shot = screenshot_path(args.screenshot)
    if args.data:
        data = data_file_path(args.data)
        _not_a_log(data)
    else:
        data = Path(tempfile.mkdtemp(prefix="incan-demo-")) / "games.sqlite"
    from companion.ports import StoredDataError
    from storage import StorageFailed, Store

    try:  # a foreign or damaged file is the user's mistake here: never set it aside
        held = Store(data)  # and the writer's lock, taken before Kivy loads, kept to the end
    except StorageFailed:
        raise  # a full or failing disk: exit 1
    except StoredDataError as e:
        raise BadInput(str(e)) from None
    try:
        return _demo(args, data, shot)
    finally:
        held.close()


def _demo(args: argparse.Namespace, data: Path, shot: Path | None) -> int:
    from ui.kivy_setup import configure

    configure(quiet=True, fast=True)
    from companion.engine import Phase, to_json
    from companion.events import Start
    from companion.simulate import SEAT_NAMES, VirtualClock
    from incan_companion.autoplay import Autoplay, OneLineFailures
    from incan_companion.compose import build
    from incan_companion.config import Config
    from storage import Store
    from ui.app import CompanionApp, post
    from ui.kivy_setup import require_window

    require_window()
    clock = VirtualClock()
    config = Config(seats=args.seats, rules=args.rules, countdown=1.0, data_file=data)
    device = build(config, post=post, clock=clock, seat_input="mock", camera="virtual",
                   data_file=data, set_aside=False, seed=args.seed, threaded=False)
    game = device.games.unfinished()
    if game is not None:
        table = device.games.resume(game)
        print(f"demo: resuming game {game} of {data} (round {table.state.round})",
              file=sys.stderr)
    else:
        table = device.games.new_game(Start(SEAT_NAMES[: args.seats], args.rules))
        game = table.game
    autoplay = Autoplay(device, clock, args.seed)
    app = CompanionApp(device.games, device.controls(), seats=args.seats, rules=args.rules,
                       autoplay=autoplay, screenshot=shot)
    t0 = time.perf_counter()
    one_line = OneLineFailures()
    table_log = logging.getLogger("companion.table")
    table_log.addFilter(one_line)
    try:
        app.run()
    finally:
        table_log.removeFilter(one_line)
    played = time.perf_counter() - t0
    if autoplay.stopped is not None:
        print(f"demo: game {game} in {data}: stopped after {played:.1f} s: {autoplay.stopped}",
              file=sys.stderr)
        return EXIT_FAILURE
    # Read the game back from the file: what is stored is what counts.
    with Store(data, readonly=True) as store:
        state = store.session(game).state
    print(f"demo: game {game} in {data}; played in {played:.1f} s; "
          f"{autoplay.figures.summary()}; {_memory()}", file=sys.stderr)
    if args.json:
        print(json.dumps(to_json(state), ensure_ascii=False))
    if state.phase is not Phase.GAME_OVER:
        print("demo: the game did not reach its end", file=sys.stderr)
        return EXIT_FAILURE
    return EXIT_OK
