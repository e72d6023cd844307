"""What the app drives besides the game itself, handed over by the composition root.

No Kivy here: the root builds a :class:`Controls` without loading the UI.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from companion.table import Table

__all__ = ["Controls", "PhoneLinks", "PhonesControl"]


class PhoneLinks(Protocol):
    """The links the Phones window shows as QR codes."""

    @property
    def watch(self) -> str: ...  # "" while the pages are off

    @property
    def seats(self) -> tuple[tuple[str, str], ...]: ...  # (name, link) per seat


class PhonesControl(Protocol):
    """The phones' pages as the screens drive them (``web.phones.Phones``)."""

    @property
    def on(self) -> bool: ...

    error: str  # why they are off after a failure, else ""

    def switch(self, on: bool) -> bool: ...

    def repair(self) -> None: ...

    def follow(self, table: Table | None) -> None: ...

    def publish(self) -> None: ...

    def links(self) -> PhoneLinks: ...


def _no_key(name: str) -> bool:
    return False


def _nothing() -> None:
    return None


@dataclass(frozen=True)
class Controls:
    """The device's parts the screens use.

    ``key``: a key from the window; True if it was a seat's torch or camp
    (the keyboard stands in for the buttons). ``turn_card``: the virtual
    table's "Turn a card" (None: there is no virtual table); it returns the
    card laid down, or None when no card can come. ``step_camera``: one
    camera frame read on the UI clock, where there is no scanner thread.
    ``camera``: whether a camera (real or virtual) reads the cards.
    ``start``: what the first screen did not wait for (the camera); the app
    calls it once, after its first frame, and goes on with the controls it
    returns. ``phones``: the LAN pages for phones (None: not built).
    ``release_memory``: frees what the app dropped in reference cycles and
    hands the process's free heap pages back to the system; the app calls it
    when a round ends. ``switch_off``: asks the system to switch the device
    off (an ``OSError`` says why it could not); None where nothing would act
    on it (a desktop), and the menu offers no switch.
    """

    key: Callable[[str], bool] = _no_key
    turn_card: Callable[[], str | None] | None = None
    step_camera: Callable[[], object] | None = None
    camera: bool = False
    close: Callable[[], None] = _nothing
    start: Callable[[], Controls] | None = None
    phones: PhonesControl | None = None
    release_memory: Callable[[], None] = _nothing
    switch_off: Callable[[], None] | None = None
