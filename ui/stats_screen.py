"""The players' statistics, a page of players at a time, with a chart of their
last games' scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ui import kv
from ui.kivyfree.presenters import ChartView
from ui.kivyfree.presenters.history import STATS_PAGE, StatsRow

__all__ = ["StatsScreen"]


class StatsScreen(Screen):
    heading = StringProperty("")
    mode = StringProperty("players")  # or "groups": the same players around the table
    page_text = StringProperty("")
    can_earlier = BooleanProperty(False)
    can_later = BooleanProperty(False)
    empty = BooleanProperty(True)
    chart_colours = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        kv.load("stats.kv")
        super().__init__(**kwargs)

    def show(self, heading: str, rows: Sequence[StatsRow], chart: ChartView, page: int,
             pages: int, page_text: str) -> None:  # fmt: skip
        self.heading = heading
        self.page_text = page_text
        self.can_earlier = page > 0
        self.can_later = page < pages - 1
        self.empty = not rows
        for i in range(STATS_PAGE):
            row = self.ids[f"row{i}"]
            if i < len(rows):
                r = rows[i]
                row.player, row.colour = r.player, list(r.colour)
                row.figures, row.rounds, row.against = r.figures, r.rounds, r.against
                row.opacity = 1
            else:
                row.player, row.figures, row.rounds, row.against = "", "", "", ""
                row.opacity = 0
        self.ids.chart.show(chart)
