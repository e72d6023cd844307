"""The on-screen keyboard for names: its layouts (Kivy's VKeyboard format) and,
on the real app offscreen, typing names on the set-up screen in every language.

The app tests share one app (Kivy's rule: one per process), run in file order
and leave the set-up screen in English with the keyboard closed. Screenshots
of the keyboard in each language go to ``$KEYBOARD_SHOTS`` (default
``out/screenshots/``) as ``kbd-<lang>.png``, to be looked at.
"""

from __future__ import annotations

import json
import os
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from kivy.core.window import Window  # noqa: E402
from kivy.metrics import dp  # noqa: E402
from kivy.tests.common import UnitTestTouch  # noqa: E402
from ui_helpers import frames, frames_until  # noqa: E402

from companion.games import Games  # noqa: E402
from companion.memory import MemoryStore  # noqa: E402
from ui import fonts  # noqa: E402
from ui.app import CompanionApp  # noqa: E402
from ui.keyboard import (  # noqa: E402
    LAYOUT_PREFIX,
    LAYOUTS,
    MIN_KEY_HEIGHT_DP,
    MODES,
    NameKeyboard,
    keys_of,
    layout_file,
    layout_names,
    load_layout,
    switch_to,
    typed_by,
)
from ui.kivyfree import i18n  # noqa: E402
from ui.kivyfree.controls import Controls  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("KEYBOARD_SHOTS", ROOT / "out" / "screenshots"))

HIRAGANA = (
    "あいうえおかきくけこさしすせそたちつてとなにぬねの"
    "はひふへほまみむめもやゆよらりるれろわをん"
)
VOICED = "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽ"
SMALL = "ゃゅょっ"


def katakana(text: str) -> str:
    return "".join(chr(ord(c) + 0x60) if "ぁ" <= c <= "ゖ" else c for c in text)


# --- the layout files ---------------------------------------------------------------------


def test_the_basic_kana_are_46() -> None:
    assert len(HIRAGANA) == len(set(HIRAGANA)) == 46
    assert katakana(HIRAGANA).startswith("アイウエオカ") and katakana(HIRAGANA)[-1] == "ン"


@pytest.mark.parametrize("name", layout_names())
def test_each_layout_is_in_kivys_format(name: str) -> None:
    data = json.loads(layout_file(name).read_text(encoding="utf-8"))
    assert isinstance(data["title"], str) and isinstance(data["description"], str)
    cols, rows = data["cols"], data["rows"]
    assert isinstance(cols, int) and isinstance(rows, int) and 4 <= rows <= 5
    assert set(data.get("one_shot", [])) <= set(MODES)
    row_keys = {f"{mode}_{row}" for mode in MODES for row in range(1, rows + 1)}
    assert {k for k in data if k.split("_")[0] in MODES} <= row_keys
    for mode in MODES:
        present = [f"{mode}_{row}" in data for row in range(1, rows + 1)]
        assert all(present) or (mode != "normal" and not any(present)), (mode, present)
    for key in row_keys & set(data):
        width = 0.0
        for item in data[key]:
            label, text, keycode, size = item  # Kivy's 4 items
            assert isinstance(label, str) and isinstance(size, int | float) and size > 0
            assert text is None or isinstance(text, str)
            assert keycode is None or isinstance(keycode, str)
            width += size
        assert width <= cols, (key, width)


@pytest.mark.parametrize("name", layout_names())
def test_each_layout_has_backspace_space_done_and_shift(name: str) -> None:
    layout = load_layout(name)
    keycodes = {k.keycode for m in MODES for _, k in keys_of(layout, m)}
    assert {"backspace", "spacebar", "done"} <= keycodes
    assert " " in typed_by(layout)
    letters = {c for c in typed_by(layout) if c.isalpha() and c.lower() != c.upper()}
    if letters:  # letters with capitals: a shift layer holding them
        assert "shift" in keycodes
        shifted = {k.text for _, k in keys_of(layout, "shift")}
        assert {c.upper() for c in letters} <= shifted
    for keycode in keycodes:
        if keycode and keycode.startswith(LAYOUT_PREFIX):
            for code in LAYOUTS:  # layout:latin and layout:accents: each table's own
                target = switch_to(keycode.removeprefix(LAYOUT_PREFIX), code)
                assert layout_file(target).is_file(), (keycode, code)


def test_every_language_has_a_layout() -> None:
    assert set(LAYOUTS) == set(i18n.LANGUAGES)
    for name in LAYOUTS.values():
        assert layout_file(name).is_file()


def test_polish_spanish_and_japanese_letters_are_on_their_keyboards() -> None:
    assert set("ąćęłńóśźżĄĆĘŁŃÓŚŹŻ") <= typed_by(load_layout("pl"))
    assert set("áéíóúñüÁÉÍÓÚÑÜ") <= typed_by(load_layout("es"))
    basic_latin = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
    for name in ("en", "pl", "es", "ja_latin"):
        assert basic_latin <= typed_by(load_layout(name)), name
    hiragana, katakana_ = typed_by(load_layout("ja_hiragana")), typed_by(load_layout("ja_katakana"))
    assert set(HIRAGANA + VOICED + SMALL + "ー") <= hiragana
    assert set(katakana(HIRAGANA + VOICED + SMALL) + "ー") <= katakana_
    # No kanji: the kana keyboards type kana (and a few signs) only.
    assert all(ord(c) < 0x4E00 for c in hiragana | katakana_)
    assert all(katakana(c) == c for c in katakana_)
    # Each kana keyboard reaches the other and the table's Latin letters.
    for name, others in (("ja_hiragana", {"ja_katakana", "latin"}),
                         ("ja_katakana", {"ja_hiragana", "latin"}),
                         ("ja_latin", {"ja_hiragana", "accents"})):
        codes = {k.keycode for _, k in keys_of(load_layout(name))}
        assert {LAYOUT_PREFIX + o for o in others} <= codes, name


def test_the_font_draws_every_key_label() -> None:
    from PIL import ImageFont

    font_files = fonts.ui_font()
    assert font_files is not None, "install fonts-migmix (scripts/setup.sh does)"
    font = ImageFont.truetype(str(font_files.regular), 24)

    def glyph(char: str) -> tuple[object, bytes]:
        mask = font.getmask(char)
        return mask.size, bytes(mask)

    notdef = glyph("\u0378")  # an unassigned code point: the empty box
    chars = {c for name in layout_names() for m in MODES
             for _, k in keys_of(load_layout(name), m) for c in k.label + (k.text or "")}
    boxes = sorted(c for c in chars - {" "} if glyph(c) == notdef)
    assert not boxes, f"{font_files.regular.name} draws boxes for {''.join(boxes)!r}"


# --- every letter from every keyboard ---------------------------------------------------------

POLISH = "ąćęłńóśźż"
SPANISH = "áéíñóúü"
#: What a table's guests may be called: the letters of all four languages.
EVERY_LETTER = "".join((
    string.ascii_lowercase, string.ascii_uppercase, POLISH, POLISH.upper(), SPANISH,
    SPANISH.upper(), "¿¡", HIRAGANA, VOICED, SMALL, katakana(HIRAGANA + VOICED + SMALL), "ー",
))
State = tuple[str, str]  # layout, mode


def switches(keyboard: NameKeyboard) -> list[str]:
    """The labels of the keys shown now that change the layout or its layer."""
    return [key.label for key, _pos, _size in keyboard.keys()  # noqa: SIM118 (not a dict)
            if key.keycode in ("shift", "special")
            or (key.keycode or "").startswith(LAYOUT_PREFIX)]


def go(keyboard: NameKeyboard, opening: str, route: tuple[str, ...]) -> None:
    """Back to where the keyboard opens, then the keys of ``route``, as a finger would."""
    keyboard.use_layout(opening)
    keyboard.set_mode()
    for label in route:
        keyboard.press(label)


def routes(keyboard: NameKeyboard) -> dict[State, tuple[str, ...]]:
    """Every layout and layer the keyboard reaches from where it opens, and the
    shortest run of keys that gets there."""
    opening = keyboard.layout
    found: dict[State, tuple[str, ...]] = {(opening, "normal"): ()}
    todo = [(opening, "normal")]
    while todo:
        route = found[todo.pop(0)]
        go(keyboard, opening, route)
        for label in switches(keyboard):
            go(keyboard, opening, route)
            keyboard.press(label)
            state = (keyboard.layout, keyboard.layout_mode)
            if state not in found:
                found[state] = (*route, label)
                todo.append(state)
    return found


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_every_keyboard_types_every_letter_of_the_four_languages(
    app: CompanionApp, code: str
) -> None:
    """A Polish guest at a Spanish table, a Spanish one at a Polish table, kana
    at an English one: each letter typed with the real keyboard, keys pressed."""
    from kivy.uix.textinput import TextInput

    keyboard = NameKeyboard(language=code)
    keyboard.target = field = TextInput()
    frames(1)  # the field lays its (empty) text out before it takes any
    opening = keyboard.layout
    reached = routes(keyboard)
    assert {layout for layout, _mode in reached} == {
        switch_to(name, code) for name in ("latin", "accents", "ja_hiragana", "ja_katakana")
    } | {opening}
    for char in EVERY_LETTER:
        state, route = next((((layout, mode), r) for (layout, mode), r in reached.items()
                             if any(k.text == char for _r, k in keys_of(
                                 keyboard.available_layouts[layout], mode))), (None, None))
        assert route is not None, f"{char!r} cannot be typed at a {code} table"
        # A letter on the keys shown is typed at once, as a finger would (the
        # next of a run of small letters); else from where the keyboard opens.
        if (keyboard.layout, keyboard.layout_mode) != state:
            go(keyboard, opening, route)
        shown = keyboard.keys()
        keyboard.press(next(k.label for k, _pos, _size in shown if k.text == char))
    assert field.text == EVERY_LETTER
    assert max(len(r) for r in reached.values()) <= 3  # no letter more than 3 taps away


# --- on the app -----------------------------------------------------------------------------




@pytest.fixture(scope="module")
def app() -> Iterator[CompanionApp]:
    the_app = CompanionApp(Games(MemoryStore()), Controls())
    the_app._run_prepare()
    frames(3)
    yield the_app
    the_app.choose_language("en")
    the_app.stop()
    frames(1)
    i18n.set_language("en")


def tap_at(x: float, y: float) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    touch.touch_up()
    frames(1)


def open_keyboard(app: CompanionApp, code: str, seat: int = 0) -> tuple[Any, Any, NameKeyboard]:
    """The set-up screen in ``code``'s language, name field ``seat`` tapped:
    (screen, field, keyboard), the field's placeholder selected as a tap does."""
    if i18n.language() != code:
        app.choose_language(code)
    setup = app.setup_screen
    setup.seat_count = max(setup.seat_count, seat + 1)
    frames(2)
    field = setup.ids[f"name{seat}"]
    tap_at(*field.to_window(*field.center))
    assert field.focus
    frames_until(lambda: field.selection_text == field.text)  # 0.05 s after the tap
    keyboard = setup.keyboard
    assert keyboard is not None and setup.keyboard_shown
    assert keyboard.target.__self__ is field.__self__  # ids hold weak proxies
    return setup, field, keyboard


def press(keyboard: NameKeyboard, *labels: str) -> None:
    for label in labels:
        keyboard.press(label)


def shot(app: CompanionApp, code: str) -> None:
    frames(3)
    path = app.save_screenshot(SHOTS / f"kbd-{code}.png")
    assert path.stat().st_size > 5000


def test_a_field_left_before_its_name_is_selected_stays_unselected(app: CompanionApp) -> None:
    """A tap selects the field's name 0.05 s later, so that typing replaces it.
    A field left sooner (another field tapped, Done) kept that selection all the
    same: an unfocused field showing its name highlighted, as if still chosen."""
    from kivy.clock import Clock

    _setup, field, _keyboard = open_keyboard(app, "en", seat=1)
    field.focus = False
    field.cancel_selection()
    frames(1)
    field.focus = True
    field.focus = False  # left at once
    left = Clock.get_boottime()
    frames_until(lambda: Clock.get_boottime() > left + 0.1)  # past the selection's time
    frames(1)
    assert not field.focus and field.selection_text == ""


def test_a_name_field_opens_the_keyboard_docked_at_the_bottom(app: CompanionApp) -> None:
    assert app.sm is not None and app.sm.current == "setup"
    _setup, field, keyboard = open_keyboard(app, "en", seat=5)
    assert keyboard.layout == "en"
    assert set(keyboard.available_layouts) == set(layout_names())  # read by Kivy's VKeyboard
    assert keyboard.to_window(0, 0) == (0, 0)
    assert keyboard.width == Window.width and keyboard.height >= 5 * dp(MIN_KEY_HEIGHT_DP)
    keys = list(keyboard.keys())
    assert len(keys) > 30
    for key, (x, y), (w, h) in keys:
        assert h >= dp(MIN_KEY_HEIGHT_DP) and w >= dp(MIN_KEY_HEIGHT_DP), key
        assert x >= 0 and x + w <= keyboard.width and y >= 0 and y + h <= keyboard.height
    # The field typed in stays above the keyboard (the screen is lifted).
    assert field.to_window(field.x, field.y)[1] >= keyboard.top
    assert field.to_window(field.x, field.top)[1] <= Window.height


def test_touching_keys_types_and_keeps_the_focus(app: CompanionApp) -> None:
    setup, field, keyboard = open_keyboard(app, "en")
    for label in ("⇧", "B", "o"):
        tap_at(*keyboard.key_center(label))
    assert field.text == "Bo" and field.focus
    tap_at(*keyboard.key_center("⇦"))
    assert field.text == "B" and setup.keyboard_shown
    other = setup.ids.name1  # tapping another name types there
    tap_at(*other.to_window(*other.center))
    assert other.focus and not field.focus and setup.keyboard_shown
    assert keyboard.target.__self__ is other.__self__
    tap_at(*keyboard.key_center("Done"))
    assert not setup.keyboard_shown and not field.focus
    assert setup.ids.content.y == 0


def test_a_physical_keyboard_still_types(app: CompanionApp) -> None:
    setup, field, _keyboard = open_keyboard(app, "en", seat=1)
    Window.dispatch("on_textinput", "Z")
    assert field.text == "Z"
    field.focus = False  # losing the focus closes the keyboard
    assert not setup.keyboard_shown


def test_typing_a_polish_name(app: CompanionApp) -> None:
    setup, field, keyboard = open_keyboard(app, "pl")
    assert keyboard.layout == "pl" and keyboard.language == "pl"
    press(keyboard, "⇧", "Ł", "u", "k", "a", "s", "z")  # ⇧ gives one capital
    assert field.text == "Łukasz"
    shot(app, "pl")
    press(keyboard, "Gotowe")
    assert not setup.keyboard_shown and not field.focus


def test_typing_a_spanish_name(app: CompanionApp) -> None:
    setup, field, keyboard = open_keyboard(app, "es", seat=2)
    assert keyboard.layout == "es"
    press(keyboard, "⇧", "Í", "ñ", "i", "g", "o")
    assert field.text == "Íñigo"
    shot(app, "es")
    press(keyboard, "Listo")
    assert not setup.keyboard_shown


def test_typing_a_japanese_name(app: CompanionApp) -> None:
    setup, field, keyboard = open_keyboard(app, "ja")
    assert keyboard.layout == "ja_hiragana"
    press(keyboard, "さ", "く", "ら")
    assert field.text == "さくら"
    shot(app, "ja")
    press(keyboard, "⇦", "⇦", "⇦")
    press(keyboard, "゛", "が", "゜小", "ぱ", "゜小", "っ", "ー")  # each one character
    assert field.text == "がぱっー"
    press(keyboard, "⇦", "⇦", "⇦", "⇦", "カナ", "゛", "ガ", "゜小", "ッ", "ツ")
    assert keyboard.layout == "ja_katakana" and field.text == "ガッツ"
    press(keyboard, "ABC", "⇧", "K", "かな", "ゆ")
    assert keyboard.layout == "ja_hiragana" and field.text == "ガッツKゆ"
    press(keyboard, "空白", "完了")
    assert field.text == "ガッツKゆ " and not setup.keyboard_shown


def test_english_keyboard_and_leaving_the_screen_closes_it(app: CompanionApp) -> None:
    setup, field, keyboard = open_keyboard(app, "en", seat=3)
    assert keyboard.layout == "en"
    press(keyboard, "⇧", "D", "e", "e", "123", "2")
    assert field.text == "Dee2"
    press(keyboard, "ABC", "space", "x")
    assert field.text == "Dee2 x"
    shot(app, "en")
    assert app.sm is not None
    app.sm.current = "table"
    frames(1)
    assert not setup.keyboard_shown and not field.focus and setup.ids.content.y == 0
    app.setup.show()
    frames(1)


def test_offer_fills_seats_and_names_with_the_last_table(app: CompanionApp) -> None:
    setup = app.setup_screen
    setup.offer(["Ana", "Bartłomiej", "さくら"], 5)
    assert setup.seat_count == 5
    assert [box.text for box in setup.name_inputs[:5]] == [
        "Ana", "Bartłomiej", "さくら", "Player 4", "Player 5"
    ]
    assert setup.names() == ["Ana", "Bartłomiej", "さくら", "Player 4", "Player 5"]
    setup.offer(["A", "B"], 12)
    assert setup.seat_count == 8 and setup.ids.name2.text == "Player 3"
    setup.offer([], 4)
    assert setup.seat_count == 4 and setup.ids.name0.text == "Player 1"


def test_a_full_name_says_so_instead_of_dropping_letters(app: CompanionApp) -> None:
    from ui.kivyfree.words import name_full

    setup, field, keyboard = open_keyboard(app, "en", seat=4)
    press(keyboard, *"bartholomaeu")  # 12 letters: the most a seat row shows
    assert field.text == "bartholomaeu" and setup.problem == ""
    press(keyboard, "s")
    assert field.text == "bartholomaeu"
    assert setup.problem == name_full(12) == (
        "A name has room for 12 letters, or 6 Japanese characters: this one is full.")
    problem = setup.ids.problem  # said above the keyboard, not behind it
    assert problem.text and problem.to_window(problem.x, problem.y)[1] >= keyboard.top
    press(keyboard, "⇦")
    assert field.text == "bartholomae" and setup.problem == ""
    press(keyboard, "Done")
    setup, field, keyboard = open_keyboard(app, "ja", seat=4)
    press(keyboard, "わ", "た", "な", "゛", "べ", "さ", "ん")  # 6 kana, 12 columns
    press(keyboard, "ち")
    assert field.text == "わたなべさん"
    assert setup.problem == (
        "名前は英字12文字（日本語は6文字）までです。これ以上入りません。")  # noqa: RUF001
    press(keyboard, "完了")
    app.choose_language("en")
    setup.offer([], 4)
    frames(2)


def test_renaming_a_player_uses_the_same_keyboard(app: CompanionApp) -> None:
    from ui.players import RenamePlayer

    app.choose_language("es")
    frames(1)
    renamed: list[str] = []
    window = RenamePlayer("Ana", lambda name: renamed.append(name) or "")
    window.open(animation=False)
    frames(3)
    keyboard, field = window.keyboard, window.ids.name
    assert isinstance(keyboard, NameKeyboard) and keyboard.layout == "es"
    assert keyboard.to_window(0, 0) == (0, 0) and keyboard.width == Window.width
    field.text = ""
    # A Polish name at a Spanish table: ą é ñ for the letters Spanish lacks.
    press(keyboard, "ąéñ", "⇧", "Ł", "ó", "ABC", "d", "ąéñ", "ź")
    assert field.text == "Łódź"
    shot(app, "rename-es-accents")
    press(keyboard, "ABC", *"xxxxxxxx")  # 12 letters
    press(keyboard, "x")
    assert field.text == "Łódźxxxxxxxx"
    assert window.problem == (
        "Un nombre admite 12 letras o 6 caracteres japoneses: este ya está completo.")
    press(keyboard, *["⇦"] * 8)
    assert window.problem == ""
    tap_at(*keyboard.key_center("Listo"))
    assert renamed == ["Łódź"] and window.parent is None
    app.choose_language("en")
    frames(2)
