"""The remembered players: their buttons on the set-up screen, and their
window to seat, rename or merge them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from companion.engine import State
from companion.players import Player
from ui.controllers import confirm
from ui.kivyfree import presenters
from ui.kivyfree.i18n import _
from ui.kivyfree.presenters import chips as chip_presenters

if TYPE_CHECKING:
    from ui.app import CompanionApp

_log = logging.getLogger(__name__)


class PlayersController:
    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.players: tuple[Player, ...] = ()
        self.window: Any = None
        # The seats' colours last worked out: (the names and players they were for, colours).
        self._seat_colours: tuple[Any, tuple[presenters.Colour, ...]] | None = None

    def reread(self) -> None:
        """The players as the data file has them now, shown."""
        self.players = self.app.games.players()
        self.show()

    def _chips(self) -> tuple[chip_presenters.Chip, ...]:
        return chip_presenters.chips(self.players, self.app.setup_screen.names())

    def show(self) -> None:
        chips = self._chips()
        self.app.setup_screen.ids.players.show(chips)
        if self.window is not None:
            self.window.show(chips)

    def toggle(self, name: str) -> None:
        """A remembered player's button (set-up screen or the players' window)."""
        self.app.setup_screen.toggle_player(name)
        self.show()

    def open(self) -> None:
        """Every remembered player: seat them, rename one, merge two spellings."""
        from ui.players import PlayersWindow

        if self.window is not None:
            self.window.dismiss(animation=False)
        window = PlayersWindow(
            self._chips(), on_seat=self.toggle, on_rename=self.rename, on_merge=self.merge
        )
        window.bind(on_dismiss=lambda *a: setattr(self, "window", None))
        window.open(animation=False)
        self.window = window

    def rename(self, player: int, name: str) -> str:
        """A new name for a player; the problem with it ("" when done)."""
        old = next((p.name for p in self.players if p.id == player), "")
        try:
            self.app.games.rename_player(player, name)
        except Exception as e:
            _log.info("renaming player %s: %s", player, e)
            return _("{name} is another player's name already.").format(name=name)
        for box in self.app.setup_screen.name_inputs:  # a seat of theirs shows the new name
            if box.text.strip() == old:
                box.text = name
        self.reread()
        return ""

    def merge(self, keep: int, gone: int, keep_name: str, gone_name: str) -> None:
        """Two spellings of one person, after a yes: ``gone``'s games become ``keep``'s."""

        def merge() -> None:
            try:
                self.app.games.merge_players(keep, gone)
            except Exception as e:
                _log.info("merging players %s and %s: %s", keep, gone, e)
                said = _("{one} and {other} played at one table: two people, not one.").format(
                    one=keep_name, other=gone_name
                )
                # Said where the merge was asked for: the players' window, if open.
                if self.window is not None:
                    self.window.said = said
                else:
                    self.app.setup_screen.problem = said
            self.reread()

        confirm(
            _("Merge {gone} into {keep}? The games of {gone} become {keep}'s.").format(
                gone=gone_name, keep=keep_name
            ),
            _("Merge"),
            merge,
        )

    def seat_colours(self, state: State) -> tuple[presenters.Colour, ...]:
        """Each seat in its player's colour, as the set-up chips and the statistics
        show it (the players read again for names not yet remembered)."""
        names = tuple(s.name for s in state.seats)
        known = self._seat_colours
        if known is not None and known[0] == (names, self.players):
            return known[1]  # every refresh asks: the store is read once per table
        if not set(names) <= {p.name for p in self.players}:
            self.players = self.app.games.players()
        remembered = {p.name: chip_presenters.colour(p.colour) for p in self.players}
        colours = presenters.seat_colours(names, remembered)
        self._seat_colours = ((names, self.players), colours)
        return colours
