"""The in-game menu and what it opens: the round log, the game-over review,
the phones, the choice window over the odds, and the questions before a game
leaves the table."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any

from companion.session import Session
from ui.controllers import confirm, inform
from ui.kivyfree import presenters
from ui.kivyfree.i18n import _

if TYPE_CHECKING:
    from companion.engine import State
    from companion.review import ModelInfo
    from companion.rollout import LeaveModel
    from ui.app import CompanionApp

_log = logging.getLogger(__name__)


class MenuController:
    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.menu: Any = None
        self.round_log: Any = None
        self.review: Any = None
        self.phones: Any = None
        self.choice: Any = None
        self._choice_shown: tuple[State, ModelInfo | None] | None = None
        # Per game on the table: the model of its players, fitted to their stored
        # games on a thread of its own (seconds on a Pi), once a game.
        self._models: dict[int, tuple[LeaveModel, ModelInfo]] = {}
        self._fitting: dict[int, threading.Thread] = {}

    def open(self) -> None:
        from ui.menu import GameMenu

        app = self.app
        self.close()
        table = app.table
        rules = table.state.rules.name if table is not None else app.setup_screen.rules
        self.menu = GameMenu(
            rules_text=presenters.rules_reminder(rules),
            volume=app.sounds.volume, muted=app.sounds.muted, in_game=table is not None,
            odds=app.show_odds, sound_out=app.sounds.available,
            can_switch_off=app.controls.switch_off is not None,
        )
        self.menu.bind(on_dismiss=lambda *a: setattr(self, "menu", None))
        self.menu.open(animation=False)

    def close(self) -> None:
        if self.menu is not None:
            self.menu.dismiss(animation=False)

    def open_review(self) -> None:
        """The game-over review: each seat's choices against the odds, and its luck."""
        from ui.menu import ReviewPanel

        table = self.app.table
        if table is None:
            return
        session, seats, game = table.session, table.bots, table.game
        colours, store = self.app.players.seat_colours(table.state), self.app.games.store
        # Worked out on a thread of its own: rollouts of a whole game take seconds.
        panel = ReviewPanel(
            lambda: presenters.review_view(session, seats, colours, store=store, game=game)
        )
        panel.bind(on_dismiss=lambda *a: setattr(self, "review", None))
        panel.open(animation=False)
        self.review = panel

    def open_choice_odds(self) -> None:
        """The odds' More: what torch and camp are worth to a seat still in, by the
        model the review uses (these players' stored games; the default until
        they are read), kept up to date while open, closed when no choice is due."""
        from ui.choice_odds import ChoiceOddsWindow

        table = self.app.table
        if table is None:
            return
        self._fit(table.game, table.session)
        window = ChoiceOddsWindow()
        self.choice, self._choice_shown = window, None
        self.app.on_refresh.append(self._follow_choice)
        window.bind(on_dismiss=lambda *a: self._choice_closed())
        self._follow_choice(self.app)
        if self.choice is window:
            window.open(animation=False)

    def _choice_closed(self) -> None:
        self.choice = None
        if self._follow_choice in self.app.on_refresh:
            self.app.on_refresh.remove(self._follow_choice)

    def _follow_choice(self, app: Any) -> None:
        """At each refresh: the figures again if the game or the model changed."""
        window, table = self.choice, app.table
        if window is None:
            return
        fitted = self._models.get(table.game) if table is not None else None
        if table is None or not table.collector.due:
            window.dismiss(animation=False)  # revealed: the table shows what came of it
            self._choice_closed()
            return
        key = (table.state, fitted[1] if fitted else None)
        if key == self._choice_shown:
            return
        from companion.rollout import DEFAULT_MODEL  # the rollouts: not at start

        model, info = fitted if fitted else (DEFAULT_MODEL, None)
        view = presenters.choice_view(table.state, model, info)
        if view is None:
            window.dismiss(animation=False)
            self._choice_closed()
            return
        self._choice_shown = key
        window.show(view)

    def _fit(self, game: int, session: Session) -> None:
        if game in self._models or game in self._fitting:
            return
        store = self.app.games.store

        def work() -> None:
            from kivy.clock import Clock

            from companion.review import ModelInfo, fit_model, stored_games
            from companion.rollout import DEFAULT_MODEL

            try:
                result = fit_model(session, stored_games(store, session, game))
            except Exception:  # an extra: the default model stands in
                _log.exception("fitting the model of the other seats")
                result = (DEFAULT_MODEL, ModelInfo("default", 0, 0))
            Clock.schedule_once(lambda _dt: self._fitted(game, result))

        self._fitting[game] = threading.Thread(target=work, daemon=True)
        self._fitting[game].start()

    def finish_fitting(self) -> None:
        """Wait for the models being fitted (for a caller off the UI's own loop;
        their results come with the clock's next tick)."""
        for thread in list(self._fitting.values()):
            thread.join()

    def _fitted(self, game: int, result: tuple[LeaveModel, ModelInfo]) -> None:
        self._fitting.pop(game, None)
        self._models[game] = result
        self._follow_choice(self.app)

    def open_round_log(self, session: Session | None = None) -> None:
        """A game card by card, from its moves (undo and corrections resolved):
        the game on the table (the menu's button), or a past game's."""
        from ui.menu import LOG_PAGE, RoundLog

        past = session is not None
        if session is None:
            table = self.app.table
            if table is None:
                return
            self.close()
            session = table.session
        log = RoundLog(presenters.round_log_pages(session.moves, session.states, LOG_PAGE),
                       past=past)
        log.bind(on_dismiss=lambda *a: setattr(self, "round_log", None))
        log.open(animation=False)
        self.round_log = log

    def open_phones(self) -> None:
        """The menu's Phones: a QR code for each seat's phone and one for watchers."""
        from ui.phones import PhonesWindow

        self.close()
        if self.app.controls.phones is None:
            return
        table = self.app.table
        colours = self.app.players.seat_colours(table.state) if table is not None else ()
        window = PhonesWindow(self.app.controls.phones, table, colours)
        window.bind(on_dismiss=lambda *a: setattr(self, "phones", None))
        window.open(animation=False)
        self.phones = window

    def new_game(self) -> None:
        """A new game: the one on the table stays in the data file, to resume."""
        if self.app.table is None:
            self.close()
            self.app.setup.show()
            return
        confirm(
            _("Start a new game? This game is kept and can be resumed."),
            _("New game"),
            lambda: self._leave(abandon=False),
        )

    def abandon(self) -> None:
        """Abandon the game on the table: it is kept, but never offered again."""
        confirm(
            _("Abandon this game? It will not be offered to resume."),
            _("Abandon game"),
            lambda: self._leave(abandon=True),
        )

    def _leave(self, *, abandon: bool) -> None:
        app = self.app
        self.close()
        app.games.leave(abandon=abandon)
        if app.controls.phones is not None:
            app.controls.phones.follow(None)
        app.play.leave()
        app.setup.offer_last_table()
        app.setup.show()

    def switch_off(self) -> None:
        """The device off, after a question (the menu's *Switch off*, and the
        set-up screen's): the game on the table stays in the data file, as at
        a power cut, and is offered at the next start."""
        confirm(
            _("Switch the device off? The game on the table is kept and offered"
              " at the next start."),
            _("Switch off"),
            self._switch_off,
        )

    def _switch_off(self) -> None:
        switch = self.app.controls.switch_off
        self.close()
        if switch is None:
            return
        try:
            switch()
        except OSError as e:
            _log.error("switch off: the request could not be made: %s", e)
            inform(_("The device could not be switched off: {reason}").format(
                reason=e.strerror or e))
            return
        # The system stops the app in a moment; should nothing act on the
        # request, one tap gives the table back.
        inform(_("Switching off. Unplug the device once the green light on its"
                 " board has stopped flashing."))

    def set_odds(self, shown: bool) -> None:
        """The menu's odds button; remembered in the data file."""
        app = self.app
        app.show_odds = shown
        app.games.remember_odds(shown)
        if self.menu is not None:
            self.menu.odds = shown
        if app.controls.phones is not None:
            app.controls.phones.publish()
        app.refresh()

    def set_sound(self, volume: float, muted: bool) -> None:
        """The menu's sound buttons; remembered in the data file."""
        sounds = self.app.sounds
        sounds.volume = volume
        sounds.muted = muted
        self.app.games.remember_sound(sounds.volume, sounds.muted)
        if self.menu is not None:
            self.menu.volume = sounds.volume
            self.menu.muted = sounds.muted
