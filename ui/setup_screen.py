"""Before a game: seats and names, rule set, hidden tents, language, or resume a stored game."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.engine import MAX_SEATS, MIN_SEATS
from ui.i18n import LANGUAGES, _, language
from ui.presenters import RULE_CHOICES, rules_label, setup_problem


class SetupScreen(Screen):
    seat_count = NumericProperty(4)
    rules = StringProperty("incan-gold")
    hidden_tents = BooleanProperty(False)
    problem = StringProperty("")
    resume_text = StringProperty("")  # "" when there is no unfinished game

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
                box.text = _("Player {n}").format(n=i + 1)

    @property
    def name_inputs(self) -> list[Any]:
        return [self.ids[f"name{i}"] for i in range(MAX_SEATS)]

    def change_seats(self, delta: int) -> None:
        self.seat_count = max(MIN_SEATS, min(MAX_SEATS, int(self.seat_count) + delta))
        self.problem = ""

    def names(self) -> list[str]:
        return [box.text.strip() for box in self.name_inputs[: int(self.seat_count)]]

    def start(self) -> None:
        names = self.names()
        self.problem = setup_problem(names)
        if self.problem:
            return
        from kivy.app import App

        App.get_running_app().start_game(names, self.rules, self.hidden_tents)
