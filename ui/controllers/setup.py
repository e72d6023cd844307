"""The set-up screen: a new game from its names and rules, or the unfinished one resumed."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from companion.cards import DEFAULT_EDITION
from companion.events import Start
from ui.kivyfree import presenters

if TYPE_CHECKING:
    from ui.app import CompanionApp

_log = logging.getLogger(__name__)


class SetupController:
    def __init__(self, app: CompanionApp) -> None:
        self.app = app

    def show(self) -> None:
        app = self.app
        app.players.reread()
        game = app.games.unfinished()
        text = ""
        if game is not None:
            try:
                text = presenters.resume_text(app.games.session(game).state)
            except Exception:
                _log.exception("reading game %s", game)
        app.setup_screen.resume_text = text
        app.show_screen("setup")

    def offer_last_table(self) -> None:
        last = self.app.games.last_table()
        if last:  # the same group usually plays again: its names are one tap away
            self.app.setup_screen.offer(last, len(last))

    def start_game(
        self,
        names: list[str],
        rules: str,
        hidden_tents: bool,
        *,
        deck: str = DEFAULT_EDITION,
        bots: tuple[tuple[int, str], ...] = (),
    ) -> None:
        app = self.app
        app.hidden_tents = hidden_tents
        try:
            table = app.games.new_game(
                Start(tuple(names), rules, deck, bots), hidden_tents=hidden_tents
            )
        except Exception as e:
            _log.exception("new game")
            app.setup_screen.problem = str(e)
            return
        app.attach(table)

    def resume_game(self) -> None:
        app = self.app
        game = app.games.unfinished()
        if game is None:
            return
        try:
            table = app.games.resume(game)
        except Exception as e:
            _log.exception("resume")
            app.setup_screen.problem = str(e)
            return
        app.hidden_tents = app.games.hidden_tents(game)
        app.attach(table)
