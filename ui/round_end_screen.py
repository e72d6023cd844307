"""Between rounds: what each seat kept, its tent, artifacts and score, and the cards.

Also home of :class:`ScoreTable`, the seats-by-columns table both end
screens show: its columns are as wide as their longest text, measured in
the table's font, and its fonts as large as the room allows, never below
:data:`MIN_SP` (a header never below :data:`HEADER_SP`). So eight seats
with sixteen-character names fit 800x480 in every language, uncut.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from kivy.graphics import Color, Rectangle
from kivy.metrics import dp, sp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_hex_from_color

from ui import kv
from ui.kivyfree.i18n import language
from ui.kivyfree.presenters import RoundEndView, ScoreColumns
from ui.widgets import kept_or_new

Colour = tuple[float, float, float, float]

MIN_SP = 18  # the smallest text a player reads at a metre
HEADER_SP = 14  # tight only: names longer than a seat may have (typed elsewhere)
WHITE: Colour = (1, 1, 1, 1)
SOFT: Colour = (0.9, 0.9, 0.9, 1)
GREY: Colour = (0.6, 0.6, 0.6, 1)
GOLD: Colour = (1, 0.86, 0.35, 1)
ARTIFACT: Colour = (0.55, 0.8, 1, 1)
BUSTED: Colour = (1, 0.55, 0.5, 1)

#: A column's kind -> its font size in sp at scale 1 and whether it is bold.
STYLES: dict[str, tuple[float, bool]] = {
    "rank": (20, True),
    "name": (20, True),
    "text": (18, False),
    "number": (22, True),
    "artifacts": (20, False),
    "score": (24, True),
}
#: Scales tried, largest first: the first at which the table fits is used.
SCALES = (1.25, 1.15, 1.05, 1.0, 0.9, 0.8, 0.75)


@dataclass(frozen=True)
class Part:
    """A piece of a cell's text; a cell of two parts draws them side by side."""

    text: str
    colour: Colour = WHITE
    bold: bool | None = None  # None: as the column's kind


@dataclass(frozen=True)
class Column:
    header: str
    kind: str  # a key of STYLES
    align: str = "center"  # or "left"


@dataclass(frozen=True)
class Row:
    cells: tuple[tuple[Part, ...], ...]  # one per column
    colour: Colour  # the seat's colour, as a bar at the row's left
    highlight: bool = False  # a winner's row


class CellLabel(Label):
    """A column of a table's cells, a line a row (at least MIN_SP), in Kivy's
    markup: each part in its own colour and weight.

    One label a column, not one a cell: the software renderer keeps about
    45 KB for every drawing instruction drawn, and a table of eight seats had
    40 cells. Each line is as tall as a row (``line_height``), its text at
    the top of it; ``drop`` lowers the text by half of what a row adds to a
    line, so that it sits in the middle of its row (widgets.kv draws it so).
    """

    drop = NumericProperty(0)


class HeaderLabel(Label):
    """A column header (at least HEADER_SP)."""


def text_size(text: str, font_size: float, bold: bool) -> tuple[int, int]:
    """Width and height of ``text`` on one line, in the registered font (Kivy's measure)."""
    # The language is part of the key: a language may bring a font of its own.
    return _measured(text, float(font_size), bold, language())


# A game measures a few hundred texts again and again; a bounded cache of
# them, not every text of an evening (thousands of them grew the memory for
# hours of play).
@lru_cache(maxsize=1024)
def _measured(text: str, font_size: float, bold: bool, lang: str) -> tuple[int, int]:
    from kivy.core.text import Label as CoreLabel

    w, h = CoreLabel(text=text, font_size=font_size, bold=bold).get_extents(text or "Ag")
    return int(w), int(h)


def line_height(font_size: float, bold: bool = True) -> float:
    return float(text_size("Ag", font_size, bold)[1])


class ScoreTable(Widget):
    """Seats in rows, a header above; laid out and drawn here (see the module doc).

    It tries its scales from the largest down; if even the smallest is too wide,
    it goes *tight*: headers at HEADER_SP and artifact values without spaces
    ("5+7+8+10+12"), which is how eight seats of the longest names fit.
    """

    bar = dp(7)  # the seat colour's bar
    pad = dp(4)  # inside a row, left and right
    gap = dp(6)  # between columns, at least
    max_gap = dp(36)
    header_sp = 18

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.columns: tuple[Column, ...] = ()
        self.rows: tuple[Row, ...] = ()
        self._headers: list[HeaderLabel | None] = []
        self._cells: list[CellLabel] = []  # one a column
        # Labels of an earlier show, kept for the next (ui.widgets.kept_or_new).
        self._spare_headers: list[HeaderLabel] = []
        self._spare_cells: list[CellLabel] = []
        self.scale = 1.0
        self.tight = False
        self.bind(size=self._layout, pos=self._layout)

    def show(self, columns: Sequence[Column], rows: Sequence[Row]) -> None:
        if (tuple(columns), tuple(rows)) == (self.columns, self.rows):
            return  # the app shows its views again on every change of the table
        self._spare_headers += [head for head in self._headers if head is not None]
        self._spare_cells += self._cells
        self.clear_widgets()
        self.columns, self.rows = tuple(columns), tuple(rows)
        self._headers = []
        # Made at the sizes of the last layout: a label is drawn at the next
        # frame, which may come before this table is laid out again, and at
        # Kivy's default size it would open a font face for that one frame.
        header_size = self._header_size(self.tight)
        sizes = self._sizes(self.scale)
        for col in self.columns:
            head = None
            if col.header:
                head = kept_or_new(
                    self._spare_headers, lambda: HeaderLabel(color=GREY, size_hint=(None, None)))
                head.text, head.font_size = col.header, header_size
                self.add_widget(head)
            self._headers.append(head)
        self._cells = []
        if self.rows:
            for c, col in enumerate(self.columns):
                lab = kept_or_new(self._spare_cells,
                                  lambda: CellLabel(size_hint=(None, None), markup=True))
                lab.font_size, lab.bold = sizes[col.kind], self._all_bold(c)
                lab.halign = "left" if col.align == "left" else "center"
                lab.text = self._column_text(c, self.tight)
                self.add_widget(lab)
                self._cells.append(lab)
        self._layout()

    # --- measuring --------------------------------------------------------------------

    @staticmethod
    def _bold(col: Column, part: Part) -> bool:
        return STYLES[col.kind][1] if part.bold is None else part.bold

    @staticmethod
    def _space(col: Column, size: float) -> int:
        # The gap between a cell's parts, a space of the column's own weight:
        # a regular space beside bold numbers would open a font face of its own.
        return text_size(" ", size, STYLES[col.kind][1])[0]

    @staticmethod
    def _text(col: Column, part: Part, tight: bool) -> str:
        return part.text.replace(" ", "") if tight and col.kind == "artifacts" else part.text

    def _all_bold(self, c: int) -> bool:
        col = self.columns[c]
        return all(self._bold(col, part) for row in self.rows for part in row.cells[c])

    def _column_text(self, c: int, tight: bool) -> str:
        """Column ``c``'s cells, a line a row, in Kivy's markup: bold parts in
        ``[b]`` unless the whole column is bold (the label's own weight then:
        each weight and size the label uses opens a font face, kept for good)."""
        col = self.columns[c]
        all_bold = self._all_bold(c)
        # the space between a cell's parts is of the column's own weight, for
        # the same reason
        space = "" if tight else " " if all_bold or not STYLES[col.kind][1] else "[b] [/b]"
        lines = []
        for row in self.rows:
            parts = []
            for part in row.cells[c]:
                text = f"[color={get_hex_from_color(part.colour)}]" \
                       f"{escape_markup(self._text(col, part, tight))}[/color]"
                bold = self._bold(col, part) and not all_bold
                parts.append(f"[b]{text}[/b]" if bold else text)
            # a no-break space keeps an empty cell's line as tall as the others
            lines.append(space.join(parts) if any(p.text for p in row.cells[c]) else "\u00a0")
        return "\n".join(lines)

    def _sizes(self, scale: float) -> dict[str, float]:
        # Whole even pixels: Kivy opens a font face per size and keeps it, so
        # a size from a continuous scale would open new ones on every screen.
        return {k: max(float(sp(MIN_SP)), 2.0 * math.floor(sp(base) * scale / 2.0))
                for k, (base, _b) in STYLES.items()}

    def _header_size(self, tight: bool) -> float:
        return float(sp(HEADER_SP) if tight else max(sp(HEADER_SP), sp(self.header_sp)))

    def _cell_width(self, col: Column, cell: Sequence[Part], size: float, tight: bool) -> float:
        widths = [text_size(self._text(col, p, tight), size, self._bold(col, p))[0]
                  for p in cell]
        space = 0 if tight else self._space(col, size)
        return float(sum(widths) + space * max(0, len(widths) - 1))

    def _widths(self, scale: float, tight: bool) -> list[float]:
        sizes = self._sizes(scale)
        header = self._header_size(tight)
        out = []
        for c, col in enumerate(self.columns):
            w = float(text_size(col.header, header, False)[0]) if col.header else 0.0
            for row in self.rows:
                w = max(w, self._cell_width(col, row.cells[c], sizes[col.kind], tight))
            out.append(w + dp(2))
        return out

    def _header_height(self, tight: bool) -> float:
        if not any(c.header for c in self.columns):
            return 0.0
        return line_height(self._header_size(tight), bold=False)  # headers are not bold

    def _row_height(self, scale: float) -> float:
        sizes = self._sizes(scale)
        return float(max(line_height(sizes[c.kind]) for c in self.columns) + dp(2))

    def width_needed(self, scale: float, tight: bool = False) -> float:
        n = len(self.columns)
        return float(sum(self._widths(scale, tight)) + self.bar + 2 * self.pad
                     + self.gap * max(0, n - 1))

    def height_needed(self, scale: float, tight: bool = False) -> float:
        return self._header_height(tight) + len(self.rows) * self._row_height(scale)

    def fit(self, width: float, height: float) -> tuple[float, bool]:
        """The largest scale at which the table fits ``width`` x ``height``, and whether
        it must be tight (else the least scale, tight: it cannot fit)."""
        for tight in (False, True):
            for scale in SCALES:
                if (self.width_needed(scale, tight) <= width
                        and self.height_needed(scale, tight) <= height):
                    return scale, tight
        return SCALES[-1], True

    def natural_width(self, max_width: float, height: float) -> float:
        """The width the table wants inside ``max_width`` x ``height``: its columns, a
        little room between them, never more than ``max_width``."""
        if not self.rows:
            return float(min(max_width, dp(200)))
        scale, tight = self.fit(max_width, height)
        extra = dp(12) * max(0, len(self.columns) - 1)
        return float(min(max_width, self.width_needed(scale, tight) + extra))

    # --- placing ----------------------------------------------------------------------

    def _layout(self, *args: Any) -> None:
        self.canvas.before.clear()
        if not self.rows or self.width <= 0 or self.height <= 0:
            return
        scale, tight = self.scale, self.tight = self.fit(self.width, self.height)
        sizes = self._sizes(scale)
        widths = self._widths(scale, tight)
        n = len(self.columns)
        spare = max(0.0, self.width - self.width_needed(scale, tight))
        gap = self.gap + (min(spare / max(1, n - 1), self.max_gap - self.gap) if n > 1 else 0)
        used = sum(widths) + self.bar + 2 * self.pad + gap * max(0, n - 1)
        x0 = self.x + max(0.0, (self.width - used) / 2)
        head_h = self._header_height(tight)
        line = self._row_height(scale)
        # whole pixels: Kivy cuts a line's height to whole pixels, and the
        # columns' lines must keep to the rows drawn here
        room = (self.height - head_h) / len(self.rows)
        row_h = float(math.floor(max(line, min(line * 1.45, room))))
        total_h = head_h + row_h * len(self.rows)
        # y + height, not self.top: an alias Kivy updates after this size callback
        top = self.y + self.height - max(0.0, (self.height - total_h) / 2)
        xs = []
        x = x0 + self.bar + self.pad
        for w in widths:
            xs.append(x)
            x += w + gap
        header_size = self._header_size(tight)
        for c, head in enumerate(self._headers):
            if head is None:
                continue
            head.font_size = header_size
            w = text_size(head.text, header_size, False)[0] + dp(2)
            head.size = (w, head_h)
            head.pos = (self._aligned(xs[c], widths[c], w, self.columns[c].align), top - head_h)
        with self.canvas.before:
            for r, row in enumerate(self.rows):
                y = top - head_h - (r + 1) * row_h
                if row.highlight:
                    Color(0.30, 0.25, 0.08, 1)
                else:
                    Color(*((0.15, 0.15, 0.17, 1) if r % 2 == 0 else (0.11, 0.11, 0.12, 1)))
                Rectangle(pos=(x0, y + dp(1)), size=(used, row_h - dp(2)))
                Color(*row.colour)
                Rectangle(pos=(x0, y + dp(1)), size=(self.bar, row_h - dp(2)))
        rows_h = row_h * len(self.rows)
        for c, lab in enumerate(self._cells):
            col = self.columns[c]
            size = sizes[col.kind]
            line = line_height(size)
            lab.font_size = size
            lab.line_height = (row_h + 0.01) / line  # not a hair under row_h, once cut
            lab.text = self._column_text(c, tight)
            lab.texture_update()
            lab.drop = (row_h - line) / 2
            w = lab.texture_size[0]
            lab.size = (w, rows_h)
            lab.pos = (self._aligned(xs[c], widths[c], w, col.align), top - head_h - rows_h)

    @staticmethod
    def _aligned(x: float, room: float, w: float, align: str) -> float:
        return x if align == "left" else x + (room - w) / 2


def score_columns(columns: ScoreColumns, *, rank: bool = False) -> list[Column]:
    """The end screens' columns, from the presenter's headers (no artifacts: no column)."""
    out = [Column("", "rank")] if rank else []
    out.append(Column(columns.seat, "name", "left"))
    if columns.round:
        out.append(Column(columns.round, "text", "left"))
    out.append(Column(columns.tent, "number"))
    if columns.artifacts:
        out.append(Column(columns.artifacts, "artifacts"))
    out.append(Column(columns.score, "score"))
    return out


def artifact_parts(artifacts: str, new: str = "") -> tuple[Part, ...]:
    """An artifacts cell: the values, those carried out this round in gold."""
    if not artifacts:
        return (Part("-", GREY),)
    if not new:
        return (Part(artifacts, ARTIFACT),)
    before = artifacts[: len(artifacts) - len(new)].strip()
    return (*((Part(before, ARTIFACT),) if before else ()), Part(new, GOLD, True))


class RoundEndScreen(Screen):
    heading = StringProperty("")
    how = StringProperty("")
    todo = StringProperty("")
    notice = StringProperty("")  # what waits for this summary, or ""
    button = StringProperty("")
    goes_to = StringProperty("table")

    def __init__(self, **kwargs: Any) -> None:
        kv.load("round_end.kv")
        super().__init__(**kwargs)

    def show(self, v: RoundEndView) -> None:
        self.heading = v.heading
        self.how = v.how
        self.todo = "\n".join(x for x in (v.remove, v.lost, v.next_artifact) if x)
        self.button = v.button
        self.goes_to = v.goes_to
        columns = score_columns(v.columns)
        rows = []
        for s in v.seats:
            cells: list[tuple[Part, ...]] = [
                (Part(s.name, s.colour),),
                (Part(s.result, BUSTED if s.busted else SOFT),),
                (Part(s.banked, SOFT),),
            ]
            if v.columns.artifacts:
                cells.append(artifact_parts(s.artifacts, s.new_artifacts))
            cells.append((Part(s.score),))
            rows.append(Row(tuple(cells), s.colour))
        self.ids.table.show(columns, rows)
