"""The group and its history as the screens show them: the players' chips of the
set-up screen, the rows of the history screen, the statistics screen's rows
and charts. State in, frozen view models out; no Kivy, tested without a window.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal

from companion.engine import State
from companion.players import Player
from companion.stats import GroupStats, HeadToHead, Played, PlayerStats
from ui.kivyfree.i18n import _, language, ngettext
from ui.kivyfree.presenters import HIDDEN, ChartView, Colour, clipped_name, rules_label
from ui.kivyfree.presenters.chips import DEFAULT_COLOUR, colour, page_text, pages
from ui.kivyfree.words import listed, percent, with_decimal_mark

HISTORY_PAGE = 3  # rows of the history screen at a time: 8 seats of long names take 3 lines
STATS_PAGE = 2  # players of the statistics screen at a time, each in four short lines
CHART_GAMES = 10  # the statistics chart: a player's last games


def building_text(made: int, of: int) -> str:
    """How far the games' summaries are made (the first start after a migration)."""
    return ngettext(
        "Building the history: {made} of {of} game", "Building the history: {made} of {of} games",
        of,
    ).format(made=made, of=of)


# --- the history screen ------------------------------------------------------------


@dataclass(frozen=True)
class HistoryRow:
    game: int
    title: str  # when, the rule set, and the winner or "unfinished"
    scores: str  # every seat: name and score, best first
    finished: bool


def when(created: str) -> str:
    """When a game began, in the device's time zone and the table's language."""
    try:
        at = datetime.fromisoformat(created).astimezone()
    except ValueError:
        return created
    # Babel's dates (its locale data) load with the first date shown, not at start:
    # the set-up screen's player chips live in this module too.
    from babel.dates import format_datetime

    return str(format_datetime(at, "short", locale=language()))


def history_row(g: Played, *, hidden_tents: bool = False) -> HistoryRow:
    """A game of the list; ``hidden_tents``: the game was played with them, and
    until it is over its seats show no score, in their order (best first would
    tell the ranking)."""
    s = g.summary
    if hidden_tents and not s.finished:
        scores = " · ".join(f"{clipped_name(name)} {HIDDEN}" for name in g.players)
    else:
        order = sorted(range(len(s.seats)), key=lambda i: (-s.seats[i].score, i))
        scores = " · ".join(f"{clipped_name(g.players[i])} {s.seats[i].score}" for i in order)
    if s.finished:
        won = [clipped_name(g.players[i]) for i in s.winners]
        result = (_("Winner: {names}") if len(won) == 1 else _("Winners: {names}")).format(
            names=listed(won)
        )
    else:
        rounds = s.seats[0].rounds if s.seats else 0
        result = _("Unfinished, round {round}").format(round=min(5, rounds + 1))
    title = f"{when(g.created)} · {rules_label(s.rules)} · {result}"
    return HistoryRow(g.game, title, scores, s.finished)


def past_game_heading(g: Played) -> str:
    return f"{when(g.created)} · {rules_label(g.summary.rules)}"


def with_names_now(g: Played, state: State) -> State:
    """A past game's final state under its players' names now (a rename shows
    in old games); the log keeps the names played."""
    seats = tuple(replace(seat, name=g.players[i]) for i, seat in enumerate(state.seats))
    return replace(state, seats=seats)


# --- the statistics screen -----------------------------------------------------------


def number(value: float, digits: int = 1) -> str:
    """``value`` rounded to ``digits``, no trailing zeros, as the language writes it
    (a figure of the statistics, never a thousand: no grouping)."""
    shown = f"{Decimal(repr(round(value, digits))).normalize():f}"
    return with_decimal_mark(shown)


@dataclass(frozen=True)
class StatsRow:
    player: str
    colour: Colour
    figures: str  # games, wins, win rate, mean and best score
    rounds: str  # busted, gems a round, artifacts
    against: str  # head-to-head against the others at the table


def stats_row(p: PlayerStats, player_colour: Colour) -> StatsRow:
    figures = " · ".join((
        ngettext("{n} game", "{n} games", p.games).format(n=p.games),
        ngettext("{n} win", "{n} wins", p.wins).format(n=p.wins) + f" ({percent(p.win_rate)})",
        _("mean {score}").format(score=number(p.mean_score)),
        _("best {score}").format(score=p.best_score),
    ))  # fmt: skip
    rounds = " · ".join((
        _("busted in {share} of rounds").format(share=percent(p.bust_rate)),
        # A mean, not a count: no plural can agree with "1.5" in every language.
        _("gems a round: {gems}").format(gems=number(p.banked_per_round)),
        ngettext("{n} artifact", "{n} artifacts", p.artifacts).format(n=p.artifacts),
    ))  # fmt: skip
    return StatsRow(clipped_name(p.player), player_colour, figures, rounds, against(p.head_to_head))


def group_row(g: GroupStats) -> StatsRow:
    """A group: who, how often they played together, and each one's wins and mean score."""
    figures = " · ".join((
        ngettext("{n} game together", "{n} games together", g.games).format(n=g.games),
        _("wins: {players}").format(
            players=listed([f"{clipped_name(m.player)} {m.wins}" for m in g.members])),
    ))  # fmt: skip
    means = _("mean score: {players}").format(
        players=listed([f"{clipped_name(m.player)} {number(m.mean_score)}" for m in g.members])
    )
    names = listed([clipped_name(n) for n in g.players])
    return StatsRow(names, (1, 0.86, 0.35, 1), figures, means, "")


def against(h2h: Sequence[HeadToHead], most: int = 3) -> str:
    """The others met most, as games ahead, behind and level on score (up to ``most``)."""
    if not h2h:
        return ""
    met = sorted(h2h, key=lambda h: (-h.games, h.other))[:most]
    said = listed([
        _("{other} {ahead}-{behind}-{level}").format(
            other=h.other, ahead=h.ahead, behind=h.behind, level=h.level
        )
        for h in met
    ])
    return _("Against: {others}").format(others=said)


def score_chart(
    games: Sequence[Played], players: Sequence[str], colours: Sequence[Colour]
) -> ChartView:
    """Each player's score in their last :data:`CHART_GAMES` finished games, oldest first."""
    series = []
    for name in players:
        scores = [
            g.summary.seats[g.players.index(name)].score
            for g in games  # newest first
            if g.summary.finished and name in g.players
        ][:CHART_GAMES]
        series.append(tuple(reversed(scores)))
    top = max([v for s in series for v in s] + [1])
    step = 10 if top <= 50 else 20 if top <= 100 else 50
    return ChartView(
        rounds=max([len(s) for s in series] + [1]),
        top=int(math.ceil(top / step) * step),
        series=tuple(series),
        colours=tuple(colours),
        labels=tuple(clipped_name(n) for n in players),
    )


@dataclass(frozen=True)
class StatsPage:
    """One page of the statistics screen: its players (or its group) and their chart."""

    heading: str
    rows: tuple[StatsRow, ...]
    chart: ChartView
    page: int
    pages: int
    page_text: str


def stats_page(
    history: Sequence[Played],
    stats: Sequence[PlayerStats],
    groups: Sequence[GroupStats],
    players: Sequence[Player],
    *,
    by_group: bool,
    page: int,
) -> StatsPage:
    """The statistics page ``page`` (clamped to the pages there are): a page of
    players, or one group with the games its members played together."""
    size = 1 if by_group else STATS_PAGE
    count = pages(len(groups if by_group else stats), size)
    page = max(0, min(page, count - 1))
    colours = {p.name: colour(p.colour) for p in players}
    if by_group:
        shown_groups = groups[page : page + 1]
        rows = tuple(group_row(g) for g in shown_groups)
        names = list(shown_groups[0].players) if shown_groups else []
        together = [g for g in history if tuple(sorted(g.players)) == tuple(names)]
        chart = score_chart(together, names, [colours.get(n, DEFAULT_COLOUR) for n in names])
    else:
        shown = stats[page * size : (page + 1) * size]
        rows = tuple(stats_row(p, colours.get(p.player, DEFAULT_COLOUR)) for p in shown)
        chart = score_chart(history, [p.player for p in shown], [r.colour for r in rows])
    finished = sum(g.summary.finished for g in history)
    heading = ngettext("{n} finished game", "{n} finished games", finished).format(n=finished)
    return StatsPage(heading, rows, chart, page, count, page_text(page, count))
