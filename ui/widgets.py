"""Widgets the screens share: a card face, the path of cards, a seat row, the chart.

They hold display properties only; what they show comes from the presenters.
Layout and looks are in ``widgets.kv`` and ``pieces.kv``; the path's flow, the seat table's
columns, the seat icons' shapes and the chart's lines need arithmetic, so they are done here.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from kivy.clock import Clock
from kivy.graphics import (
    Color,
    Ellipse,
    InstructionGroup,
    Line,
    Mesh,
    Rectangle,
    RoundedRectangle,
)
from kivy.graphics.scissor_instructions import ScissorPop, ScissorPush
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
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.layout import Layout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.textinput import TextInput
from kivy.uix.widget import Widget

from companion.cards import LONGEST_PATH
from ui.fonts import japanese_lines as phrase_lines
from ui.kivyfree.i18n import language

if TYPE_CHECKING:
    # Only named in signatures: the set-up screen loads no table presenters.
    from ui.kivyfree.presenters import CardFace, ChartView, PathCardView, SeatView

READ_SP = 18  # the smallest text a player reads at a metre
HEADER_SP = READ_SP  # a column header's smallest: read at a metre too
TOUCH_DP = 48  # the smallest thing a finger taps
TILE_DP = 50  # a path tile's least width: its number and the gems on it side by side
TILE_MAX_DP = 96  # and its most, when few seats leave the path a wide room
ICONS = Path(__file__).resolve().parent / "icons"  # made by scripts/make_icons.py


def icon_path(name: str) -> str:
    """The file of pictogram ``name`` (ui/icons/NAME.png), or "" when there is none."""
    path = ICONS / f"{name}.png"
    return str(path) if name and path.is_file() else ""

#: The seat table's columns, left to right: the colour bar's room, name,
#: status icon, gems in hand, tent, artifacts, chosen light. The table screen
#: measures them (:func:`seat_columns`); its header and every SeatRow use them.
SEAT_COLUMN_NAMES = ("bar", "name", "icon", "hand", "tent", "artifacts", "chosen")
NAME_SP = (20, READ_SP)  # a seat's name: the larger when every name fits NAME_ROOM_DP
NAME_ROOM_DP = 130
NUMBER_SP = (28, 20)  # gems in hand, tent: up to FEW_SEATS seats (taller rows), more
FEW_SEATS = 5
ARTIFACTS_SP = 20
HEAD_ICON_DP = 26  # a column headed by a pictogram: the gem, the tent, the artifact
#: The widest number each column keeps room for from the start, so the seat
#: table (and the path beside it) never widens in a game: hand, tent, artifacts.
NUMBER_ROOM = ("88", "188", "88")


# A game measures a few hundred texts again and again; a bounded cache of
# them, not every text of an evening (thousands of them grew the memory for
# hours of play).
@lru_cache(maxsize=1024)
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
    no such column. ``headers``: the hand, tent, artifacts and chosen headers
    ("" for one drawn as a pictogram)."""
    name_size = float(sp(NAME_SP[1]))
    for size in NAME_SP:
        widest = max((text_extent(n, sp(size), True)[0] for n in names), default=0)
        if widest <= dp(NAME_ROOM_DP) or size == NAME_SP[-1]:
            name_size = float(sp(size))
            break
    name_w = max((text_extent(n, name_size, True)[0] for n in names), default=0) + dp(6)
    hand_h, tent_h, art_h, chose_h = (
        text_extent(h, header_size)[0] if h else dp(HEAD_ICON_DP) for h in headers
    )
    number = float(sp(NUMBER_SP[0] if len(names) <= FEW_SEATS else NUMBER_SP[1]))
    hand_room, tent_room, art_room = NUMBER_ROOM
    hand_w = max(hand_h, *(text_extent(v, number, True)[0] for v in [*hands, hand_room]))
    tent_w = max(tent_h, *(text_extent(v, number, True)[0] for v in [*tents, tent_room]))
    hand_w, tent_w = hand_w + dp(8), tent_w + dp(8)
    art_w = 0.0
    if artifacts is not None:
        art_w = max(art_h, *(text_extent(v, sp(ARTIFACTS_SP), True)[0]
                             for v in [*artifacts, art_room]))
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


# Kivy's theme images are one 512x512 atlas: the first widget that draws one
# of them loads it, and its texture (a megabyte) stays for good, with its
# loading on the way to the first screen. Kivy's own rules draw them before a
# .kv rule of ours can set another image, so these classes start without them.


class NameInput(TextInput):
    """A player's name field: flat colours and a drawn border (``widgets.kv``)."""

    background_normal = StringProperty("")
    background_active = StringProperty("")
    background_disabled_normal = StringProperty("")

    def on_focus(self, _field: Any, focused: bool) -> None:
        # A tap selects the whole name, so typing replaces "Player 3" at once:
        # after the touch, which would otherwise place the cursor instead.
        if focused:
            Clock.schedule_once(self._select_name, 0.05)

    def _select_name(self, _dt: float) -> None:
        if self.focus:  # not a field already left: it would show its name chosen
            self.select_all()


class OverWindow(ModalView):
    """A window over a screen (the menu, the picker...): its frame is its
    ``background_color`` alone."""

    background = StringProperty("")


class ClippedScrollView(ScrollView):
    """A ScrollView that clips what it scrolls by the scissor test, not the stencil.

    On a renderer with no GPU (Mesa's llvmpipe, on a desktop or this project's
    benches) every kind of drawing done under a stencil test is a shader of its
    own, compiled and kept for the life of the process: one label scrolled
    under a stencil cost 4.4 MB in an empty Kivy app; in the app's play the
    menu's reminder cost one shader and 1.4 MB of malloc (docs/performance.md,
    "What the software renderer holds"). The scissor test is a plain rectangle
    in window pixels, which is all a view that is not rotated or scaled needs.
    Its rule in ``widgets.kv`` replaces the StencilView's and redraws
    ScrollView's bar.
    """

    def __init__(self, **kwargs: Any) -> None:
        self._clip = ScissorPush()
        super().__init__(**kwargs)
        self.canvas.before.add(self._clip)
        self.canvas.after.insert(0, ScissorPop())
        self.fbind("pos", self._place_clip)
        self.fbind("size", self._place_clip)
        self.fbind("parent", self._place_clip)
        self._place_clip()

    def _place_clip(self, *args: Any) -> None:
        x, y = self.to_window(*self.pos)
        self._clip.x, self._clip.y = round(x), round(y)
        self._clip.width, self._clip.height = round(self.width), round(self.height)


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
        # A number big; a word as large as the face's width allows, never below READ_SP,
        # in sizes other texts use too (each size opens a font face, kept for good).
        if self.title.isdigit():
            self.title_size = sp(30)
            return
        room = self.width - dp(8)
        self.title_size = next(
            (sp(s) for s in (22, 20, 19) if text_extent(self.title, sp(s), True)[0] <= room),
            sp(READ_SP),
        )


class _Shown:
    """A coloured shape in a canvas only while it shows: made the first time it
    does, taken out when it no longer does (not left there transparent: a
    drawing instruction holds about 50 KB in a software renderer all the
    same)."""

    def __init__(self, make: Callable[[], Rectangle]) -> None:
        self.make = make
        self.made: tuple[InstructionGroup, Color, Rectangle] | None = None

    def place(self, canvas: InstructionGroup, rgba: Sequence[float] | None,
              pos: tuple[float, float], size: tuple[float, float], *, under: bool) -> None:
        """Show it at ``pos``, ``size`` in ``rgba`` (first in ``canvas`` if
        ``under``, else last), or take it out where ``rgba`` is None."""
        if rgba is None:
            if self.made is not None and self.made[0] in canvas.children:
                canvas.remove(self.made[0])
            return
        if self.made is None:
            colour, shape = Color(), self.make()
            group = InstructionGroup()
            group.add(colour)
            group.add(shape)
            self.made = (group, colour, shape)
        group, colour, shape = self.made
        colour.rgba, shape.pos, shape.size = rgba, pos, size
        if group not in canvas.children:
            if under:
                canvas.insert(0, group)
            else:
                canvas.add(group)


class PathChip(ButtonBehavior, FloatLayout):
    """One card of the path as a tile of the path's fixed size (:class:`PathFlow`):
    its picture (a treasure's gems, a hazard, an artifact), its number, and
    inside it whatever the card carries now: the gems still on it, the odds of
    its pair, the colour of the seat that carried it out. Nothing it shows
    changes its size, so no card moves when a leftover is taken, an artifact
    is carried out or the round busts.
    """

    card = StringProperty("")
    title = StringProperty("")
    left = StringProperty("")
    note = StringProperty("")
    icon = StringProperty("")
    kind = StringProperty("treasure")  # "treasure" | "hazard" | "artifact": how it is drawn
    value = StringProperty("")
    gems = StringProperty("")
    chance = StringProperty("")
    taker = ColorProperty((0, 0, 0, 0))
    bg = ColorProperty((0.5, 0.5, 0.5, 1))
    fg = ColorProperty((1, 1, 1, 1))
    faded = BooleanProperty(False)
    highlight = BooleanProperty(False)
    index = NumericProperty(-1)
    compact = BooleanProperty(False)  # a bust's moment: the odds step aside

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # The bust's ring and the taker's bar show on a few tiles of a round,
        # and the longest path has 26 tiles (docs/architecture.md).
        self._ring = _Shown(lambda: RoundedRectangle(radius=[dp(8)]))
        self._bar = _Shown(lambda: RoundedRectangle(radius=[dp(4)]))
        for name in ("pos", "size", "highlight", "taker"):
            self.fbind(name, self._decorate)
        self._decorate()
        # A number with nothing to say (no leftover, no odds, a hazard's value)
        # is taken out of the tile, not made transparent: Kivy draws a widget
        # of opacity 0 all the same.
        # (``__self__``: the labels themselves, not kv's weak proxies, since
        # out of the tree nothing else holds them.)
        ids = self.ids
        self._numbers = [ids.tile_value.__self__, ids.tile_gems.__self__,
                         ids.tile_chance.__self__]
        for label in self._numbers:  # in the order they are drawn
            label.fbind("text", self._place_numbers)
        self._place_numbers()
        # An artifact's worth on a dark badge, clear of its white figure; a
        # treasure's number, on every other tile of a long path, has none.
        self._badge = _Shown(lambda: RoundedRectangle(radius=[dp(5)]))
        value = self._numbers[0]
        for name in ("pos", "size"):
            value.fbind(name, self._place_badge)
        self.fbind("kind", self._place_badge)
        self._place_badge()

    def _place_numbers(self, *args: Any) -> None:
        for label in self._numbers:
            if not label.text and label.parent is self:
                self.remove_widget(label)
        for i, label in enumerate(self._numbers):
            if label.text and label.parent is None:
                # Children run from the last drawn: in front of those drawn after it.
                later = sum(1 for other in self._numbers[i + 1:] if other.parent is self)
                self.add_widget(label, index=later)

    def _place_badge(self, *args: Any) -> None:
        value = self._numbers[0]
        self._badge.place(value.canvas.before,
                          (0.06, 0.2, 0.42, 0.95) if self.kind == "artifact" else None,
                          (value.x - dp(2), value.y), (value.width + dp(4), value.height),
                          under=True)

    def _decorate(self, *args: Any) -> None:
        # The ring within the path's padding and the space between tiles, under
        # the tile; the bar over the tile, under its picture and numbers.
        x, y, w, h = self.x, self.y, self.width, self.height
        self._ring.place(self.canvas.before, (1, 0.25, 0.2, 1) if self.highlight else None,
                         (x - dp(2), y - dp(2)), (w + dp(4), h + dp(4)), under=True)
        self._bar.place(self.canvas.before, self.taker if self.taker[3] > 0 else None,
                        (x + dp(3), y + dp(3)), (w - dp(6), dp(9)), under=False)

    def show(self, view: PathCardView) -> None:
        self.card = view.face.card
        self.title = view.face.title
        self.bg = view.face.background
        self.fg = view.face.text
        self.index = view.pos
        self.left = view.left
        self.note = view.note
        self.icon = icon_path(view.icon)
        self.kind = {"gem": "treasure", "artifact": "artifact"}.get(view.icon, "hazard")
        self.value = view.value
        self.gems = view.gems
        self.chance = view.chance
        self.taker = view.taker or (0, 0, 0, 0)
        self.faded = view.faded
        self.highlight = view.highlight


W = TypeVar("W", bound=Widget)


def take_out(holder: Widget, name: str) -> None:
    """Take the widget whose id in ``holder``'s rules is ``name`` out of it, and
    out of its ids (a weak reference there would outlive it): a part the
    device does not have is not drawn at all, rather than hidden."""
    widget = holder.ids.pop(name).__self__
    widget.parent.remove_widget(widget)


def kept_or_new(spare: list[W], make: Callable[[], W]) -> W:
    """A widget from ``spare`` (the ones an earlier show no longer needed), else a
    new one: what shows a table, a path or a chart again uses its widgets again.
    Kivy's widgets hold one another in reference cycles, so a dropped widget is
    freed only by a full pass of the cycle collector, which walks the whole heap:
    with the score tables, tiles and axis labels made anew on every show, 27
    passes of 163 ms a minute of sped-up play (about a second each on a Pi 4)."""
    return spare.pop() if spare else make()


class PathFlow(Layout):
    """The round's path: tiles of one size in fixed slots, in reading order.

    The slots are laid out for :data:`~companion.cards.LONGEST_PATH` cards, the
    most a round can turn, in as many columns of at least :data:`TILE_DP` as
    the width takes and rows as tall as :attr:`room` allows (at least
    :data:`TOUCH_DP`, a finger's): so every card of the round is in view at
    every moment, and card N is always in the same place. The widget is as
    tall as the rows in use (:attr:`minimum_height`), so what is said under
    the path stands close to it.
    """

    on_card = ObjectProperty(None, allownone=True)  # callback(pos)
    compact = BooleanProperty(False)  # every chip compact (PathChip.compact)
    slots = NumericProperty(LONGEST_PATH)
    room = NumericProperty(0)  # the most height the slots may take; 0: square tiles
    spacing = NumericProperty(dp(3))
    padding = NumericProperty(dp(3))  # room for the bust's red ring (2 px around a tile)
    minimum_height = NumericProperty(0)
    columns = NumericProperty(1)
    tile_size = ListProperty([dp(TOUCH_DP), dp(TOUCH_DP)])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._spare: list[PathChip] = []
        for name in ("children", "width", "pos", "spacing", "padding", "room", "slots"):
            self.fbind(name, self._trigger_layout)

    def show(self, views: Sequence[PathCardView]) -> None:
        chips = self.chips
        while len(chips) < len(views):
            chip = kept_or_new(self._spare, self._new_chip)
            self.add_widget(chip)
            chips.append(chip)
        while len(chips) > len(views):  # a new round: kept for the next
            chip = chips.pop()
            self.remove_widget(chip)
            self._spare.append(chip)
        for chip, view in zip(chips, views, strict=True):
            chip.show(view)
            chip.compact = self.compact

    def _new_chip(self) -> PathChip:
        chip = PathChip(size_hint=(None, None))
        chip.bind(on_release=self._tapped)
        return chip

    def on_compact(self, *args: Any) -> None:
        for chip in self.chips:
            chip.compact = self.compact

    def grid(self) -> tuple[int, float, float]:
        """Columns, tile width and tile height of the slots in this width and room:
        of the column counts whose tiles are at least TILE_DP wide and a finger
        high, the one with the largest tiles (at most square)."""
        pad, gap = float(self.padding), float(self.spacing)
        inner = max(0.0, float(self.width) - 2 * pad)
        most = max(1, int((inner + gap) // (dp(TILE_DP) + gap)))
        best: tuple[float, int, float, float] | None = None
        for cols in range(1, most + 1):
            wide = min(dp(TILE_MAX_DP), (inner - gap * (cols - 1)) / cols)
            rows = max(1, math.ceil(int(self.slots) / cols))
            high = wide
            if self.room > 0:
                high = min(wide, (float(self.room) - 2 * pad - gap * (rows - 1)) / rows)
            if high >= dp(TOUCH_DP) and (best is None or wide * high > best[0]):
                best = (wide * high, cols, wide, high)
        if best is None:  # too little room: a finger's height all the same
            wide = (inner - gap * (most - 1)) / most
            return most, min(dp(TILE_MAX_DP), wide), float(dp(TOUCH_DP))
        return best[1], best[2], best[3]

    def do_layout(self, *args: Any) -> None:
        cols, wide, high = self.grid()
        self.columns, self.tile_size = cols, [wide, high]
        pad, gap = float(self.padding), float(self.spacing)
        chips = self.chips
        rows = max(1, math.ceil(len(chips) / cols))
        self.minimum_height = 2 * pad + rows * high + (rows - 1) * gap
        top = self.top - pad
        for i, chip in enumerate(chips):
            row, col = divmod(i, cols)
            chip.size = (wide, high)
            chip.pos = (self.x + pad + col * (wide + gap), top - high - row * (high + gap))

    def _tapped(self, chip: PathChip) -> None:
        if self.on_card is not None:
            self.on_card(int(chip.index))

    @property
    def chips(self) -> list[PathChip]:
        return list(reversed(self.children))

    cards = chips


#: A seat icon's colour by its status (SeatIcon).
SEAT_ICON_COLOURS = {
    "in": (1.0, 0.62, 0.15, 1.0),  # a flame: in the temple
    "camp": (0.75, 0.85, 1.0, 1.0),  # a tent: in camp
    "busted": (1.0, 0.45, 0.4, 1.0),  # a cross
}


def _ellipse(cx: float, cy: float, rx: float, ry: float,
             segments: int) -> list[tuple[float, float]]:
    """Points, three a triangle, that fill an ellipse of ``segments`` slices
    (Kivy's ``Ellipse`` draws 180; a small one looks the same with fewer)."""
    turns = [2 * math.pi * i / segments for i in range(segments + 1)]
    rim = [(cx + rx * math.cos(t), cy + ry * math.sin(t)) for t in turns]
    return [p for a, b in itertools.pairwise(rim) for p in ((cx, cy), a, b)]


def _stroke(x0: float, y0: float, x1: float, y1: float, half: float) -> list[tuple[float, float]]:
    """Points, three a triangle, of a straight stroke ``2 * half`` thick with
    round ends, as Kivy's ``Line(width=half)`` draws one."""
    length = math.hypot(x1 - x0, y1 - y0)
    nx, ny = -(y1 - y0) / length * half, (x1 - x0) / length * half
    a, b, c, d = (x0 + nx, y0 + ny), (x0 - nx, y0 - ny), (x1 - nx, y1 - ny), (x1 + nx, y1 + ny)
    ends = [*_ellipse(x0, y0, half, half, 24), *_ellipse(x1, y1, half, half, 24)]
    return [a, b, c, a, c, d, *ends]


@lru_cache(maxsize=8)
def _seat_shape(status: str, unit: float) -> tuple[tuple[float, float], ...]:
    """A status's shape about the icon's centre, ``unit`` pixels a dp, made once
    (a table lays its icons out again now and then). The flame's round part has
    60 segments: at its 12 dp, the same pixels as Kivy's ``Ellipse`` draws with
    180 (every screenshot of the suite compared), in a third of the time."""
    if status == "in":
        return (*_ellipse(0, -3 * unit, 6 * unit, 7 * unit, 60),
                (-6 * unit, -3 * unit), (6 * unit, -3 * unit), (0, 11 * unit))
    if status == "camp":
        return ((-11 * unit, -8 * unit), (11 * unit, -8 * unit), (0, 10 * unit))
    if status == "busted":
        reach, half = 8 * unit, 2.2 * unit
        return (*_stroke(-reach, -reach, reach, reach, half),
                *_stroke(-reach, reach, reach, -reach, half))
    return ()


class SeatIcon(Widget):
    """The seat's place this round, drawn so it reads the same in every language:
    a flame (in the temple), a tent (in camp), a cross (busted), nothing else.

    One mesh of the status's shape, not a drawing of every shape with the
    others made transparent: each drawing instruction holds about 50 KB in a
    software renderer and is drawn every frame, and a table has eight of these
    (docs/performance.md, "What the software renderer holds").
    """

    status_key = StringProperty("in")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        with self.canvas:
            self._colour = Color(0, 0, 0, 0)
            self._mesh = Mesh(mode="triangles")
        for name in ("pos", "size", "status_key"):
            self.fbind(name, self._draw)
        self._draw()

    def _draw(self, *args: Any) -> None:
        # Not ``self.center``: Kivy caches it, and may not have refreshed it
        # yet when the size's observers are called.
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        shape = _seat_shape(self.status_key, dp(1))
        self._colour.rgba = SEAT_ICON_COLOURS.get(self.status_key, (0, 0, 0, 0))
        self._mesh.vertices = [v for x, y in shape for v in (cx + x, cy + y, 0.0, 0.0)]
        self._mesh.indices = list(range(len(shape)))


class ChoiceDot(Widget):
    """A seat's choice light: grey while its choice is awaited, green once made,
    and not drawn at all while no choice is due (a seat out of the temple, a
    card awaited), rather than drawn transparent."""

    rgba = ColorProperty((0, 0, 0, 0))

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Kivy's 180 slices cost the software renderer 108 KB a dot, 60 cost
        # 66, and at 18 dp draw the same pixels.
        self._dot = _Shown(lambda: Ellipse(segments=60))
        for name in ("pos", "size", "rgba"):
            self.fbind(name, self._draw)
        self._draw()

    def _draw(self, *args: Any) -> None:
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        self._dot.place(self.canvas, self.rgba if self.rgba[3] > 0 else None,
                        (cx - dp(9), cy - dp(9)), (dp(18), dp(18)), under=False)


class ArtifactsCell(Widget):
    """What a seat's artifacts add to its score, in the seat's row: a label only
    while there is a figure to show. Most seats carry none for most of a game,
    and an empty label draws its (empty) texture all the same."""

    text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.label = Label(bold=True, font_size=sp(20), color=(0.55, 0.8, 1, 1))
        for name in ("pos", "size", "text"):
            self.fbind(name, self._place)
        self._place()

    def _place(self, *args: Any) -> None:
        label = self.label
        label.text, label.pos, label.size = self.text, self.pos, self.size
        if self.text and label.parent is None:
            self.add_widget(label)
        elif not self.text and label.parent is self:
            self.remove_widget(label)


class SeatRow(BoxLayout):
    """One seat: name, status, gems in hand, tent total, artifacts, choice light."""

    name = StringProperty("")
    colour = ColorProperty((1, 1, 1, 1))
    status_key = StringProperty("in")
    hand = StringProperty("")
    banked = StringProperty("")
    artifacts = StringProperty("")  # what they add to the score: "15"
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
        self.artifacts = v.artifacts_worth
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
        self._spare: list[Label] = []
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
        lab = kept_or_new(
            self._spare, lambda: Label(font_size=sp(HEADER_SP), color=(0.85, 0.85, 0.85, 1)))
        lab.text = text
        lab.texture_update()
        w, h = lab.texture_size
        lab.size = (w, h)
        lab.pos = (x - w if anchor == "right" else x - w / 2, y - h / 2)
        self.add_widget(lab)
        self._texts.append(lab)

    def _draw(self, *args: Any) -> None:
        self.canvas.after.clear()
        for lab in self._texts:  # kept for the next drawing
            self.remove_widget(lab)
        self._spare += self._texts
        self._texts = []
        # Room for the axis numbers at HEADER_SP: three digits at the left, one
        # line below, half a line above the top one.
        left, bottom = self.x + dp(40), self.y + dp(28)
        w, h = self.width - dp(56), self.height - dp(42)
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
            spread = apart(self.series)
            for i, values in enumerate(self.series):
                colour = self.colours[i] if i < len(self.colours) else (1, 1, 1, 1)
                Color(*colour)
                points: list[float] = [*px(0, 0)]
                for r, v in enumerate(values, start=1):
                    x, y = px(r, v)
                    points += (x, y + dp(1.5) * spread[i][r - 1])
                Line(points=points, width=dp(1.6))
                for k in range(2, len(points), 2):
                    Rectangle(pos=(points[k] - dp(3), points[k + 1] - dp(3)), size=(dp(6), dp(6)))
        for k in range(6):
            self._label(str(top * k // 5), left - dp(4), bottom + h * k / 5, "right")
        # A narrow chart (beside the longest names) numbers every other round:
        # five numbers in 100 px ran together as "12345".
        step = 1 if w / rounds >= dp(24) else 2
        for r in range(1, rounds + 1, step):
            self._label(str(r), left + w * r / rounds, bottom - dp(14))


def apart(series: Sequence[Sequence[float]]) -> list[list[float]]:
    """Per seat and round, how many steps its point is drawn off its value: seats
    with the same score after a round are spread around it, one step apart, so
    equal lines stay apart; a score no other seat has is drawn where it is (a
    shift for every seat put the first of eight six pixels, half a gem, low).
    Equal scores of nothing are spread up from the axis: below it, seven
    seats still on nothing read as seats in debt."""
    offsets: list[list[float]] = []
    for i, values in enumerate(series):
        offsets.append([])
        for r, v in enumerate(values):
            same = [j for j, s in enumerate(series) if len(s) > r and s[r] == v]
            rank = same.index(i)
            offsets[-1].append(rank if v <= 0 else rank - (len(same) - 1) / 2)
    return offsets


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
