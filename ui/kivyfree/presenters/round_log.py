"""The round log: the game card by card, a page at a time.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.cards import CATALOGUE
from companion.engine import Bust, State
from companion.events import Draw, Move, Start
from ui.kivyfree.i18n import _
from ui.kivyfree.presenters.common import clipped_name
from ui.kivyfree.words import (
    card_name,
    last_event,
    listed,
)


@dataclass(frozen=True)
class LogPage:
    """A page of the round log: the round it shows, and its lines."""

    heading: str  # "Round 2"
    lines: tuple[str, ...]


def round_log(moves: Sequence[Move], states: Sequence[State]) -> tuple[str, ...]:
    """The game card by card, as Board Game Arena's log: what each card gave,
    who left with what, who busted on which hazard, the artifacts and their values.

    Built from the game's moves with every undo and correction already
    resolved (``Session.moves`` and ``Session.states``), so it follows both.
    """
    lines: list[str] = []
    for heading, said in _log_rounds(moves, states):
        lines += [heading, *said]
    return tuple(lines)


def round_log_pages(
    moves: Sequence[Move], states: Sequence[State], per_page: int
) -> tuple[LogPage, ...]:
    """The round log a page at a time, one round a page (a long round on
    several, each headed by its round), so every page says which round it is;
    the last page is the round on the table. ``per_page``: lines under the
    heading. A long round's pages are counted back from its newest line, so
    the page it opens on is full."""
    pages = []
    for heading, said in _log_rounds(moves, states):
        ends = range(len(said), 0, -per_page) if said else [0]
        pages += [LogPage(heading, tuple(said[max(0, end - per_page) : end]))
                  for end in reversed(ends)]
    return tuple(pages) or (LogPage(_("Round {round}").format(round=states[-1].round), ()),)


def _log_rounds(moves: Sequence[Move], states: Sequence[State]) -> list[tuple[str, list[str]]]:
    """The round log's lines, under each round's heading."""
    rounds: list[tuple[str, list[str]]] = []
    shown_round = 0
    for move, state in zip(moves, states, strict=True):
        if isinstance(move, Start):
            continue
        if state.round != shown_round:
            shown_round = state.round
            rounds.append((_("Round {round}").format(round=state.round), []))
        lines = rounds[-1][1]
        said = last_event(state)
        if isinstance(move, Draw) and CATALOGUE[move.card].is_treasure:
            # The split's sentence does not name its card; the others do.
            said = _("{card}: {what}").format(card=card_name(move.card).capitalize(), what=said)
        if said:
            lines.append(said)
        if isinstance(state.last, Bust) and state.last.losses:
            lines.append(_("Busted: {seats}").format(seats=listed([
                _("{name} (lost {n})").format(name=clipped_name(state.seats[seat].name), n=lost)
                for seat, lost in state.last.losses
            ])))
    return rounds
