"""The remembered players, the history and the statistics on a real offscreen window,
and their presenters' exact words."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from test_stats import GAME_1, GAME_2  # noqa: E402
from ui_helpers import find_button, frames, tap  # noqa: E402

from companion.events import Draw, Reveal, Start  # noqa: E402
from companion.games import Games  # noqa: E402
from companion.memory import MemoryStore  # noqa: E402
from companion.stats import GameSummary, HeadToHead, Played, PlayerStats, SeatResult  # noqa: E402
from ui.app import CompanionApp  # noqa: E402
from ui.kivyfree.controls import Controls  # noqa: E402
from ui.kivyfree.presenters import history as hp  # noqa: E402


def store_game(store: MemoryStore, names: tuple[str, ...], steps: tuple[object, ...]) -> int:
    game = store.new_game(Start(names))
    store.link_players(game, names)
    for step in steps:
        store.append(game, Reveal(tuple(step)) if isinstance(step, list) else Draw(str(step)))
    return game


@pytest.fixture(scope="module")
def store() -> MemoryStore:
    store = MemoryStore()
    store_game(store, ("Ana", "Bo", "Cy"), GAME_1)  # game 1: Bo wins
    store_game(store, ("Anna", "Bo", "Cy"), GAME_2)  # game 2: Anna wins
    store_game(store, ("Ana", "Bo", "Dee"), ("T9",))  # game 3: unfinished
    return store


@pytest.fixture(scope="module")
def app(store: MemoryStore) -> Iterator[CompanionApp]:
    the_app = CompanionApp(Games(store), Controls())
    the_app._run_prepare()
    frames(3)
    yield the_app
    the_app.stop()
    frames(1)


@pytest.fixture
def utc() -> Iterator[None]:
    was = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if was is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = was
    time.tzset()


def test_players_are_offered_most_recent_first_and_a_tap_seats_them(app: CompanionApp) -> None:
    setup = app.setup_screen
    strip = setup.ids.players
    assert [c.name for c in strip.chips] == ["Dee", "Bo", "Ana", "Anna", "Cy"]
    setup.seat_count = 3
    for box, name in zip(setup.name_inputs, ("Player 1", "", "Player 3"), strict=False):
        box.text = name
    frames()
    tap(find_button(strip, "Bo"))
    tap(find_button(strip, "Ana"))
    tap(find_button(strip, "Dee"))
    assert setup.names() == ["Bo", "Ana", "Dee"]
    assert [c.name for c in strip.chips if c.seated] == ["Dee", "Bo", "Ana"]
    tap(find_button(strip, "Cy"))  # every seat has a name: one more seat
    assert (setup.seat_count, setup.names()) == (4, ["Bo", "Ana", "Dee", "Cy"])
    tap(find_button(strip, "Ana"))  # seated: the seat goes back to its placeholder
    assert setup.names() == ["Bo", "Player 2", "Dee", "Cy"]


def test_history_newest_first_and_a_past_game_with_todays_names(
    app: CompanionApp, store: MemoryStore
) -> None:
    app.history.show()
    frames()
    screen = app.history_screen
    assert app.sm is not None and app.sm.current == "history"
    assert [screen.ids[f"row{i}"].game for i in range(3)] == [3, 2, 1]
    assert screen.ids.row1.scores == "Anna 22 · Bo 16 · Cy 16"
    assert (screen.can_newer, screen.can_older) == (False, False)
    ana = next(p for p in store.players() if p.name == "Anna")
    app.players.rename(ana.id, "Annie")
    app.history.show()
    frames()
    assert screen.ids.row1.scores == "Annie 22 · Bo 16 · Cy 16"
    tap(screen.ids.row1)
    assert app.sm.current == "past_game"
    past = app.past_game_screen
    assert past.winners == "Winner: Annie" and not past.can_resume
    assert store.session(2).log[0] == Start(("Anna", "Bo", "Cy"))  # the log keeps the name


def test_an_unfinished_game_resumes_from_the_history(app: CompanionApp) -> None:
    app.history.show()
    frames()
    tap(app.history_screen.ids.row0)
    assert app.past_game_screen.can_resume
    assert app.past_game_screen.winners == "Unfinished, round 1"
    tap(find_button(app.past_game_screen, "Resume"))
    assert app.sm is not None and app.sm.current == "table"
    assert app.table is not None and app.table.game == 3
    app.games.leave()


def test_a_game_is_deleted_only_after_a_yes(app: CompanionApp, store: MemoryStore) -> None:
    from kivy.core.window import Window

    app.history.show()
    frames()
    tap(app.history_screen.ids.row2)
    assert app.past_game_screen.game == 1
    tap(find_button(app.past_game_screen, "Delete"))
    Window.children[0].dismiss(animation=False)  # no
    assert [g.game for g in store.history()] == [3, 2, 1]
    tap(find_button(app.past_game_screen, "Delete"))
    Window.children[0].confirm()
    frames()
    assert [g.game for g in store.history()] == [3, 2]
    assert app.sm is not None and app.sm.current == "history"
    assert [app.history_screen.ids[f"row{i}"].game for i in range(2)] == [3, 2]
    assert app.history_screen.ids.row2.opacity == 0


def test_statistics_screen_shows_each_players_figures(app: CompanionApp) -> None:
    app.stats.show()
    frames()
    screen = app.stats_screen
    assert screen.heading == "1 finished game"
    assert (screen.ids.row0.player, screen.ids.row0.figures) == (
        "Annie", "1 game · 1 win (100%) · mean 22 · best 22",
    )  # fmt: skip
    assert screen.ids.row0.rounds == "busted in 0% of rounds · gems a round: 4.4 · 0 artifacts"
    assert screen.ids.row0.against == "Against: Bo 1-0-0, Cy 1-0-0"
    assert screen.ids.chart.series == [[22], [16]]
    assert screen.can_later and not screen.can_earlier


def test_a_merge_asks_first_then_joins_the_two(app: CompanionApp, store: MemoryStore) -> None:
    from kivy.core.window import Window

    app.setup.show()
    app.players.open()
    window = app.players_window
    by_name = {c.name: c for c in window.chips}
    window.set_mode("merge")
    window.tap(by_name["Dee"])
    window.tap(by_name["Ana"])  # they sat at game 3 together: two people
    Window.children[0].confirm()
    assert window.said == "Ana and Dee played at one table: two people, not one."
    assert "Dee" in [p.name for p in store.players()]
    window.set_mode("merge")
    window.tap(by_name["Annie"])
    assert window.said == "Now tap the spelling to keep for Annie."
    window.tap(by_name["Ana"])
    Window.children[0].confirm()  # the question over the window
    frames()
    assert sorted(p.name for p in store.players()) == ["Ana", "Bo", "Cy", "Dee"]
    assert [g.players for g in store.history()] == [("Ana", "Bo", "Dee"), ("Ana", "Bo", "Cy")]
    window.dismiss(animation=False)


def test_statistics_of_a_group(app: CompanionApp, store: MemoryStore) -> None:
    store_game(store, ("Ana", "Bo", "Cy"), GAME_1)  # with game 2 (Annie, now Ana): a group
    app.stats.show()
    frames()
    tap(find_button(app.stats_screen, "Groups"))
    screen = app.stats_screen
    assert (screen.mode, screen.heading) == ("groups", "2 finished games")
    assert screen.ids.row0.player == "Ana, Bo, Cy"
    assert screen.ids.row0.figures == "2 games together · wins: Ana 1, Bo 1, Cy 0"
    assert screen.ids.row0.rounds == "mean score: Ana 21, Bo 20.5, Cy 15"
    assert screen.ids.chart.series == [[22, 20], [16, 25], [16, 14]]
    assert not screen.can_later  # one group
    tap(find_button(app.stats_screen, "Players"))
    assert screen.mode == "players"


def test_rename_by_touch_with_the_on_screen_keyboard(app: CompanionApp, store: MemoryStore) -> None:
    from kivy.core.window import Window

    from ui.players import RenamePlayer

    app.players.open()
    window = app.players_window
    window.set_mode("rename")
    window.tap(next(c for c in window.chips if c.name == "Dee"))
    rename = Window.children[0]
    assert isinstance(rename, RenamePlayer)
    rename.ids.name.text = "Bo"
    rename.done()  # another player's name: said, and the window stays
    assert rename.problem == "Bo is another player's name already." and rename.parent
    rename.ids.name.text = ""
    for key in ("d", "i"):
        rename.keyboard.press(key)
    assert rename.ids.name.text == "di"
    rename.done()
    assert rename.parent is None
    assert sorted(p.name for p in store.players()) == ["Ana", "Bo", "Cy", "di"]
    window.dismiss(animation=False)


def test_history_row_words(utc: None) -> None:
    summary = GameSummary(
        "incan-gold-2020", True,
        (SeatResult("Ana", 20, 20, 1, 5, 0, False), SeatResult("Bo", 25, 20, 1, 5, 1, True),
         SeatResult("Cy", 25, 25, 0, 5, 0, True)),
    )  # fmt: skip
    row = hp.history_row(Played(7, "2026-11-23T18:05:00.000+00:00", summary, ("Ana", "Bo", "Cy")))
    assert row.title == "11/23/26, 6:05\u202fPM · Incan Gold (2020) · Winners: Bo, Cy"
    assert row.scores == "Bo 25 · Cy 25 · Ana 20"


def test_against_names_the_three_met_most() -> None:
    h2h = (HeadToHead("Ana", 2, 1, 1, 0), HeadToHead("Bo", 5, 4, 1, 0),
           HeadToHead("Cy", 2, 0, 2, 0), HeadToHead("Dee", 1, 1, 0, 0))  # fmt: skip
    assert hp.against(h2h) == "Against: Bo 4-1-0, Ana 1-1-0, Cy 0-2-0"
    p = PlayerStats("Ana", 3, 1, 50, 25, 2, 15, 60, 1, h2h)
    assert hp.stats_row(p, hp.DEFAULT_COLOUR).figures == (
        "3 games · 1 win (33%) · mean 16.7 · best 25"
    )


def test_an_unfinished_game_with_hidden_tents_shows_no_score_in_the_history(
    app: CompanionApp, store: MemoryStore
) -> None:
    """New game from the menu keeps the game on the table, to resume; its tents
    were hidden there and were shown in full from the history, best first."""
    from companion.remembered import GameOption, flag
    from ui.kivyfree.presenters import HIDDEN

    # T11A among three: 3 each, 2 left; Ana leaves with 3 + 2, the others go on.
    game = store_game(store, ("Ana", "Bo", "Cy"), ("T11A", [0]))
    store.set_option(game, GameOption.HIDDEN_TENTS, flag(True))
    try:
        app.history.show()
        frames()
        screen = app.history_screen
        assert screen.ids.row0.game == game
        assert screen.ids.row0.scores == f"Ana {HIDDEN} · Bo {HIDDEN} · Cy {HIDDEN}"
        assert HIDDEN not in screen.ids.row1.scores  # a game played with its tents shown
        tap(screen.ids.row0)
        past = app.past_game_screen
        assert app.sm is not None and app.sm.current == "past_game" and past.can_resume
        frames()
        # Each row's words: name, tent, artifacts, score; seats in their order, no place.
        shown = [[" ".join(p.text for p in cell).strip() for cell in row.cells]
                 for row in past.ids.scores.rows]
        assert shown == [["Ana", HIDDEN, "-", HIDDEN], ["Bo", HIDDEN, "-", HIDDEN],
                         ["Cy", HIDDEN, "-", HIDDEN]]
        assert past.ids.chart.series == [[], [], []]  # no line to read the scores from
    finally:
        store.delete_game(game)
