"""The card picker: which card a path card really is, or which card was turned.

Only cards the rules allow at that point are offered (the session's
correction options, or the cards that can be drawn now), so a pick always
applies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.properties import StringProperty
from kivy.uix.modalview import ModalView

from ui.presenters import PickerView
from ui.widgets import CardFaceWidget


class CardPicker(ModalView):
    title = StringProperty("")
    empty = StringProperty("")

    def __init__(self, view: PickerView, on_pick: Callable[[str], None], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.title = view.title
        self.empty = view.empty
        self._on_pick = on_pick
        grid = self.ids.faces
        n = len(view.faces)
        grid.cols = 8 if n > 14 else 7 if n > 6 else max(1, n)
        for face in view.faces:
            w = CardFaceWidget()
            w.show_face(face)
            w.bind(on_release=self._picked)
            grid.add_widget(w)

    def _picked(self, w: CardFaceWidget) -> None:
        self.dismiss(animation=False)
        self._on_pick(w.card)

    @property
    def faces(self) -> list[CardFaceWidget]:
        return list(reversed(self.ids.faces.children))
