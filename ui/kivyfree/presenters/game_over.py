"""The final scores: places, tie-breaks and the chart of the game.

State in, frozen view model out; no Kivy.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.cards import ROUNDS
from companion.engine import Phase, State
from ui.kivyfree.i18n import _
from ui.kivyfree.presenters.common import (
    HIDDEN,
    Colour,
    artifacts_text,
    clipped_name,
    seat_colour,
    tents_hidden,
)
from ui.kivyfree.presenters.scores import ScoreColumns, score_columns
from ui.kivyfree.words import (
    names,
    phase_name,
)


@dataclass(frozen=True)
class FinalSeat:
    name: str
    colour: Colour
    banked: str
    artifacts: str
    score: str
    winner: bool
    place: int  # 1 for the best; seats still tied after the artifacts share a place
    rank: str  # the place in words: "1st", "2nd"


@dataclass(frozen=True)
class ChartView:
    """The score (tent + artifacts) of each seat after each round, scaled to ``top``."""

    rounds: int
    top: int
    series: tuple[tuple[int, ...], ...]  # per seat: score after round 1, 2, ...
    colours: tuple[Colour, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class GameOverView:
    heading: str
    winners: str
    tie_break: str  # how ties on score were settled, or ""
    columns: ScoreColumns
    seats: tuple[FinalSeat, ...]  # best first
    chart: ChartView


def chart_view(state: State, colours: Sequence[Colour] | None = None) -> ChartView:
    """Scores after each round: what the final scores add up to, artifacts included."""
    series = tuple(
        tuple(row[i] for row in state.score_history) for i in range(len(state.seats))
    )
    top = max([v for s in series for v in s] + [1])
    # A round number as the axis' top: 10, 20, 50, 100 ...
    step = 10 if top <= 50 else 20 if top <= 100 else 50
    return ChartView(
        rounds=ROUNDS,
        top=int(math.ceil(top / step) * step),
        series=series,
        colours=tuple(seat_colour(i, colours) for i in range(len(state.seats))),
        labels=tuple(clipped_name(s.name) for s in state.seats),
    )


def place_name(place: int) -> str:
    """A place in the final ranking as the table says it: 1 -> "1st"."""
    words = (
        _("1st"), _("2nd"), _("3rd"), _("4th"), _("5th"), _("6th"), _("7th"), _("8th"),
    )  # fmt: skip
    return words[place - 1] if 1 <= place <= len(words) else str(place)


def _places(state: State) -> list[int]:
    """Each seat's place: the rules' order (score, then artifacts), ties shared (1, 1, 3)."""
    keys = [(s.score, len(s.artifacts)) for s in state.seats]
    return [1 + sum(other > key for other in keys) for key in keys]


def _tie_breaks(state: State, winners: Sequence[int]) -> str:
    """One sentence per score two or more seats share, best first; none before
    the game is over (an unfinished game's ties decide nothing yet)."""
    if state.phase is not Phase.GAME_OVER:
        return ""
    scores = state.scores
    said = []
    for score in sorted(set(scores), reverse=True):
        tied = [i for i, s in enumerate(scores) if s == score]
        if len(tied) < 2:
            continue
        top = score == max(scores)
        counts = [len(state.seats[i].artifacts) for i in tied]
        broken = len(set(counts)) > 1
        # Of three tied on 10 with 1, 1 and 0 artifacts, two still share the win.
        still = broken and counts.count(max(counts)) > 1
        if still:
            text = _("Tied on {score}; more artifacts decide, and those tied on them too "
                     "share the win.") if top else _(
                "Tied on {score}; more artifacts decide, and those tied on them too "
                "share a place.")
            said.append(text.format(score=score))
        elif broken:
            said.append(_("Tied on {score}; more artifacts decide.").format(score=score))
        elif not state.rules.artifacts:  # no artifacts to count (Diamant)
            text = _("Tied on {score}: a shared win.") if top else _(
                "Tied on {score}: a shared place."
            )
            said.append(text.format(score=score))
        else:
            text = _("Tied on {score} and on artifacts: a shared win.") if top else _(
                "Tied on {score} and on artifacts: a shared place."
            )
            said.append(text.format(score=score))
    return " ".join(said)


def game_over_view(state: State, colours: Sequence[Colour] | None = None, *,
                   hidden_tents: bool = False) -> GameOverView:
    """Final scores ranked by the rules (score, then artifacts), the winner(s), the
    tie-breaks, and the chart of scores.

    An unfinished game played with hidden tents (a past game in the history)
    shows no tent, score, place or chart: its seats in their order, as the
    table would until the end."""
    if tents_hidden(state, hidden_tents):
        return _hidden_view(state, colours)
    winners = state.winners if state.phase is Phase.GAME_OVER else ()
    # Two msgids, not ngettext: "Winner: {names}" is the command line's msgid
    # too (ui/kivyfree/words.py), and "Winners" is only ever said of two or more seats.
    one = len(winners) == 1
    win_text = (_("Winner: {names}") if one else _("Winners: {names}")).format(
        names=names(state, list(winners))
    ) if winners else ""
    places = _places(state)
    order = sorted(range(len(state.seats)), key=lambda i: (places[i], i))
    seats = tuple(
        FinalSeat(
            name=clipped_name(state.seats[i].name),
            colour=seat_colour(i, colours),
            banked=str(state.seats[i].banked),
            artifacts=artifacts_text([a.value for a in state.seats[i].artifacts]),
            score=str(state.seats[i].score),
            winner=i in winners,
            place=places[i],
            # Best first, but with no place: only the game's end gives one.
            rank=place_name(places[i]) if state.phase is Phase.GAME_OVER else "",
        )
        for i in order
    )
    return GameOverView(
        heading=phase_name(Phase.GAME_OVER).capitalize(),
        winners=win_text,
        tie_break=_tie_breaks(state, winners),
        columns=score_columns(state, this_round=False),
        seats=seats,
        chart=chart_view(state, colours),
    )


def _hidden_view(state: State, colours: Sequence[Colour] | None) -> GameOverView:
    seats = tuple(
        FinalSeat(
            name=clipped_name(s.name),
            colour=seat_colour(i, colours),
            banked=HIDDEN,
            artifacts=artifacts_text([a.value for a in s.artifacts]),  # carried out in view
            score=HIDDEN,
            winner=False,
            place=0,
            rank="",
        )
        for i, s in enumerate(state.seats)
    )
    chart = chart_view(state, colours)
    return GameOverView(
        heading=phase_name(Phase.GAME_OVER).capitalize(),
        winners="",
        tie_break="",
        columns=score_columns(state, this_round=False),
        seats=seats,
        chart=replace(chart, series=tuple(() for _s in state.seats)),
    )
