"""The seat buttons' fake: a real :class:`~hardware.panel.SeatPanel` on
gpiozero's own ``MockFactory``, pressed by code.

The demo's simulated seats and the tests press buttons through it, so a
press takes the path a finger takes on the device: a pin edge, gpiozero's
callback, the debouncer, the panel's ``on_press``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING, Any

from gpiozero.pins.mock import MockFactory  # type: ignore[import-untyped]

from companion.choices import Choice
from companion.ports import Clock, SeatPress
from hardware.debounce import DEFAULT_WINDOW
from hardware.panel import SeatPanel

if TYPE_CHECKING:
    from hardware.pins import PinsLike

__all__ = ["MockSeats"]


class MockSeats:
    """Seat buttons and LEDs on mock pins; fits :class:`companion.ports.SeatLights`."""

    def __init__(
        self,
        pins: Sequence[PinsLike],
        *,
        on_press: SeatPress,
        clock: Clock,
        debounce_s: float = DEFAULT_WINDOW,
        factory: Any = None,
    ) -> None:
        self.factory = factory if factory is not None else MockFactory()
        self.panel = SeatPanel(
            pins, on_press=on_press, pin_factory=self.factory, clock=clock, debounce_s=debounce_s
        )

    def pin(self, seat: int, choice: Choice) -> Any:
        """The mock pin of a seat's torch or camp button."""
        pins = self.panel.pins[seat]
        return self.factory.pin(pins.torch if choice is Choice.TORCH else pins.camp)

    def press(self, seat: int, choice: Choice, *, hold: Callable[[], None] | None = None) -> None:
        """Press and release a button; ``hold`` runs while it is down (moves fake time)."""
        pin = self.pin(seat, choice)
        pin.drive_low()
        if hold is not None:
            hold()
        pin.drive_high()

    def lit(self) -> frozenset[int]:
        """The seats whose LED is on."""
        return frozenset(
            seat for seat, p in enumerate(self.panel.pins) if self.factory.pin(p.led).state
        )

    def set_leds(self, lit: Collection[int]) -> None:
        self.panel.set_leds(lit)

    def close(self) -> None:
        self.panel.close()
