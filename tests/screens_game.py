"""One scripted game through the real app, for tests/test_screens.py: run as
a script (``python tests/screens_game.py pl 8 OUT_DIR``), in a process of its
own since Kivy allows one window per process. It plays every state of
:data:`STATES` (the table's own ``enter_card``/``press``/``tick``/``undo``, the
app's own menu, picker and set-up calls), checks each as tests/test_screens.py
says, and writes ``OUT_DIR/report.json``: for each state, what was checked and
every failure.

Kept apart from the tests so that each game's process loads no pytest (0.3 s
of CPU a game).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import Any

from helpers import japanese_phrases

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "out" / "screenshots" / "screens"
LANGUAGES = ("en", "pl", "es", "ja")
SEAT_COUNTS = (3, 4, 5, 8)
#: The games played: every language at 3 and 8 seats (the roomiest seat rows and
#: the tightest; the virtual table and cards entered by hand), 4 and 5 seats in
#: English and in Spanish, whose sentences run longest. A game costs 6-10 s of CPU:
#: all sixteen pairs were a third of the suite's time.
RUNS = (*((code, n) for code in LANGUAGES for n in (3, 8)), ("en", 4), ("es", 5))
#: The runs that keep screenshots (and draw their frames) when INCAN_SCREENSHOTS=1:
#: 8 seats in every language, 4 in English. The checks read the layout and the
#: labels' textures, not the drawn frame; drawing and saving were 45 % of those
#: games' CPU (a third of this file's), for pictures a person looks at.
SHOT_RUNS = ({(code, 8) for code in LANGUAGES} | {("en", 4)}
             if os.environ.get("INCAN_SCREENSHOTS") == "1" else set())
# The longest names allowed: ui.kivyfree.presenters.MAX_NAME_COLUMNS (12) columns each,
# a fullwidth or Japanese character counting two; wide letters, accents, kanji.
NAMES = (
    "Bartholomäus",
    "ＷＷＷＷＷＷ",  # noqa: RUF001 (fullwidth on purpose: two columns each)
    "Małgorzata-Ź",
    "さくらこさん",
    "Wawrzyniec-M",
    "Íñigo-Ålvarö",
    "渡辺みなみ子",
    "Zbigniew-Łoś",
)
READ_PX = 18.0  # text a player reads at a metre
HEADER_PX = 18.0  # a column header, a chart's axis number: read at a metre too
TOUCH_PX = 48.0  # a finger
#: A button's words against its flat colour (WCAG's ratio): the lit gold with
#: white words was 2.4:1, a seat's name in its colour on a blue button 1.6:1.
CONTRAST = 4.5
HEADER_CLASSES = frozenset({"HeaderLabel", "ColumnHeader"})
#: Every state the scripted game shows, in order, and the screen it is on.
STATES = (
    ("01-setup", "setup"),
    ("01b-setup-bots", "bots"),
    ("01c-setup-building-history", "setup"),
    ("02-setup-keyboard", "setup"),
    ("03-table-draw", "table"),
    ("04-choose-waiting", "table"),
    ("05-countdown", "table"),
    ("06-held-card", "table"),
    ("07-undo-warning", "table"),
    ("08-undone", "table"),
    ("09-artifact-worth", "table"),
    ("10-lone-leaver", "table"),
    ("11-long-path", "table"),
    ("11o-odds-long-path", "table"),
    ("11c-choice-odds", "choice_odds"),
    ("12-picker-entry", "picker"),
    ("13-picker-correction", "picker"),
    ("14-menu", "menu"),
    ("14s-confirm-switch-off", "confirm"),
    ("14t-switching-off", "confirm"),
    ("14p-phones", "phones"),
    ("14l-round-log", "round_log"),
    ("14m-round-log-first-page", "round_log"),
    ("15-confirm-new-game", "confirm"),
    ("16-setup-resume", "setup"),
    ("17-confirm-abandon", "confirm"),
    ("18-bust", "table"),
    ("19-round-end-bust", "round_end"),
    ("20-table-round-over", "table"),
    ("21-pooled-leftover", "table"),
    ("22-round-end-all-left", "round_end"),
    ("22b-round-end-card-left-lying", "round_end"),
    ("23-round-5-summary", "round_end"),
    ("24-game-over", "game_over"),
    ("24r-review", "review"),
    ("24s-review-swings", "review_swings"),
    ("24f-review-failed", "review"),
    ("25-table-game-over", "table"),
    ("26-setup-players", "setup"),
    ("27-players", "players"),
    ("28-rename-player", "rename_player"),
    ("29-history", "history"),
    ("29b-history-building", "history"),
    ("30-past-game", "past_game"),
    ("31-confirm-delete", "confirm"),
    ("32-stats", "stats"),
    ("33-stats-groups", "stats"),
    ("34-odds-longest-round", "table"),
    ("35-bust-longest-round", "table"),
)
#: The longest round: no artifact turned in rounds 1 to 4, so all five are in
#: round 5's deck with every treasure; one hazard of each kind, then the pair.
LONGEST_ROUND = ("T1", "T5A", "SNAKE1", "A1", "T9", "T3", "SPIDER1", "T17", "A2", "T2",
                 "MUMMY1", "T4", "T5B", "A3", "T7A", "FIRE1", "T7B", "T11A", "A4", "T11B",
                 "ROCKS1", "T13", "A5", "T14", "T15")  # fmt: skip
LONE_LEAVER_AT = 9  # seat 1 leaves alone after this many cards: leftovers and artifacts go
SCREENS = tuple(dict.fromkeys(screen for _state, screen in STATES))
CHECKS = ("text", "font", "touch", "lines", "contrast")
TIMEOUT_S = 150
SCREENS_ROLLOUTS = 20


def _frames(n: int = 3, *, draw: bool = False) -> None:
    """Run ``n`` frames of the app: its clock, input, layout and text, as the
    event loop does; drawn only on the last frame and when ``draw`` (a state
    looked at). Drawing a frame in Mesa's software renderer was over 40 % of
    a game's CPU time (pl, 8 seats: 4.9 s of CPU with every frame drawn, 2.9 s
    with only the looked-at states), and nothing between them is seen."""
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.lang import Builder

    for i in range(n):
        if draw and i == n - 1:
            EventLoop.idle()
            continue
        Clock.tick()
        EventLoop.dispatch_input()
        Builder.sync()
        Clock.tick_draw()
        Builder.sync()


Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in window coordinates


def _intersect(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _area(a: Box) -> float:
    return max(0.0, a[2] - a[0]) * max(0.0, a[3] - a[1])


def _inside(a: Box, b: Box, slack: float = 1.5) -> bool:
    return (a[0] >= b[0] - slack and a[1] >= b[1] - slack
            and a[2] <= b[2] + slack and a[3] <= b[3] + slack)


def _font(w: Any) -> dict[str, Any]:
    return {"font_size": w.font_size, "font_name": w.font_name, "bold": w.bold,
            "italic": w.italic}


def _cut(w: Any) -> tuple[str, Any, Any] | None:
    """Why a Label's text is not wholly shown by the label itself, or None.

    Measured with Kivy's public text API, in the label's own font: the full
    text on one line (``get_extents``) against the width the label has, and,
    for a label that wraps, the full text laid out with no height limit
    against the texture the label shows. So a "…" from ``shorten``, a line
    dropped by ``max_lines`` or by a fixed height, a Latin word broken in two
    and a wrapped text taller than its widget are all found.
    """
    from kivy.core.text import Label as CoreLabel

    w.texture_update()
    measure = CoreLabel(text=w.text, **_font(w))
    pad_left, _pad_top, pad_right, _pad_bottom = (float(p) for p in w.padding)
    if w.markup:  # a score table's column: each line laid out alone, its tags read
        from kivy.core.text.markup import MarkupLabel

        def width(line: str) -> float:
            alone = MarkupLabel(text=line, **_font(w))
            alone.refresh()
            return float(alone.size[0])

        one_line = max(width(line) for line in w.text.split("\n"))
    else:
        one_line = max(measure.get_extents(line)[0] for line in w.text.split("\n"))
    wrap_width = w.text_size[0]
    if getattr(w, "is_shortened", False):
        return "shortened with …", (one_line + pad_left + pad_right, w.texture_size[1]), w.size
    if not wrap_width:  # one line as wide as its text: it must fit the widget
        need = one_line + pad_left + pad_right
        if need > w.width + 2:
            return "wider than its widget", (need, w.texture_size[1]), w.size
        if w.texture_size[1] > w.height + 2:
            return "taller than its widget", w.texture_size, w.size
        return None
    room = wrap_width - pad_left - pad_right
    if w.shorten:  # one line: Kivy puts "…" in when it is wider than its room
        whole = measure.get_extents(" ".join(w.text.split("\n")))[0]
        if whole > int(room - 2):  # shorten's own 2 px margin
            return "shortened with …", (whole + pad_left + pad_right, w.texture_size[1]), w.size
        return None
    broken = next((word for word in w.text.split()
                   if all(ord(c) < 0x3000 for c in word)
                   and measure.get_extents(word)[0] > room), None)
    if broken is not None:
        return (f"the word {broken!r} is broken", (measure.get_extents(broken)[0],
                w.texture_size[1]), w.size)
    if one_line > room or "\n" in w.text.strip():
        # Laid out as the label lays it out (its own core label: Japanese by phrases).
        full = type(w._label)(text=w.text, text_size=(wrap_width, None),
                              padding=tuple(w.padding), halign=w.halign,
                              line_height=w.line_height, strip=w.strip, **_font(w))
        full.refresh()
        if full.size[1] > w.texture_size[1] + 1:  # max_lines or the height dropped lines
            return "lines cut off", full.size, w.texture_size
    if w.texture_size[1] > w.height + 4:
        return "taller than its widget", w.texture_size, w.size
    return None


def _japanese_breaks(w: Any) -> list[str]:
    """Where a label broke its Japanese against the rules: inside one of
    BudouX's phrases (not at a space) or a seat's name, or a line starting
    with a closing mark or a small kana, or ending with an opening bracket.

    Read from the lines Kivy laid out (the label's core label), against the
    text the label was given (a ``FlowLabel``'s ``whole``, which it breaks
    itself): each line is found in its paragraph in turn, and where a
    paragraph goes on on the next line, that is a break.
    """
    from ui.fonts import NO_LINE_END, NO_LINE_START, wide

    source = str(getattr(w, "whole", "") or w.text)
    if w.markup or not any(wide(c) for c in source):
        return []
    w.texture_update()
    shown = ["".join(word.text for word in line.words).strip(" ")
             for line in w._label._cached_lines]
    parser = japanese_phrases()
    paragraphs = source.split("\n")
    wrong: list[str] = []
    p, pos = 0, 0
    for text in shown:
        if not text:
            continue
        while p < len(paragraphs) and not paragraphs[p][pos:].strip(" "):
            p, pos = p + 1, 0  # that paragraph is done: this line starts the next
        if p == len(paragraphs):
            return [f"its lines are not its text: {shown!r}"]
        para = paragraphs[p]
        while para[pos] == " ":
            pos += 1
        if not para.startswith(text, pos):
            return [f"its lines are not its text: {shown!r}"]
        if pos > 0:  # the paragraph goes on: a break Kivy (or the label) made
            phrases = parser.parse(para)
            ends = {sum(len(ph) for ph in phrases[: i + 1]) for i in range(len(phrases))}
            if para[pos] in NO_LINE_START:
                wrong.append(f"a line starts with {para[pos]!r}: {text!r}")
            elif para[pos - 1] in NO_LINE_END:
                wrong.append(f"a line ends with {para[pos - 1]!r} before {text!r}")
            elif any(0 < pos - para.find(n) < len(n) for n in NAMES if n in para):
                wrong.append(f"a name broken: {para[:pos]!r} / {para[pos:]!r}")
            elif pos not in ends and para[pos - 1] != " ":
                wrong.append(f"broken inside a phrase: {para[:pos]!r} / {para[pos:]!r} "
                             f"(phrases: {' / '.join(phrases)})")
        pos += len(text)
    return wrong


def _ink(w: Any, box: Box) -> Box:
    """Where a Label's text is drawn, in window coordinates: Kivy draws the
    texture centred on the widget; inside it, the lines sit by halign/valign."""
    from kivy.core.text import Label as CoreLabel

    tw, th = (float(v) for v in w.texture_size)
    tx = float(int((box[0] + box[2]) / 2 - tw / 2))
    ty = float(int((box[1] + box[3]) / 2 - th / 2))
    pad_left, pad_top, pad_right, pad_bottom = (float(p) for p in w.padding)
    wrap_w, wrap_h = w.text_size
    if not wrap_w:
        x0, x1 = tx + pad_left, tx + tw - pad_right
    else:
        room = float(wrap_w) - pad_left - pad_right
        measure = CoreLabel(text=w.text, **_font(w))
        widest = max(measure.get_extents(line)[0] for line in w.text.split("\n"))
        line_w = min(room, float(widest))
        if w.halign in ("right",):
            x0 = tx + tw - pad_right - line_w
        elif w.halign in ("center",):
            x0 = tx + pad_left + (room - line_w) / 2
        else:
            x0 = tx + pad_left
        x1 = x0 + line_w
    if not wrap_h:
        y0, y1 = ty + pad_bottom, ty + th - pad_top
    else:
        full = type(w._label)(text=w.text, text_size=(wrap_w or None, None),
                              padding=tuple(w.padding), halign=w.halign,
                              line_height=w.line_height, strip=w.strip, **_font(w))
        full.refresh()
        room_h = th - pad_top - pad_bottom
        content = min(room_h, float(full.content_height))
        if w.valign == "top":
            y1 = ty + th - pad_top
            y0 = y1 - content
        elif w.valign == "bottom":
            y0 = ty + pad_bottom
            y1 = y0 + content
        else:
            y0 = ty + pad_bottom + (room_h - content) / 2
            y1 = y0 + content
    return (x0, y0, x1, y1)


def _name(w: Any) -> str:
    path = []
    node = w
    while node is not None and len(path) < 3:
        ident = next((k for k, v in getattr(node.parent, "ids", {}).items()
                      if getattr(v, "__self__", v) is node), "")
        path.append(type(node).__name__ + (f"#{ident}" if ident else ""))
        node = node.parent if node.parent is not node else None
    return " < ".join(path)


def _overflow(screen_name: str, root: Any) -> list[dict[str, Any]]:
    """Labels on show under ``root`` whose text the label itself cuts (see :func:`_cut`).

    Kept for other render tests (tests/test_end_screens.py) that measure
    their own screens the same way.
    """
    from kivy.uix.label import Label

    found = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or not w.text.strip() or w.width < 2 or w.height < 2:
            continue
        node, hidden = w, False
        while node is not None and not hidden:
            hidden = getattr(node, "opacity", 1) == 0
            node = node.parent if node.parent is not node else None
        if hidden:
            continue
        cut = _cut(w)
        if cut is not None:
            why, need, have = cut
            found.append({"screen": screen_name, "widget": _name(w), "text": w.text, "why": why,
                          "need": [round(float(x)) for x in need],
                          "have": [round(float(x)) for x in have]})
    return found


def inspect(root: Any, *, covers: tuple[Box, ...] = (),
            keyboard: Any = None) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Every widget on show under ``root``: what fails (check, widget, text, why)
    and the state's figures (labels, targets, the smallest font and target)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.stencilview import StencilView
    from kivy.uix.textinput import TextInput

    from ui.kivyfree.i18n import language

    japanese = language() == "ja"
    window: Box = (0.0, 0.0, float(Window.width), float(Window.height))
    shown: list[tuple[Any, Box, Box]] = []  # widget, its box, what it is clipped to
    # A label squeezed to no width still draws its text, centred on that no
    # room: a button hidden by its width alone shows a piece of its word.
    squeezed: list[Any] = []
    def visit(w: Any, clip: Box) -> None:
        if w.opacity <= 0:
            return
        if (w.width <= 0 or w.height <= 0) and isinstance(w, Label) and w.text.strip():
            squeezed.append(w)
        if w.width <= 0 or (w.height <= 0 and not w.children):
            return
        x, y = w.to_window(w.x, w.y)
        box = (float(x), float(y), float(x) + w.width, float(y) + w.height)
        shown.append((w, box, clip))
        inner = _intersect(clip, box) if isinstance(w, StencilView) else clip
        for child in w.children:
            visit(child, inner)

    visit(root, window)
    failures: list[dict[str, Any]] = []
    figures: dict[str, Any] = {"labels": 0, "targets": 0}

    def words(w: Any) -> str:
        """What a widget says: a label's text, a path card's or a picker face's title."""
        return str(getattr(w, "text", "") or getattr(w, "title", ""))

    def fail(check: str, w: Any, why: str, text: str | None = None) -> None:
        failures.append({"check": check, "widget": _name(w),
                         "text": words(w) if text is None else text, "why": why})

    def least(key: str, px: float, w: Any, text: str | None = None) -> None:
        now = figures.get(key)
        if now is None or px < now["px"]:
            figures[key] = {"px": round(float(px), 1), "widget": _name(w),
                            "text": words(w) if text is None else text}

    def in_keyboard(w: Any) -> bool:
        node = w
        while node is not None:
            if node is keyboard:
                return True
            node = node.parent if node.parent is not node else None
        return False

    def covered(w: Any, box: Box) -> str:
        """"all", "part" or "" of ``box`` under the keyboard (or another cover)."""
        if in_keyboard(w):
            return ""
        for c in covers:
            over = _area(_intersect(box, c))
            if over >= _area(box) - 1:
                return "all"
            if over > 1:
                return "part"
        return ""

    texts: list[tuple[Any, Box]] = []
    for w in squeezed:
        fail("text", w, "its text is drawn on no room (width or height 0)")
    for w, box, clip in shown:
        seen = _intersect(box, clip)
        if _area(seen) <= 0:
            continue  # scrolled away or outside the window: not on show
        under = covered(w, box)
        if under == "all":
            continue
        target = isinstance(w, ButtonBehavior | TextInput)
        if target:
            figures["targets"] += 1
            wide, high = seen[2] - seen[0], seen[3] - seen[1]
            least("target", min(wide, high), w)
            if min(wide, high) < TOUCH_PX - 0.01:
                part = "" if (wide, high) == (w.width, w.height) else " where it shows"
                fail("touch", w, f"{wide:.0f} x {high:.0f} px{part}, less than {TOUCH_PX:.0f}")
            if under:
                fail("touch", w, "partly behind the keyboard")
        if isinstance(w, TextInput):
            figures["labels"] += 1
            least("font", w.font_size, w)
            if w.font_size < READ_PX - 0.01:
                fail("font", w, f"{w.font_size:.1f} px, less than {READ_PX:.0f}")
            pad_left, pad_top, pad_right, pad_bottom = (float(p) for p in w.padding)
            need = CoreLabel(text=w.text, font_size=w.font_size,
                             font_name=w.font_name).get_extents(w.text or "Ag")
            if need[0] > w.width - pad_left - pad_right + 1:
                fail("text", w, f"needs {need[0]:.0f} px, has "
                                f"{w.width - pad_left - pad_right:.0f}")
            if w.line_height > w.height - pad_top - pad_bottom + 1:
                fail("text", w, f"a line needs {w.line_height:.0f} px high, has "
                                f"{w.height - pad_top - pad_bottom:.0f}")
        if not isinstance(w, Label) or not w.text.strip():
            continue
        figures["labels"] += 1
        header = bool(HEADER_CLASSES & {c.__name__ for c in type(w).__mro__}) or (
            type(w.parent).__name__ == "Chart")
        floor = HEADER_PX if header else READ_PX
        least("header" if header else "font", w.font_size, w)
        faint = _faint(w)
        if faint is not None:
            fail("contrast", w, f"{faint:.1f}:1 against its colour, less than {CONTRAST:g}:1")
        if w.font_size < floor - 0.01:
            kind = "a header" if header else "text"
            fail("font", w, f"{kind} at {w.font_size:.1f} px, less than {floor:.0f}")
        if japanese:
            for why in _japanese_breaks(w):
                fail("lines", w, why)
        cut = _cut(w)
        if cut is not None:
            why, need, have = cut
            fail("text", w, f"{why} (needs {round(float(need[0]))} x {round(float(need[1]))}, "
                            f"has {round(float(have[0]))} x {round(float(have[1]))})")
            continue
        ink = _ink(w, box)
        if under:
            fail("text", w, "partly behind the keyboard")
        elif not _inside(ink, clip):
            edge = "the window" if clip == window else "its scroll view"
            fail("text", w, f"cut by {edge}: text at {_fmt(ink)}, shown {_fmt(clip)}")
        elif w.parent is not None and w.parent is not w and not isinstance(
            w.parent, StencilView
        ):
            px, py = w.parent.to_window(w.parent.x, w.parent.y)
            parent = (float(px), float(py), px + w.parent.width, py + w.parent.height)
            if not _inside(ink, parent, 2.0):
                fail("text", w, f"spills out of its {type(w.parent).__name__}: text at "
                                f"{_fmt(ink)}, parent at {_fmt(parent)}")
        texts.append((w, _intersect(ink, clip)))
    for i, (a, abox) in enumerate(texts):
        for b, bbox in texts[i + 1:]:
            if _related(a, b):
                continue
            over = _intersect(abox, bbox)
            if over[2] - over[0] > 1.5 and over[3] - over[1] > 1.5:
                fail("text", a, f"over the text {b.text!r} ({_name(b)})")
    if keyboard is not None and keyboard.parent is not None:
        for key, _pos, (kw, kh) in keyboard.keys():  # noqa: SIM118 (its keys, not a dict's)
            figures["targets"] += 1
            least("target", min(kw, kh), keyboard, f"key {key.label}")
            if min(kw, kh) < TOUCH_PX - 0.01:
                fail("touch", keyboard, f"{kw:.0f} x {kh:.0f} px, less than {TOUCH_PX:.0f}",
                     f"key {key.label}")
    return failures, figures


def _luminance(rgba: Any) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(float(c)) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _faint(w: Any) -> float | None:
    """A button's contrast ratio, when below CONTRAST: its words' colour against
    its flat colour (no image: ``background_color`` is what is drawn). A
    disabled button is dimmed on purpose."""
    from kivy.uix.button import Button

    if not isinstance(w, Button) or w.disabled:
        return None
    image = w.background_down if w.state == "down" else w.background_normal
    if image:
        return None
    text, back = _luminance(w.color), _luminance(w.background_color)
    ratio = (max(text, back) + 0.05) / (min(text, back) + 0.05)
    return ratio if ratio < CONTRAST else None


def _fmt(b: Box) -> str:
    return f"({b[0]:.0f}, {b[1]:.0f})-({b[2]:.0f}, {b[3]:.0f})"


def _related(a: Any, b: Any) -> bool:
    """Whether one is the other's ancestor."""
    for x, y in ((a, b), (b, a)):
        node = x.parent
        while node is not None:
            if node is y:
                return True
            node = node.parent if node.parent is not node else None
    return False


def _catalogues(work: Path) -> None:
    """Read the translations from the .po files as they are now (compiled into
    ``work``), not from .mo files that may be older."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    from ui.kivyfree import i18n

    for code in i18n.LANGUAGES:
        po = Path(i18n.LOCALE_DIR) / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
        if not po.is_file():
            continue
        mo = work / "locale" / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as fp:
            catalogue = read_po(fp, locale=code)
        with mo.open("wb") as fp:
            write_mo(fp, catalogue)
    compiled = i18n.translations
    i18n.translations = lambda code, locale_dir=work / "locale": compiled(code, locale_dir)


def render(code: str, seats: int, work: Path) -> dict[str, Any]:
    import companion.review as reviewing

    # The review's rollouts were a fifth of each game's CPU here; these checks
    # read the review's layout, which is the same for fewer rollouts, not its
    # figures (tests/test_review.py has those). Set before its presenter imports it.
    full_review = reviewing.review

    def quick_review(*args: Any, **kw: Any) -> Any:
        return full_review(*args, **{"rollouts": SCREENS_ROLLOUTS, **kw})

    reviewing.review = quick_review  # type: ignore[assignment]
    from ui.kivy_setup import configure

    configure(quiet=True, fast=True)
    from ui.kivyfree import i18n

    _catalogues(work)
    i18n.set_language(code)
    from ui.fonts import register_fonts

    font = register_fonts()

    # Kivy's theme images: none may load (ui.widgets.NameInput says why).
    import kivy.atlas

    theme_images: list[str] = []
    atlas_init = kivy.atlas.Atlas.__init__

    def atlas_loaded(atlas: Any, filename: str) -> None:
        theme_images.append(Path(filename).name)
        atlas_init(atlas, filename)

    kivy.atlas.Atlas.__init__ = atlas_loaded  # type: ignore[method-assign]

    from kivy.core.window import Window

    from companion.choices import Choice
    from companion.engine import Phase
    from companion.games import Games
    from companion.memory import MemoryStore
    from companion.notices import FromEndedRound
    from companion.simulate import VirtualClock
    from ui.app import CompanionApp
    from ui.kivyfree.controls import Controls
    from ui.kivyfree.notice_words import notice_text

    names = NAMES[:seats]
    countdown = 3.0
    clock = VirtualClock(0.0)
    games = Games(MemoryStore(), countdown=countdown, clock=clock)
    from companion.inbox import Inbox
    from companion.ports import direct
    from ui.kivyfree.i18n import language
    from web.phones import Phones

    # The phones' pages on loopback, for the Phones window's state.
    phones = Phones(Inbox(games, direct), direct, addresses=("127.0.0.1",), port=0,
                    language=language)
    # Three and five seats play at a virtual table: its Turn a card button
    # beside the status, which must keep its room (four and eight: by hand).
    virtual = seats % 2 == 1
    # The kiosk's switch (hardware.power): the menu offers it, and asks first.
    switched: list[bool] = []
    app = CompanionApp(games, Controls(phones=phones, close=phones.close,
                                       turn_card=(lambda: None) if virtual else None,
                                       switch_off=lambda: switched.append(True)))
    app._run_prepare()
    _frames()
    shots = (code, seats) in SHOT_RUNS
    states: list[dict[str, Any]] = []
    failures: list[dict[str, Any]] = []
    layout: list[dict[str, Any]] = []  # per table state: where the status and seats are
    colours: dict[str, dict[str, list[float]]] = {}  # screen: each player's colour there
    tiles: dict[int, list[float]] = {}  # path position: its box, where it first lay
    path: dict[str, Any] = {"lengths": [], "looks": 0, "sizes": [], "failures": []}

    def boxed(w: Any) -> list[float]:
        x, y = w.to_window(w.x, w.y)
        return [round(float(v), 1) for v in (x, y, w.width, w.height)]

    def wears(where: str, pairs: Any) -> None:
        colours[where] = {str(n): [round(float(c), 3) for c in rgba] for n, rgba in pairs}

    def named(row: Any) -> str:
        return next(p.text for cell in row.cells for p in cell if p.text in names)

    def path_check(label: str) -> None:
        """Every card of the path wholly in view, a finger's size, where it first lay."""
        screen = app.table_screen
        flow = screen.ids.path
        left = boxed(flow.parent)
        event = boxed(screen.ids.event)
        path["looks"] += 1
        for chip in flow.chips:
            x, y, w, h = box = boxed(chip)
            where = f"{label}: card {int(chip.index) + 1} ({chip.card}) at {box}"
            if not (left[0] - 0.5 <= x and x + w <= left[0] + left[2] + 0.5
                    and left[1] - 0.5 <= y and y + h <= left[1] + left[3] + 0.5):
                path["failures"].append(f"{where}: out of the path's room {left}")
            if y < event[1] + event[3] - 0.5 and screen.ids.event.text:
                path["failures"].append(f"{where}: under the event {event}")
            if min(w, h) < TOUCH_PX - 0.01:
                path["failures"].append(f"{where}: smaller than a finger")
            first = tiles.setdefault(int(chip.index), box)
            if box != first:
                path["failures"].append(f"{where}: moved or resized from {first}")
            if [w, h] not in path["sizes"]:
                path["sizes"].append([w, h])
    screen_of = {"CardPicker": "picker", "GameMenu": "menu", "Confirm": "confirm",
                 "RoundLog": "round_log", "BotSeats": "bots", "ReviewPanel": "review",
                 "SwingsPanel": "review_swings", "ChoiceOddsWindow": "choice_odds",
                 "PlayersWindow": "players", "RenamePlayer": "rename_player",
                 "PhonesWindow": "phones"}

    def look(state: str) -> None:
        # Drawn only where a screenshot is kept: the checks read the layout and
        # the labels' textures, which need no frame drawn by the renderer.
        _frames(4, draw=shots)
        assert app.sm is not None
        popups = [c for c in Window.children if c is not app.sm]
        covers: tuple[Box, ...] = ()
        keyboard = None
        if popups:
            root = popups[0]  # the top one: what is under it is dimmed and not touched
            screen = screen_of.get(type(root).__name__, type(root).__name__)
        else:
            root = app.sm.current_screen
            screen = app.sm.current
            if screen == "setup" and app.setup_screen.keyboard_shown:
                keyboard = app.setup_screen.keyboard
                x, y = keyboard.to_window(0, 0)
                covers = ((float(x), float(y), x + keyboard.width, y + keyboard.height),)
        found, figures = inspect(root, covers=covers, keyboard=keyboard)
        for f in found:
            failures.append({"state": state, "screen": screen, **f})
        states.append({"state": state, "screen": screen, "failures": len(found),
                       **{k: v for k, v in figures.items() if k in ("labels", "targets")},
                       **{f"least_{k}": figures.get(k) for k in ("font", "header", "target")}})
        if screen == "table":
            table_screen = app.table_screen
            bar = table_screen.ids.status.parent
            layout.append({
                "state": state, "status_bar": boxed(bar),
                "seats": [boxed(r) for r in table_screen.ids.seats.children],
                "buttons": [boxed(b) for b in bar.children if b.width > 0],
            })
        if shots:
            app.save_screenshot(SHOTS / f"{code}-{seats}-{state}.png")

    def reveal(camp: tuple[int, ...] = ()) -> None:
        table = app.table
        assert table is not None
        for seat in sorted(table.collector.due):
            if seat not in table.collector.chosen:
                assert table.press(seat, Choice.CAMP if seat in camp else Choice.TORCH)
        clock.advance(countdown)
        assert table.tick()
        _frames(2)

    def enter(card: str) -> None:
        table = app.table
        assert table is not None
        assert table.enter_card(card), (card, table.notice)
        _frames(2)

    # --- set-up: every seat named, a problem, then the keyboard on the last name
    setup = app.setup_screen
    setup.seat_count = seats
    _frames()
    boxes = setup.name_inputs
    for box, name in zip(boxes, names, strict=False):
        box.text = name
        assert box.text == name, (name, box.text)  # 12 columns fit the field's limit
    boxes[seats - 1].text = names[0]  # the last seat named like the first
    setup.start()
    assert setup.problem, "two seats of one name must be refused"
    look("01-setup")
    setup.open_bots()  # every seat's kind on show: a person and each strategy
    bots_popup = setup.bots_popup
    for seat in range(seats):
        for _turn in range(seat % 4):
            bots_popup.cycle(seat)
    look("01b-setup-bots")
    bots_popup.dismiss(animation=False)  # not done: the seats stay people
    assert not setup.bots()
    # The first start after a migration: the summaries are made off the UI thread.
    from ui import history_building

    history_building.progress(app, 1250, 5000)
    assert setup.ids.resume.text == setup.history_note != "" and not setup.resume_text
    look("01c-setup-building-history")
    history_building.done(app)
    assert setup.history_note == "" and games.building is None
    boxes[seats - 1].focus = True
    _frames()
    assert setup.keyboard_shown
    look("02-setup-keyboard")
    setup.hide_keyboard()
    boxes[seats - 1].text = names[seats - 1]
    setup.start()
    assert app.sm is not None and app.sm.current == "table", setup.problem
    table = app.table
    assert table is not None and app.table_screen.virtual == virtual
    look("03-table-draw")
    wears("table", [(r.name, r.colour) for r in app.table_screen.ids.seats.children])

    # --- round 1: choices, a held card, undo, an artifact, a long path, a bust
    enter("T1")
    table.press(seats - 1, Choice.TORCH)  # one has chosen, the others are waited for
    look("04-choose-waiting")
    for seat in range(seats - 1):
        table.press(seat, Choice.TORCH)
    assert table.collector.countdown_left is not None
    look("05-countdown")
    enter("T5A")  # turned before the reveal: held until it
    assert table.held == "T5A"
    look("06-held-card")
    clock.advance(countdown)
    assert table.tick()
    assert table.state.path[-1].card == "T5A"
    for seat in range(seats):
        table.press(seat, Choice.TORCH)
    assert not table.undo()  # every seat has chosen: tap Undo again; the reveal waits
    assert table.asking and table.collector.countdown_left is None
    look("07-undo-warning")
    assert table.undo()
    look("08-undone")
    enter("T5A")
    reveal()
    enter("A1")
    assert table.state.artifact_worth()
    look("09-artifact-worth")
    reveal((0,))  # one seat leaves alone and takes the artifact
    assert table.state.seats[0].artifacts
    look("10-lone-leaver")
    long_path = ["SNAKE1", "T2", "SPIDER1", "T3", "T4", "MUMMY1", "T7A", "T9", "FIRE1",
                 "T11A", "T13", "ROCKS1", "T14", "T15", "T17"]  # fmt: skip
    for i, card in enumerate(long_path):
        enter(card)
        if i < len(long_path) - 1:
            reveal()
    table.press(1, Choice.TORCH)
    assert len(table.state.path) >= 15
    look("11-long-path")
    shown_before = app.table_screen.extra
    app.menus.set_odds(True)  # the odds panel, with every hazard kind on the path
    assert app.table_screen.extra.startswith(shown_before) and "/" in app.table_screen.extra
    look("11o-odds-long-path")
    more = app.table_screen.ids.more_odds
    assert more.width >= TOUCH_PX and more.opacity == 1 and not more.disabled
    more.dispatch("on_release")  # the odds' More: the choice window
    app.menus.finish_fitting()
    _frames(2)
    window = app.menus.choice
    assert window is not None and len(window.ids.lines.children) == 3
    # The players' stored games read: the model is named, no longer "while … read".
    from ui.kivyfree.i18n import _ as words

    assert window.model and window.model != words(
        "Model of the other seats: the default, while these players' games are read"
    )
    look("11c-choice-odds")
    window.dismiss(animation=False)
    app.open_entry_picker()
    look("12-picker-entry")
    app.picker.dismiss(animation=False)
    app.cards.tap_path_card(len(table.state.path) - 1)
    look("13-picker-correction")
    app.picker.dismiss(animation=False)
    app.open_menu()
    look("14-menu")
    app.menus.switch_off()
    look("14s-confirm-switch-off")
    assert not switched
    Window.children[0].confirm()
    _frames()
    assert switched == [True] and app.menu is None
    look("14t-switching-off")
    Window.children[0].dismiss(animation=False)
    app.open_menu()
    app.menus.open_phones()  # from the menu: every seat's code, the watchers' one
    assert app.phones_window is not None and app.menu is None
    app.phones_window.switch()
    assert phones.on, phones.error
    app.phones_window.pick(seats - 1)  # the last seat's code, its longest name on show
    look("14p-phones")
    app.phones_window.switch()
    app.phones_window.dismiss(animation=False)
    assert not phones.on
    app.menus.open_round_log()  # from the menu: the game card by card
    assert app.round_log_view is not None and app.menu is None
    look("14l-round-log")
    assert app.round_log_view.can_go_earlier  # a long round: the newest page first
    app.round_log_view.show_page(0)
    look("14m-round-log-first-page")
    app.round_log_view.dismiss(animation=False)
    app.open_menu()
    app.menus.new_game()
    look("15-confirm-new-game")
    Window.children[0].confirm()  # yes: the game is kept, the set-up offers it
    _frames()
    assert app.sm.current == "setup" and setup.resume_text
    look("16-setup-resume")
    app.setup.resume_game()
    _frames()
    table = app.table
    assert table is not None and app.sm.current == "table"
    app.open_menu()
    app.menus.abandon()
    look("17-confirm-abandon")
    Window.children[0].dismiss(animation=False)  # no: the game goes on
    app.menu.dismiss(animation=False)
    _frames()
    reveal()
    enter("SNAKE2")  # the second snakes: the round ends, and the table holds
    assert app.table_screen.holding and app.sm.current == "table"
    assert table.enter_card("T1") and table.held == "T1"  # turned early: waits for the summary
    look("18-bust")
    app.play.end_bust_hold()
    assert app.sm.current == "round_end" and app.round_end_screen.notice
    look("19-round-end-bust")
    wears("round_end", [(named(r), r.colour) for r in app.round_end_screen.ids.table.rows])
    assert table.undo() and table.held is None  # the waiting card goes back
    app.play.close_round_end("table")
    look("20-table-round-over")

    # --- round 2: two leave together, the leftover stays on the path; all leave
    enter("T1")  # 1 gem for every seat to split: 0 each, 1 left
    reveal((0, 1))  # two share 1: 0 each, 1 stays on the path
    assert table.state.pooled
    enter("T3")
    assert table.state.phase is Phase.CHOOSE
    look("21-pooled-leftover")
    enter("T4")  # turned before the reveal: held for it
    assert table.held == "T4"
    reveal(tuple(table.state.due))  # everyone leaves: the held card goes back to the deck
    assert app.sm.current == "round_end" and app.round_end_screen.notice
    look("22-round-end-all-left")
    assert not table.scan("T3")  # round 2's last card, uncovered on the spot: doubted
    assert isinstance(table.notice.reason, FromEndedRound), table.notice
    _frames()
    assert app.round_end_screen.notice == notice_text(table.notice.reason)
    look("22b-round-end-card-left-lying")

    # --- rounds 3 to 5: one card, everyone leaves
    for card in ("T7A", "T9", "T11A"):
        app.play.close_round_end("table")
        enter(card)
        reveal(tuple(table.state.due))
    assert table.state.phase is Phase.GAME_OVER and app.sm.current == "round_end"
    look("23-round-5-summary")
    app.play.close_round_end("game_over")
    look("24-game-over")
    final = app.game_over_screen.ids
    wears("final", [(named(r), r.colour) for r in final.scores.rows])
    wears("final_chart", zip(final.chart.labels, final.chart.colours, strict=True))
    app.menus.open_review()
    assert app.review_view is not None
    app.review_view.finish()
    look("24r-review")
    review_panel = app.review_view
    review_panel.open_swings()
    swings = review_panel.swings
    assert swings is not None and swings.seats == seats
    # The lone leaver of round 1: the seat with the most decisions behind it.
    swings.show_seat(1)
    look("24s-review-swings")
    assert len(swings.ids.swings.children) == 3
    swings.dismiss(animation=False)
    app.review_view.dismiss(animation=False)
    # A review that cannot be worked out (the data file unreadable) says so.
    from ui.kivyfree import presenters

    def unreadable(*_a: Any, **_k: Any) -> Any:
        raise sqlite3.OperationalError("disk I/O error")

    worked_out = presenters.review_view
    presenters.review_view = unreadable  # type: ignore[assignment]
    try:
        app.menus.open_review()
        assert app.review_view is not None
        app.review_view.finish()
    finally:
        presenters.review_view = worked_out  # type: ignore[assignment]
    assert app.review_view.failed
    look("24f-review-failed")
    app.review_view.dismiss(animation=False)
    app.show_screen("table")
    look("25-table-game-over")

    # --- the remembered players, the history and the statistics
    app.setup.show()  # the game-over screen's New game
    _frames()
    assert [c.name for c in app.setup_screen.ids.players.chips] == list(reversed(names))
    app.players.toggle(names[0])  # the names typed are still there: a tap gives the seat back
    assert names[0] not in setup.names()
    app.players.toggle(names[0])  # and takes it again: its button lit
    assert setup.names() == list(names)
    look("26-setup-players")
    wears("chips", [(c.name, c.colour) for c in app.setup_screen.ids.players.chips
                    if c.name in names])
    app.players.open()
    look("27-players")
    window = app.players_window
    window.set_mode("rename")
    window.tap(window.chips[0])
    look("28-rename-player")
    Window.children[0].dismiss(animation=False)
    window.dismiss(animation=False)
    app.history.show()
    assert app.sm.current == "history" and app.history_screen.ids.row0.game == table.game
    look("29-history")
    history_building.progress(app, 4999, 5000)
    look("29b-history-building")
    history_building.done(app)
    assert app.sm.current == "history" and app.history_screen.history_note == ""
    app.history.open_past_game(table.game)
    assert app.sm.current == "past_game"
    look("30-past-game")
    app.history.open_round_log()  # a past game's log goes back to its page, not the table
    assert app.round_log_view is not None
    from ui.kivyfree.i18n import _ as said

    back = [w for w in app.round_log_view.walk()
            if hasattr(w, "trigger_action") and getattr(w, "text", None) == said("Back")]
    assert len(back) == 1, "no Back on a past game's round log"
    back[0].trigger_action(0)
    _frames()
    assert app.round_log_view is None and app.sm.current == "past_game"
    app.history.delete()
    look("31-confirm-delete")
    Window.children[0].dismiss(animation=False)  # no: the game stays
    app.stats.show()
    assert app.sm.current == "stats" and app.stats_screen.ids.row0.player
    look("32-stats")
    stats = app.stats_screen.ids
    wears("stats", [(r.player, r.colour) for r in (stats[k] for k in stats if k[:3] == "row")
                    if r.player])
    wears("stats_chart", zip(stats.chart.labels, stats.chart.colours, strict=True))
    app.stats.show("groups")  # one game: no group has two yet, and it says so
    assert app.stats_screen.empty
    look("33-stats-groups")

    # --- the longest round: a game of the same table whose rounds 1 to 4 turn
    # one treasure each, so round 5 holds every treasure and all five artifacts
    app.setup.show()
    _frames()
    setup.start()
    table = app.table
    assert table is not None and app.sm.current == "table" and table.state.round == 1
    tiles.clear()
    for _round in range(4):
        app.play.close_round_end("table")  # the summary seen: a card may come
        enter("T1")
        reveal(tuple(table.state.due))
    app.play.close_round_end("table")  # the summary seen: a card may come
    assert table.state.round == 4 and app.show_odds  # over: its first card opens round 5
    for i, card in enumerate(LONGEST_ROUND):
        enter(card)
        for _turn in range(2):  # every length with the odds as they are, then turned
            if _turn:
                app.menus.set_odds(not app.show_odds)
                _frames(2)
            path_check(f"{len(table.state.path)} cards, odds {'on' if app.show_odds else 'off'}")
        path["lengths"].append(len(table.state.path))
        if i < len(LONGEST_ROUND) - 1:
            reveal((1,) if i + 1 == LONE_LEAVER_AT else ())
    assert table.state.round == 5 and len(table.state.path) == len(LONGEST_ROUND)
    assert table.state.seats[1].artifacts
    app.menus.set_odds(True)
    table.press(0, Choice.TORCH)
    _frames(2)
    look("34-odds-longest-round")
    reveal()
    enter("SNAKE2")  # the pair: the round ends on the 26th card
    assert app.table_screen.holding and len(table.state.path) == len(LONGEST_ROUND) + 1
    for odds_on in (False, True):
        app.menus.set_odds(odds_on)
        _frames(2)
        path_check(f"{len(table.state.path)} cards (the bust), odds {'on' if odds_on else 'off'}")
    path["lengths"].append(len(table.state.path))
    look("35-bust-longest-round")
    app.stop()
    return {"font": font.name if font else "", "language": i18n.language(),
            "states": states, "failures": failures, "layout": layout, "colours": colours,
            "path": path, "theme_images": theme_images}


if __name__ == "__main__":
    language, seat_count, out = sys.argv[1], int(sys.argv[2]), Path(sys.argv[3])
    result = render(language, seat_count, out)
    (out / "report.json").write_text(json.dumps(result, ensure_ascii=False, indent=1),
                                     encoding="utf-8")
