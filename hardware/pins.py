"""The seat pin map: which BCM GPIO each seat's torch, camp and LED use.

No gpiozero here: the config reader checks a pin map with :func:`clash`
without loading any GPIO library, and the seat panel runs the same check.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["DEFAULT_PINS", "USABLE_GPIO", "PinsLike", "SeatPins", "clash"]

TYPE_CHECKING = False  # mypy reads it as true: typing (2 ms) is for the annotations only,
if TYPE_CHECKING:  # and the config reader, which every readable command loads, needs none
    from typing import Protocol

    class PinsLike(Protocol):
        """One seat's BCM pins."""

        @property
        def torch(self) -> int: ...
        @property
        def camp(self) -> int: ...
        @property
        def led(self) -> int: ...

# GPIO pins of the 40-pin header a seat may use: BCM 2..27. 0/1 are the HAT
# EEPROM bus; 14/15 (the serial console) are left free by the default map.
USABLE_GPIO = range(2, 28)


@dataclass(frozen=True)
class SeatPins:
    """One seat's GPIO pins (BCM numbers): its torch and camp buttons and its LED."""

    torch: int
    camp: int
    led: int


# Buttons from GPIO to GND (internal pull-up); LEDs through 330 ohm to GND.
# Each seat's three wires sit close together on the header (deploy/WIRING.md).
DEFAULT_PINS: tuple[SeatPins, ...] = (
    SeatPins(2, 3, 4),
    SeatPins(17, 27, 22),
    SeatPins(10, 9, 11),
    SeatPins(5, 6, 13),
    SeatPins(19, 26, 16),
    SeatPins(23, 24, 25),
    SeatPins(8, 7, 12),
    SeatPins(20, 21, 18),
)


@dataclass(frozen=True)
class Clash:
    """A GPIO used twice: by ``seat``'s ``part``, and before by ``earlier_seat``'s
    ``earlier_part`` (seats numbered from 1, as on the box)."""

    seat: int
    gpio: int
    part: str
    earlier_seat: int
    earlier_part: str

    @property
    def earlier(self) -> str:
        """The earlier use, as the wiring table says it: "seat1 camp"."""
        return f"seat{self.earlier_seat} {self.earlier_part}"


def clash(pins: Sequence[PinsLike]) -> Clash | None:
    """The first GPIO used twice, or None.

    >>> clash(DEFAULT_PINS) is None
    True
    >>> clash([SeatPins(2, 3, 4), SeatPins(5, 6, 3)])
    Clash(seat=2, gpio=3, part='led', earlier_seat=1, earlier_part='camp')
    """
    used: dict[int, tuple[int, str]] = {}
    for n, seat in enumerate(pins, start=1):
        for part, gpio in (("torch", seat.torch), ("camp", seat.camp), ("led", seat.led)):
            if gpio in used:
                return Clash(n, gpio, part, *used[gpio])
            used[gpio] = (n, part)
    return None
