"""The on-screen keyboard for typing players' names on the touchscreen.

The device has no physical keyboard, and Kivy's own virtual keyboard is off
(``keyboard_mode`` "system"; it would float over the whole window and speak
only the bundled US layouts). :class:`NameKeyboard` is Kivy's
:class:`~kivy.uix.vkeyboard.VKeyboard` with our layouts (``ui/keyboards/*.json``,
Kivy's layout format) and our own drawing: the set-up screen docks it at its
bottom while a name field has focus and it types into that field (its
``target``). A physical keyboard keeps working beside it: the field still
takes the window's keys as any ``TextInput`` does.

One layout per language (:data:`LAYOUTS`): English QWERTY; Polish QWERTY with
ą ć ę ł ń ó ś ź ż on a row of their own; Spanish QWERTY with ñ and á é í ó ú ü;
Japanese a 50-sound hiragana grid (with keys to katakana and to Latin letters,
no kanji conversion). A table seats guests: from every layout a key or two
reach every letter of the four languages. The Latin layouts' "ąéñ" key opens
the table's ``accents_<code>`` layout (Polish and Spanish letters with their
capitals, ¿ ¡, and a few more for guests) and "かな" the hiragana; "ABC" on
those comes back to the table's Latin letters.

The layers of a layout are Kivy's three modes: "shift" (capitals; for kana
the voiced が-forms), "special" (digits and signs; for kana the ぱ-forms and
the small ゃゅょっ). A layout's ``one_shot`` modes fall
back to "normal" after one character, so one tap of ⇧ gives one capital.

Keycodes (the third item of a key) with a meaning of their own:
``backspace``, ``shift``, ``special``, ``done`` (hide the keyboard) and
``layout:<name>`` (change to another layout file; ``layout:latin`` and
``layout:accents`` are the table language's own, see :func:`switch_to`). A key with empty text and
no keycode is a gap: not drawn, does nothing.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kivy.core.text import DEFAULT_FONT
from kivy.graphics import Color, Rectangle, RoundedRectangle
from kivy.metrics import dp, sp
from kivy.uix.behaviors import FocusBehavior
from kivy.uix.label import Label
from kivy.uix.vkeyboard import VKeyboard

_log = logging.getLogger(__name__)

LAYOUT_DIR = Path(__file__).resolve().parent / "keyboards"
# The language's code -> the layout the keyboard opens with.
LAYOUTS: dict[str, str] = {"en": "en", "pl": "pl", "es": "es", "ja": "ja_hiragana"}
# The language's code -> its Latin letters (``layout:latin``).
LATIN_LAYOUTS: dict[str, str] = {"en": "en", "pl": "pl", "es": "es", "ja": "ja_latin"}
DEFAULT_LAYOUT = "en"
MODES = ("normal", "shift", "special")

# 5 rows of 49 px keys fit in 272 px with the margins below (4-row layouts
# get taller keys): fingers on a 7" 800x480 screen want at least 48 px.
KEYBOARD_HEIGHT_DP = 272
MIN_KEY_HEIGHT_DP = 48

BACKSPACE, SHIFT, SPECIAL, DONE, SPACE = "backspace", "shift", "special", "done", "spacebar"
LAYOUT_PREFIX = "layout:"
COMMANDS = frozenset({BACKSPACE, SHIFT, SPECIAL, DONE})
REPEATING = frozenset({BACKSPACE})  # held down, only backspace repeats

BACKGROUND = (0.11, 0.12, 0.14, 1)
KEY = (0.30, 0.32, 0.37, 1)
COMMAND_KEY = (0.20, 0.23, 0.29, 1)
DONE_KEY = (0.16, 0.46, 0.2, 1)  # the set-up screen's Start: white words at 5.6:1
PRESSED = (0.85, 0.62, 0.1, 1)


def layout_for(code: str) -> str:
    """The layout a language's keyboard opens with (English for an unknown code)."""
    return LAYOUTS.get(code, DEFAULT_LAYOUT)


def switch_to(name: str, code: str) -> str:
    """The layout a ``layout:<name>`` key opens at a table speaking ``code``:
    ``latin`` and ``accents`` are that language's own, any other name itself."""
    known = code if code in LAYOUTS else "en"
    if name == "latin":
        return LATIN_LAYOUTS[known]
    if name == "accents":
        return f"accents_{known}"
    return name


def layout_file(name: str) -> Path:
    return LAYOUT_DIR / f"{name}.json"


def load_layout(name: str) -> dict[str, Any]:
    """A layout file as Kivy reads it (a dict of title, cols, rows and key rows)."""
    data: dict[str, Any] = json.loads(layout_file(name).read_text(encoding="utf-8"))
    return data


def layout_names() -> list[str]:
    return sorted(p.stem for p in LAYOUT_DIR.glob("*.json"))


@dataclass(frozen=True)
class Key:
    """One key of a layout's mode: what it shows, types and means."""

    label: str
    text: str | None  # what it types; None for a command
    keycode: str | None
    width: float  # in columns

    @property
    def gap(self) -> bool:
        return not self.label and self.text is None and self.keycode is None


def keys_of(layout: dict[str, Any], mode: str = "normal") -> Iterator[tuple[int, Key]]:
    """(row, key) for every key of ``layout``'s ``mode``, rows counted from 1 at the top."""
    for row in range(1, int(layout["rows"]) + 1):
        for label, text, keycode, width in layout.get(f"{mode}_{row}", ()):
            yield row, Key(label, text, keycode, width)


def typed_by(layout: dict[str, Any]) -> set[str]:
    """Every text a key of ``layout`` types, in any mode."""
    return {k.text for m in MODES for _, k in keys_of(layout, m) if k.text}


class NameKeyboard(VKeyboard):
    """Kivy's VKeyboard drawn for fingers, typing into :attr:`target` (a TextInput).

    Touch its keys, or call :meth:`press` with a key's label. ``on_done`` is
    dispatched by the Done key: whoever shows the keyboard hides it then.
    """

    __events__ = ("on_done",)
    # VKeyboard's own, typed for us (annotations only: Kivy keeps the values).
    _start_repeat_key_ev: Any
    repeat_touch: Any

    def __init__(self, language: str = "en", **kwargs: Any) -> None:
        self.language = language
        self.shifted = False
        self.special = False
        # Each layer's key labels, made once: Kivy would make them anew at
        # every ⇧, which a Raspberry Pi feels.
        self._labels: dict[tuple[str, str, tuple[float, float]], list[Label]] = {}
        kwargs.setdefault("layout_path", str(LAYOUT_DIR))
        kwargs.setdefault("layout", layout_for(language))
        kwargs.setdefault("size_hint", (1, None))
        kwargs.setdefault("height", dp(KEYBOARD_HEIGHT_DP))
        # Kivy's default is DejaVu Sans, which has no kana: the app's font
        # (ui.fonts.register_fonts makes it the default) draws every language.
        kwargs.setdefault("font_name", DEFAULT_FONT)
        kwargs.setdefault("font_size", sp(24))
        kwargs.setdefault("margin_hint", [0.01, 0.004, 0.01, 0.004])
        kwargs.setdefault("key_margin", [2, 2, 2, 2])
        for option in ("do_translation", "do_rotation", "do_scale"):
            kwargs.setdefault(option, False)
        super().__init__(**kwargs)
        self.layout_mode = "normal"
        self.refresh(True)  # now, not at the next frame
        self.fbind("size", self._resized)

    # --- what the keys do ----------------------------------------------------------

    def on_key_down(self, keycode: str | None, text: str | None, modifiers: Any) -> None:
        self.act(keycode, text)

    def on_textinput(self, text: str) -> None:
        # Kivy sends a typing key's text this way on an SDL2 window.
        self.act(None, text)

    def on_key_up(self, *args: Any) -> None:
        pass

    def on_done(self) -> None:
        pass

    def act(self, keycode: str | None, text: str | None) -> None:
        """Do what a key with this keycode and text does."""
        if keycode == BACKSPACE:
            self._backspace()
        elif keycode == DONE:
            self.dispatch("on_done")
        elif keycode == SHIFT:
            self.set_mode(shifted=not self.shifted)
        elif keycode == SPECIAL:
            self.set_mode(special=not self.special)
        elif keycode is not None and keycode.startswith(LAYOUT_PREFIX):
            self.use_layout(switch_to(keycode[len(LAYOUT_PREFIX):], self.language))
        elif text:
            self._type(text)

    def press(self, label: str) -> None:
        """Press and release the key showing ``label`` (as a finger would)."""
        key = self.key(label)
        self.dispatch("on_key_down", key.keycode, key.text, [])
        self.dispatch("on_key_up", key.keycode, key.text, [])

    def _type(self, text: str) -> None:
        field = self.target
        if field is not None and not field.disabled:
            field.keyboard_on_textinput(self, text)  # replaces a selection, as typing does
        if self.layout_mode in self.available_layouts[self.layout].get("one_shot", ()):
            self.set_mode()

    def _backspace(self) -> None:
        field = self.target
        if field is None or field.disabled:
            return
        if field.selection_text:
            field.delete_selection()
        else:
            field.do_backspace()

    def set_mode(self, *, shifted: bool = False, special: bool = False) -> None:
        self.shifted, self.special = shifted, special
        self._update_layout_mode()

    def use_layout(self, name: str) -> None:
        if name not in self.available_layouts:
            _log.warning("no keyboard layout %r in %s", name, self.layout_path)
            return
        self.shifted = self.special = False
        self.layout_mode = "normal"
        self.active_keys.clear()
        self.layout = name
        self.refresh(True)

    # --- what it shows --------------------------------------------------------------

    def keys(self) -> Iterator[tuple[Key, tuple[float, float], tuple[float, float]]]:
        """(key, pos, size) of every key shown now, gaps left out; in the
        keyboard's own coordinates (``to_window`` gives the window's)."""
        layout = self.available_layouts[self.layout]
        geometry = self.layout_geometry
        for row in range(1, int(layout["rows"]) + 1):
            line = layout[f"{self.layout_mode}_{row}"]
            for raw, (pos, size) in zip(line, geometry.get(f"LINE_{row}", ()), strict=False):
                key = Key(*raw)
                if not key.gap:
                    yield key, pos, size

    def key(self, label: str) -> Key:
        """The key shown now with ``label``."""
        for key, _pos, _size in self.keys():
            if key.label == label:
                return key
        raise KeyError(f"no key {label!r} in {self.layout} ({self.layout_mode})")

    def key_center(self, label: str) -> tuple[float, float]:
        """Where the key showing ``label`` is, in window coordinates."""
        for key, (x, y), (w, h) in self.keys():
            if key.label == label:
                wx, wy = self.to_window(x + w / 2, y + h / 2)
                return float(wx), float(wy)
        raise KeyError(f"no key {label!r} in {self.layout} ({self.layout_mode})")

    def _resized(self, *args: Any) -> None:
        if self.layout in self.available_layouts:
            self.refresh(True)

    def _update_layout_mode(self, *args: Any) -> None:
        # Kivy shifts only while ⇧ is held, which takes two fingers; ours is a
        # toggle (see set_mode), so its own have_shift/have_capslock are ignored.
        mode = "special" if self.special else "shift" if self.shifted else "normal"
        if mode != self.layout_mode:
            self.layout_mode = mode
            self.refresh(True)
        else:
            self.refresh_active_keys_layer()

    def draw_keys(self) -> None:
        self.background_key_layer.clear()
        with self.background_key_layer:
            Color(*BACKGROUND)
            Rectangle(pos=(0, 0), size=self.size)
            for key, pos, size in self.keys():
                Color(*self._colour(key))
                RoundedRectangle(pos=pos, size=size, radius=[dp(6)])
        made = (self.layout, self.layout_mode, (float(self.width), float(self.height)))
        labels = self._labels.get(made)
        if labels is None:
            labels = self._labels[made] = [
                Label(
                    text=key.label, pos=pos, size=size, font_name=self.font_name,
                    font_size=self.font_size if len(key.label) == 1 else self.font_size * 0.8,
                    color=(1, 1, 1, 1),
                )
                for key, pos, size in self.keys()
            ]
        for label in labels:
            self.add_widget(label)

    def _colour(self, key: Key) -> tuple[float, ...]:
        if key.keycode == DONE:
            return DONE_KEY
        if key.text is None:
            return COMMAND_KEY
        return KEY

    def refresh_active_keys_layer(self) -> None:
        layout = self.available_layouts.get(self.layout)
        self.active_keys_layer.clear()
        if layout is None:
            return
        one_shot = layout.get("one_shot", ())
        lit = [(pos, size) for key, pos, size in self.keys()
               if (key.keycode == SHIFT and self.shifted and "shift" in one_shot)
               or (key.keycode == SPECIAL and self.special and "special" in one_shot)]
        for line, index in self.active_keys.values():
            boxes = self.layout_geometry.get(f"LINE_{line}", ())
            keys = layout.get(f"{self.layout_mode}_{line}", ())
            if index < min(len(boxes), len(keys)) and not Key(*keys[index]).gap:
                lit.append(boxes[index])
        with self.active_keys_layer:
            Color(*PRESSED)
            for pos, size in lit:
                RoundedRectangle(pos=pos, size=size, radius=[dp(6)])

    # --- touches ----------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> Any:
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        # A tap on a key must not take the focus from the field being typed in.
        FocusBehavior.ignored_touch.append(touch)
        done = super().on_touch_down(touch)
        key = touch.ud.get(self.uid, {}).get("key")
        if key is None or key[0][2] not in REPEATING:
            if self._start_repeat_key_ev is not None:
                self._start_repeat_key_ev.cancel()
                self._start_repeat_key_ev = None
            if self.repeat_touch is touch:
                self.repeat_touch = None
        return done
