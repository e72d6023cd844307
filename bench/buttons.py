"""Latency of the seat buttons: pin edge -> recorded choice, last choice -> reveal.

Runs on gpiozero's MockFactory (no hardware), through the real SeatPanel
(debouncing included) and the real ChoiceCollector:

1. edge -> choice: from ``pin.drive_low()`` until ``ChoiceCollector.press``
   has recorded the choice (the panel's callback runs synchronously on the
   mock pins). On the Pi, lgpio's callback thread and the app's hand-over to
   the Kivy UI thread (``Clock.schedule_once``, up to one frame) come on top.
2. last choice -> reveal, countdown excluded:
   a. overhead: the countdown has run out (fake clock); time of the ``tick()``
      that returns the reveal.
   b. real time: the last press, then the app's periodic tick (``--tick``
      seconds) until it returns the reveal; what is printed is the time beyond the
      countdown, i.e. how late the reveal comes (bounded by one tick period).

    python bench/buttons.py [--presses 20000] [--reveals 5000] [--realtime 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from companion.choices import Choice, ChoiceCollector
from hardware.panel import SeatPanel
from hardware.pins import DEFAULT_PINS


def summary(name: str, seconds: list[float]) -> str:
    us = sorted(s * 1e6 for s in seconds)
    p99 = us[min(len(us) - 1, int(len(us) * 0.99))]
    return (
        f"{name}: n={len(us)} median {statistics.median(us):.1f} us, "
        f"p99 {p99:.1f} us, max {us[-1]:.1f} us"
    )


def edge_to_choice(presses: int) -> list[float]:
    factory = MockFactory()
    offset = [0.0]

    def clock() -> float:  # real time, shifted 1 s per press so every press is past the window
        return time.monotonic() + offset[0]

    recorded: list[float] = []
    collector = ChoiceCollector(countdown=3600, clock=clock)

    def on_press(seat: int, choice: Choice) -> None:
        collector.press(seat, choice)
        recorded.append(time.perf_counter())

    panel = SeatPanel(DEFAULT_PINS, pin_factory=factory, on_press=on_press, clock=clock)
    pins = [factory.pin(getattr(p, c.value)) for p in DEFAULT_PINS for c in Choice]
    collector.open(range(8))
    out = []
    try:
        for k in range(presses):
            pin = pins[k % len(pins)]
            offset[0] += 1.0
            t0 = time.perf_counter()
            pin.drive_low()
            out.append(recorded[-1] - t0)
            assert len(recorded) == k + 1
            offset[0] += 1.0
            pin.drive_high()
    finally:
        panel.close()
        factory.close()
    return out


def reveal_overhead(reveals: int) -> list[float]:
    now = [0.0]
    done: list[float] = []
    collector = ChoiceCollector(countdown=2.0, clock=lambda: now[0])
    out = []
    for k in range(reveals):
        collector.open(range(8))
        for seat in range(8):
            collector.press(seat, Choice.CAMP if (seat + k) % 3 == 0 else Choice.TORCH)
        now[0] += 2.0
        t0 = time.perf_counter()
        assert collector.tick() is not None
        done.append(time.perf_counter())
        out.append(done[-1] - t0)
    return out


def reveal_realtime(trials: int, countdown: float, tick: float) -> list[float]:
    factory = MockFactory()
    revealed: list[float] = []
    collector = ChoiceCollector(countdown=countdown)
    panel = SeatPanel(
        DEFAULT_PINS[:4],
        pin_factory=factory,
        on_press=lambda seat, choice: collector.press(seat, choice),
    )
    out = []
    try:
        for _ in range(trials):
            collector.open(range(4))
            for seat in range(3):
                factory.pin(DEFAULT_PINS[seat].torch).drive_low()
            last = factory.pin(DEFAULT_PINS[3].camp)
            t0 = time.monotonic()
            last.drive_low()  # the last choice: the countdown starts now
            while collector.tick() is None:  # the app's periodic tick
                time.sleep(tick)
            revealed.append(time.monotonic())
            out.append(revealed[-1] - t0 - countdown)
            for p in DEFAULT_PINS[:4]:
                factory.pin(p.torch).drive_high()
                factory.pin(p.camp).drive_high()
            time.sleep(0.05)  # past the debounce window before the next trial
    finally:
        panel.close()
        factory.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--presses", type=int, default=20000)
    ap.add_argument("--reveals", type=int, default=5000)
    ap.add_argument("--realtime", type=int, default=5, help="real-time reveal trials (0: skip)")
    ap.add_argument("--countdown", type=float, default=2.0)
    ap.add_argument("--tick", type=float, default=0.05, help="the app's tick period (s)")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, gpiozero MockFactory, 8 seats, debounce 30 ms")
    print(summary("mock pin edge -> recorded choice", edge_to_choice(args.presses)))
    print(
        summary(
            "last choice -> reveal, countdown run out (tick overhead)",
            reveal_overhead(args.reveals),
        )
    )
    if args.realtime:
        late = reveal_realtime(args.realtime, args.countdown, args.tick)
        ms = [x * 1e3 for x in late]
        print(
            f"last choice -> reveal in real time, beyond the {args.countdown:g} s countdown, "
            f"tick every {args.tick * 1e3:g} ms: n={len(ms)} median "
            f"{statistics.median(ms):.1f} ms, max {max(ms):.1f} ms"
        )


if __name__ == "__main__":
    main()
