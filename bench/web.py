"""The phones' pages under load, on loopback: 8 phones and 50 watchers, 200 reveals.

    python bench/web.py [--reveals 200] [--phones 8] [--watchers 50] [--timeout 120]

The table runs in a process of its own, as on the device: the core's table on
a real SQLite data file, its inbox pumped by a loop that stands in for the UI
thread, and the phones' server (uvicorn on its own thread) on 127.0.0.1. This
process plays the browsers: ``--phones`` seat pages that choose torch each
turn over their websockets, and ``--watchers`` watchers' pages, all asyncio
websocket clients.

Each reveal comes from the phones' own choices (countdown 0: the last choice
reveals). The table notes the moment it revealed (``time.monotonic``, the
same clock in both processes); every browser notes when the message showing
the reveal arrived. Once all have it, the table takes the reveal back (undo)
and the phones choose again, so every reveal is of the same turn and the
game never ends. Reveals come at most 4.8 a second: each phone sends a
choice a reveal, and a page may send 5 messages a second after a burst
(web/server.py). Reported: the time from the table's reveal to every
browser's message (median, p99, max), and the table process's CPU time and
resident memory, with the server and without it (the same reveals pressed
by the table itself, as seat buttons would).

Loopback only; bounded by ``--reveals`` and ``--timeout``; it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import queue
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

HOST = "127.0.0.1"  # never anything but loopback
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
PACE = 4.8  # reveals a second at most: within a page's 5 messages a second


# --- the table's process ---------------------------------------------------------------


def _memory() -> dict[str, int]:
    fields = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines()
                  if ":" in line)
    return {key: int(fields[key].split()[0]) for key in ("VmRSS", "VmHWM")}


def table_process(seats: int, reveals: int, server: bool, timeout: float) -> None:
    """The table, its data file and (``server``) its phones' pages; talks JSON lines
    on stdout and reads "next" lines (a reveal seen by every browser) on stdin."""
    from companion.choices import Choice
    from companion.events import Reveal, Start
    from companion.games import Games
    from companion.inbox import Inbox
    from storage import Store

    work = Path(tempfile.mkdtemp(prefix="incan-bench-web-"))
    store = Store(work / "games.sqlite")
    posted: queue.Queue[Callable[[], None]] = queue.Queue()
    games = Games(store, countdown=0.0)
    inbox = Inbox(games, posted.put)
    table = games.new_game(Start(NAMES[:seats]))
    revealed_at: list[float] = []

    def note(t: Any) -> None:  # listens before the phones do: the reveal's own moment
        log = t.session.log
        if isinstance(log[-1], Reveal) and len(revealed_at) < len(seen_reveals) + 1:
            revealed_at.append(time.monotonic())

    seen_reveals: list[int] = []
    table.listen(note)
    phones = None
    if server:
        from web.phones import Phones

        phones = Phones(inbox, posted.put, addresses=(HOST,), port=0, language=lambda: "en")
        phones.follow(table)
        assert phones.turn_on(), phones.error
        links = phones.links()
        print(json.dumps({"watch": links.watch, "seats": [link for _n, link in links.seats]}),
              flush=True)
    table.enter_card("T5A")
    cpu0 = time.process_time()
    started = time.monotonic()

    stopping: list[bool] = []

    def take_back() -> None:
        seen_reveals.append(1)
        table.undo()  # the reveal: choices are due again, the same turn

    def next_lines() -> None:
        for line in sys.stdin:
            if line.strip() == "next":
                posted.put(take_back)
            else:
                posted.put(lambda: stopping.append(True))
                break

    if server:
        threading.Thread(target=next_lines, daemon=True).start()
    # With the server, the browsers say when they have seen the last reveal.
    while (not stopping if server else len(revealed_at) < reveals) \
            and time.monotonic() - started < timeout:
        if not server:
            # Seat buttons instead of phones: every seat presses torch through the
            # inbox (the last press reveals), then the table takes the reveal back.
            for seat in range(seats):
                inbox.press(seat, Choice.TORCH)
            while not posted.empty():
                posted.get()()
            take_back()
            continue
        try:
            posted.get(timeout=0.5)()
        except queue.Empty:
            continue
    cpu = time.process_time() - cpu0
    usage = resource.getrusage(resource.RUSAGE_SELF)
    if phones is not None:
        phones.close()
    store.close()
    print(json.dumps({"revealed_at": revealed_at, "cpu_s": cpu, "seconds": time.monotonic()
                      - started, "memory_kb": _memory(), "maxrss_kb": usage.ru_maxrss}),
          flush=True)


# --- the browsers ---------------------------------------------------------------------------


async def browsers(links: dict[str, Any], watchers: int, reveals: int, timeout: float,
                   next_reveal: Callable[[], None]) -> list[list[float]]:
    """Every page's arrival time of each reveal's message, in reveal order."""
    from websockets.asyncio.client import connect

    watch = links["watch"]
    base = watch.removesuffix("/watch")
    ws_base = base.replace("http://", "ws://")
    arrivals: list[list[float]] = []  # per reveal, one time per page
    pages = len(links["seats"]) + watchers
    done = asyncio.Event()
    got: dict[int, int] = {}
    loop = asyncio.get_running_loop()
    last_next = [0.0]

    def next_in_turn() -> None:
        # A page may send 5 messages a second after a burst (web/server.py), and
        # each phone sends one choice a reveal: reveals come at most every 0.21 s.
        wait = last_next[0] + 1.0 / PACE - loop.time()
        last_next[0] = loop.time() + max(0.0, wait)
        loop.call_later(max(0.0, wait), next_reveal)

    def reached(k: int) -> None:
        now = time.monotonic()
        while len(arrivals) <= k:
            arrivals.append([])
        arrivals[k].append(now)
        got[k] = got.get(k, 0) + 1
        if got[k] == pages:
            if k + 1 >= reveals:
                done.set()
            else:
                next_in_turn()

    async def page(seat_link: str | None) -> None:
        path = "/ws/seat" if seat_link else "/ws/watch"
        async with connect(ws_base + path, origin=base, max_size=2**22, proxy=None,
                           compression=None) as ws:  # type: ignore[arg-type]
            if seat_link:
                await ws.send(json.dumps({"type": "hello", "token": seat_link.split("#")[1]}))
            shown = 0  # reveals seen by this page
            revealed = 0
            chose_for = -1  # the reveal this phone last chose for: one choice each
            async for text in ws:
                m = json.loads(text)
                if m["type"] not in ("table", "seat"):
                    continue
                table = m["table"]
                if table["revealed"] > revealed:
                    reached(shown)
                    shown += 1
                    if shown >= reveals:
                        return
                revealed = table["revealed"]
                mine = table["seats"][m["seat"]] if seat_link else None
                if mine and table["turn"] and mine["due"] and not mine["chosen"] \
                        and chose_for != shown:
                    chose_for = shown
                    await ws.send(json.dumps({"type": "choose", "choice": "torch",
                                              "turn": table["turn"], "id": f"c{shown}"}))

    tasks = [asyncio.create_task(page(link)) for link in links["seats"]]
    tasks += [asyncio.create_task(page(None)) for _ in range(watchers)]
    try:
        await asyncio.wait_for(done.wait(), timeout)
    except TimeoutError:
        print(f"web bench: stopped at its time limit after {len(got)} reveals", file=sys.stderr)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return arrivals


def run(server: bool, args: argparse.Namespace) -> tuple[dict[str, Any], list[list[float]]]:
    child = subprocess.Popen(
        [sys.executable, __file__, "--child", "server" if server else "buttons",
         "--phones", str(args.phones), "--reveals", str(args.reveals),
         "--timeout", str(args.timeout)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    arrivals: list[list[float]] = []
    try:
        if server:
            links = json.loads(child.stdout.readline())
            lock = threading.Lock()

            def next_reveal() -> None:
                with lock:
                    assert child.stdin is not None
                    child.stdin.write("next\n")
                    child.stdin.flush()

            arrivals = asyncio.run(browsers(links, args.watchers, args.reveals, args.timeout,
                                            next_reveal))
            child.stdin.write("stop\n")
            child.stdin.flush()
        report = json.loads(child.stdout.readline())
        child.wait(timeout=args.timeout)
    finally:
        if child.poll() is None:
            child.kill()
    return report, arrivals


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--reveals", type=int, default=200)
    parser.add_argument("--phones", type=int, default=8, choices=range(3, 9))
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--child", choices=("server", "buttons"))
    args = parser.parse_args()
    if args.child:
        table_process(args.phones, args.reveals, args.child == "server", args.timeout)
        return 0
    plain, _ = run(False, args)
    served, arrivals = run(True, args)
    revealed = served["revealed_at"]
    delays = [(t - revealed[k]) * 1000 for k, times in enumerate(arrivals[: len(revealed)])
              for t in times]
    last = [(max(times) - revealed[k]) * 1000 for k, times in enumerate(arrivals[: len(revealed)])]
    pages = args.phones + args.watchers
    print(f"web bench: {len(revealed)} reveals, {args.phones} phones and {args.watchers} "
          f"watchers on {HOST} ({len(delays)} messages, {pages} a reveal)")
    if delays:
        print(f"  reveal -> a page's message: median {statistics.median(delays):.1f} ms, "
              f"p99 {percentile(delays, 99):.1f} ms, max {max(delays):.1f} ms")
        print(f"  reveal -> the last page's:  median {statistics.median(last):.1f} ms, "
              f"p99 {percentile(last, 99):.1f} ms")
    for name, report in (("without the server", plain), ("with the server", served)):
        n = max(1, len(report["revealed_at"]))
        print(f"  table process {name}: CPU {report['cpu_s']:.2f} s for "
              f"{len(report['revealed_at'])} reveals ({report['cpu_s'] / n * 1000:.2f} ms each), "
              f"resident {report['memory_kb']['VmRSS'] / 1024:.1f} MB "
              f"(peak {report['memory_kb']['VmHWM'] / 1024:.1f} MB)")
    with contextlib.suppress(ZeroDivisionError):
        print(f"  with/without: CPU {served['cpu_s'] / plain['cpu_s']:.1f}x, resident "
              f"+{(served['memory_kb']['VmRSS'] - plain['memory_kb']['VmRSS']) / 1024:.1f} MB")
    ok = len(revealed) == args.reveals and len(delays) == args.reveals * pages
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("INCAN_DATA", os.devnull)
    sys.exit(main())
