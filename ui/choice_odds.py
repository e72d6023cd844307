"""The choice window: what torch and camp are worth now, to each seat still in.

Opened from the table's odds (their More button, while choices are due). Its
figures are worked out when it opens and again at each change of the game
while it is open (a card, an undo, a correction): not at every refresh of
the table, since "one more card" costs milliseconds of rollout arithmetic.
The window holds display properties only; the words come from
:func:`ui.kivyfree.presenters.choice_view`.
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import StringProperty

from ui import kv
from ui.kivyfree.presenters import ChoiceView
from ui.widgets import OverWindow

__all__ = ["ChoiceOddsWindow"]


class ChoiceOddsWindow(OverWindow):
    title = StringProperty("")
    model = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        kv.load("choice_odds.kv")
        super().__init__(**kwargs)
        self.shown: ChoiceView | None = None

    def show(self, view: ChoiceView) -> None:
        if view == self.shown:
            return
        self.shown = view
        self.title, self.model = view.title, view.model
        box = self.ids.lines
        box.clear_widgets()
        for line in view.lines:
            box.add_widget(Factory.ChoiceLine(whole=line))
