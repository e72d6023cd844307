"""The odds panel: the chance of a bust and what the deck still holds.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from companion.engine import State
from companion.odds import choice_odds, odds
from companion.rollout import DEFAULT_MODEL, LeaveModel
from ui.kivyfree.i18n import _, ngettext
from ui.kivyfree.words import (
    decimal,
    hazard_name,
    listed,
    model_info_line,
)

TYPE_CHECKING = False  # mypy reads it as true: the review's module is for an annotation only
if TYPE_CHECKING:
    from companion.review import ModelInfo


def cards_of(f: Fraction, cards_left: int) -> str:
    """A chance of the next card as cards of the cards left: "2/10", never the
    reduced "1/5", which reads as one card of five."""
    return f"{int(f * cards_left)}/{cards_left}"


def pair_chances(state: State) -> dict[str, str]:
    """Per hazard kind on the path, the chance that the next card is its pair: "2/13"."""
    o = odds(state)
    if o is None:
        return {}
    # A kind with no copy left cannot pair: its tile says nothing (not "0/1").
    return {kind: cards_of(f, o.cards_left) for kind, f in o.by_hazard if f}


def odds_text(state: State, *, per_hazard: bool = True) -> str:
    """The odds panel: the chance the next card busts (``per_hazard``: and of each
    hazard kind on the path), and what the deck still holds."""
    o = odds(state)
    if o is None:
        return ""

    def chance(f: Fraction) -> str:
        return _("{fraction} ({percent} %)").format(
            fraction=cards_of(f, o.cards_left) if f else "0", percent=_per_cent(f)
        )

    # A kind whose other copies are all out of the game cannot bust: not listed.
    can_bust = [(kind, f) for kind, f in o.by_hazard if f]
    if can_bust and per_hazard:
        kinds = listed([
            _("{hazard} {fraction}").format(
                hazard=hazard_name(kind), fraction=cards_of(f, o.cards_left)
            )
            for kind, f in can_bust
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


def _per_cent(f: Fraction) -> str:
    """A chance in whole per cent, half a per cent rounding up as a player would
    say it (2/16 is 13 %, not Python's round-half-to-even 12 %); but a chance
    that is neither nil nor certain is never said as 0 % or 100 %, which a
    player would take for "cannot" and "will"."""
    per_cent = math.floor(f * 100 + Fraction(1, 2))
    if per_cent == 0 < f:
        return "<1"
    if per_cent == 100 and f < 1:
        return ">99"
    return str(per_cent)


def choice_text(state: State, model: LeaveModel = DEFAULT_MODEL) -> str:
    """For the seats still in, while choices are due: what leaving now banks
    (alone, and if all of them leave), the chance of no bust in the next 1, 2
    and 3 cards, and one more card against leaving now by the review's model."""
    c = choice_odds(state, model)
    if c is None:
        return ""
    if c.seats_in == 1:
        bank = _("Leaving now banks {alone}").format(alone=c.alone)
    elif c.seats_in == 2:  # "if all 2 leave" is not English
        bank = _("Leaving now banks {alone} alone, {each} if both leave").format(
            alone=c.alone, each=c.all_leave
        )
    else:
        bank = ngettext(
            "Leaving now banks {alone} alone, {each} if all {n} leave",
            "Leaving now banks {alone} alone, {each} if all {n} leave",
            c.seats_in,
        ).format(alone=c.alone, each=c.all_leave, n=c.seats_in)
    survive = _("No bust in the next 1, 2, 3 cards: {one} %, {two} %, {three} %").format(
        one=_per_cent(c.survive[0]), two=_per_cent(c.survive[1]), three=_per_cent(c.survive[2])
    )
    value = _("One more card, then leaving: {more} on average; leaving now: {now}").format(
        more=decimal(c.one_more), now=decimal(c.leave)
    )
    return f"{bank}\n{survive}\n{value}"


@dataclass(frozen=True)
class ChoiceView:
    """The choice window: what torch and camp are worth now, to each seat still in."""

    title: str
    lines: tuple[str, ...]
    model: str  # which model of the other seats "one more card" played


def choice_view(
    state: State, model: LeaveModel = DEFAULT_MODEL, info: ModelInfo | None = None
) -> ChoiceView | None:
    """The choice window's words; None when no choice is due. ``info``: the
    model fitted to these players' games (None: the default, while their
    games are still being read)."""
    text = choice_text(state, model)
    if not text:
        return None
    if info is None:
        said = _("Model of the other seats: the default, while these players' games are read")
    else:
        said = model_info_line(info)
    return ChoiceView(
        title=_("Torch or camp? What each is worth to a seat still in"),
        lines=tuple(text.splitlines()),
        model=said,
    )
