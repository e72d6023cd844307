"""The round's summary: who took what, the cards to take out, the scores so far.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.engine import Bust, Phase, State
from ui.kivyfree.i18n import _, ngettext
from ui.kivyfree.presenters.common import (
    HIDDEN,
    Colour,
    artifacts_text,
    clipped_name,
    seat_colour,
    take_out_line,
    tents_hidden,
)
from ui.kivyfree.presenters.scores import ScoreColumns, score_columns
from ui.kivyfree.words import (
    card_name,
    last_event,
    listed,
)


@dataclass(frozen=True)
class RoundEndSeat:
    name: str
    colour: Colour
    result: str  # what the round gave: "kept 12 gems", "busted, lost 7"
    banked: str  # the tent: gems only, or HIDDEN
    artifacts: str  # the value of every artifact the seat has: "5 + 10", or ""
    new_artifacts: str  # those carried out this round, the end of ``artifacts``: "10", or ""
    score: str  # tent + artifacts, or HIDDEN
    busted: bool  # lost the gems in hand this round


@dataclass(frozen=True)
class RoundEndView:
    heading: str
    how: str  # why the round ended
    columns: ScoreColumns
    seats: tuple[RoundEndSeat, ...]
    remove: str  # the card to take out of the game, or ""
    lost: str  # artifacts gone for good, or ""
    next_artifact: str  # which artifact to shuffle in next, or ""
    button: str  # "Show the table" after rounds 1 to 4, "Final scores" after the last
    goes_to: str  # the screen the button shows: "table" or "game_over"


def round_end_view(state: State, *, hidden_tents: bool = False,
                   colours: Sequence[Colour] | None = None) -> RoundEndView:
    """What each seat kept in the round that just ended, its tent, artifacts and
    score, and what to do with the cards. Round 5 too: its button leads to the
    final scores."""
    end = state.round_end
    rnd = end.round if end else state.round
    hide = tents_hidden(state, hidden_tents)
    zero = tuple(0 for _s in state.seats)
    after = state.history[-1] if state.history else zero
    before = state.history[-2] if len(state.history) > 1 else zero
    losses = dict(state.last.losses) if isinstance(state.last, Bust) else {}
    # Artifacts carried out this round: those on the ended path that a seat took.
    # A seat's artifacts are kept in the order carried, so these are its last ones.
    new: dict[int, int] = {}
    for p in state.path:
        if p.taken_by is not None:
            new[p.taken_by] = new.get(p.taken_by, 0) + 1
    seats = []
    for i, s in enumerate(state.seats):
        kept = after[i] - before[i]
        if i in losses:
            result = _("busted, lost {n}").format(n=losses[i])
        else:
            result = ngettext("kept {n} gem", "kept {n} gems", kept).format(n=kept)
        values = [a.value for a in s.artifacts]
        fresh = values[len(values) - new.get(i, 0):] if new.get(i) else []
        seats.append(
            RoundEndSeat(
                name=clipped_name(s.name),
                colour=seat_colour(i, colours),
                result=result,
                banked=HIDDEN if hide else str(s.banked),
                artifacts=artifacts_text(values),
                new_artifacts=artifacts_text(fresh),
                score=HIDDEN if hide else str(s.score),
                busted=i in losses,
            )
        )
    bust = isinstance(state.last, Bust)
    how = last_event(state) if bust else _("Everyone has left the temple.")
    remove = take_out_line(state.to_remove)
    lost = ""
    if end and end.lost:
        lost = ngettext(
            "Left on the path and gone for good: {cards}.",
            "Left on the path and gone for good: {cards}.",
            len(end.lost),
        ).format(cards=listed([card_name(c) for c in end.lost]))
    nxt = ""
    if state.phase is Phase.ROUND_OVER and state.next_artifact:
        nxt = _("Shuffle {card} ({id}) into the deck for round {round}.").format(
            card=card_name(state.next_artifact), id=state.next_artifact, round=rnd + 1
        )
    over = state.phase is Phase.GAME_OVER
    return RoundEndView(
        heading=_("Round {round} is over").format(round=rnd),
        how=how,
        columns=score_columns(state, this_round=True),
        seats=tuple(seats),
        remove=remove,
        lost=lost,
        next_artifact=nxt,
        button=_("Final scores") if over else _("Show the table"),
        goes_to="game_over" if over else "table",
    )
