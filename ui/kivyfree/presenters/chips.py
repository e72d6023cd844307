"""The remembered players as the set-up screen and the players' window show
them: a chip each, a page of chips at a time. Apart from the history's
presenters because the first screen shows them, and needs nothing else of the
history's (its rows, the statistics and their charts load when first shown).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from companion.players import Player
from ui.kivyfree.i18n import _
from ui.kivyfree.presenters.common import Colour, hex_colour

PLAYERS_PAGE = 12  # chips of the players' window at a time
DEFAULT_COLOUR: Colour = (0.6, 0.6, 0.6, 1)


def colour(hex_colour_text: str) -> Colour:
    """A player's "#rrggbb" as Kivy's rgba (grey for anything else)."""
    return hex_colour(hex_colour_text) or DEFAULT_COLOUR


@dataclass(frozen=True)
class Chip:
    """A remembered player as a button: tap to seat them."""

    player: int
    name: str
    colour: Colour
    seated: bool


def chips(players: Sequence[Player], seated: Collection[str]) -> tuple[Chip, ...]:
    """The players, most recently seated first; those at the table marked."""
    return tuple(Chip(p.id, p.name, colour(p.colour), p.name in seated) for p in players)


def pages(count: int, size: int) -> int:
    return max(1, math.ceil(count / size))


def page_text(page: int, count: int) -> str:
    return _("Page {page} of {pages}").format(page=page + 1, pages=count)
