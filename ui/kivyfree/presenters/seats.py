"""Seats played by the device (bots) and the box editions, as the screens name them.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.cards import EDITIONS
from companion.events import STRATEGIES
from ui.kivyfree.i18n import _, ngettext
from ui.kivyfree.presenters.common import clipped_name
from ui.kivyfree.words import strategy_name

#: Before a bot seat's name wherever the table sees it: the device plays that seat.
BOT_MARK = "\u25c6"


#: What a seat on the set-up screen can be: a person, or a bot of each strategy.
SEAT_KINDS: tuple[str, ...] = ("person", *STRATEGIES)


def bot_name(name: str) -> str:
    """A bot seat's name as the screens show it."""
    return f"{BOT_MARK} {clipped_name(name)}"


def seat_kind_label(kind: str) -> str:
    """The set-up's word for what a seat is: a person, or the bot's strategy."""
    if kind == "person":
        return _("person")
    return _("bot: {strategy}").format(strategy=strategy_name(kind))


def bots_label(kinds: Sequence[str]) -> str:
    """The set-up's Bots button: how many seats the device plays."""
    n = sum(1 for k in kinds if k != "person")
    if not n:
        return _("Bots: none")
    return ngettext("Bots: {n} seat", "Bots: {n} seats", n).format(n=n)


def deck_label(deck: str) -> str:
    """The set-up's name of a box edition."""
    return {
        "incan-gold": _("Box: 15 treasures"),
        "14-treasures": _("Box: 14 treasures"),
    }.get(deck, deck)


DECK_CHOICES: tuple[str, ...] = tuple(EDITIONS)
