"""The end: final scores, the winner(s) after the artifact tie-break, and the chart."""

from __future__ import annotations

from kivy.metrics import sp
from kivy.properties import StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from ui.i18n import _
from ui.presenters import GameOverView
from ui.widgets import fitted_font_size


class GameOverScreen(Screen):
    heading = StringProperty("")
    winners = StringProperty("")
    tie_break = StringProperty("")

    def show(self, v: GameOverView) -> None:
        self.heading = v.heading
        self.winners = v.winners
        self.tie_break = v.tie_break
        grid = self.ids.scores
        grid.clear_widgets()
        for text in (_("seat"), _("tent"), _("artifacts"), _("score")):
            grid.add_widget(Label(text=text, font_size="13sp", color=(0.7, 0.7, 0.7, 1)))
        for seat in v.seats:
            mark = (1, 0.86, 0.35, 1) if seat.winner else (1, 1, 1, 1)
            name = Label(text=seat.name, bold=True, color=seat.colour, shorten=True)
            name.bind(width=lambda w, width: setattr(
                w, "font_size", fitted_font_size(width, w.text, sp(18), sp(13))))
            grid.add_widget(name)
            grid.add_widget(Label(text=seat.banked, font_size="18sp"))
            grid.add_widget(Label(text=seat.artifacts or "-", font_size="15sp",
                                  color=(0.55, 0.8, 1, 1)))
            grid.add_widget(Label(text=seat.score, bold=True, font_size="22sp", color=mark))
        for w in grid.children:
            w.bind(size=lambda w, s: setattr(w, "text_size", (s[0], None)))
            w.halign = "center"
        self.ids.chart.show(v.chart)
