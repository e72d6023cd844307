"""The card picker: which card a path card really is, or which card was turned.

Every card of the rule set has a fixed place; only the cards the rules allow
at that point (the session's correction options, or the cards that can be
drawn now) can be tapped, the others are dimmed. A pick always applies, and
a tap never lands on a card that moved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import StringProperty

from ui import kv
from ui.kivyfree.presenters import PickerView
from ui.widgets import CardFaceWidget, OverWindow

COLUMNS = 6


class CardPicker(OverWindow):
    """Built without cards and filled by :meth:`show`, so that one picker can
    be shown again: with no camera, where every card is entered here, the
    cards controller keeps one per language (see ui.controllers.cards)."""

    title = StringProperty("")
    empty = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        kv.load("pieces.kv", "picker.kv")
        super().__init__(**kwargs)
        self._on_pick: Callable[[str], None] = lambda card: None
        # Six to a row: a face wide enough for its name at a readable size
        # (22 cards of Incan Gold in four rows, Diamant's 17 in three).
        self.ids.faces.cols = COLUMNS

    def show(self, view: PickerView, on_pick: Callable[[str], None]) -> None:
        """Every tile of ``view`` in its place; a tap on an enabled one calls ``on_pick``."""
        self.title = view.title
        self.empty = view.empty
        self._on_pick = on_pick
        grid = self.ids.faces
        faces = self.tiles
        while len(faces) < len(view.tiles):
            w = CardFaceWidget()
            w.bind(on_release=self._picked)
            grid.add_widget(w)
            faces.append(w)
        while len(faces) > len(view.tiles):  # a rule set with fewer cards
            grid.remove_widget(faces.pop())
        for w, tile in zip(faces, view.tiles, strict=True):
            w.show_face(tile.face)
            w.faded = not tile.enabled
            w.disabled = not tile.enabled

    def _picked(self, w: CardFaceWidget) -> None:
        self.dismiss(animation=False)
        self._on_pick(w.card)

    @property
    def faces(self) -> list[CardFaceWidget]:
        """The cards that can be picked, in their places' order."""
        return [w for w in reversed(self.ids.faces.children) if not w.disabled]

    @property
    def tiles(self) -> list[CardFaceWidget]:
        """Every card's place, enabled or not."""
        return list(reversed(self.ids.faces.children))
