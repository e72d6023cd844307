"""The games played here and a past game; the statistics of them all."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from companion.session import Session
from ui.controllers import confirm
from ui.kivyfree import presenters
from ui.kivyfree.i18n import _

if TYPE_CHECKING:
    from companion.stats import GroupStats, Played, PlayerStats
    from ui.app import CompanionApp

# The history's presenters and the statistics are imported by the methods that
# show them: the first screen never does (milliseconds of start-up on a Pi).

_log = logging.getLogger(__name__)


class HistoryController:
    """The history screen, a page at a time, and a past game opened from it."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.games: tuple[Played, ...] = ()  # the page on show
        self._page = 0
        self.past: tuple[Played, Session] | None = None

    def show(self, keep_page: bool = False) -> None:
        """The games played here, newest first, a page at a time (each page read
        from the data file when shown: thousands of games stay quick)."""
        if not keep_page:
            self._page = 0
        self.page(0)
        self.app.show_screen("history")

    def close(self) -> None:
        self.app.setup.show()

    def page(self, delta: int) -> None:
        from ui.kivyfree.presenters import history as history_presenters
        from ui.kivyfree.presenters.chips import page_text, pages

        games = self.app.games
        size = history_presenters.HISTORY_PAGE
        count = pages(games.game_count(), size)
        page = max(0, min(self._page + delta, count - 1))
        self._page = page
        self.games = games.history(page * size, size)
        games = self.app.games
        rows = [history_presenters.history_row(  # the option is read for unfinished games only
                    g, hidden_tents=not g.summary.finished and games.hidden_tents(g.game))
                for g in self.games]
        self.app.history_screen.show(rows, page, count, page_text(page, count))

    def open_past_game(self, game: int) -> None:
        """A game of the history: its final table and chart (the names now)."""
        from ui.kivyfree.presenters import history as history_presenters

        app = self.app
        played = next((g for g in self.games if g.game == game), None)
        if played is None:
            return
        try:
            session = app.games.session(game)
        except Exception:
            _log.exception("reading game %s", game)
            return
        screen = app.past_game_screen
        renamed = history_presenters.with_names_now(played, session.state)
        screen.show(presenters.game_over_view(renamed, app.players.seat_colours(renamed),
                                              hidden_tents=app.games.hidden_tents(game)))
        screen.heading = history_presenters.past_game_heading(played)
        if not played.summary.finished:
            screen.winners = _("Unfinished, round {round}").format(round=session.state.round)
        screen.game = game
        at_table = app.table is not None and app.table.game == game
        screen.can_resume = not played.summary.finished and not at_table
        self.past = (played, session)
        app.show_screen("past_game")

    def open_round_log(self) -> None:
        if self.past is not None:
            self.app.menus.open_round_log(self.past[1])

    def resume(self) -> None:
        if self.past is None:
            return
        app = self.app
        game = self.past[0].game
        try:
            table = app.games.resume(game)
        except Exception:
            _log.exception("resume")
            return
        app.hidden_tents = app.games.hidden_tents(game)
        app.attach(table)

    def delete(self) -> None:
        """Delete the game on show, after a yes (the data file stays whole either way)."""
        if self.past is None:
            return
        game = self.past[0].game

        def delete() -> None:
            try:
                self.app.games.delete_game(game)
            except Exception:
                _log.exception("deleting game %s", game)
            self.past = None
            self.show(keep_page=True)

        confirm(
            _("Delete this game for good? Its scores leave the statistics."), _("Delete"), delete
        )


class StatsController:
    """The statistics screen: per player a page at a time, or per group."""

    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self._page = 0
        self._history: tuple[Played, ...] = ()
        self._stats: tuple[PlayerStats, ...] = ()
        self._groups: tuple[GroupStats, ...] = ()

    def show(self, mode: str = "players") -> None:
        """The statistics of the games played here: per player, or per group."""
        from companion.stats import group_stats, player_stats

        app = self.app
        self._history = app.games.history()
        app.players.players = app.games.players()
        self._stats = player_stats(self._history)
        self._groups = group_stats(self._history)
        app.stats_screen.mode = mode
        self._page = 0
        self.page(0)
        app.show_screen("stats")

    def page(self, delta: int) -> None:
        from ui.kivyfree.presenters import history as history_presenters

        screen = self.app.stats_screen
        view = history_presenters.stats_page(
            self._history, self._stats, self._groups, self.app.players.players,
            by_group=screen.mode == "groups", page=self._page + delta,
        )  # fmt: skip
        self._page = view.page
        screen.show(view.heading, view.rows, view.chart, view.page, view.pages, view.page_text)
