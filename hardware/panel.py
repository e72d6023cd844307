"""The seat panel: two buttons (torch, camp) and one LED per seat, on gpiozero.

Buttons are wired from the GPIO to GND and use the Pi's internal pull-up
(active low); LEDs go through a 330 ohm resistor to GND (deploy/WIRING.md).
The pin map is a parameter (``Config.pins``); this module reads no files.

Each button is a gpiozero ``DigitalInputDevice`` with ``pull_up=True``: that
is gpiozero's ``Button`` without its hold-time feature, which we do not use and
which costs one polling thread per button (16 threads waking 10 times a
second) and makes closing the panel take up to a second per button held down.

Presses are debounced here (:mod:`hardware.debounce`), not by gpiozero's
``bounce_time``. Accepted presses are reported as ``on_press(seat, choice)``
**on gpiozero's callback thread**; the panel does nothing else with them, so
the app must marshal them to its UI thread (Kivy ``Clock.schedule_once``)
before touching the :class:`~companion.choices.ChoiceCollector`.

Tests and demos pass ``pin_factory=MockFactory()``; the Pi passes the lgpio
factory from :func:`hardware.gpio.pi_pin_factory`.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from gpiozero import LED, DigitalInputDevice  # type: ignore[import-untyped]

from companion.choices import Choice
from companion.engine import MAX_SEATS
from hardware.debounce import DEFAULT_WINDOW, Debouncer
from hardware.gpio import header_pin
from hardware.pins import clash

if TYPE_CHECKING:
    from hardware.pins import PinsLike

__all__ = ["PinUnavailable", "SeatPanel"]

_log = logging.getLogger(__name__)


class PinUnavailable(OSError):
    """A seat's pin could not be opened: which seat, which part and which pin."""


def _named(seat: int, part: str, gpio: int) -> str:
    """A seat's wire as the wiring table names it: "seat3 camp (GPIO 9, header pin 21)"."""
    pin = header_pin(gpio)
    return f"seat{seat + 1} {part} (GPIO {gpio}" + (f", header pin {pin})" if pin else ")")


class SeatPanel:
    """Buttons and LEDs of ``len(pins)`` seats (seat 0 is "seat 1" on the box).

    ``on_press(seat, choice)`` runs on a gpiozero thread for every accepted
    press. ``debounce_s`` is the quiet time a pin needs before a press counts
    (see :mod:`hardware.debounce` for the rule and the 30 ms default).
    ``clock`` is only for the debouncing, so tests can use fake time.

    Each button is its own gpiozero device with its own callback: a button held
    down (stuck) produces no further edges and holds no lock, so other seats
    work normally.
    """

    def __init__(
        self,
        pins: Sequence[PinsLike],
        *,
        on_press: Callable[[int, Choice], None],
        pin_factory: Any = None,
        clock: Callable[[], float] = time.monotonic,
        debounce_s: float = DEFAULT_WINDOW,
    ) -> None:
        pins = list(pins)
        if not 1 <= len(pins) <= MAX_SEATS:
            raise ValueError(f"a panel has 1 to {MAX_SEATS} seats, not {len(pins)}")
        twice = clash(pins)
        if twice is not None:
            raise ValueError(f"GPIO {twice.gpio} is used twice: seat{twice.seat} {twice.part} "
                             f"and {twice.earlier}")
        self.pins: tuple[PinsLike, ...] = tuple(pins)
        self._on_press = on_press
        self._debouncer = Debouncer(debounce_s, clock=clock)
        self._buttons: dict[tuple[int, Choice], Any] = {}
        self._leds: list[Any] = []
        self._closed = False
        opening = ""
        try:
            for seat, p in enumerate(self.pins):
                for choice, gpio in ((Choice.TORCH, p.torch), (Choice.CAMP, p.camp)):
                    opening = _named(seat, choice.value, gpio)
                    button = DigitalInputDevice(
                        gpio, pull_up=True, bounce_time=None, pin_factory=pin_factory
                    )
                    button.when_activated = self._handler(seat, choice, True)
                    button.when_deactivated = self._handler(seat, choice, False)
                    self._buttons[seat, choice] = button
                opening = _named(seat, "led", p.led)
                self._leds.append(LED(p.led, pin_factory=pin_factory))
        except Exception as e:
            self.close()
            # Which wire, in the words of the wiring table: the pin alone does not say.
            raise PinUnavailable(f"{opening}: {e}") from e
        except BaseException:
            self.close()
            raise

    @property
    def seats(self) -> int:
        """How many seats this panel has."""
        return len(self.pins)

    def _handler(self, seat: int, choice: Choice, pressed: bool) -> Callable[[], None]:
        key = (seat, choice)

        def on_edge() -> None:  # no parameters: gpiozero then passes no device
            if self._debouncer.edge(key, pressed) and not self._closed:
                try:
                    self._on_press(seat, choice)
                except Exception:
                    # Keep gpiozero's callback thread alive for the other seats.
                    _log.exception("seat %d %s: on_press failed", seat + 1, choice.value)

        return on_edge

    def set_leds(self, lit: Collection[int] | Mapping[int, bool]) -> None:
        """Light exactly these seats' LEDs; every other LED goes off.

        ``lit`` is a collection of seat indexes (``ChoiceCollector.leds()``) or
        a mapping seat -> on. Seats beyond this panel are ignored.
        """
        if isinstance(lit, Mapping):
            on = {seat for seat, value in lit.items() if value}
        else:
            on = set(lit)
        for seat in range(len(self._leds)):
            self.set_led(seat, seat in on)

    def set_led(self, seat: int, on: bool) -> None:
        """Switch one seat's LED."""
        if self._closed:
            return
        led = self._leds[seat]
        try:
            if on:
                led.on()
            else:
                led.off()
        except Exception as e:  # lgpio's error names no seat
            raise PinUnavailable(f"{_named(seat, 'led', self.pins[seat].led)}: {e}") from e

    def held(self) -> list[tuple[int, Choice]]:
        """Buttons down right now, e.g. a stuck button or one wired straight to GND."""
        return [key for key, button in self._buttons.items() if button.is_active]

    def close(self) -> None:
        """Switch the LEDs off and release every pin (safe to call twice)."""
        self._closed = True
        for led in self._leds:
            # Already closed, or the pin went away: nothing left to switch off.
            with contextlib.suppress(Exception):
                led.off()
            led.close()
        for button in self._buttons.values():
            button.close()
        self._leds.clear()
        self._buttons.clear()
        self._debouncer.forget()

    def __enter__(self) -> SeatPanel:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
