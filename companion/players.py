"""The remembered players of the device: a name with a colour.

A game's log keeps each seat's name as it was played; the data file links a
game's seats to players beside the log (never inside it), so renaming a
player shows the new name in old games while the log stays as it was.

>>> colour_for(["#d94f3d"])
'#e8a33c'
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

__all__ = ["COLOURS", "Player", "colour_for"]

# Distinct on the dark table and for the common colour blindnesses first.
COLOURS = (
    "#d94f3d", "#e8a33c", "#f2dc5d", "#5fb35f", "#3fa7c4", "#4c6fd9", "#a15fd1",
    "#e06fa8", "#8c6a4f", "#9aa3ad", "#2e9c8a", "#c7d36a",
)  # fmt: skip


@dataclass(frozen=True)
class Player:
    """A name the table keeps between games, with the colour it plays in."""

    id: int
    name: str
    colour: str  # "#rrggbb"
    last_used: str  # ISO 8601 time of the last game started with them ("" never)


def colour_for(taken: Collection[str]) -> str:
    """The first colour of the palette nobody has yet (the least used when all are)."""
    for colour in COLOURS:
        if colour not in taken:
            return colour
    counts = {c: 0 for c in COLOURS}
    for c in taken:
        if c in counts:
            counts[c] += 1
    return min(COLOURS, key=lambda c: counts[c])
