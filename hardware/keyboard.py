"""The keyboard stand-in for the seat buttons, for desktops without GPIO.

Key layout (up to 8 seats): **the digit of the seat number is its torch, the
letter just below it is its camp.**

======  =====  =====  =====  =====  =====  =====  =====  =====
seat      1      2      3      4      5      6      7      8
======  =====  =====  =====  =====  =====  =====  =====  =====
torch     1      2      3      4      5      6      7      8
camp      q      w      e      r      t      y      u      i
======  =====  =====  =====  =====  =====  =====  =====  =====

Why this layout: the number on the key is the seat's number on the screen, and
each seat's pair sits one above the other, so two to four people can share one
keyboard. The numeric keypad's digits work as torch too. Letters are matched
case-insensitively. On a QWERTZ keyboard seat 6's camp key is the one labelled
Z (the mapping follows the character the key types, ``y``).

On a keyboard the choices are not secret, of course: it is for trying the app
at a desk, not for play at the table.

This module is a pure mapping from key names to ``(seat, Choice)``; it imports
no Kivy. The UI feeds it the key name Kivy reports (``keycode[1]``, e.g.
``"q"``, ``"1"``, ``"numpad1"``) and passes the result to
``SeatPress`` (the core's inbox). Key repeat is harmless: pressing the same choice
again changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.choices import Choice
from companion.ports import SeatPress

__all__ = ["KEYS", "LAYOUT", "KeyboardSeats", "choice_for_key", "layout_lines"]

_TORCH_KEYS = "12345678"
_CAMP_KEYS = "qwertyui"

# (seat index, torch key, camp key), seat index 0-based.
LAYOUT: tuple[tuple[int, str, str], ...] = tuple(
    (seat, t, c) for seat, (t, c) in enumerate(zip(_TORCH_KEYS, _CAMP_KEYS, strict=True))
)

KEYS: dict[str, tuple[int, Choice]] = {}
for _seat, _torch, _camp in LAYOUT:
    KEYS[_torch] = (_seat, Choice.TORCH)
    KEYS["numpad" + _torch] = (_seat, Choice.TORCH)
    KEYS[_camp] = (_seat, Choice.CAMP)


def choice_for_key(name: str, seats: int = len(LAYOUT)) -> tuple[int, Choice] | None:
    """The (seat, choice) a key stands for, or None for any other key.

    ``seats`` is how many seats play; keys of seats beyond it give None.

    >>> choice_for_key("3")
    (2, <Choice.TORCH: 'torch'>)
    >>> choice_for_key("Q")
    (0, <Choice.CAMP: 'camp'>)
    >>> choice_for_key("i", seats=4) is None
    True
    """
    hit = KEYS.get(name.strip().lower())
    if hit is None or hit[0] >= seats:
        return None
    return hit


def layout_lines(seats: int = len(LAYOUT)) -> list[str]:
    """The key layout as short lines for a help screen: ``seat 1: torch 1, camp q``."""
    return [f"seat {s + 1}: torch {t}, camp {c}" for s, t, c in LAYOUT[:seats]]


class KeyboardSeats:
    """The keyboard standing in for the seat buttons: key names in, presses out.

    ``seats`` says how many seats play now (keys of other seats do nothing).

    >>> pressed = []
    >>> keys = KeyboardSeats(lambda seat, choice: pressed.append((seat, choice)), lambda: 4)
    >>> keys.key("w"), keys.key("8"), pressed
    (True, False, [(1, <Choice.CAMP: 'camp'>)])
    """

    def __init__(self, press: SeatPress, seats: Callable[[], int]) -> None:
        self._press = press
        self._seats = seats

    def key(self, name: str) -> bool:
        """True if ``name`` is a seat's key (and the press was passed on)."""
        hit = choice_for_key(name, self._seats())
        if hit is None:
            return False
        self._press(*hit)
        return True
