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
    event = StringProperty("")
    pieces = StringProperty("")
    extra = StringProperty("")
    countdown = StringProperty("")
    status = StringProperty("")
    status_colour = ObjectProperty(STATUS_COLOURS["info"])
    can_undo = BooleanProperty(False)
    can_enter = BooleanProperty(False)
    virtual = BooleanProperty(False)  # a virtual table: offer "Turn a card"
    camera = BooleanProperty(False)  # a camera reads the cards

    def show(self, v: TableView) -> None:
        self.heading = v.heading
        self.prompt = v.prompt
        self.event = v.event
        self.pieces = v.pieces
        self.extra = "   ".join(x for x in (v.remove, v.hazards) if x)
        self.countdown = v.countdown
        self.status = v.status
        self.status_colour = STATUS_COLOURS.get(v.status_level, STATUS_COLOURS["info"])
        self.can_undo = v.can_undo
        self.can_enter = v.can_enter
        self.ids.path.show(v.path)
        rows = self.ids.seats
        while len(rows.children) < len(v.seats):
            from ui.widgets import SeatRow

            rows.add_widget(SeatRow())
        while len(rows.children) > len(v.seats):
            rows.remove_widget(rows.children[0])
        for row, seat in zip(reversed(rows.children), v.seats, strict=True):
            row.show(seat)

    def on_kv_post(self, base_widget: Any) -> None:
        self.ids.path.on_card = self._tap

    def _tap(self, pos: int) -> None:
        from kivy.app import App

        App.get_running_app().tap_path_card(pos)
