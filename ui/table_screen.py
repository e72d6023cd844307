"""The main screen during play: the path, the seats, what just happened."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ui.presenters import TableView

STATUS_COLOURS = {
    "info": (0.8, 0.8, 0.8, 1),
    "warning": (1, 0.8, 0.3, 1),
    "error": (1, 0.45, 0.4, 1),
}


class TableScreen(Screen):
    heading = StringProperty("")
    prompt = StringProperty("")
    prompt_short = StringProperty("")
    prompt_shown = StringProperty("")
    event = StringProperty("")
    bust = StringProperty("")
    extra = StringProperty("")
    countdown = StringProperty("")
    status = StringProperty("")
    status_colour = ObjectProperty(STATUS_COLOURS["info"])
    can_undo = BooleanProperty(False)
    can_enter = BooleanProperty(False)
    game_over = BooleanProperty(False)
    artifacts_column = BooleanProperty(True)
    holding = BooleanProperty(False)  # a bust's moment on show: a tap moves on
    virtual = BooleanProperty(False)  # a virtual table: offer "Turn a card"
    camera = BooleanProperty(False)  # a camera reads the cards

    def show(self, v: TableView) -> None:
        self.heading = v.heading
        self.prompt = v.prompt
        self.prompt_short = v.prompt_short
        self.event = v.event
        self.bust = v.bust
        self.extra = "\n".join(x for x in (v.pieces, v.on_path, v.remove, v.hazards) if x)
        self.countdown = v.countdown
        self.status = v.status
        self.status_colour = STATUS_COLOURS.get(v.status_level, STATUS_COLOURS["info"])
        self.can_undo = v.can_undo
        self.can_enter = v.can_enter
        self.game_over = v.game_over
        self.artifacts_column = v.artifacts_column
        self.ids.path.show(v.path)
        self.ids.path_view.scroll_y = 0  # the newest card in view
        rows = self.ids.seats
        while len(rows.children) < len(v.seats):
            from ui.widgets import SeatRow

            rows.add_widget(SeatRow())
        while len(rows.children) > len(v.seats):
            rows.remove_widget(rows.children[0])
        for row, seat in zip(reversed(rows.children), v.seats, strict=True):
            row.with_artifacts = v.artifacts_column
            row.show(seat)
        self._fit_prompt()

    def _fit_prompt(self, *args: Any) -> None:
        # The names of who still has to choose, when two lines hold them; the
        # count otherwise (the seat rows mark who): never a cut list of names.
        from ui.widgets import fits

        label = self.ids.prompt
        long = self.prompt
        self.prompt_shown = (
            long if fits(long, label.width, label.font_size, lines=2, bold=True)
            else self.prompt_short
        )

    def on_touch_down(self, touch: Any) -> bool:
        if self.holding and self.collide_point(*touch.pos):
            from kivy.app import App

            App.get_running_app().end_bust_hold()
            return True
        return bool(super().on_touch_down(touch))

    def on_kv_post(self, base_widget: Any) -> None:
        self.ids.path.on_card = self._tap
        self.ids.prompt.bind(width=self._fit_prompt)

    def _tap(self, pos: int) -> None:
        from kivy.app import App

        App.get_running_app().tap_path_card(pos)
