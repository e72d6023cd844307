"""The games played on the device, newest first, a page at a time; a past game's
final table and chart, to resume (if unfinished) or delete."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ui import kv
from ui.game_over_screen import FinalTable
from ui.kivyfree.presenters.history import HISTORY_PAGE, HistoryRow

__all__ = ["HistoryScreen", "PastGameScreen"]


class HistoryScreen(Screen):
    page_text = StringProperty("")
    can_newer = BooleanProperty(False)
    can_older = BooleanProperty(False)
    empty = BooleanProperty(True)
    history_note = StringProperty("")  # how far the games' summaries are made ("": made)

    def __init__(self, **kwargs: Any) -> None:
        kv.load("history.kv")
        super().__init__(**kwargs)

    def show(self, rows: Sequence[HistoryRow], page: int, pages: int, page_text: str) -> None:
        """``rows``: the page on show (at most HISTORY_PAGE)."""
        self.page_text = page_text
        self.can_newer = page > 0
        self.can_older = page < pages - 1
        self.empty = not rows
        for i in range(HISTORY_PAGE):
            row = self.ids[f"row{i}"]
            if i < len(rows):
                row.game = rows[i].game
                row.title = rows[i].title
                row.scores = rows[i].scores
                row.opacity, row.disabled = 1, False
            else:
                row.game, row.title, row.scores = 0, "", ""
                row.opacity, row.disabled = 0, True


class PastGameScreen(FinalTable, Screen):
    game = NumericProperty(0)
    can_resume = BooleanProperty(False)  # unfinished: it can go on at the table

    def __init__(self, **kwargs: Any) -> None:
        kv.load("past_game.kv")
        super().__init__(**kwargs)
