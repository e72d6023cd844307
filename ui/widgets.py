"""Widgets the screens share: a card face, the path of cards, a seat row, the chart.

They hold display properties only; what they show comes from the presenters.
Layout and looks are in ``widgets.kv``; the path's flow, the seat table's
columns and the chart's lines need arithmetic, so they are done here.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from kivy.graphics import Color, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import (
    BooleanProperty,
    ColorProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.widget import Widget

from ui.fonts import japanese_lines as phrase_lines
from ui.i18n import language
from ui.presenters import CardFace, ChartView, PathCardView, SeatView

READ_SP = 18  # the smallest text a player reads at a metre
HEADER_SP = 14  # a column header's smallest
TOUCH_DP = 48  # the smallest thing a finger taps

#: The seat table's columns, left to right: the colour bar's room, name,
#: status icon, gems in hand, tent, artifacts, chosen light. The table screen
#: measures them (:func:`seat_columns`); its header and every SeatRow use them.
SEAT_COLUMN_NAMES = ("bar", "name", "icon", "hand", "tent", "artifacts", "chosen")
NAME_SP = (20, READ_SP)  # a seat's name: the larger when every name fits NAME_ROOM_DP
NAME_ROOM_DP = 130
NUMBER_SP = (28, 22)  # gems in hand, tent: up to FEW_SEATS seats (taller rows), more
FEW_SEATS = 5
ARTIFACTS_SP = READ_SP


@lru_cache(maxsize=4096)
def _extent(text: str, font_size: float, bold: bool, font: str) -> tuple[int, int]:
    from kivy.core.text import Label as CoreLabel

    w, h = CoreLabel(text=text, font_size=font_size, bold=bold).get_extents(text or " ")
    return int(w), int(h)


def text_extent(text: str, font_size: float, bold: bool = False) -> tuple[int, int]:
    """Width and height of ``text`` on one line, in the registered font (Kivy's measure)."""
    from ui.fonts import registered

    font = registered()
    return _extent(text, float(font_size), bold, str(font.regular) if font else "")


def seat_columns(names: Sequence[str], hands: Sequence[str], tents: Sequence[str],
                 artifacts: Sequence[str] | None, headers: Sequence[str],
                 header_size: float) -> tuple[float, float, list[float]]:
    """The names' and the numbers' font sizes and the seat table's column
    widths (see :data:`SEAT_COLUMN_NAMES`) for these seats: every name whole
    on one line, every number and header in its column. ``artifacts`` None:
    no such column. ``headers``: the hand, tent, artifacts and chosen headers."""
    name_size = float(sp(NAME_SP[1]))
    for size in NAME_SP:
        widest = max((text_extent(n, sp(size), True)[0] for n in names), default=0)
        if widest <= dp(NAME_ROOM_DP) or size == NAME_SP[-1]:
            name_size = float(sp(size))
            break
    name_w = max((text_extent(n, name_size, True)[0] for n in names), default=0) + dp(6)
    hand_h, tent_h, art_h, chose_h = (text_extent(h, header_size)[0] for h in headers)
    number = float(sp(NUMBER_SP[0] if len(names) <= FEW_SEATS else NUMBER_SP[1]))
    hand_w = max(hand_h, *(text_extent(v, number, True)[0] for v in [*hands, "88"])) + dp(8)
    tent_w = max(tent_h, *(text_extent(v, number, True)[0] for v in [*tents, "88"])) + dp(8)
    art_w = 0.0
    if artifacts is not None:
        art_w = max(art_h, *(text_extent(v, sp(ARTIFACTS_SP))[0] for v in [*artifacts, "10"]))
        art_w += dp(8)
    chose_w = max(chose_h, dp(22)) + dp(8)
    return name_size, number, [dp(8), name_w, dp(28), hand_w, tent_w, art_w, chose_w]


def japanese_lines(text: str, room: float, font_size: float, bold: bool = False) -> str:
    """``text`` broken where a Japanese reader expects, between phrases
    (:func:`ui.fonts.japanese_lines`), measured as :func:`text_extent` does."""
    return phrase_lines(text, room, lambda line: float(text_extent(line, font_size, bold)[0]))


class FlowLabel(Label):
    """A wrapping Label (``text_size: self.width, None``) for sentences: set
    :attr:`whole`, not ``text``. In Japanese the lines break by
    :func:`japanese_lines`; in every other language by Kivy, at spaces (a
    Japanese name in a Polish sentence stays whole)."""

    whole = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("whole", "width", "font_size", "bold", "padding", "text_size"):
            self.fbind(name, self._reflow)
        self._reflow()

    def _reflow(self, *args: Any) -> None:
        pad_left, _top, pad_right, _bottom = (float(p) for p in self.padding)
        room = float(self.text_size[0] or 0) - pad_left - pad_right
        if language() == "ja":
            self.text = japanese_lines(self.whole, room, self.font_size, self.bold)
        else:
            self.text = self.whole


class CardFaceWidget(ButtonBehavior, BoxLayout):
    """One card of the picker drawn with Kivy: coloured face, big title, what it is above."""

    card = StringProperty("")
    title = StringProperty("")
    subtitle = StringProperty("")
    bg = ColorProperty((0.5, 0.5, 0.5, 1))
    fg = ColorProperty((1, 1, 1, 1))
    faded = BooleanProperty(False)
    title_size = NumericProperty(sp(22))

    def show_face(self, face: CardFace) -> None:
        self.card = face.card
        self.title = face.title
        self.subtitle = face.subtitle
        self.bg = face.background
        self.fg = face.text

    def on_title(self, *args: Any) -> None:
        self._fit_title()

    def on_width(self, *args: Any) -> None:
        self._fit_title()

    def _fit_title(self) -> None:
        # A number big; a word as large as the face's width allows, never below READ_SP.
        if self.title.isdigit():
            self.title_size = sp(30)
            return
        room = self.width - dp(8)
        self.title_size = next(
            (sp(s) for s in (22, 21, 20, 19) if text_extent(self.title, sp(s), True)[0] <= room),
            sp(READ_SP),
        )


class PathChip(ButtonBehavior, BoxLayout):
    """One card of the path as a chip: its name big, its gems or note below.

    A chip is as wide as its words; its height is its row's (:class:`PathFlow`):
    a row with a gems or note line is taller than a row of names only.
    """

    card = StringProperty("")
    title = StringProperty("")
    left = StringProperty("")
    note = StringProperty("")
    bg = ColorProperty((0.5, 0.5, 0.5, 1))
    fg = ColorProperty((1, 1, 1, 1))
    faded = BooleanProperty(False)
    highlight = BooleanProperty(False)
    index = NumericProperty(-1)
    compact = BooleanProperty(False)  # names only, but for a highlighted chip's line
    line_shown = BooleanProperty(False)  # set in kv
    want_height = NumericProperty(dp(TOUCH_DP))  # set in kv: taller with a second line

    def show(self, view: PathCardView) -> None:
        self.card = view.face.card
        self.title = view.face.title
        self.bg = view.face.background
        self.fg = view.face.text
        self.index = view.pos
        self.left = view.left
        self.note = view.note
        self.faded = view.faded
        self.highlight = view.highlight


class PathFlow(Layout):
    """The round's path: chips in reading order, each where it first landed.

    Rows fill left to right; a row is as high as its tallest chip, and every
    chip of the row takes that height. :attr:`row_heights` (top row first)
    lets the table screen show whole rows only when the path is longer than
    its room.
    """

    on_card = ObjectProperty(None, allownone=True)  # callback(pos)
    compact = BooleanProperty(False)  # every chip compact (PathChip.compact)
    spacing = NumericProperty(dp(5))
    padding = NumericProperty(dp(3))  # room for the bust's red ring (2 px around a chip)
    minimum_height = NumericProperty(0)
    row_heights = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        for name in ("children", "width", "pos"):
            self.fbind(name, self._trigger_layout)
        self.fbind("spacing", self._trigger_layout)
        self.fbind("padding", self._trigger_layout)

    def add_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        widget.fbind("want_height", self._trigger_layout)
        super().add_widget(widget, *args, **kwargs)

    def remove_widget(self, widget: Any, *args: Any, **kwargs: Any) -> None:
        widget.funbind("want_height", self._trigger_layout)
        super().remove_widget(widget, *args, **kwargs)

    def show(self, views: Sequence[PathCardView]) -> None:
        chips = self.chips
        while len(chips) < len(views):
            chip = PathChip()
            chip.bind(on_release=self._tapped)
            self.add_widget(chip)
            chips.append(chip)
        while len(chips) > len(views):
            self.remove_widget(chips.pop())
        for chip, view in zip(chips, views, strict=True):
            chip.show(view)
            chip.compact = self.compact

    def on_compact(self, *args: Any) -> None:
        for chip in self.chips:
            chip.compact = self.compact

    def rows(self) -> list[list[PathChip]]:
        """The chips row by row, as they flow into the width."""
        room = self.width - 2 * self.padding
        rows: list[list[PathChip]] = []
        used = 0.0
        for chip in self.chips:
            if rows and used + self.spacing + chip.width <= room:
                rows[-1].append(chip)
                used += self.spacing + chip.width
            else:
                rows.append([chip])
                used = chip.width
        return rows

    def do_layout(self, *args: Any) -> None:
        rows = self.rows()
        heights = [max(c.want_height for c in row) for row in rows]
        pad, gap = self.padding, self.spacing
        total = 2 * pad + sum(heights) + gap * max(0, len(rows) - 1)
        self.minimum_height = total
        self.row_heights = heights
        y = self.y + max(total, self.height) - pad
        for row, h in zip(rows, heights, strict=True):
            y -= h
            x = self.x + pad
            for chip in row:
                chip.height = h
                chip.pos = (x, y)
                x += chip.width + gap
            y -= gap

    def _tapped(self, chip: PathChip) -> None:
        if self.on_card is not None:
            self.on_card(int(chip.index))

    @property
    def chips(self) -> list[PathChip]:
        return list(reversed(self.children))

    cards = chips


def rows_shown(heights: Sequence[float], room: float, spacing: float,
               padding: float) -> tuple[int, float]:
    """How many of the last rows fit ``room`` whole (at least one), and the
    height they take with the padding: a view that tall, scrolled to the end,
    shows the newest rows and no row cut in two."""
    total, count = 2 * padding, 0
    for h in reversed(heights):
        more = h + (spacing if count else 0)
        if count and total + more > room:
            break
        total += more
        count += 1
    return count, total


class SeatRow(BoxLayout):
    """One seat: name, status, gems in hand, tent total, artifacts, choice light."""

    name = StringProperty("")
    colour = ColorProperty((1, 1, 1, 1))
    status_key = StringProperty("in")
    hand = StringProperty("")
    banked = StringProperty("")
    artifacts = StringProperty("")
    choice = StringProperty("")
    chosen = BooleanProperty(False)
    with_artifacts = BooleanProperty(True)
    columns = ListProperty([dp(8), dp(120), dp(28), dp(40), dp(40), dp(40), dp(40)])
    name_size = NumericProperty(sp(20))
    number_size = NumericProperty(sp(22))

    def show(self, v: SeatView) -> None:
        self.name = v.name
        self.colour = v.colour
        self.status_key = v.status_key
        self.hand = v.hand
        self.banked = v.banked
        self.artifacts = v.artifacts
        self.choice = v.choice
        self.chosen = v.chosen


class Chart(Widget):
    """Each seat's score (tent + artifacts) after each round: one line per seat."""

    series = ListProperty([])
    colours = ListProperty([])
    labels = ListProperty([])
    top_value = NumericProperty(10)
    rounds = NumericProperty(5)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._texts: list[Label] = []
        self.bind(
            size=self._draw, pos=self._draw, series=self._draw, top_value=self._draw
        )

    def show(self, v: ChartView) -> None:
        self.colours = list(v.colours)
        self.labels = list(v.labels)
        self.rounds = v.rounds
        self.top_value = v.top
        self.series = [list(s) for s in v.series]

    def _label(self, text: str, x: float, y: float, anchor: str = "center") -> None:
        lab = Label(text=text, font_size=sp(14), color=(0.85, 0.85, 0.85, 1))
        lab.texture_update()
        w, h = lab.texture_size
        lab.size = (w, h)
        lab.pos = (x - w if anchor == "right" else x - w / 2, y - h / 2)
        self.add_widget(lab)
        self._texts.append(lab)

    def _draw(self, *args: Any) -> None:
        self.canvas.after.clear()
        for lab in self._texts:
            self.remove_widget(lab)
        self._texts = []
        left, bottom = self.x + dp(34), self.y + dp(24)
        w, h = self.width - dp(50), self.height - dp(34)
        if w <= 0 or h <= 0:
            return
        top = max(1, int(self.top_value))
        rounds = max(1, int(self.rounds))

        def px(rnd: int, value: float) -> tuple[float, float]:
            return left + w * rnd / rounds, bottom + h * value / top

        with self.canvas.after:
            Color(0.35, 0.35, 0.35, 1)
            for k in range(6):
                y = bottom + h * k / 5
                Line(points=[left, y, left + w, y], width=1)
            Color(0.8, 0.8, 0.8, 1)
            Line(points=[left, bottom, left, bottom + h], width=1.2)
            for i, values in enumerate(self.series):
                colour = self.colours[i] if i < len(self.colours) else (1, 1, 1, 1)
                Color(*colour)
                points: list[float] = [*px(0, 0)]
                for r, v in enumerate(values, start=1):
                    points += px(r, v)
                # A small offset per seat keeps equal lines apart.
                off = dp(1.5) * (i - len(self.series) / 2)
                points = [p + (off if k % 2 else 0) for k, p in enumerate(points)]
                Line(points=points, width=dp(1.6))
                for k in range(2, len(points), 2):
                    Rectangle(pos=(points[k] - dp(3), points[k + 1] - dp(3)), size=(dp(6), dp(6)))
        for k in range(6):
            self._label(str(top * k // 5), left - dp(4), bottom + h * k / 5, "right")
        for r in range(1, rounds + 1):
            self._label(str(r), left + w * r / rounds, bottom - dp(12))


def fits(text: str, width: float, font_size: float, *, lines: int = 1, bold: bool = False,
         halign: str = "left") -> bool:
    """Whether ``text`` wraps into at most ``lines`` lines of ``width`` at ``font_size``.

    Measured by Kivy's own text provider with the registered font, so it
    holds for every language (Japanese breaks between any two characters).
    Remembered: a screen asks again with the same words on every refresh.
    """
    from ui.fonts import registered

    if not text or width <= 0:
        return True
    font = registered()
    return _fits(text, float(width), float(font_size), lines, bold, halign,
                 str(font.regular) if font else "")


@lru_cache(maxsize=1024)
def _fits(text: str, width: float, font_size: float, lines: int, bold: bool, halign: str,
          font: str) -> bool:
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text=text, font_size=font_size, bold=bold, text_size=(width, None),
                      halign=halign)
    label.refresh()
    return bool(label.content_height <= _extent("Ag", font_size, bold, font)[1] * lines + 1)
