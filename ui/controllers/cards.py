"""The card picker: a card entered by hand, or a path card corrected."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ui.kivyfree import i18n, presenters

if TYPE_CHECKING:
    from ui.app import CompanionApp


class CardsController:
    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.picker: Any = None  # the picker on show
        self._kept: tuple[str, Any] | None = None  # the language it was built in, and it

    def tap_path_card(self, pos: int) -> None:
        """A card of the path tapped: the cards it may have been instead."""
        table = self.app.table
        if table is None:
            return
        view = presenters.picker_view(table.state, table.correction_options(pos), pos)
        self._open(view, lambda cid: table.correct(pos, cid))

    def open_entry(self) -> None:
        """The next card entered by hand (the camera missed it, or there is none)."""
        table = self.app.table
        if table is None:
            return
        self._open(presenters.picker_view(table.state, table.entry_options()), table.enter_card)

    def close(self) -> None:
        if self.picker is not None:
            self.picker.dismiss()

    def _open(self, view: presenters.PickerView, on_pick: Callable[[str], object]) -> None:
        from ui.picker import CardPicker

        self.close()

        def picked(card_id: str) -> None:
            on_pick(card_id)

        # With no camera every card is entered here: the picker is built once
        # per language (its Cancel is in words) and shown again, since one made
        # anew for each card left its 22 faces (66 widgets) for the cycle
        # collector. With a camera a pick is a correction now and then, and a
        # picker kept between them held 4 to 5 MB for nothing (bench/memory.py).
        language, keep = i18n.language(), not self.app.controls.camera
        if keep and self._kept is not None and self._kept[0] == language:
            self.picker = self._kept[1]
        else:
            self.picker = CardPicker()
            self.picker.bind(on_dismiss=lambda *a: setattr(self, "picker", None))
            self._kept = (language, self.picker) if keep else None
        self.picker.show(view, picked)
        self.picker.open(animation=False)
