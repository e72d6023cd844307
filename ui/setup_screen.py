"""Before a game: seats and names, rule set, hidden tents, language, or resume a stored game.

A name field with focus opens the on-screen keyboard (:mod:`ui.keyboard`) in
the language in use, docked at the bottom of this screen; it closes on its
Done key, when the field loses focus, or when the screen is left.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.engine import MAX_SEATS, MIN_SEATS
from ui import kv
from ui.keyboard import NameKeyboard
from ui.kivyfree.i18n import LANGUAGES, _, language, text_width
from ui.kivyfree.presenters import (
    DECK_CHOICES,
    MAX_NAME_COLUMNS,
    RULE_CHOICES,
    bots_label,
    clipped_name,
    deck_label,
    rules_label,
    setup_problem,
)
from ui.kivyfree.words import name_full
from ui.players import PlayersStrip  # noqa: F401  (the strip of setup.kv)
from ui.widgets import take_out

TYPING_MIN_DP = 200  # seats, names and the problem line, above the keyboard


class Tucked(BoxLayout):
    """A box that can step aside: while :attr:`tucked` (hidden by the screen)
    none of its widgets takes a touch, wherever they lie."""

    tucked = BooleanProperty(False)

    def on_touch_down(self, touch: Any) -> bool:
        return False if self.tucked else bool(super().on_touch_down(touch))

    def on_touch_move(self, touch: Any) -> bool:
        return False if self.tucked else bool(super().on_touch_move(touch))

    def on_touch_up(self, touch: Any) -> bool:
        return False if self.tucked else bool(super().on_touch_up(touch))


class SetupScreen(Screen):
    seat_count = NumericProperty(4)
    rules = StringProperty("incan-gold")
    hidden_tents = BooleanProperty(False)
    deck = StringProperty("incan-gold")  # the edition of the table's box
    # Per seat: "person" or the strategy of a bot playing it.
    seat_kinds = ListProperty(["person"] * MAX_SEATS)
    deck_text = StringProperty("")
    bots_text = StringProperty("")
    bots_popup: Any = None
    problem = StringProperty("")
    resume_text = StringProperty("")  # "" when there is no unfinished game
    history_note = StringProperty("")  # how far the games' summaries are made ("": made)
    typing = BooleanProperty(False)  # the keyboard is up: only seats, names and problem show
    keyboard: NameKeyboard | None = None  # made when a name field first gets focus

    def __init__(self, *, can_switch_off: bool = False, **kwargs: Any) -> None:
        kv.load("players.kv", "setup.kv")
        super().__init__(**kwargs)
        if not can_switch_off:  # the device's switch, beside the title
            take_out(self, "switch_off")

    def on_kv_post(self, base_widget: Any) -> None:
        for i, name in enumerate(RULE_CHOICES):
            self.ids[f"rules_{i}"].text = rules_label(name)
        # Built in the language in use: a change of language builds the screen anew.
        for code, own_name in LANGUAGES.items():
            button = Factory.LanguageToggle(text=own_name)
            button.code = code  # declared in the kv rule, so not an __init__ argument
            button.state = "down" if code == language() else "normal"
            self.ids.languages.add_widget(button)
        for i, box in enumerate(self.name_inputs):
            if not box.text:
                box.text = self.placeholder(i)
            box.bind(focus=self._name_focus, text=self._name_length)
        # Rebuilt in another language, this screen leaves its manager.
        self.bind(manager=self._managed)
        self.bind(deck=self._choices_said, seat_kinds=self._choices_said,
                  seat_count=self._choices_said)
        self._choices_said()

    def _choices_said(self, *args: Any) -> None:
        self.deck_text = deck_label(self.deck)
        self.bots_text = bots_label(self.seat_kinds[: int(self.seat_count)])

    @staticmethod
    def placeholder(seat: int) -> str:
        """The name a seat has until someone types one (``seat`` from 0)."""
        return _("Player {n}").format(n=seat + 1)

    @property
    def name_inputs(self) -> list[Any]:
        return [self.ids[f"name{i}"] for i in range(MAX_SEATS)]

    def offer(self, names: Sequence[str], seats: int) -> None:
        """Offer the last table again: its seat count and names; seats past
        ``names`` keep (or get back) their placeholder."""
        self.seat_count = max(MIN_SEATS, min(MAX_SEATS, int(seats)))
        for i, box in enumerate(self.name_inputs):
            box.text = names[i] if i < len(names) and names[i].strip() else self.placeholder(i)
        self.problem = ""

    def _name_length(self, box: Any, text: str) -> None:
        # A letter that does not fit is not dropped in silence: the problem line says so.
        kept = clipped_name(text)
        full = name_full(MAX_NAME_COLUMNS)
        if kept != text:
            box.text = kept
            self.problem = full
        elif self.problem == full and text_width(text) < MAX_NAME_COLUMNS:
            self.problem = ""

    # --- the on-screen keyboard ----------------------------------------------------

    def _name_focus(self, box: Any, focused: bool) -> None:
        if focused:
            self.show_keyboard(box)
        elif self.keyboard is not None and self.keyboard.target is box:
            self.hide_keyboard()

    def show_keyboard(self, box: Any) -> None:
        """Dock the keyboard at the bottom, typing into ``box``; the seats, the
        names and the problem with them stand above it, whole."""
        keyboard = self.keyboard
        if keyboard is None or keyboard.language != language():
            if keyboard is not None and keyboard.parent is not None:
                self.remove_widget(keyboard)
            keyboard = self.keyboard = NameKeyboard(language=language())
            keyboard.bind(on_done=lambda *args: self.hide_keyboard())
        keyboard.target = box
        if keyboard.parent is None:
            keyboard.pos = (0, 0)
            keyboard.width = self.width
            self.add_widget(keyboard)  # last: above the content, and touched first
        self.typing = True
        content = self.ids.content
        content.size_hint_y = None
        content.height = max(dp(TYPING_MIN_DP), self.height - keyboard.height)
        content.y = self.height - content.height

    def hide_keyboard(self) -> None:
        """Close the keyboard; the field it typed in loses focus."""
        keyboard = self.keyboard
        self.typing = False
        content = self.ids.content
        content.size_hint_y = 1
        content.height = self.height
        content.y = 0
        if keyboard is None:
            return
        field, keyboard.target = keyboard.target, None
        keyboard.set_mode()
        if keyboard.parent is not None:
            self.remove_widget(keyboard)
        if field is not None and field.focus:
            field.focus = False

    @property
    def keyboard_shown(self) -> bool:
        return self.keyboard is not None and self.keyboard.parent is self

    def on_pre_leave(self, *args: Any) -> None:
        self.hide_keyboard()

    def _managed(self, screen: Any, manager: Any) -> None:
        if manager is None:
            self.hide_keyboard()

    def toggle_player(self, name: str) -> None:
        """A remembered player's button: their seat is given back if they have
        one, else they take the first seat with no name typed (one more seat
        when every seat has a name)."""
        boxes = self.name_inputs
        seats = int(self.seat_count)
        for i in range(seats):
            if boxes[i].text.strip() == name:
                boxes[i].text = self.placeholder(i)
                return
        free = [i for i in range(seats) if boxes[i].text.strip() in ("", self.placeholder(i))]
        if free:
            boxes[free[0]].text = name
        elif seats < MAX_SEATS:
            self.seat_count = seats + 1
            boxes[seats].text = name
        else:
            self.problem = _("Every seat has a player: give a seat back first.")
            return
        self.problem = ""

    def change_seats(self, delta: int) -> None:
        self.seat_count = max(MIN_SEATS, min(MAX_SEATS, int(self.seat_count) + delta))
        self.problem = ""

    def next_deck(self) -> None:
        """The box toggle: the next edition of the deck."""
        now = DECK_CHOICES.index(self.deck) if self.deck in DECK_CHOICES else 0
        self.deck = DECK_CHOICES[(now + 1) % len(DECK_CHOICES)]

    def open_bots(self) -> None:
        """The bot seats: which seats the device plays, and how."""
        from ui.menu import BotSeats

        self.hide_keyboard()
        names = [n or self.placeholder(i) for i, n in enumerate(self.names())]

        def done(kinds: list[str]) -> None:
            self.seat_kinds = kinds + list(self.seat_kinds[len(kinds):])
            self.problem = ""

        self.bots_popup = BotSeats(names, self.seat_kinds[: len(names)], done)
        self.bots_popup.open(animation=False)

    def bots(self) -> tuple[tuple[int, str], ...]:
        """The bot seats among the seats in play: (seat, strategy)."""
        return tuple(
            (i, kind)
            for i, kind in enumerate(self.seat_kinds[: int(self.seat_count)])
            if kind != "person"
        )

    def names(self) -> list[str]:
        return [box.text.strip() for box in self.name_inputs[: int(self.seat_count)]]

    def start(self) -> None:
        names = self.names()
        self.problem = setup_problem(names, self.seat_kinds[: len(names)])
        if self.problem:
            return
        from kivy.app import App

        App.get_running_app().setup.start_game(
            names, self.rules, self.hidden_tents, deck=self.deck, bots=self.bots()
        )
