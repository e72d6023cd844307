"""The choice window over the odds, on a real offscreen window: opened by the
odds' More while choices are due, its figures worked by hand, following a
correction and an undo, closed by the reveal; no More without the odds."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from ui_helpers import frames  # noqa: E402

from companion.choices import Choice  # noqa: E402
from companion.events import Start  # noqa: E402
from companion.games import Games  # noqa: E402
from companion.memory import MemoryStore  # noqa: E402
from companion.notices import CameraStatus  # noqa: E402
from companion.simulate import SEAT_NAMES, VirtualClock  # noqa: E402
from companion.table import Table  # noqa: E402
from ui.app import CompanionApp  # noqa: E402
from ui.kivyfree import i18n  # noqa: E402
from ui.kivyfree.controls import Controls  # noqa: E402
from ui.sound import SilentBoard  # noqa: E402

# Eight seats, everyone in, on T7A T5A SNAKE1 SPIDER1 MUMMY1 A1 FIRE1.
EIGHT = ("T7A", "T5A", "SNAKE1", "SPIDER1", "MUMMY1", "A1", "FIRE1")
CLOCK = VirtualClock(0.0)


@pytest.fixture
def app() -> Iterator[CompanionApp]:
    i18n.set_language("en")
    games = Games(MemoryStore(), clock=CLOCK, camera=CameraStatus.NO_CAMERA)
    games.new_game(Start(SEAT_NAMES[:8]))
    the_app = CompanionApp(games, Controls(), sounds=SilentBoard(volume=0.8))
    the_app._run_prepare()
    frames(2)
    yield the_app
    the_app.stop()
    frames(1)


def everyone_goes_on(table: Table) -> None:
    for seat in table.collector.due:
        assert table.press(seat, Choice.TORCH)
    CLOCK.advance(60)
    assert table.tick()


def test_the_window_shows_the_figures_and_follows_the_game(app: CompanionApp) -> None:
    table = app.table
    assert table is not None
    for i, card in enumerate(EIGHT):
        assert table.enter_card(card)
        if i < len(EIGHT) - 1:
            everyone_goes_on(table)
    frames(2)
    more = app.table_screen.ids.more_odds
    assert more.width == 0 and more.disabled  # the odds are off: no More
    app.menus.set_odds(True)
    frames(2)
    assert more.width >= 48 and not more.disabled
    more.dispatch("on_release")
    window = app.menus.choice
    assert window is not None
    # Worked by hand (tests/test_table_aids.py): 12 gems pooled and A1 (5) for a
    # lone leaver, 12 // 8 for all eight; 16 safe cards of 24, then 39/92, 65/253.
    assert window.shown.lines[:2] == (
        "Leaving now banks 17 alone, 1 if all 8 leave",
        "No bust in the next 1, 2, 3 cards: 67 %, 42 %, 26 %",
    )
    app.menus.finish_fitting()
    frames(2)
    # One game of these players and no other: too few choices to fit a model.
    assert window.model.startswith("Model of the other seats: the default (")

    # A misread: the last card was T1, not FIRE1. One gem more in the pool (13:
    # 18 alone, 13 // 8 = 1 each). Of the 24 cards left (12 treasures, 2 snakes,
    # 2 spiders, 2 mummies, 3 fires, 3 rockslides) 6 bust now: 18/24 = 75 %.
    # Two cards: a treasure then 17 safe of 23, or a fire or a rockslide (whose
    # twins then bust too) then 15 of 23: (12*17 + 6*15) / (24*23) = 53 %.
    # Three: TT then 16 of 22, TF TR FT RT then 14 of 22, FR RF then 12 of 22:
    # (12*11*16 + 4*12*3*14 + 2*3*3*12) / (24*23*22) = 4344/12144 = 36 %.
    assert table.correct(6, "T1")
    frames(2)
    assert app.menus.choice is window
    assert window.shown.lines[:2] == (
        "Leaving now banks 18 alone, 1 if all 8 leave",
        "No bust in the next 1, 2, 3 cards: 75 %, 53 %, 36 %",
    )
    # Undo takes the correction back: the figures of FIRE1 again.
    app.undo()
    frames(2)
    assert window.shown.lines[0] == "Leaving now banks 17 alone, 1 if all 8 leave"

    # The reveal: no choice is due, the window gives the table back.
    everyone_goes_on(table)
    frames(2)
    assert app.menus.choice is None and window not in app.root_window.children
    assert more.width == 0


def test_the_figures_are_worked_out_only_for_an_open_window_and_a_new_state(
    app: CompanionApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One more card costs milliseconds of rollout arithmetic (6 to 26 here, a
    Pi 4 to 6 times that): never at each refresh of the table."""
    from ui.kivyfree import presenters

    worked: list[object] = []
    real = presenters.choice_view
    monkeypatch.setattr(
        presenters, "choice_view", lambda *a, **k: worked.append(a) or real(*a, **k)
    )
    table = app.table
    assert table is not None
    table.enter_card("T7A")
    app.menus.set_odds(True)
    for _ in range(5):
        app.refresh()
    assert worked == []  # the odds on, the window closed
    app.table_screen.ids.more_odds.dispatch("on_release")
    assert len(worked) == 1  # on opening
    app.menus.finish_fitting()
    frames(2)
    assert len(worked) == 2  # the players' model read: the figures by it
    for _ in range(5):
        app.refresh()  # the countdown's ticks, a seat's press: the same state
    assert len(worked) == 2
    table.correct(0, "T9")
    app.refresh()
    assert len(worked) == 3
