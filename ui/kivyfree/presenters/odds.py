"""The odds panel: the chance of a bust and what the deck still holds.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from fractions import Fraction

from companion.engine import State
from companion.odds import odds
from ui.kivyfree.i18n import _, ngettext
from ui.kivyfree.words import (
    decimal,
    hazard_name,
    listed,
)


def pair_chances(state: State) -> dict[str, str]:
    """Per hazard kind on the path, the chance that the next card is its pair: "2/13"."""
    o = odds(state)
    if o is None:
        return {}
    return {kind: f"{f.numerator}/{f.denominator}" for kind, f in o.by_hazard}


def odds_text(state: State, *, per_hazard: bool = True) -> str:
    """The odds panel: the chance the next card busts (``per_hazard``: and of each
    hazard kind on the path), and what the deck still holds."""
    o = odds(state)
    if o is None:
        return ""

    def chance(f: Fraction) -> str:
        return _("{fraction} ({percent} %)").format(
            fraction=f"{f.numerator}/{f.denominator}" if f else "0", percent=round(f * 100)
        )

    if o.by_hazard and per_hazard:
        kinds = listed([
            _("{hazard} {fraction}").format(
                hazard=hazard_name(kind), fraction=f"{f.numerator}/{f.denominator}"
            )
            for kind, f in o.by_hazard
        ])
        bust = _("Next card busts: {chance}: {kinds}").format(chance=chance(o.bust), kinds=kinds)
    else:
        bust = _("Next card busts: {chance}").format(chance=chance(o.bust))
    # Each count in a phrase of its own: "1 card and 1 gems" came from one plural for both.
    left = _("{cards} and {gems} left; {treasure}").format(
        cards=ngettext("{n} card", "{n} cards", o.cards_left).format(n=o.cards_left),
        gems=ngettext("{n} gem", "{n} gems", o.gems_left).format(n=o.gems_left),
        treasure=ngettext(
            "{n} seat still in: a treasure gives about {each}",
            "a treasure gives each of the {n} about {each}",
            o.seats_in,
        ).format(n=o.seats_in, each=decimal(float(o.treasure_each))),
    )
    return f"{bust}\n{left}"
