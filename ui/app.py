"""The touchscreen app: a ScreenManager with set-up, table, round end and game end.

The app owns no game logic. It shows what the presenters make of the
:class:`~companion.table.Table`'s state, forwards taps and keys to it, and
drives its clock. It is given the core's :class:`~companion.games.Games`
and the device's :class:`~ui.controls.Controls` by the composition root.
Adapter callbacks reach it through :func:`post` (``Clock.schedule_once``),
so everything below runs on the Kivy thread.

Import this module only after :func:`configure_kivy` (or with the Kivy
environment already set): Kivy reads its options when first imported.
"""

from __future__ import annotations

import importlib
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("KIVY_NO_ARGS", "1")  # Kivy must never parse our options

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFinish
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.cards import DEFAULT_EDITION
from companion.engine import DEFAULT_SEATS, Bust, Phase, State
from companion.events import Start, Undo
from companion.games import Games
from companion.players import Player
from companion.rules import DEFAULT_RULES
from companion.session import Session
from companion.stats import GroupStats, Played, PlayerStats, group_stats, player_stats
from companion.table import Table
from ui import history_presenters, i18n, kv, presenters
from ui.controls import Controls
from ui.cues import cues, tick_cue
from ui.i18n import _, ngettext
from ui.sound import SilentBoard, Sounds
from ui.words import notice_text

_log = logging.getLogger(__name__)

#: The files of what is not on the first screen, loaded a moment after it.
KV_LATER = (
    "round_end.kv", "game_over.kv", "picker.kv", "menu.kv", "players.kv", "history.kv",
    "past_game.kv", "stats.kv",
)
TICK_S = 0.1  # the countdown and a stepped camera run at this period
BUST_HOLD_S = 4.0  # how long the busting pair holds the table before the summary
#: After the first frame, the screens not on show are built this much later.
BUILD_LATER_S = 0.3
#: The screens built when first shown (or a moment after the first frame):
#: name -> (module, class).
LATER_SCREENS = {
    "round_end": ("ui.round_end_screen", "RoundEndScreen"),
    "game_over": ("ui.game_over_screen", "GameOverScreen"),
    "history": ("ui.history_screen", "HistoryScreen"),
    "past_game": ("ui.history_screen", "PastGameScreen"),
    "stats": ("ui.stats_screen", "StatsScreen"),
}


def _finish_frame(*_: Any) -> None:
    # A window on a screen hands each frame to the renderer when it swaps; a
    # window with no screen (offscreen, as under tests and on a desktop with
    # no display) swaps nothing, and Mesa's software renderer then queues every
    # frame's commands until its scene is full: tens of megabytes held at
    # once. Finishing the frame before the swap keeps one frame in hand on
    # any display (a flush alone left about 8 MB more in flight); on the Pi's
    # GPU the swap waits for the finished frame and the screen's refresh anyway.
    glFinish()


def post(fn: Callable[[], None]) -> None:
    """Run ``fn`` on the Kivy thread at the next frame (safe from any thread)."""
    Clock.schedule_once(lambda dt: fn(), 0)


class CompanionApp(App):
    """The companion on the touchscreen.

    ``games`` is the core's game lifecycle; if it already holds a table (a
    resumed game, the demo) the app opens on it, else on the set-up screen.
    ``seats`` and ``rules`` are what the set-up screen offers first.
    ``autoplay`` is called once a frame (the demo's simulated table) and
    returns True when it is finished.
    """

    title = "Incan Gold"

    def __init__(
        self,
        games: Games,
        controls: Controls | None = None,
        *,
        seats: int = DEFAULT_SEATS,
        rules: str = DEFAULT_RULES,
        hidden_tents: bool = False,
        sounds: Sounds | None = None,
        autoplay: Callable[[CompanionApp], bool] | None = None,
        screenshot: Path | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.games = games
        self.controls = controls if controls is not None else Controls()
        self.default_seats = seats
        self.default_rules = rules
        self.hidden_tents = hidden_tents
        self.sounds: Sounds = sounds if sounds is not None else SilentBoard()
        self._cue_state: tuple[State | None, tuple[Table, int] | None] = (None, None)
        self._holding: tuple[int, float] | None = None  # (round, since) of a bust on show
        self.bust_to_summary_s: float | None = None  # the last bust's moment, measured
        self.menu: Any = None
        self.round_log_view: Any = None
        self.review_view: Any = None
        self.show_odds = games.odds_shown()
        self.autoplay = autoplay
        self.screenshot_path = screenshot
        self.sm: ScreenManager | None = None
        self.picker: Any = None
        self._phase: tuple[int, Phase] | None = None  # the round and phase on show
        self._countdown_shown = ""
        # -1: in the frame that asked for it, not the next one (a whole frame sooner)
        self._refresh = Clock.create_trigger(self.refresh, -1)
        self.first_frame_at: float | None = None
        self.refreshes = 0
        self.on_refresh: list[Callable[[CompanionApp], None]] = []
        self.on_first_frame: list[Callable[[CompanionApp], None]] = []
        self._done_frames = -1
        # The history and statistics screens' games, read when one opens.
        self._history: tuple[Played, ...] = ()
        self._history_page = 0
        self._stats_page = 0
        self._stats: tuple[PlayerStats, ...] = ()
        self._groups: tuple[GroupStats, ...] = ()
        self._past: tuple[Played, Session] | None = None
        self._players: tuple[Player, ...] = ()
        self.players_window: Any = None
        self.phones_window: Any = None

    # --- building -----------------------------------------------------------------

    def build(self) -> ScreenManager:
        try:
            from ui.fonts import register_fonts

            register_fonts()  # one font for every language, before the first label
        except Exception:
            _log.exception("fonts")
        sm = ScreenManager(transition=NoTransition())
        self.sm = sm
        self._make_screens()
        self.setup_screen.seat_count = self.default_seats
        self.setup_screen.rules = self.default_rules
        self.setup_screen.hidden_tents = self.hidden_tents
        self.setup_screen.deck = self.games.last_deck()  # the table's box rarely changes
        if self.games.table is not None:
            self.hidden_tents = self.games.hidden_tents(self.games.table.game)
            self.attach(self.games.table)
        else:
            self._offer_last_table()
            self.show_setup()
        Clock.schedule_interval(self.tick, TICK_S)
        Clock.schedule_once(self._first_frame, 0)
        if self.autoplay is not None:
            Clock.schedule_interval(self._autoplay, 0)
        Window.bind(on_key_down=self._key_down)
        Window.bind(on_flip=_finish_frame)
        return sm

    def _make_screens(self) -> None:
        # The .kv files translate their words when a screen is built, so a
        # change of language builds the screens anew.
        from ui.setup_screen import SetupScreen
        from ui.table_screen import TableScreen

        assert self.sm is not None
        self.setup_screen = SetupScreen()
        self.table_screen = TableScreen()
        self._later: dict[str, Any] = {}
        for screen in (self.setup_screen, self.table_screen):
            self.sm.add_widget(screen)
        for box in self.setup_screen.name_inputs:
            box.bind(text=lambda *a: self._show_players())
        self.setup_screen.bind(seat_count=lambda *a: self._show_players())
        self._show_players()
        self.table_screen.virtual = self.controls.turn_card is not None
        self.table_screen.camera = self.controls.camera

    def _screen(self, name: str) -> Any:
        """The screen ``name`` of :data:`LATER_SCREENS`, built when first needed."""
        screen = self._later.get(name)
        if screen is None:
            module, cls = LATER_SCREENS[name]
            screen = getattr(importlib.import_module(module), cls)()
            self._later[name] = screen
            assert self.sm is not None
            self.sm.add_widget(screen)
        return screen

    @property
    def round_end_screen(self) -> Any:
        return self._screen("round_end")

    @property
    def game_over_screen(self) -> Any:
        return self._screen("game_over")

    @property
    def history_screen(self) -> Any:
        return self._screen("history")

    @property
    def past_game_screen(self) -> Any:
        return self._screen("past_game")

    @property
    def stats_screen(self) -> Any:
        return self._screen("stats")

    def _start_later(self, dt: float = 0.0) -> None:
        """Start what the first screen did not wait for (the camera)."""
        start = self.controls.start
        if start is None:
            return
        try:
            self.controls = start()
        except Exception:  # the game goes on with cards entered by hand
            _log.exception("starting the camera")
            self.controls = replace(self.controls, start=None, turn_card=None, camera=False)
        if self.sm is not None:
            self.table_screen.virtual = self.controls.turn_card is not None
            self.table_screen.camera = self.controls.camera
            self.refresh()

    def _build_later(self, dt: float = 0.0) -> None:
        """What the first screen did not need, built while the table is read."""
        if self.sm is None:
            return
        kv.load(*KV_LATER)
        for name in LATER_SCREENS:
            self._screen(name)

    def choose_language(self, code: str) -> None:
        """The language buttons (set-up screen and menu): every screen, and
        everything on it, in ``code``'s language from now on, and at the next
        start. The table stays on the screen it was on."""
        if self.sm is None:
            return
        was_on = self.sm.current
        menu_open = self.menu is not None
        old = self.setup_screen
        placeholders = [_("Player {n}").format(n=n + 1) for n in range(len(old.name_inputs))]
        typed = [box.text for box in old.name_inputs]
        kept = (old.seat_count, old.rules, old.hidden_tents, old.deck, list(old.seat_kinds))
        try:
            i18n.set_language(code)
        except ValueError:
            _log.warning("language %r is not available", code)
            return
        self.games.remember_language(i18n.language())
        if self.controls.phones is not None:
            self.controls.phones.publish()  # the pages' default language
        if self.table is not None:
            self.table.moved_on()  # what was said is not said again in the new words
        if self.picker is not None:
            self.picker.dismiss()
        if self.menu is not None:
            self.menu.dismiss(animation=False)
        try:
            from ui.fonts import register_fonts

            register_fonts()
        except Exception:
            _log.exception("fonts")
        self.sm.clear_widgets()
        self._make_screens()
        new = self.setup_screen
        for box, text, placeholder in zip(new.name_inputs, typed, placeholders, strict=True):
            if text != placeholder:  # a name someone typed stays; "Player 3" is translated
                box.text = text
        new.seat_count, new.rules, new.hidden_tents, new.deck, new.seat_kinds = kept
        self.table_screen.holding = self._holding is not None  # a new screen, the same moment
        self.refresh()
        if was_on == "setup" or self.table is None:
            self.show_setup()
        else:
            self.show_screen(was_on)
        if menu_open:
            self.open_menu()

    def _first_frame(self, dt: float) -> None:
        # This runs before the first draw; the next tick comes after it.
        def drawn(dt: float) -> None:
            self.first_frame_at = time.perf_counter()
            for hook in list(self.on_first_frame):
                hook(self)
            if self.controls.start is not None:
                Clock.schedule_once(self._start_later, 0)
            Clock.schedule_once(self._build_later, BUILD_LATER_S)

        Clock.schedule_once(drawn, 0)

    def attach(self, table: Table) -> None:
        """Show ``table`` and follow its changes (a new or resumed game)."""
        table.listen(lambda t: self._refresh())
        if self.controls.phones is not None:
            self.controls.phones.follow(table)  # a new game: new seat links
        self._phase = None
        self.refresh()

    @property
    def table(self) -> Table | None:
        return self.games.table

    # --- showing ------------------------------------------------------------------

    def refresh(self, *args: Any) -> None:
        """Recompute every view model from the table and show it (cheap: a few labels)."""
        table = self.table
        if table is None or self.sm is None:
            return
        try:
            self._show(table)
        except Exception as e:  # a display bug must not stop the game
            _log.exception("refresh")
            self.table_screen.status = _("Display error: {error}").format(error=e)
        self.refreshes += 1
        for hook in list(self.on_refresh):
            hook(self)

    def _show(self, table: Table) -> None:
        state = table.state
        # The round too: a round can end before the screen saw it begin.
        arrived = (state.round, state.phase) != self._phase
        # A round's end reached by an undo (of the next round's first card) was
        # seen already: the table shows it, without its bust or its summary again.
        again = isinstance(table.session.log[-1], Undo)
        if arrived and not again:
            table.show_round_end()  # a card turned meanwhile waits for the summary
        c = table.collector
        notice = table.notice
        view = presenters.table_view(
            state,
            hidden_tents=self.hidden_tents,
            due=c.due,
            chosen=c.chosen,
            waiting=c.waiting_for,
            countdown=c.countdown_left,
            held=table.held,
            camera=table.camera,
            notice=notice.reason if notice else None,
            notice_level=notice.level if notice else "info",
            can_undo=table.can_undo,
            show_odds=self.show_odds,
            bots=table.bots,
            ending=table.ending,
            asking=table.asking,
            colours=self.seat_colours(state),
        )
        if self.controls.phones is not None:
            from ui.phones import with_phones

            view = with_phones(view, self.controls.phones, notice.reason if notice else None)
        tick = tick_cue(self._countdown_shown, view.countdown)
        if tick is not None:
            self.sounds.play(tick)
        self._countdown_shown = view.countdown
        self.table_screen.show(view)
        if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) and state.round_end is not None:
            self.round_end_screen.show(
                presenters.round_end_view(state, hidden_tents=self.hidden_tents,
                                          colours=self.seat_colours(state))
            )
            self.round_end_screen.notice = (
                notice_text(notice.reason) if notice is not None and not notice.lasting else ""
            )
        if state.phase is Phase.GAME_OVER:
            self.game_over_screen.show(presenters.game_over_view(state, self.seat_colours(state)))
        self._play_cues(table)
        if arrived:
            # Follow the game to the screen of its phase, once per change, so a
            # player can still look back at the table after a round ended.
            self._phase = (state.round, state.phase)
            if state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER) or again:
                self._hold(None)
                self.show_screen("table")
            elif isinstance(state.last, Bust):
                # The bust is a moment: the pair stays on the table, lit, until
                # tapped or for a few seconds, before the round's summary.
                hold = (state.round, time.perf_counter())
                self._hold(hold)
                self.show_screen("table")
                # This hold's timer only: an undo and a new bust start another.
                Clock.schedule_once(lambda dt: self._end_hold(hold), BUST_HOLD_S)
            else:
                self._hold(None)
                self.show_screen("round_end")  # round 5 too: then the final scores

    def _hold(self, hold: tuple[int, float] | None) -> None:
        """A bust's moment on show (the table takes a tap to end it), or none."""
        self._holding = hold
        self.table_screen.holding = hold is not None

    def _end_hold(self, hold: tuple[int, float]) -> None:
        if self._holding is hold:
            self.end_bust_hold()

    def end_bust_hold(self) -> None:
        """The bust has been seen: on to the round's summary (a tap, or the timer)."""
        holding = self._holding
        self._hold(None)
        table = self.table
        if holding is None or table is None:
            return
        state = table.state
        if state.round == holding[0] and state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            self.bust_to_summary_s = time.perf_counter() - holding[1]
            self.show_screen("round_end")

    def close_round_end(self, goes_to: str) -> None:
        """The summary's button: it has been seen, so a card that waited for it
        is drawn now; on to ``goes_to`` (the table, or the final scores)."""
        self._hold(None)
        table = self.table
        if table is not None:
            table.round_end_seen()
        self.show_screen(goes_to)

    def _play_cues(self, table: Table) -> None:
        """The sound of what changed since the screen last showed the game."""
        log = table.session.log
        before, seen = self._cue_state
        if seen is not None and seen[0] is table:
            for cue in cues(before, table.state, log[seen[1]:]):
                self.sounds.play(cue)
        self._cue_state = (table.state, (table, len(log)))

    def show_screen(self, name: str) -> None:
        if self.sm is None:
            return
        if name in LATER_SCREENS:
            self._screen(name)  # built if it is not yet
        if self.sm.current != name:
            self.sm.current = name

    def on_screen(self, name: str) -> bool:
        return self.sm is not None and bool(self.sm.current == name)

    def show_setup(self) -> None:
        self._players = self.games.players()
        self._show_players()
        game = self.games.unfinished()
        text = ""
        if game is not None:
            try:
                text = presenters.resume_text(self.games.session(game).state)
            except Exception:
                _log.exception("reading game %s", game)
        self.setup_screen.resume_text = text
        self.show_screen("setup")

    def _offer_last_table(self) -> None:
        last = self.games.last_table()
        if last:  # the same group usually plays again: its names are one tap away
            self.setup_screen.offer(last, len(last))

    # --- the remembered players ---------------------------------------------------------

    def _seated(self) -> list[str]:
        return self.setup_screen.names()

    def _show_players(self) -> None:
        chips = history_presenters.chips(self._players, self._seated())
        self.setup_screen.ids.players.show(chips)
        if self.players_window is not None:
            self.players_window.show(chips)

    def toggle_player(self, name: str) -> None:
        """A remembered player's button (set-up screen or the players' window)."""
        self.setup_screen.toggle_player(name)
        self._show_players()

    def open_players(self) -> None:
        """Every remembered player: seat them, rename one, merge two spellings."""
        from ui.players import PlayersWindow

        if self.players_window is not None:
            self.players_window.dismiss(animation=False)
        window = PlayersWindow(
            history_presenters.chips(self._players, self._seated()),
            on_seat=self.toggle_player, on_rename=self.rename_player,
            on_merge=self.merge_players,
        )  # fmt: skip
        window.bind(on_dismiss=lambda *a: setattr(self, "players_window", None))
        window.open(animation=False)
        self.players_window = window

    def rename_player(self, player: int, name: str) -> str:
        """A new name for a player; the problem with it ("" when done)."""
        old = next((p.name for p in self._players if p.id == player), "")
        try:
            self.games.rename_player(player, name)
        except Exception as e:
            _log.info("renaming player %s: %s", player, e)
            return _("{name} is another player's name already.").format(name=name)
        for box in self.setup_screen.name_inputs:  # a seat of theirs shows the new name
            if box.text.strip() == old:
                box.text = name
        self._players = self.games.players()
        self._show_players()
        return ""

    def merge_players(self, keep: int, gone: int, keep_name: str, gone_name: str) -> None:
        """Two spellings of one person, after a yes: ``gone``'s games become ``keep``'s."""

        def merge() -> None:
            try:
                self.games.merge_players(keep, gone)
            except Exception as e:
                _log.info("merging players %s and %s: %s", keep, gone, e)
                said = _("{one} and {other} played at one table: two people, not one.").format(
                    one=keep_name, other=gone_name
                )
                # Said where the merge was asked for: the players' window, if open.
                if self.players_window is not None:
                    self.players_window.said = said
                else:
                    self.setup_screen.problem = said
            self._players = self.games.players()
            self._show_players()

        self._confirm(
            _("Merge {gone} into {keep}? The games of {gone} become {keep}'s.").format(
                gone=gone_name, keep=keep_name
            ),
            _("Merge"),
            merge,
        )

    # --- the history and the statistics ---------------------------------------------------

    def show_history(self, keep_page: bool = False) -> None:
        """The games played here, newest first, a page at a time (each page read
        from the data file when shown: thousands of games stay quick)."""
        if not keep_page:
            self._history_page = 0
        self.history_page(0)
        self.show_screen("history")

    def close_history(self) -> None:
        self.show_setup()

    def history_page(self, delta: int) -> None:
        size = history_presenters.HISTORY_PAGE
        count = history_presenters.pages(self.games.game_count(), size)
        page = max(0, min(self._history_page + delta, count - 1))
        self._history_page = page
        self._history = self.games.history(page * size, size)
        rows = [history_presenters.history_row(g) for g in self._history]
        self.history_screen.show(rows, page, count, history_presenters.page_text(page, count))

    def open_past_game(self, game: int) -> None:
        """A game of the history: its final table and chart (the names now)."""
        played = next((g for g in self._history if g.game == game), None)
        if played is None:
            return
        try:
            session = self.games.session(game)
        except Exception:
            _log.exception("reading game %s", game)
            return
        state = session.state
        # The names now (a rename shows in old games); the log keeps those played.
        seats = tuple(replace(seat, name=played.players[i]) for i, seat in enumerate(state.seats))
        renamed = replace(state, seats=seats)
        screen = self.past_game_screen
        screen.show(presenters.game_over_view(renamed, self.seat_colours(renamed)))
        screen.heading = history_presenters.past_game_heading(played)
        if not played.summary.finished:
            screen.winners = _("Unfinished, round {round}").format(round=state.round)
        screen.game = game
        at_table = self.table is not None and self.table.game == game
        screen.can_resume = not played.summary.finished and not at_table
        self._past = (played, session)
        self.show_screen("past_game")

    def open_past_round_log(self) -> None:
        if self._past is not None:
            self._open_round_log(self._past[1])

    def resume_past_game(self) -> None:
        if self._past is None:
            return
        game = self._past[0].game
        try:
            table = self.games.resume(game)
        except Exception:
            _log.exception("resume")
            return
        self.hidden_tents = self.games.hidden_tents(game)
        self._phase = None
        self.attach(table)

    def delete_past_game(self) -> None:
        """Delete the game on show, after a yes (the data file stays whole either way)."""
        if self._past is None:
            return
        game = self._past[0].game

        def delete() -> None:
            try:
                self.games.delete_game(game)
            except Exception:
                _log.exception("deleting game %s", game)
            self._past = None
            self.show_history(keep_page=True)

        self._confirm(
            _("Delete this game for good? Its scores leave the statistics."), _("Delete"), delete
        )

    def seat_colours(self, state: State) -> tuple[presenters.Colour, ...]:
        """Each seat in its player's colour, as the set-up chips and the statistics
        show it (the players read again for names not yet remembered)."""
        names = tuple(s.name for s in state.seats)
        known: tuple[Any, tuple[presenters.Colour, ...]] | None = getattr(
            self, "_seat_colours", None)
        if known is not None and known[0] == (names, self._players):
            return known[1]  # every refresh asks: the store is read once per table
        if not set(names) <= {p.name for p in self._players}:
            self._players = self.games.players()
        remembered = {p.name: history_presenters.colour(p.colour) for p in self._players}
        colours = presenters.seat_colours(names, remembered)
        self._seat_colours = ((names, self._players), colours)
        return colours

    def show_stats(self, mode: str = "players") -> None:
        """The statistics of the games played here: per player, or per group."""
        self._history = self.games.history()
        self._players = self.games.players()
        self._stats = player_stats(self._history)
        self._groups = group_stats(self._history)
        self.stats_screen.mode = mode
        self._stats_page = 0
        self.stats_page(0)
        self.show_screen("stats")

    def stats_page(self, delta: int) -> None:
        screen = self.stats_screen
        groups = screen.mode == "groups"
        size = 1 if groups else history_presenters.STATS_PAGE
        count = history_presenters.pages(len(self._groups if groups else self._stats), size)
        page = max(0, min(self._stats_page + delta, count - 1))
        self._stats_page = page
        colours = {p.name: history_presenters.colour(p.colour) for p in self._players}
        grey = history_presenters.DEFAULT_COLOUR
        if groups:
            shown_groups = self._groups[page : page + 1]
            rows = [history_presenters.group_row(g) for g in shown_groups]
            names = list(shown_groups[0].players) if shown_groups else []
            together = [g for g in self._history if tuple(sorted(g.players)) == tuple(names)]
            chart = history_presenters.score_chart(
                together, names, [colours.get(n, grey) for n in names]
            )
        else:
            shown = self._stats[page * size : (page + 1) * size]
            rows = [history_presenters.stats_row(p, colours.get(p.player, grey)) for p in shown]
            chart = history_presenters.score_chart(
                self._history, [p.player for p in shown], [r.colour for r in rows]
            )
        finished = sum(g.summary.finished for g in self._history)
        heading = ngettext("{n} finished game", "{n} finished games", finished).format(n=finished)
        screen.show(heading, rows, chart, page, count, history_presenters.page_text(page, count))

    # --- what the players do ---------------------------------------------------------

    def start_game(
        self,
        names: list[str],
        rules: str,
        hidden_tents: bool,
        *,
        deck: str = DEFAULT_EDITION,
        bots: tuple[tuple[int, str], ...] = (),
    ) -> None:
        self.hidden_tents = hidden_tents
        try:
            table = self.games.new_game(
                Start(tuple(names), rules, deck, bots), hidden_tents=hidden_tents
            )
        except Exception as e:
            _log.exception("new game")
            self.setup_screen.problem = str(e)
            return
        self.attach(table)

    def resume_game(self) -> None:
        game = self.games.unfinished()
        if game is None:
            return
        try:
            table = self.games.resume(game)
        except Exception as e:
            _log.exception("resume")
            self.setup_screen.problem = str(e)
            return
        self.hidden_tents = self.games.hidden_tents(game)
        self.attach(table)

    def tap_path_card(self, pos: int) -> None:
        table = self.table
        if table is None:
            return
        options = table.correction_options(pos)
        view = presenters.picker_view(table.state, options, pos)
        self._open_picker(view, lambda cid: table.correct(pos, cid))

    def open_entry_picker(self) -> None:
        table = self.table
        if table is None:
            return
        view = presenters.picker_view(table.state, table.entry_options())
        self._open_picker(view, table.enter_card)

    def _open_picker(self, view: presenters.PickerView, on_pick: Callable[[str], object]) -> None:
        from ui.picker import CardPicker

        if self.picker is not None:
            self.picker.dismiss()
        def picked(card_id: str) -> None:
            on_pick(card_id)

        self.picker = CardPicker(view, picked)
        self.picker.bind(on_dismiss=lambda *a: setattr(self, "picker", None))
        self.picker.open(animation=False)

    # --- the menu -----------------------------------------------------------------------

    def open_menu(self) -> None:
        from ui.menu import GameMenu

        if self.menu is not None:
            self.menu.dismiss(animation=False)
        table = self.table
        rules = table.state.rules.name if table is not None else self.setup_screen.rules
        self.menu = GameMenu(
            rules_text=presenters.rules_reminder(rules),
            volume=self.sounds.volume, muted=self.sounds.muted, in_game=table is not None,
            odds=self.show_odds, sound_out=self.sounds.available,
        )
        self.menu.bind(on_dismiss=lambda *a: setattr(self, "menu", None))
        self.menu.open(animation=False)

    def open_review(self) -> None:
        """The game-over review: each seat's choices against the odds, and its luck."""
        from ui.menu import ReviewPanel

        table = self.table
        if table is None:
            return
        try:
            view = presenters.review_view(table.session, table.bots,
                                          self.seat_colours(table.state))
        except Exception:  # a review is an extra: never a crash at the end of a game
            _log.exception("review")
            return
        panel = ReviewPanel(view)
        panel.bind(on_dismiss=lambda *a: setattr(self, "review_view", None))
        panel.open(animation=False)
        self.review_view = panel

    def open_round_log(self) -> None:
        """The game card by card, from its moves (undo and corrections resolved)."""
        table = self.table
        if table is None:
            return
        self._close_menu()
        self._open_round_log(table.session)

    def _open_round_log(self, session: Session) -> None:
        from ui.menu import LOG_PAGE, RoundLog

        log = RoundLog(presenters.round_log_pages(session.moves, session.states, LOG_PAGE))
        log.bind(on_dismiss=lambda *a: setattr(self, "round_log_view", None))
        log.open(animation=False)
        self.round_log_view = log

    def open_phones(self) -> None:
        """The menu's Phones: a QR code for each seat's phone and one for watchers."""
        from ui.phones import PhonesWindow

        self._close_menu()
        if self.controls.phones is None:
            return
        window = PhonesWindow(self.controls.phones, self.table)
        window.bind(on_dismiss=lambda *a: setattr(self, "phones_window", None))
        window.open(animation=False)
        self.phones_window = window

    def _confirm(self, question: str, yes: str, on_yes: Callable[[], None]) -> None:
        from ui.menu import Confirm

        Confirm(question, yes, _("Cancel"), on_yes).open(animation=False)

    def menu_new_game(self) -> None:
        """A new game: the one on the table stays in the data file, to resume."""
        if self.table is None:
            self._close_menu()
            self.show_setup()
            return
        self._confirm(
            _("Start a new game? This game is kept and can be resumed."),
            _("New game"),
            lambda: self._leave(abandon=False),
        )

    def menu_abandon(self) -> None:
        """Abandon the game on the table: it is kept, but never offered again."""
        self._confirm(
            _("Abandon this game? It will not be offered to resume."),
            _("Abandon game"),
            lambda: self._leave(abandon=True),
        )

    def _leave(self, *, abandon: bool) -> None:
        self._close_menu()
        self.games.leave(abandon=abandon)
        if self.controls.phones is not None:
            self.controls.phones.follow(None)
        self._phase = None
        self._hold(None)
        self._cue_state = (None, None)
        self._offer_last_table()
        self.show_setup()

    def _close_menu(self) -> None:
        if self.menu is not None:
            self.menu.dismiss(animation=False)

    def set_odds(self, shown: bool) -> None:
        """The menu's odds button; remembered in the data file."""
        self.show_odds = shown
        self.games.remember_odds(shown)
        if self.menu is not None:
            self.menu.odds = shown
        if self.controls.phones is not None:
            self.controls.phones.publish()
        self.refresh()

    def set_sound(self, volume: float, muted: bool) -> None:
        """The menu's sound buttons; remembered in the data file."""
        self.sounds.volume = volume
        self.sounds.muted = muted
        self.games.remember_sound(self.sounds.volume, self.sounds.muted)
        if self.menu is not None:
            self.menu.volume = self.sounds.volume
            self.menu.muted = self.sounds.muted

    def undo(self) -> None:
        if self.table is not None:
            self.table.undo()

    def turn_virtual_card(self) -> None:
        """The virtual table's stand-in for turning a card: a random possible card."""
        if self.controls.turn_card is not None:
            self.controls.turn_card()

    def _key_down(self, window: Any, key: int, scancode: int, codepoint: str | None,
                  modifiers: list[str]) -> bool:
        from kivy.core.window import Keyboard

        if self.on_screen("setup") and any(b.focus for b in self.setup_screen.name_inputs):
            return False  # typing a name: Backspace deletes a letter, digits are letters
        if any(isinstance(w, ModalView) for w in Window.children):
            return False  # a menu, a question or the picker is open: keys act on the table only
        name = Keyboard.keycode_to_string(Window._system_keyboard, key) if key else ""
        name = codepoint or name or ""
        if key == 8:  # backspace: undo
            self.undo()
            return True
        if key in (32, 13) and self.table_screen.virtual and self.on_screen("table"):
            self.turn_virtual_card()
            return True
        return self.controls.key(name)

    # --- time -------------------------------------------------------------------------

    def tick(self, dt: float = TICK_S) -> None:
        """One period of the countdown (and of a camera stepped on the UI clock)."""
        table = self.table
        if table is None:
            return
        table.tick()
        if self.autoplay is None and self.controls.step_camera is not None:
            self.controls.step_camera()
        left = table.collector.countdown_left
        shown = presenters.countdown_text(left)
        if shown != self._countdown_shown:
            self._refresh()

    def _autoplay(self, dt: float) -> bool | None:
        assert self.autoplay is not None
        try:
            done = self.autoplay(self)
        except Exception:
            _log.exception("autoplay")
            done = True
        if not done:
            return None
        # Let the last screen draw, then take the screenshot and stop.
        self._done_frames += 1
        if self._done_frames < 2:
            return None
        if self.screenshot_path is not None:
            self.save_screenshot(self.screenshot_path)
        self.stop()
        return False

    def save_screenshot(self, path: Path) -> Path:
        """The window as it is now (popups included) as a PNG at ``path``."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix="incan-shot-"))
        made = Window.screenshot(name=str(tmp / "shot.png"))
        if made:
            shutil.move(made, path)
        shutil.rmtree(tmp, ignore_errors=True)
        return path

    def on_stop(self) -> None:
        # The window and the clock outlive the app (tests build several apps).
        Window.unbind(on_key_down=self._key_down)
        Window.unbind(on_flip=_finish_frame)
        Clock.unschedule(self.tick)
        Clock.unschedule(self._autoplay)
        self.controls.close()
