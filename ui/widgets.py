"""Widgets the screens share: a card face, the path of cards, a seat row, the chart.

They hold display properties only; what they show comes from the presenters.
Layout and looks are in ``widgets.kv``; the path's fitting and the chart's
lines need arithmetic, so they are drawn here.
"""

from __future__ import annotations

from collections.abc import Sequence
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
from kivy.uix.stacklayout import StackLayout
from kivy.uix.widget import Widget

from ui.presenters import CardFace, ChartView, PathCardView, SeatView

#: The seat table's columns (name, status, hand, tent, artifacts, chosen), as
#: size hints: the header in table.kv and every SeatRow use these, so they line up.
SEAT_COLUMNS = (0.36, 0.08, 0.13, 0.14, 0.15, 0.14)


def fitted_font_size(width: float, text: str, largest: float, smallest: float, *,
                     per_char: float = 1.6, min_chars: int = 1) -> float:
    """The largest font size, up to ``largest``, at which ``text`` fits ``width``
    (a glyph is taken as 1/``per_char`` of the size wide), never below ``smallest``.

    Kivy cannot shrink text to fit by itself; long names (Bartłomiej) and long
    card names (Serpientes) get a smaller size before they are shortened.
    """
    return max(smallest, min(largest, width * per_char / max(len(text), min_chars)))


class CardFaceWidget(ButtonBehavior, Widget):
    """One quest card drawn with Kivy: coloured face, big title, gems left."""

    card = StringProperty("")
    title = StringProperty("")
    subtitle = StringProperty("")
    left = StringProperty("")
    note = StringProperty("")
    bg = ColorProperty((0.5, 0.5, 0.5, 1))
    fg = ColorProperty((1, 1, 1, 1))
    faded = BooleanProperty(False)
    index = NumericProperty(-1)

    def show_face(self, face: CardFace) -> None:
        self.card = face.card
        self.title = face.title
        self.subtitle = face.subtitle
        self.bg = face.background
        self.fg = face.text

    def show(self, view: PathCardView) -> None:
        self.show_face(view.face)
        self.index = view.pos
        self.left = view.left
        self.note = view.note
        self.faded = view.faded


class PathChip(ButtonBehavior, BoxLayout):
    """One card of the path as a chip: its name big, its gems or note below.

    Chips have a fixed height and a width from their words, and the path
    flows them left to right: a new card never moves the cards before it.
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


class PathFlow(StackLayout):
    """The round's path: chips in reading order, each where it first landed."""

    on_card = ObjectProperty(None, allownone=True)  # callback(pos)

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

    def _tapped(self, chip: PathChip) -> None:
        if self.on_card is not None:
            self.on_card(int(chip.index))

    @property
    def chips(self) -> list[PathChip]:
        return list(reversed(self.children))

    cards = chips


class SeatRow(BoxLayout):
    """One seat: name, status, gems in hand, tent total, artifacts, choice light."""

    name = StringProperty("")
    colour = ColorProperty((1, 1, 1, 1))
    status = StringProperty("")
    status_key = StringProperty("in")
    hand = StringProperty("")
    banked = StringProperty("")
    artifacts = StringProperty("")
    choice = StringProperty("")
    chosen = BooleanProperty(False)
    waiting = BooleanProperty(False)
    with_artifacts = BooleanProperty(True)

    def show(self, v: SeatView) -> None:
        self.waiting = v.waiting
        self.name = v.name
        self.colour = v.colour
        self.status = v.status
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


def fits(text: str, width: float, font_size: float, *, lines: int = 1, bold: bool = False) -> bool:
    """Whether ``text`` wraps into at most ``lines`` lines of ``width`` at ``font_size``.

    Measured by Kivy's own text provider with the registered font, so it
    holds for every language (Japanese breaks between any two characters).
    """
    from kivy.core.text import Label as CoreLabel

    if not text or width <= 0:
        return True
    label = CoreLabel(text=text, font_size=font_size, bold=bold, text_size=(width, None))
    label.refresh()
    line_height = CoreLabel(text="Ag", font_size=font_size, bold=bold)
    line_height.refresh()
    return bool(label.content_height <= line_height.content_height * lines + 1)
