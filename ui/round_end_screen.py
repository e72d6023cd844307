"""Between rounds: who kept what, which card to take out, which artifact to add."""

from __future__ import annotations

from kivy.properties import StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from ui.presenters import RoundEndView


class RoundEndScreen(Screen):
    heading = StringProperty("")
    how = StringProperty("")
    todo = StringProperty("")
    button = StringProperty("")

    def show(self, v: RoundEndView) -> None:
        self.heading = v.heading
        self.how = v.how
        self.todo = "\n".join(x for x in (v.remove, v.lost, v.next_artifact) if x)
        self.button = v.button
        grid = self.ids.seats
        grid.clear_widgets()
        for seat in v.seats:
            grid.add_widget(Label(text=seat.name, bold=True, font_size="20sp", color=seat.colour,
                                  halign="left", valign="middle", shorten=True))
            grid.add_widget(Label(text=seat.result, font_size="18sp", halign="left",
                                  valign="middle", shorten=True))
            grid.add_widget(Label(text=seat.banked, bold=True, font_size="20sp"))
        for w in grid.children:
            w.bind(size=lambda w, s: setattr(w, "text_size", s))
