"""The game-over review: each seat's choices against its luck.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from companion.ports import EventStore
from companion.review import fit_model, review, stored_games
from companion.session import Session
from ui.kivyfree.i18n import _
from ui.kivyfree.presenters.common import Colour, clipped_name, seat_colour
from ui.kivyfree.presenters.seats import bot_name
from ui.kivyfree.words import (
    decision_line,
    model_line,
    signed,
)


@dataclass(frozen=True)
class ReviewRow:
    name: str
    colour: Colour
    total: str
    choices: str
    luck: str
    # The seat's three largest swings, largest first, each a decision in words
    # (with its uncertainty, and whether it was a mistake): the swings page.
    swings: tuple[str, ...] = ()
    swings_title: str = ""  # the swings page's title: whose swings they are


@dataclass(frozen=True)
class ReviewView:
    title: str
    explain: str
    headers: tuple[str, str, str, str]
    rows: tuple[ReviewRow, ...]
    model: str = ""  # which model of the other seats the rollouts played


def review_working() -> tuple[str, str]:
    """The review panel's title and text while the review is worked out."""
    return _("Choices vs luck"), _("Working out every decision of the game…")


def review_failed() -> tuple[str, str]:
    """The review panel's title and text when the review could not be worked out."""
    return _("Choices vs luck"), _(
        "The review could not be worked out. The game and its scores are kept.")


def review_view(
    session: Session,
    bots: Collection[int] = (),
    colours: Sequence[Colour] | None = None,
    *,
    store: EventStore | None = None,
    game: int | None = None,
) -> ReviewView:
    """The game-over review: per seat its total, and its choices against its luck.

    With the ``store``, the other seats' model is fitted to these players'
    stored games (``game``: this one's number there, not counted twice;
    docs/review.md); it takes seconds: call it off the UI thread.
    """
    history = stored_games(store, session, game) if store is not None else []
    model, info = fit_model(session, history)
    result = review(session, model, info)
    rows = tuple(
        ReviewRow(
            name=bot_name(s.name) if s.seat in bots else clipped_name(s.name),
            colour=seat_colour(s.seat, colours),
            total=str(s.total),
            choices=signed(s.choices),
            luck=signed(s.luck),
            swings=tuple(decision_line(d) for d in s.swings)
            or (_("No torch or camp to choose in this game."),),
            swings_title=_("{name}: the largest swings").format(
                name=bot_name(s.name) if s.seat in bots else clipped_name(s.name)
            ),
        )
        for s in result.seats
    )
    return ReviewView(
        title=_("Choices vs luck"),
        explain=_(
            "Choices: what each torch or camp gained over the other choice, the round "
            "played on many times with the other seats as they usually choose. Luck: what "
            "the cards gave beyond their average."
        ),
        headers=(_("seat"), _("score"), _("choices"), _("luck")),
        rows=rows,
        model=model_line(result),
    )
