"""The keyboard: Backspace undoes, Space or Enter turns a virtual card, the
seats' keys press their buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.core.window import Window
from kivy.uix.modalview import ModalView

if TYPE_CHECKING:
    from ui.app import CompanionApp


class KeysController:
    def __init__(self, app: CompanionApp) -> None:
        self.app = app

    def undo(self) -> None:
        if self.app.table is not None:
            self.app.table.undo()

    def turn_virtual_card(self) -> None:
        """The virtual table's stand-in for turning a card: a random possible card."""
        if self.app.controls.turn_card is not None:
            self.app.controls.turn_card()

    def key_down(self, window: Any, key: int, scancode: int, codepoint: str | None,
                 modifiers: list[str]) -> bool:
        from kivy.core.window import Keyboard

        app = self.app
        if app.on_screen("setup") and any(b.focus for b in app.setup_screen.name_inputs):
            return False  # typing a name: Backspace deletes a letter, digits are letters
        if any(isinstance(w, ModalView) for w in Window.children):
            return False  # a menu, a question or the picker is open: keys act on the table only
        name = Keyboard.keycode_to_string(Window._system_keyboard, key) if key else ""
        name = codepoint or name or ""
        if key == 8:  # backspace: undo
            self.undo()
            return True
        if key in (32, 13) and app.table_screen.virtual and app.on_screen("table"):
            self.turn_virtual_card()
            return True
        return app.controls.key(name)
