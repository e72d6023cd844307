"""The in-game menu on a real offscreen window: leaving a game asks first, the
language re-words everything on screen, the sound settings are kept, and the
next set-up offers the last table.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from ui_helpers import find_button, frames, tap  # noqa: E402

from companion.events import Start  # noqa: E402
from companion.games import Games  # noqa: E402
from companion.memory import MemoryStore  # noqa: E402
from companion.notices import CameraStatus  # noqa: E402
from companion.simulate import VirtualClock  # noqa: E402
from ui.app import CompanionApp  # noqa: E402
from ui.kivyfree import i18n  # noqa: E402
from ui.kivyfree.controls import Controls  # noqa: E402
from ui.sound import SilentBoard  # noqa: E402

NAMES = ("Zofia", "Íñigo", "さくら", "Bo")








def shown_texts(root: Any) -> list[str]:
    """The texts of the widgets on show under ``root`` (none hidden, none of no width)."""
    def shown(w: Any) -> bool:
        while w is not None and w is not root:
            if w.opacity <= 0 or w.width <= 0:
                return False
            w = w.parent
        return True

    return [w.text for w in root.walk() if isinstance(getattr(w, "text", None), str) and shown(w)]


def in_dialog(app: CompanionApp, text: str) -> Any:
    """A button of the dialog on top (a confirm question above the menu)."""
    return find_button(app.root_window.children[0], text)


def menu_on_the_table(app: CompanionApp) -> Any:
    """The menu, open over a game's table: the tests of this module share one app,
    and each may run without the one before it (``-m "not slow"`` leaves some out)."""
    if app.table is None:
        tap(find_button(app.setup_screen, "Start"))
    if app.menu is None:
        tap(app.table_screen.ids.menu)
    assert app.table is not None and app.menu is not None
    return app.menu


@pytest.fixture(scope="module")
def store() -> MemoryStore:
    return MemoryStore()


@pytest.fixture(scope="module")
def app(store: MemoryStore) -> Iterator[CompanionApp]:
    games = Games(store, clock=VirtualClock(0.0), camera=CameraStatus.NO_CAMERA)
    games.new_game(Start(NAMES))  # a table that played before: the device remembers it
    games.leave()
    the_app = CompanionApp(games, Controls(), sounds=SilentBoard(volume=0.8))
    the_app._run_prepare()
    frames(3)
    yield the_app
    the_app.choose_language("en")
    the_app.stop()
    frames(1)
    i18n.set_language("en")


def test_the_set_up_offers_the_last_table(app: CompanionApp) -> None:
    setup = app.setup_screen
    assert app.sm is not None and app.sm.current == "setup"
    assert setup.seat_count == 4
    assert setup.names() == list(NAMES)
    assert setup.resume_text == "Resume: round 1, Zofia, Íñigo, さくら, Bo"  # left, not abandoned


def test_the_menu_changes_the_language_of_everything_on_screen(app: CompanionApp) -> None:
    tap(find_button(app.setup_screen, "Start"))
    assert app.sm is not None and app.sm.current == "table"
    assert app.table_screen.status == "no camera: enter cards by tapping"
    tap(app.table_screen.ids.menu)
    assert app.menu is not None
    tap(find_button(app.menu, "Español"))
    assert i18n.language() == "es"
    assert app.sm.current == "table"  # the table stays where it was
    assert app.table_screen.status == "sin cámara: toca para añadir cartas"
    assert find_button(app.table_screen, "Deshacer") is not None
    assert app.menu is not None  # opened again, now in Spanish
    tap(find_button(app.menu, "English"))
    assert app.table_screen.status == "no camera: enter cards by tapping"


def test_the_sound_settings_are_kept(app: CompanionApp, store: MemoryStore) -> None:
    menu_on_the_table(app)
    tap(find_button(app.menu, "−"))  # noqa: RUF001 (the minus sign on the button)
    assert app.sounds.volume == pytest.approx(0.6)
    assert "Volume 60 %" in shown_texts(app.menu)  # what is, beside what it does
    tap(find_button(app.menu, "Turn off"))
    assert app.sounds.muted
    assert "Muted" in shown_texts(app.menu)
    assert app.games.sound(1.0, False) == (0.6, True)  # what the next start uses
    tap(find_button(app.menu, "Turn on"))
    assert not app.sounds.muted


def test_the_rules_reminder_is_clipped_to_its_view_without_the_stencil(
    app: CompanionApp, tmp_path: Path
) -> None:
    """The reminder scrolls inside its view, and nothing of it is drawn below the
    view: the strip between the view and the menu's edge keeps the menu's own
    colour. The clip is a scissor at the view's place in the window (a stencil
    costs a software renderer a shader for each kind of drawing under it)."""
    from kivy.graphics import StencilPush
    from kivy.graphics.scissor_instructions import ScissorPush

    from ui.widgets import ClippedScrollView

    menu = menu_on_the_table(app)
    view = next(w for w in menu.walk() if isinstance(w, ClippedScrollView))
    menu.rules_text = "\n".join([menu.rules_text] * 3)  # longer than its view, as in some rules
    frames(3)
    reminder = view.children[0]
    assert reminder.height > view.height + 100  # more than it shows: it scrolls
    instructions = [*view.canvas.before.children, *view.canvas.after.children]
    assert not any(isinstance(i, StencilPush) for i in instructions)
    clip = next(i for i in view.canvas.before.children if isinstance(i, ScissorPush))
    x, y = view.to_window(*view.pos)
    assert (clip.x, clip.y, clip.width, clip.height) == (
        round(x), round(y), round(view.width), round(view.height))
    read = cv2.imread(str(app.save_screenshot(tmp_path / "menu.png")))
    assert read is not None
    shot = np.asarray(read, dtype=np.uint8)
    box = view.parent
    bottom = shot.shape[0] - round(box.to_window(box.x, box.y)[1])
    strip = shot[shot.shape[0] - round(y) + 1: bottom - 1, round(x): round(x + view.width)]
    assert strip.size > 0
    background = np.array([round(0.14 * 255), round(0.12 * 255), round(0.12 * 255)])  # BGR
    assert np.abs(strip.astype(int) - background).max() <= 2, "the reminder spills below its view"
    # Scrolled to its end, the reminder's first lines pass above the view: the
    # gap between the view and the heading above it keeps the menu's colour.
    view.scroll_y = 0
    frames(3)
    read = cv2.imread(str(app.save_screenshot(tmp_path / "menu-scrolled.png")))
    assert read is not None
    shot = np.asarray(read, dtype=np.uint8)
    top = shot.shape[0] - round(y + view.height)
    gap = shot[top - 6: top - 1, round(x): round(x + view.width)]
    assert gap.size > 0
    assert np.abs(gap.astype(int) - background).max() <= 2, "the reminder spills above its view"


def test_with_no_audio_output_the_menu_offers_no_volume(app: CompanionApp) -> None:
    """This window has no audio output (no sound device under the tests): the
    real sound board finds that out, and the menu says so instead of a volume."""
    from ui.sound import SoundBoard

    menu_on_the_table(app)
    board = SoundBoard(volume=0.8)
    assert not board.available
    kept, app.sounds = app.sounds, board
    try:
        app.open_menu()
        frames(2)
        menu = app.menu
        assert menu is not None and not menu.sound_out
        texts = shown_texts(menu)
        assert "No audio output found" in texts
        assert not any(t.startswith("Volume") or t in ("Turn off", "−", "+") for t in texts), texts  # noqa: RUF001
    finally:
        app.sounds = kept
        app.open_menu()
        frames(2)


def test_a_new_game_asks_first_and_keeps_the_game(app: CompanionApp) -> None:
    menu_on_the_table(app)
    table = app.table
    assert table is not None and app.menu is not None
    tap(find_button(app.menu, "New game"))
    tap(in_dialog(app, "Cancel"))
    assert app.table is table  # nothing happened
    tap(find_button(app.menu, "New game"))
    tap(in_dialog(app, "New game"))  # the question's yes
    assert app.table is None and app.sm is not None and app.sm.current == "setup"
    assert app.games.unfinished() == table.game  # kept: offered to resume
    assert app.setup_screen.names() == list(NAMES)


def test_abandon_asks_first_and_the_game_is_not_offered_again(app: CompanionApp) -> None:
    app.setup.resume_game()
    frames(2)
    table = app.table
    assert table is not None
    tap(app.table_screen.ids.menu)
    assert app.menu is not None
    tap(find_button(app.menu, "Abandon game"))
    tap(in_dialog(app, "Abandon game"))
    assert app.table is None and app.sm is not None and app.sm.current == "setup"
    assert app.games.unfinished() is None
    assert app.setup_screen.resume_text == ""


def test_the_odds_panel_is_chosen_in_the_menu_and_kept(app: CompanionApp) -> None:
    tap(find_button(app.setup_screen, "Start"))
    table = app.table
    assert table is not None
    table.enter_card("SNAKE1")
    frames(2)
    assert "Next card busts" not in app.table_screen.extra  # off until the table asks
    tap(app.table_screen.ids.menu)
    assert app.menu is not None
    tap(find_button(app.menu, "Show"))
    assert app.games.odds_shown()
    frames(2)
    # 31 cards in round 1, SNAKE1 turned: 30 left, two snakes among them.
    assert app.table_screen.extra.splitlines()[-2:] == [
        "Next card busts: 2/30 (7 %): snakes 2/30",
        "30 cards and 124 gems left; a treasure gives each of the 4 about 1.6",  # 24 / 15
    ]
    tap(find_button(app.menu, "Hide"))
    frames(2)
    assert "Next card busts" not in app.table_screen.extra
    assert not app.games.odds_shown()
    app.menu.dismiss(animation=False)


def test_the_round_log_opens_from_the_menu(app: CompanionApp) -> None:
    table = app.table
    assert table is not None
    tap(app.table_screen.ids.menu)
    assert app.menu is not None
    tap(find_button(app.menu, "Round log"))
    view = app.round_log_view
    assert view is not None and app.menu is None
    heading, shown = view.ids.page.children[-1], view.ids.page.children[-2]
    frames(2)
    # The round is a heading of its own (bold, gold, larger), not one more line.
    assert heading == view.ids.log_heading and heading.text == "Round 1" and heading.bold
    assert heading.font_size > shown.font_size and heading.color != shown.color
    assert shown.text.splitlines() == ["Snakes: nothing happens yet; a second one ends the round."]
    assert shown.texture_size[1] > 20  # drawn
    tap(find_button(view, "Back to the game"))


def test_keys_do_not_reach_the_table_under_a_popup(app: CompanionApp) -> None:
    from kivy.core.window import Window

    table = app.table
    assert table is not None
    path = table.state.path
    tap(app.table_screen.ids.menu)
    assert app.menu is not None
    Window.dispatch("on_key_down", 8, 0, None, [])  # Backspace is undo, but not here
    frames(1)
    assert table.state.path == path
    app.menu.dismiss(animation=False)
    frames(1)
    Window.dispatch("on_key_down", 8, 0, None, [])  # on the table it undoes
    frames(1)
    assert len(table.state.path) == len(path) - 1
