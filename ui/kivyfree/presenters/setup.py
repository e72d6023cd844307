"""The set-up screen: a problem with the names, the game offered to resume.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.engine import MAX_SEATS, MIN_SEATS, State
from companion.rules import RULE_SETS
from ui.kivyfree.i18n import _, text_width
from ui.kivyfree.presenters.common import MAX_NAME_COLUMNS, clipped_name
from ui.kivyfree.words import listed

RULE_CHOICES: tuple[str, ...] = tuple(RULE_SETS)


def setup_problem(names_given: Sequence[str], kinds: Sequence[str] = ()) -> str:
    """Why these seat names (and seat kinds) cannot start a game, or "" if they can."""
    cleaned = [n.strip() for n in names_given]
    if cleaned and kinds and all(k != "person" for k in kinds[: len(cleaned)]):
        return _("At least one seat must be a person.")
    if not MIN_SEATS <= len(cleaned) <= MAX_SEATS:
        return _("A game has {least} to {most} seats.").format(least=MIN_SEATS, most=MAX_SEATS)
    for i, n in enumerate(cleaned):
        if not n:
            return _("Seat {n} has no name.").format(n=i + 1)
        if text_width(n) > MAX_NAME_COLUMNS:
            return _("Seat {n}'s name is too long.").format(n=i + 1)
    for n in cleaned:
        if cleaned.count(n) > 1:
            return _("Two seats are called {name}.").format(name=n)
    return ""


def resume_text(state: State) -> str:
    """A stored unfinished game as the setup screen offers it."""
    return _("Resume: round {round}, {names}").format(
        round=state.round, names=listed([clipped_name(s.name) for s in state.seats])
    )
