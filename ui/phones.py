"""The menu's Phones window: a QR code for each seat's phone, one for watchers.

The table turns the phones' pages on or off here (remembered for the next
start), and makes new codes when a phone must stop acting for its seat. A
seat is picked on the left and its code is shown large on the right, big
enough for a phone's camera at arm's length; the watchers' code comes with
its short address, to type instead.

The QR codes are written by zxing-cpp (the card reader's library) and drawn
as a Kivy texture, one pixel a module, scaled up without smoothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from kivy.factory import Factory
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, StringProperty

from companion.notices import Failed, Reason, Step
from companion.table import Table
from ui import kv
from ui.kivyfree.controls import PhonesControl
from ui.kivyfree.i18n import _
from ui.kivyfree.notice_words import notice_text
from ui.kivyfree.presenters import SEAT_COLOURS, Colour, TableView, clipped_name
from ui.players import PlayerChip
from ui.widgets import OverWindow

__all__ = ["PhonesWindow", "qr_texture", "with_phones"]


def with_phones(view: TableView, phones: PhonesControl, notice: Reason | None) -> TableView:
    """The table's status line, saying while the pages are on, and where.

    A failure of the phones' server is a lasting notice; once the table has
    turned them on again it is over, and the line no longer says it.
    """
    if not phones.on:
        return view
    status = view.status
    if isinstance(notice, Failed) and notice.step is Step.PHONES:
        status = status.removesuffix(notice_text(notice)).removesuffix(" · ")
    said = _("phones: {address}").format(address=phones.links().watch)
    return replace(view, status=" · ".join(part for part in (status, said) if part))


def qr_modules(text: str) -> tuple[int, int, bytes]:
    """``text`` as a QR code (error correction M), one byte a module with its
    quiet zone: (width, height, grey bytes, top row first)."""
    import zxingcpp

    barcode = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    image = barcode.to_image(scale=1, add_quiet_zones=True)
    height, width = image.shape
    return width, height, bytes(memoryview(image))  # type: ignore[arg-type]


def qr_texture(text: str) -> Any:
    """``text`` as a QR code texture, sharp at any size."""
    width, height, grey = qr_modules(text)
    # RGB, three bytes a module: no row alignment to get wrong at odd widths.
    rgb = bytes(b for g in grey for b in (g, g, g))
    texture = Texture.create(size=(width, height), colorfmt="rgb")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    texture.blit_buffer(rgb, colorfmt="rgb", bufferfmt="ubyte")
    texture.flip_vertical()  # the image's first row is its top
    return texture


class PhonesWindow(OverWindow):
    """The Phones window over the table; ``shown`` is the link of the code on show."""

    on = BooleanProperty(False)
    said = StringProperty("")
    caption = StringProperty("")
    shown = StringProperty("")

    def __init__(self, phones: PhonesControl, table: Table | None,
                 colours: Sequence[Colour] = (), **kwargs: Any) -> None:
        kv.load("phones.kv")
        kv.load("players.kv")  # the seats' buttons are players' chips
        super().__init__(**kwargs)
        self.phones = phones
        self.table = table
        self.colours = tuple(colours)  # each seat's, as the table shows it
        self.picked = 0  # the seat on show; -1: the watchers' code
        self.show()

    def switch(self) -> None:
        from kivy.app import App

        self.phones.switch(not self.phones.on)
        self.show()
        app = App.get_running_app()
        if app is not None:
            app.refresh()  # the status line says while the phones are on

    def repair(self) -> None:
        self.phones.repair()
        self.show()

    def pick(self, seat: int) -> None:
        self.picked = seat
        self.show()

    def show(self) -> None:
        """Everything in the window from the phones' state now."""
        phones = self.phones
        self.on = phones.on
        links = phones.links()
        grid = self.ids.seats
        grid.clear_widgets()
        if not self.on:
            self.said = (_("Phones are off: {error}").format(error=phones.error) if phones.error
                         else _("Turn the phones on: each seat can then choose on its own phone, "
                                "and anyone can watch the game."))
            self._code("", "")
            return
        for seat, (name, _link) in enumerate(links.seats):
            # The player's colour as a mark beside the name, as on the set-up
            # screen: a name drawn in it on a blue button (1.6:1 to 1.9:1 for
            # the blue, red, purple and brown seats) could not be read.
            colour = (self.colours[seat] if seat < len(self.colours)
                      else SEAT_COLOURS[seat % len(SEAT_COLOURS)])
            button = PlayerChip(text=clipped_name(name), mark=list(colour),
                                seated=seat == self.picked)
            button.bind(on_release=lambda b, s=seat: self.pick(s))
            grid.add_widget(button)
        watch = Factory.BigButton(text=_("Watch"))
        if self.picked < 0 or self.picked >= len(links.seats):
            self.picked = -1
            watch.background_color = (0.85, 0.62, 0.1, 1)
            watch.color = (0.1, 0.08, 0.02, 1)
        watch.bind(on_release=lambda b: self.pick(-1))
        grid.add_widget(watch)
        if not links.seats:
            self.said = _("Start a game to pair the seats' phones. Anyone can watch at "
                          "{address}.").format(address=links.watch)
        else:
            self.said = _("Scan a seat's code with that seat's phone. Anyone can watch at "
                          "{address}.").format(address=links.watch)
        if self.picked < 0:
            self._code(links.watch, links.watch)
        else:
            name, link = links.seats[self.picked]
            self._code(link, _("{name}'s phone").format(name=clipped_name(name)))

    def _code(self, link: str, caption: str) -> None:
        self.shown = link
        self.caption = caption
        self.ids.qr.texture = qr_texture(link) if link else None
