"""The touchscreen app: a ScreenManager with set-up, table, round end and game end.

The app owns no game logic. It shows what the presenters make of the
:class:`~companion.table.Table`'s state, forwards taps and keys to it, and
drives its clock. It is given the core's :class:`~companion.games.Games`
and the device's :class:`~ui.kivyfree.controls.Controls` by the composition root.
Adapter callbacks reach it through :func:`post` (``Clock.schedule_once``),
so everything below runs on the Kivy thread.

Import this module only after :func:`ui.kivy_setup.configure` (or with the Kivy
environment already set): Kivy reads its options when first imported.
"""

from __future__ import annotations

import gc
import importlib
import logging
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

os.environ.setdefault("KIVY_NO_ARGS", "1")  # Kivy must never parse our options

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics.opengl import glFinish
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.engine import DEFAULT_SEATS
from companion.games import Games
from companion.rules import DEFAULT_RULES
from companion.table import Table
from ui import kv
from ui.controllers.cards import CardsController
from ui.controllers.demo import DemoController, save_screenshot
from ui.controllers.history import HistoryController, StatsController
from ui.controllers.keys import KeysController
from ui.controllers.menus import MenuController
from ui.controllers.play import BUST_HOLD_S, PlayController
from ui.controllers.players import PlayersController
from ui.controllers.setup import SetupController
from ui.kivyfree import i18n
from ui.kivyfree.controls import Controls
from ui.kivyfree.i18n import _
from ui.sound import SilentBoard, Sounds

if TYPE_CHECKING:  # built after the first frame (LATER_SCREENS), or for a resumed game
    from ui.table_screen import TableScreen

__all__ = ["BUST_HOLD_S", "TICK_S", "CompanionApp", "post"]

_log = logging.getLogger(__name__)

#: The files of what is not on the first screen, loaded a moment after it.
KV_LATER = (
    "pieces.kv", "round_end.kv", "game_over.kv", "picker.kv", "menu.kv", "players.kv",
)
TICK_S = 0.1  # the countdown and a stepped camera run at this period
#: After the first frame, the screens not on show are built this much later.
BUILD_LATER_S = 0.3
#: The screens built when first shown (or a moment after the first frame):
#: name -> (module, class).
LATER_SCREENS = {
    # The table first: its screen comes right after the set-up, or first of all
    # for a game resumed at start (then it is built before the first frame).
    "table": ("ui.table_screen", "TableScreen"),
    "round_end": ("ui.round_end_screen", "RoundEndScreen"),
    "game_over": ("ui.game_over_screen", "GameOverScreen"),
    "history": ("ui.history_screen", "HistoryScreen"),
    "past_game": ("ui.history_screen", "PastGameScreen"),
    "stats": ("ui.stats_screen", "StatsScreen"),
}
#: Of those, the screens of play, built a moment after the first frame. The
#: history's screens are built when first opened: they hold about 3 MB that
#: an evening of play may never use, and take 21, 7 and 10 ms to build here
#: (about a tenth of a second on a Pi 4) the one time they are opened first.
PLAY_SCREENS = ("table", "round_end", "game_over")


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
    """The companion on the touchscreen: the screens, and the rooms that run them.

    ``games`` is the core's game lifecycle; if it already holds a table (a
    resumed game, the demo) the app opens on it, else on the set-up screen.
    ``seats`` and ``rules`` are what the set-up screen offers first.
    ``autoplay`` is called once a frame (the demo's simulated table) and
    returns True when it is finished.

    The app builds the screens, changes the language, follows the table and
    drives the clock; each area's work is one of :mod:`ui.controllers`:
    ``play`` (the game on show), ``setup``, ``players``, ``history``,
    ``stats``, ``cards`` (the picker), ``menus`` and ``keys``.
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
        self.show_odds = games.odds_shown()
        self.autoplay = autoplay
        self.screenshot_path = screenshot  # taken as the demo or --quit-after ends
        self.sm: ScreenManager | None = None
        self.play = PlayController(self)
        self.setup = SetupController(self)
        self.players = PlayersController(self)
        self.history = HistoryController(self)
        self.stats = StatsController(self)
        self.cards = CardsController(self)
        self.menus = MenuController(self)
        self.keys = KeysController(self)
        self.demo = DemoController(self, autoplay) if autoplay is not None else None
        # -1: in the frame that asked for it, not the next one (a whole frame sooner)
        self.refresh_soon = Clock.create_trigger(self.refresh, -1)
        # When the first frame was finished (perf_counter, and the wall clock for
        # a caller timing from before the process began); systemd's READY and
        # the hooks follow at the next tick.
        self.first_frame_at: float | None = None
        self.first_frame_wall: float | None = None
        # Hooks for the demo, the start's report and the benchmarks: what they
        # measure is theirs, the app only says when.
        self.on_first_frame: list[Callable[[CompanionApp], None]] = []
        self.on_refresh: list[Callable[[CompanionApp], None]] = []
        self.on_bust_seen: list[Callable[[CompanionApp], None]] = []  # its summary shown

    # --- building -----------------------------------------------------------------

    def build(self) -> ScreenManager:
        try:
            from ui.fonts import register_fonts

            register_fonts()  # one font for every language, before the first label
        except Exception:
            _log.exception("fonts")
        # What exists before the first screen (modules, Kivy's window, the
        # device) lives as long as the app: the cycle collector stops walking
        # it, so each of its full passes (and the one a change of language
        # makes) costs what the screens and the game hold, not the whole heap.
        # (A game resumed at start is frozen with it: if it is dropped for a
        # new one, whatever of it lies in cycles stays, once, a game's worth.)
        gc.freeze()
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
            self.setup.offer_last_table()
            self.setup.show()
        Clock.schedule_interval(self.tick, TICK_S)
        Clock.schedule_once(self._first_frame, 0)
        if self.demo is not None:
            Clock.schedule_interval(self.demo.step, 0)
        Window.bind(on_key_down=self.keys.key_down)
        Window.bind(on_flip=_finish_frame)
        Window.fbind("on_flip", self._first_flip)
        return sm

    def _first_flip(self, *_: Any) -> None:
        # The first frame is on the screen once it is finished and swapped; the
        # next tick, where the hooks run, comes a frame's wait (30 fps) later.
        _finish_frame()
        self.first_frame_at = time.perf_counter()
        self.first_frame_wall = time.time()
        Window.funbind("on_flip", self._first_flip)

    def _make_screens(self) -> None:
        # The .kv files translate their words when a screen is built, so a
        # change of language builds the screens anew.
        from ui.setup_screen import SetupScreen

        assert self.sm is not None
        self.setup_screen = SetupScreen(can_switch_off=self.controls.switch_off is not None)
        self._later: dict[str, Any] = {}
        self.sm.add_widget(self.setup_screen)
        for box in self.setup_screen.name_inputs:
            box.bind(text=lambda *a: self.players.show())
        self.setup_screen.bind(seat_count=lambda *a: self.players.show())
        self.players.show()

    def _screen(self, name: str) -> Any:
        """The screen ``name`` of :data:`LATER_SCREENS`, built when first needed."""
        screen = self._later.get(name)
        if screen is None:
            module, cls = LATER_SCREENS[name]
            screen = getattr(importlib.import_module(module), cls)()
            self._later[name] = screen
            assert self.sm is not None
            self.sm.add_widget(screen)
            if name == "table":
                self._dress_table(screen)
        return screen

    def _dress_table(self, screen: TableScreen) -> None:
        """The table screen offers what the controls have: the virtual table's
        *Turn a card*, and the camera's place (set again once the camera started)."""
        screen.virtual = self.controls.turn_card is not None
        screen.camera = self.controls.camera

    @property
    def table_screen(self) -> TableScreen:
        screen: TableScreen = self._screen("table")
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
            self._dress_table(self.table_screen)
            self.refresh()

    def _build_later(self, dt: float = 0.0) -> None:
        """What the first screen did not need, built while the table is read."""
        if self.sm is None:
            return
        kv.load(*KV_LATER)
        for name in PLAY_SCREENS:
            self._screen(name)

    def choose_language(self, code: str) -> None:
        """The language buttons (set-up screen and menu): every screen, and
        everything on it, in ``code``'s language from now on, and at the next
        start. The table stays on the screen it was on."""
        if self.sm is None:
            return
        was_on = self.sm.current
        menu_open = self.menus.menu is not None
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
        self.cards.close()
        self.menus.close()
        try:
            from ui.fonts import register_fonts

            register_fonts()
        except Exception:
            _log.exception("fonts")
        self.sm.clear_widgets()
        # The old screens are freed before the new ones are built: Kivy's
        # widgets hold one another in cycles, which only the cycle collector
        # frees, and until then both sets would be in memory at once.
        del old
        self._later = {}
        gc.collect()
        self._make_screens()
        new = self.setup_screen
        for box, text, placeholder in zip(new.name_inputs, typed, placeholders, strict=True):
            if text != placeholder:  # a name someone typed stays; "Player 3" is translated
                box.text = text
        new.seat_count, new.rules, new.hidden_tents, new.deck, new.seat_kinds = kept
        self.table_screen.holding = self.play.holding is not None  # a new screen, the same moment
        self.refresh()
        if was_on == "setup" or self.table is None:
            self.setup.show()
        else:
            self.show_screen(was_on)
        if menu_open:
            self.menus.open()

    def _first_frame(self, dt: float) -> None:
        # This runs before the first draw; the next tick comes after it.
        def drawn(dt: float) -> None:
            for hook in list(self.on_first_frame):
                hook(self)
            if self.controls.start is not None:
                Clock.schedule_once(self._start_later, 0)
            Clock.schedule_once(self._build_later, BUILD_LATER_S)

        Clock.schedule_once(drawn, 0)

    def attach(self, table: Table) -> None:
        """Show ``table`` and follow its changes (a new or resumed game)."""
        table.listen(lambda t: self.refresh_soon())
        if self.controls.phones is not None:
            self.controls.phones.follow(table)  # a new game: new seat links
        self.play.arrive()
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
            self.play.show(table)
        except Exception as e:  # a display bug must not stop the game
            _log.exception("refresh")
            self.table_screen.status = _("Display error: {error}").format(error=e)
        for hook in list(self.on_refresh):
            hook(self)

    def show_screen(self, name: str) -> None:
        if self.sm is None:
            return
        if name in LATER_SCREENS:
            self._screen(name)  # built if it is not yet
        if self.sm.current != name:
            self.sm.current = name

    def on_screen(self, name: str) -> bool:
        return self.sm is not None and bool(self.sm.current == name)

    # --- what the table screen's buttons call (table.kv) -------------------------------

    def open_menu(self) -> None:
        self.menus.open()

    def open_entry_picker(self) -> None:
        self.cards.open_entry()

    def undo(self) -> None:
        self.keys.undo()

    def turn_virtual_card(self) -> None:
        self.keys.turn_virtual_card()

    # --- the popups on show (None: closed) ----------------------------------------------

    @property
    def menu(self) -> Any:
        return self.menus.menu

    @property
    def round_log_view(self) -> Any:
        return self.menus.round_log

    @property
    def review_view(self) -> Any:
        return self.menus.review

    @property
    def phones_window(self) -> Any:
        return self.menus.phones

    @property
    def players_window(self) -> Any:
        return self.players.window

    @property
    def picker(self) -> Any:
        return self.cards.picker

    # --- time -------------------------------------------------------------------------

    def tick(self, dt: float = TICK_S) -> None:
        """One period of the countdown (and of a camera stepped on the UI clock)."""
        self.play.tick()

    def save_screenshot(self, path: Path) -> Path:
        """The window as it is now (popups included) as a PNG at ``path``."""
        return save_screenshot(path)

    def on_stop(self) -> None:
        # The window and the clock outlive the app (tests build several apps).
        Window.unbind(on_key_down=self.keys.key_down)
        Window.unbind(on_flip=_finish_frame)
        Clock.unschedule(self.tick)
        if self.demo is not None:
            Clock.unschedule(self.demo.step)
        self.controls.close()
