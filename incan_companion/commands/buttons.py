"""``incan-companion buttons``: a check for the person wiring the seat box.

It prints every accepted (debounced) press with its seat, button and GPIO, and
lights the seat LEDs one at a time so a swapped or dead LED shows at once. A
button already down at the start is reported: it is stuck or wired to GND.

It runs until Ctrl-C or ``--seconds N``. With ``--mock`` it runs on gpiozero's
MockFactory and presses every button once itself (with contact bounce), which
shows what the check looks like on a machine without GPIO. Without ``--mock``
on such a machine it says so in one line and exits 2.

gpiozero is imported only inside the command: ``incan_companion.cli`` imports this
module to build its parser, and the command line must start fast.
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from companion.engine import MAX_SEATS
from incan_companion.commands import whole_number

__all__ = ["cmd_buttons", "register", "run_check"]

STEP_S = 0.7  # how long each LED stays lit

# Looked up at call time so tests can swap in fake time for the whole command.
_clock: Callable[[], float] = time.monotonic
_sleep: Callable[[float], None] = time.sleep


def _seat_count(text: str) -> int:
    return whole_number(text, what="a number of seats", least=1, most=MAX_SEATS,
                        says=f"the box has 1 to {MAX_SEATS} seats")


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value >= 0:
        raise argparse.ArgumentTypeError("seconds must be 0 or more")
    return value


def register(sub: Any) -> None:
    """Add the ``buttons`` command to ``incan-companion``'s subparsers."""
    p = sub.add_parser(
        "buttons",
        description="Lists every button press with its seat and lights each seat LED "
        "in turn. Stop with Ctrl-C.",
    )
    p.add_argument("--seats", type=_seat_count, default=MAX_SEATS,
                   help=f"seats to check (default {MAX_SEATS})")
    p.add_argument(
        "--mock",
        action="store_true",
        help="no hardware: simulate the pins (gpiozero MockFactory) and press every button once",
    )
    p.add_argument(
        "--seconds",
        type=_seconds,
        default=None,
        help="stop after this many seconds (default: until Ctrl-C; with --mock: one round)",
    )
    p.set_defaults(func=cmd_buttons)


def _configured() -> tuple[Sequence[Any], float]:
    """The pin map and debounce window of the config file (defaults when there is none)."""
    from incan_companion.config import ConfigError, load
    from incan_companion.errors import BadInput

    try:
        config = load()
    except ConfigError as e:
        raise BadInput(str(e)) from None
    return config.pins, config.debounce_ms / 1000


def cmd_buttons(args: argparse.Namespace) -> int:
    from incan_companion.errors import BadInput

    pins, debounce_s = _configured()
    pins = list(pins)[: args.seats]
    if args.mock:
        from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

        factory = MockFactory()
    else:
        from hardware.gpio import NoGPIO, pi_pin_factory

        try:
            factory = pi_pin_factory()
        except NoGPIO as e:
            raise BadInput(f"{e} (try `incan-companion buttons --mock`)") from None
    try:
        return run_check(
            pins, factory, seconds=args.seconds, simulate=args.mock, debounce_s=debounce_s
        )
    finally:
        factory.close()


def _where(gpio: int) -> str:
    from hardware.gpio import header_pin

    pin = header_pin(gpio)
    return f"GPIO {gpio:>2} (header pin {pin})" if pin else f"GPIO {gpio:>2}"


def run_check(
    pins: Sequence[Any],
    factory: Any,
    *,
    seconds: float | None = None,
    simulate: bool = False,
    debounce_s: float = 0.030,
    step: float = STEP_S,
    out: TextIO | None = None,
    clock: Callable[[], float] | None = None,
    sleep: Callable[[float], None] | None = None,
) -> int:
    """Run the wiring check on ``factory``'s pins; returns the exit code (0).

    ``simulate`` presses every button once per round (MockFactory only). With
    ``simulate`` and no ``seconds`` it stops after one round of LEDs. ``clock``
    and ``sleep`` are injectable so a test runs it without real waiting.
    """
    from hardware.panel import SeatPanel

    clock = clock if clock is not None else _clock
    sleep = sleep if sleep is not None else _sleep

    stream = out if out is not None else sys.stdout
    lock = threading.Lock()

    def say(line: str) -> None:
        with lock:  # presses arrive on gpiozero's thread, LED lines on this one
            print(line, file=stream, flush=True)

    def on_press(seat: int, choice: Any) -> None:
        gpio = getattr(pins[seat], choice.value)
        say(f"press  seat {seat + 1}  {choice.value:<5}  {_where(gpio)}")

    panel = SeatPanel(
        pins, on_press=on_press, pin_factory=factory, clock=clock, debounce_s=debounce_s
    )
    n = panel.seats
    try:
        how = "the simulation presses each button" if simulate else "press each button"
        stop = "" if simulate and seconds is None else "; Ctrl-C to stop"
        say(f"checking {n} seat(s): {how}; the LEDs light one at a time{stop}")
        for seat, choice in panel.held():
            gpio = getattr(pins[seat], choice.value)
            where = _where(gpio)
            say(f"held   seat {seat + 1}  {choice.value:<5}  {where}: stuck or shorted to GND?")
        start = clock()
        k = 0
        while seconds is None or clock() - start < seconds:
            seat = k % n
            panel.set_leds({seat})
            say(f"LED    seat {seat + 1}  on     {_where(pins[seat].led)}")
            if simulate:
                _press_with_bounce(factory, pins[seat].torch)
                _press_with_bounce(factory, pins[seat].camp)
            sleep(step)
            k += 1
            if simulate and seconds is None and k >= n:
                break
    except KeyboardInterrupt:
        pass
    finally:
        panel.close()
    say("done")
    return 0


def _press_with_bounce(factory: Any, gpio: int) -> None:
    """A press as a real contact makes it: a short burst of edges, then a release."""
    pin = factory.pin(gpio)
    for _ in range(3):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    pin.drive_high()
