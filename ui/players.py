"""The remembered players on the set-up screen: a strip of big buttons, the most
recently seated first (tap to seat or unseat), and the players' window with
every player, a page at a time, where a player is renamed or two spellings of
one person are merged.

The strip shows as many players as fit its width whole, then "All players";
nothing is scrolled, so every name on show is whole.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from ui import kv
from ui.keyboard import NameKeyboard
from ui.kivyfree.i18n import _, language, text_width
from ui.kivyfree.presenters import MAX_NAME_COLUMNS, clipped_name
from ui.kivyfree.presenters.chips import PLAYERS_PAGE, Chip, page_text, pages
from ui.kivyfree.words import name_full
from ui.widgets import OverWindow

__all__ = ["PlayerChip", "PlayersStrip", "PlayersWindow", "RenamePlayer"]

CHIP_SP = 18
CHIP_PAD_DP = 46  # the padding each side (the colour mark in the left one), and a margin
SPACING_DP = 6


def chip_width(name: str) -> float:
    from ui.round_end_screen import text_size  # the summary's screen: built after the first

    return float(max(dp(48), text_size(name, sp(CHIP_SP), True)[0] + dp(CHIP_PAD_DP)))


class PlayerChip(Button):
    """A remembered player's button: a mark of their colour, their name; lit when seated."""

    mark = ListProperty([1, 1, 1, 1])
    seated = BooleanProperty(False)


class PlayersStrip(BoxLayout):
    """The players who fit, most recent first, and the way to all of them."""

    def __init__(self, **kwargs: Any) -> None:
        kv.load("players.kv")
        super().__init__(**kwargs)
        self.chips: tuple[Chip, ...] = ()
        self.bind(width=lambda *a: self._lay_out())

    def show(self, chips: Sequence[Chip]) -> None:
        self.chips = tuple(chips)
        self._lay_out()

    def _lay_out(self) -> None:
        self.clear_widgets()
        if not self.chips or self.width <= 1:
            return
        more = _("All players")
        more_width = chip_width(more)
        room = self.width
        shown: list[Chip] = []
        for i, chip in enumerate(self.chips):
            need = chip_width(chip.name) + dp(SPACING_DP)
            rest = more_width + dp(SPACING_DP) if i < len(self.chips) - 1 else 0
            if need + rest > room:
                break
            shown.append(chip)
            room -= need
        for chip in shown:
            button = PlayerChip(text=chip.name, mark=list(chip.colour),
                                        seated=chip.seated, size_hint_x=None,
                                        width=chip_width(chip.name))  # fmt: skip
            button.bind(on_release=lambda b, name=chip.name: self._tap(name))
            self.add_widget(button)
        if len(shown) < len(self.chips):
            button = Factory.BigButton(text=more, size_hint_x=None, width=more_width,
                                       font_size=sp(CHIP_SP))  # fmt: skip
            button.bind(on_release=lambda b: self._all())
            self.add_widget(button)

    @staticmethod
    def _tap(name: str) -> None:
        from kivy.app import App

        App.get_running_app().players.toggle(name)

    @staticmethod
    def _all() -> None:
        from kivy.app import App

        App.get_running_app().players.open()


class PlayersWindow(OverWindow):
    """Every remembered player, a page at a time. A tap seats or unseats a
    player; in renaming a tap asks for the new name; in merging the first tap
    picks the spelling to drop, the second the one to keep."""

    mode = StringProperty("seat")  # "seat", "rename" or "merge"
    said = StringProperty("")  # what a tap does now
    page_text = StringProperty("")
    can_earlier = BooleanProperty(False)
    can_later = BooleanProperty(False)

    def __init__(
        self,
        chips: Sequence[Chip],
        on_seat: Callable[[str], None],
        on_rename: Callable[[int, str], str],
        on_merge: Callable[[int, int, str, str], None],
        **kwargs: Any,
    ) -> None:
        kv.load("players.kv", "players_window.kv")
        super().__init__(**kwargs)
        self._on_seat, self._on_rename, self._on_merge = on_seat, on_rename, on_merge
        self.page = 0
        self.dropping: Chip | None = None
        self.show(chips)
        self.set_mode("seat")

    def show(self, chips: Sequence[Chip]) -> None:
        self.chips = tuple(chips)
        self.show_page(self.page)

    def set_mode(self, mode: str) -> None:
        self.mode = mode
        self.dropping = None
        self.said = {
            "seat": _("Tap a player to seat them, or to leave their seat."),
            "rename": _("Tap the player to rename."),
            "merge": _("Two spellings of one person: tap the one to drop."),
        }[mode]

    def show_page(self, page: int) -> None:
        count = pages(len(self.chips), PLAYERS_PAGE)
        self.page = max(0, min(page, count - 1))
        self.page_text = page_text(self.page, count)
        self.can_earlier = self.page > 0
        self.can_later = self.page < count - 1
        grid = self.ids.grid
        grid.clear_widgets()
        for chip in self.chips[self.page * PLAYERS_PAGE : (self.page + 1) * PLAYERS_PAGE]:
            button = PlayerChip(text=chip.name, mark=list(chip.colour),
                                        seated=chip.seated)  # fmt: skip
            button.bind(on_release=lambda b, c=chip: self.tap(c))
            grid.add_widget(button)

    def tap(self, chip: Chip) -> None:
        if self.mode == "seat":
            self._on_seat(chip.name)
        elif self.mode == "rename":
            RenamePlayer(chip.name, lambda name: self._renamed(chip, name)).open(animation=False)
        elif self.dropping is None:
            self.dropping = chip
            self.said = _("Now tap the spelling to keep for {name}.").format(name=chip.name)
        elif chip.player != self.dropping.player:
            dropping, self.dropping = self.dropping, None
            self._on_merge(chip.player, dropping.player, chip.name, dropping.name)
            self.set_mode("seat")

    def _renamed(self, chip: Chip, name: str) -> str:
        """The problem with ``name`` ("" when it was taken)."""
        problem = self._on_rename(chip.player, name)
        if not problem:
            self.set_mode("seat")
        return problem


class RenamePlayer(OverWindow):
    """A player's new name, typed on the docked on-screen keyboard."""

    old = StringProperty("")
    problem = StringProperty("")

    def __init__(self, old: str, on_done: Callable[[str], str], **kwargs: Any) -> None:
        kv.load("players_window.kv")
        super().__init__(**kwargs)
        self.old = old
        self._on_done = on_done
        box = self.ids.name
        box.text = old
        box.bind(text=self._name_length)
        keyboard = NameKeyboard(language=language())
        keyboard.target = box
        keyboard.bind(on_done=lambda *a: self.done())
        self.ids.keyboard_box.add_widget(keyboard)
        self.keyboard = keyboard

    def _name_length(self, box: Any, text: str) -> None:
        # A letter that does not fit is not dropped in silence: the problem line says so.
        kept = clipped_name(text)
        full = name_full(MAX_NAME_COLUMNS)
        if kept != text:
            box.text = kept
            self.problem = full
        elif self.problem == full and text_width(text) < MAX_NAME_COLUMNS:
            self.problem = ""

    def done(self) -> None:
        name = self.ids.name.text.strip()
        if not name:
            self.problem = _("A player needs a name.")
            return
        if name == self.old:
            self.dismiss(animation=False)
            return
        self.problem = self._on_done(name)
        if not self.problem:
            self.dismiss(animation=False)
