"""The game-over review: each seat's choices against its luck.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from companion.review import review
from companion.session import Session
from ui.kivyfree.i18n import _
from ui.kivyfree.presenters.common import Colour, seat_colour
from ui.kivyfree.presenters.seats import bot_name
from ui.kivyfree.words import signed


@dataclass(frozen=True)
class ReviewRow:
    name: str
    colour: Colour
    total: str
    choices: str
    luck: str


@dataclass(frozen=True)
class ReviewView:
    title: str
    explain: str
    headers: tuple[str, str, str, str]
    rows: tuple[ReviewRow, ...]


def review_view(session: Session, bots: Collection[int] = (),
                colours: Sequence[Colour] | None = None) -> ReviewView:
    """The game-over review: per seat its total, and its choices against its luck."""
    result = review(session)
    rows = tuple(
        ReviewRow(
            name=bot_name(s.name) if s.seat in bots else s.name,
            colour=seat_colour(s.seat, colours),
            total=str(s.total),
            choices=signed(s.choices),
            luck=signed(s.luck),
        )
        for s in result.seats
    )
    return ReviewView(
        title=_("Choices vs luck"),
        explain=_(
            "Choices: what each torch or camp gained over the other choice, at the odds of "
            "the moment. Luck: what the cards gave beyond their average."
        ),
        headers=(_("seat"), _("score"), _("choices"), _("luck")),
        rows=rows,
    )
