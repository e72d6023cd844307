"""The app on a real offscreen Kivy window: touches, the picker, undo, screenshots.

One App per process (Kivy's rule), shared by every test here through a
module-scoped fixture; the tests run in file order and each says what state
it leaves. Screenshots go to ``out/screenshots/`` to be looked at.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from ui_helpers import (  # noqa: E402
    find_button,
    frames,
    frames_until,
    tap,
    widgets_left_for_the_collector,
)

from companion.choices import Choice  # noqa: E402
from companion.engine import Phase, Unplayable  # noqa: E402
from companion.events import Draw, Reveal, Start  # noqa: E402
from companion.games import Games  # noqa: E402
from companion.inbox import Inbox  # noqa: E402
from companion.memory import MemoryStore  # noqa: E402
from companion.notices import CannotCome, Failed, Step  # noqa: E402
from companion.ports import direct  # noqa: E402
from companion.simulate import VirtualClock  # noqa: E402
from companion.table import Table  # noqa: E402
from hardware.keyboard import KeyboardSeats  # noqa: E402
from ui.app import CompanionApp  # noqa: E402
from ui.kivyfree import presenters  # noqa: E402
from ui.kivyfree.controls import Controls  # noqa: E402
from ui.kivyfree.cues import Cue  # noqa: E402
from ui.kivyfree.notice_words import notice_text  # noqa: E402

SHOTS = Path(__file__).resolve().parent.parent / "out" / "screenshots"
COUNTDOWN = 1.0


@pytest.fixture(scope="module")
def clock() -> VirtualClock:
    return VirtualClock(0.0)


@pytest.fixture(scope="module")
def app(clock: VirtualClock) -> Iterator[CompanionApp]:
    games = Games(MemoryStore(), countdown=COUNTDOWN, clock=clock)
    inbox = Inbox(games, direct)

    def seats() -> int:
        return 0 if games.table is None else len(games.table.state.seats)

    keyboard = KeyboardSeats(inbox.press, seats)  # the keyboard stands in for the buttons
    the_app = CompanionApp(games, Controls(key=keyboard.key))
    the_app._run_prepare()
    frames(3)
    yield the_app
    the_app.stop()
    frames(1)






def shot(app: CompanionApp, name: str) -> Path:
    frames(3)
    path = app.save_screenshot(SHOTS / f"{name}.png")
    assert path.exists() and path.stat().st_size > 5000
    return path


def seat_texts(app: CompanionApp) -> list[tuple[str, str, str]]:
    rows = list(reversed(app.table_screen.ids.seats.children))
    return [(r.name, r.hand, r.banked) for r in rows]


def reveal(table: Table, clock: VirtualClock, camp: tuple[int, ...] = ()) -> None:
    """Every seat due chooses (the ``camp`` seats camp) and the countdown runs out."""
    for seat in sorted(table.collector.due):
        assert table.press(seat, Choice.CAMP if seat in camp else Choice.TORCH)
    clock.advance(COUNTDOWN)
    assert table.tick()
    assert table.session.log[-1] == Reveal(camp)




# --- set-up ---------------------------------------------------------------------------


def test_the_language_buttons_translate_every_screen_and_are_remembered(
    app: CompanionApp,
) -> None:
    from ui.kivyfree import i18n

    setup = app.setup_screen
    setup.ids.name0.text = "Agnieszka"
    setup.seat_count = 6
    tap(find_button(setup, "Polski"))
    assert i18n.language() == "pl"
    setup = app.setup_screen  # built anew in Polish
    assert find_button(setup, "Rozpocznij") is not None
    assert find_button(app.table_screen, "Cofnij") is not None  # "Undo"
    assert setup.ids.name0.text == "Agnieszka"  # typed: kept
    assert setup.ids.name1.text == "Gracz 2"  # the placeholder: translated
    assert setup.seat_count == 6
    assert find_button(setup, "Polski").state == "down"  # shown as the chosen one
    assert find_button(setup, "English").state == "normal"
    assert app.games.chosen_language() == "pl"
    shot(app, "0-setup-pl")
    tap(find_button(setup, "English"))
    assert i18n.language() == "en" and app.games.chosen_language() == "en"
    setup = app.setup_screen
    assert setup.ids.name1.text == "Player 2"
    setup.ids.name0.text = "Player 1"
    setup.seat_count = 4


def test_setup_screen_starts_a_game(app: CompanionApp) -> None:
    assert app.sm is not None and app.sm.current == "setup"
    setup = app.setup_screen
    tap(find_button(setup, "+"))
    assert setup.seat_count == 5
    setup.ids.name0.text = "Ana"
    setup.ids.name1.text = "Bo"
    setup.ids.name2.text = "Cy"
    setup.ids.name3.text = "Dee"
    setup.ids.name4.text = "Dee"
    tap(find_button(setup, "Start"))
    assert setup.problem == "Two seats are called Dee."
    setup.ids.name4.text = "Eli"
    # A tapped button stays down for Kivy's min_state_time (35 ms): the
    # screenshot shows the screen after the refusal, not the touch's moment.
    start = find_button(setup, "Start")
    frames_until(lambda: start.state == "normal")
    shot(app, "1-setup")
    tap(start)
    assert app.sm.current == "table"
    assert app.table is not None
    assert [s.name for s in app.table.state.seats] == ["Ana", "Bo", "Cy", "Dee", "Eli"]


# --- the table: a scan, the payout, a fix by touch ------------------------------------------


def test_a_scanned_card_shows_its_payout(app: CompanionApp) -> None:
    table = app.table
    assert table is not None
    table.scan("T11A")
    frames(2)
    screen = app.table_screen
    assert screen.event == "11 split 5 ways: 2 each, 1 left on the card."
    assert "Gems for each: 0 × 10, 0 × 5, 2 × 1" in screen.extra.splitlines()  # noqa: RUF001
    assert seat_texts(app)[0] == ("Ana", "2", "0")
    cards = screen.ids.path.cards
    assert [c.title for c in cards] == ["11"] and cards[0].left == "1 left"


def test_touch_a_path_card_pick_another_and_the_numbers_change(app: CompanionApp) -> None:
    screen = app.table_screen
    tap(screen.ids.path.cards[0])
    picker = app.picker
    assert picker is not None
    assert picker.title == "Card 1 is really… (now: treasure 11)"
    titles = [f.title for f in picker.faces]
    assert "15" in titles and "11" in titles  # the other 11 (T11B) is possible
    shot(app, "3-picker")
    fifteen = next(f for f in picker.faces if f.title == "15")
    tap(fifteen)
    assert app.picker is None
    assert app.table is not None
    assert app.table.state.path[0].card == "T15"
    assert screen.event == "15 split 5 ways: 3 each, 0 left on the card." or screen.event == (
        "15 split 5 ways: 3 each."
    )
    assert seat_texts(app)[0] == ("Ana", "3", "0")
    # What the correction changed is said, as undo says what it took back.
    assert screen.status.endswith(
        " · Card 1: treasure 11 → treasure 15; Ana, Bo, Cy, Dee and Eli: hands 2 → 3"
    )


def test_undo_button_takes_back_the_correction(app: CompanionApp) -> None:
    tap(find_button(app.table_screen, "Undo"))
    assert app.table is not None
    assert app.table.state.path[0].card == "T11A"
    assert seat_texts(app)[0] == ("Ana", "2", "0")


def test_keys_choose_and_the_countdown_reveals(app: CompanionApp, clock: VirtualClock) -> None:
    table = app.table
    assert table is not None
    for key in ("q", "2", "3", "4", "5"):  # Ana camps, the others go on
        assert app.controls.key(key)
    frames(2)
    assert app.table_screen.countdown == "1"
    assert [r.chosen for r in reversed(app.table_screen.ids.seats.children)] == [True] * 5
    shot(app, "2-table-countdown")
    clock.advance(COUNTDOWN)
    app.tick(0.1)  # what the app's interval does every 0.1 s
    frames(2)
    assert table.state.seats[0].banked == 3
    assert app.table_screen.event == "Ana leaves: 1 from the path."
    assert seat_texts(app)[0] == ("Ana", "0", "3")


def test_entering_a_card_by_hand(app: CompanionApp, monkeypatch: pytest.MonkeyPatch) -> None:
    tap(find_button(app.table_screen, "Enter card"))
    picker = app.picker
    assert picker is not None and picker.title == "Which card was turned?"
    spiders = next(f for f in picker.faces if f.title == "Spiders")
    tap(spiders)
    assert app.table is not None
    assert app.table.state.path[-1].card.startswith("SPIDER")
    assert app.table_screen.event == "Spiders: nothing happens yet; a second one ends the round."
    # With no camera every card comes through the picker: it is the same one
    # each time, its faces shown anew, with nothing left for the cycle collector.
    with widgets_left_for_the_collector() as left:
        tap(find_button(app.table_screen, "Enter card"))
        again = app.picker
        assert again is picker and again.title == "Which card was turned?"
        assert [f.title for f in again.faces if f.title == "Spiders"] == ["Spiders"]
        again.dismiss(animation=False)
        frames(2)
    assert left == set()
    # With a camera a pick is a correction now and then: the picker is freed
    # once it is closed, not kept.
    import gc
    import weakref
    from dataclasses import replace

    monkeypatch.setattr(app, "controls", replace(app.controls, camera=True))
    tap(find_button(app.table_screen, "Enter card"))
    assert app.picker is not None and app.picker is not picker
    made = weakref.ref(app.picker)
    app.picker.dismiss(animation=False)
    frames(2)
    gc.collect()
    assert app.picker is None and made() is None


def test_a_refused_card_is_a_notice_not_a_crash(app: CompanionApp) -> None:
    assert app.table is not None
    app.table.scan("T11A")  # already on the path, not the last card
    frames(2)
    assert app.table.notice is not None
    reason = app.table.notice.reason
    assert reason == CannotCome("T11A", Unplayable.ON_PATH)
    assert notice_text(reason) == "Treasure 11 (T11A) is already on the path."
    assert "Treasure 11 (T11A) is already on the path." in app.table_screen.status


def test_a_failing_adapter_shows_in_the_status_line(
    app: CompanionApp, clock: VirtualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise OSError("disk gone")

    table = app.table
    assert table is not None
    with monkeypatch.context() as patch:
        patch.setattr(table.store, "append", broken)
        for key in ("2", "3", "4", "5"):
            app.controls.key(key)
        clock.advance(COUNTDOWN)
        app.tick(0.1)
        frames(2)
    assert table.notice is not None
    assert table.notice.reason == Failed(Step.SAVE, "disk gone")
    assert notice_text(table.notice.reason) == (
        "Could not save the game, the step was not taken: disk gone"
    )
    assert "Could not save the game, the step was not taken: disk gone" in (
        app.table_screen.status
    )
    assert app.table_screen.status_colour == (1, 0.45, 0.4, 1)


# --- a full table, the round end and the game end -------------------------------------------


def full_path_game(app: CompanionApp, clock: VirtualClock) -> None:
    names = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal")
    table = app.games.new_game(Start(names, "incan-gold"))
    app.attach(table)
    cards = ["T1", "T2", "T3", "T4", "T5A", "T5B", "T7A", "T7B", "T9", "A1", "T11A", "SNAKE1",
             "T11B", "T13", "SPIDER1", "T14", "MUMMY1", "T15", "FIRE1", "T17"]  # fmt: skip
    for i, c in enumerate(cards):
        table.enter_card(c)
        if i < len(cards) - 1:
            camp = (2,) if c == "T5A" else (5,) if c == "T11B" else ()
            reveal(table, clock, camp)
    frames(3)


def test_full_path_and_eight_seats_fit(app: CompanionApp, clock: VirtualClock) -> None:
    """Frame time of this screen is measured by bench/ui.py, not here."""
    full_path_game(app, clock)
    screen = app.table_screen
    cards = screen.ids.path.cards
    assert len(cards) == 20
    area = screen.ids.path
    for c in cards:  # every card inside the path area: no overflow
        assert c.x >= area.x - 1 and c.right <= area.right + 1
        assert c.y >= area.y - 1 and c.top <= area.top + 1
    rows = list(screen.ids.seats.children)
    assert len(rows) == 8 and all(r.height >= 24 for r in rows)
    shot(app, "4-table-full")


def test_round_end_screen(app: CompanionApp, clock: VirtualClock) -> None:
    table = app.table
    assert table is not None
    reveal(table, clock, ())
    frames(2)
    assert app.sounds.asked[-1] is Cue.REVEAL
    asked = len(app.sounds.asked)
    table.enter_card("SNAKE2")  # second snakes: the round ends
    frames(3)
    assert app.sounds.asked[asked:] == [Cue.BUST, Cue.ROUND_END]
    # The bust is a moment: the table holds, the pair lit, until a tap.
    assert app.sm is not None and app.sm.current == "table"
    assert app.table_screen.bust == (
        "Second snakes! Everyone still in the temple loses their gems."
    )
    lit = [c.card for c in app.table_screen.ids.path.chips if c.highlight]
    assert sorted(lit) == ["SNAKE1", "SNAKE2"]
    shot(app, "5-bust")
    bust_seen: list[CompanionApp] = []  # the benchmarks' hook: the summary after the bust
    app.on_bust_seen.append(bust_seen.append)
    tap(app.table_screen)
    assert app.sm.current == "round_end"
    assert bust_seen == [app]
    screen = app.round_end_screen
    assert screen.heading == "Round 1 is over"
    assert "Take one snakes card (SNAKE2) out of the game." in screen.todo
    assert "Shuffle artifact 2 (A2) into the deck for round 2." in screen.todo
    shot(app, "5-round-end")
    tap(find_button(screen, "Show the table"))
    assert app.sm.current == "table"


def test_a_score_table_shown_again_shows_only_its_new_rows(app: CompanionApp) -> None:
    from ui.round_end_screen import GOLD, CellLabel, Column, HeaderLabel, Part, Row, ScoreTable

    table: ScoreTable = app.round_end_screen.ids.table
    before = (table.columns, table.rows)
    columns = [Column("Seat", "name", "left"), Column("Score", "score")]
    red, blue = (1.0, 0.0, 0.0, 1.0), (0.0, 0.0, 1.0, 1.0)

    eight = [Row(((Part(f"Seat {n}", red),), (Part(str(n), bold=False),)), red)
             for n in range(8)]
    table.show(columns, eight)
    frames(1)
    # two headers and a label a column, each row a line of it
    assert len(table.children) == 2 + 2
    made = {id(lab) for lab in table.children}
    three = [Row(((Part(f"P{n}", blue, bold=False),), (Part(str(10 * n)),)), blue)
             for n in range(3)]
    table.show([Column("Who", "name", "left"), Column("Pts", "score")], three)
    frames(1)
    assert {id(lab) for lab in table.children} == made  # the same labels, shown again
    heads = sorted(lab.text for lab in table.children if isinstance(lab, HeaderLabel))
    cells = [lab for lab in reversed(table.children) if isinstance(lab, CellLabel)]
    assert heads == ["Pts", "Who"]
    # a part's colour when none is given is white; a score is bold, a name here
    # not: a column of one weight is the label's own
    assert [lab.text.split("\n") for lab in cells] == [
        [f"[color=#0000ffff]P{n}[/color]" for n in range(3)],
        [f"[color=#ffffffff]{10 * n}[/color]" for n in range(3)],
    ]
    assert [(lab.markup, lab.bold) for lab in cells] == [(True, False), (True, True)]
    # each line as tall as a row, its text lowered to the row's middle: Kivy
    # makes the last line as tall as its text only
    for lab in cells:
        row = lab.height / 3
        text = lab.texture_size[1] - 2 * row
        assert abs(lab.drop - (row - text) / 2) <= 0.5
        assert text >= lab.font_size and row >= text
    # a column of both weights: the bold parts in [b], the space between
    # parts bold in a bold column; an empty cell keeps its line
    mixed = [Row(((Part("[A]&"),), (Part("3", bold=False), Part("5", GOLD))), blue),
             Row(((Part("B"),), (Part(""),)), blue)]
    table.show([Column("", "name", "left"), Column("", "score")], mixed)
    frames(1)
    cells = [lab for lab in reversed(table.children) if isinstance(lab, CellLabel)]
    assert [lab.text for lab in cells] == [
        "[color=#ffffffff]&bl;A&br;&amp;[/color]\n[color=#ffffffff]B[/color]",  # a name as typed
        "[color=#ffffffff]3[/color][b] [/b][b][color=#ffdb59ff]5[/color][/b]\n\u00a0",
    ]
    assert [lab.bold for lab in cells] == [True, False]
    table.show(*before)  # as the round left it
    frames(1)


def test_game_over_screen(app: CompanionApp, clock: VirtualClock,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    table = app.table
    assert table is not None
    # Rounds 2 to 5: one card, everyone leaves.
    for card in ("T3", "T4", "T5A", "T7A"):
        table.enter_card(card)
        reveal(table, clock, tuple(table.state.due))
    frames(3)
    assert table.state.phase is Phase.GAME_OVER
    # Round 5 has its summary too, then the final scores.
    assert app.sm is not None and app.sm.current == "round_end"
    tap(find_button(app.round_end_screen, "Final scores"))
    assert app.sm.current == "game_over"
    screen = app.game_over_screen
    assert screen.winners.startswith("Winner")
    assert len(screen.ids.chart.series) == 8
    assert all(len(s) == 5 for s in screen.ids.chart.series)
    shot(app, "6-game-over")
    # A review that cannot be worked out says so, and is not left "working out".
    def fails(*_a: object, **_k: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    with monkeypatch.context() as m:
        m.setattr(presenters, "review_view", fails)
        tap(find_button(screen, "Review"))
        panel = app.review_view
        assert panel is not None
        panel.finish()
    assert panel.failed and not panel.ready
    assert panel.explain == "The review could not be worked out. The game and its scores are kept."
    assert not panel.ids.rows.children
    assert find_button(panel, "Largest swings").disabled
    tap(find_button(panel, "Back"))
    assert app.review_view is None
    # The review: a row a seat, each with its choices and its luck.
    tap(find_button(screen, "Review"))
    panel = app.review_view
    assert panel is not None
    # Worked out on a thread of its own: the panel opens at once, saying so.
    assert panel.explain == "Working out every decision of the game…"
    panel.finish()
    texts = [w.text for w in panel.ids.rows.children[::-1]]
    assert texts[:4] == ["seat", "score", "choices", "luck"]
    assert texts[4:8:1][0] == "Ana" and len(texts) == 4 * 9
    shot(app, "6r-review")
    tap(find_button(panel, "Back"))
    assert app.review_view is None


def test_hidden_tents_on_screen(app: CompanionApp, clock: VirtualClock) -> None:
    app.hidden_tents = True
    table = app.games.new_game(Start(("Ana", "Bo", "Cy"), "diamant"))
    app.attach(table)
    table.enter_card("T9")
    reveal(table, clock, (0,))
    frames(2)
    assert [b for _n, _h, b in seat_texts(app)] == ["•••", "•••", "•••"]
    stored = app.games.store.session(table.game).log
    assert stored[-2:] == (Draw("T9"), Reveal((0,)))
    app.hidden_tents = False


def test_a_resumed_game_keeps_the_hidden_tents_it_was_started_with(
    app: CompanionApp, clock: VirtualClock
) -> None:
    app.setup.start_game(["Ana", "Bo", "Cy"], "diamant", True)
    assert app.table is not None
    game = app.table.game
    app.table.enter_card("T9")
    reveal(app.table, clock, (0,))
    app.hidden_tents = False  # as after a power cut, with the config's default
    app.setup.show()
    app.setup.resume_game()
    frames(2)
    assert app.table is not None and app.table.game == game
    assert app.hidden_tents is True
    assert [b for _n, _h, b in seat_texts(app)] == ["•••", "•••", "•••"]
    assert app.games.hidden_tents(game) is True
    app.hidden_tents = False


def test_a_bot_seat_and_the_box_chosen_at_set_up(app: CompanionApp, clock: VirtualClock) -> None:
    app.games.leave()
    app.setup.show()
    frames(2)
    setup = app.setup_screen
    setup.seat_count = 3
    for i, name in enumerate(("Ana", "Bo", "Cy")):
        setup.name_inputs[i].text = name
    frames(2)
    tap(find_button(setup, "Box: 15 treasures"))
    assert setup.deck == "14-treasures"
    tap(find_button(setup, "Bots: none"))
    popup = setup.bots_popup
    assert popup is not None
    for _turn in range(3):  # person -> cautious -> greedy -> random
        tap(popup.buttons[2])
    assert popup.buttons[2].text == "bot: random"
    for _turn in range(3):  # ... and every seat a bot is refused at the start
        tap(popup.buttons[0])
        tap(popup.buttons[1])
    tap(find_button(popup, "Done"))
    assert setup.bots_text == "Bots: 3 seats"
    tap(find_button(setup, "Start"))
    assert setup.problem == "At least one seat must be a person."
    tap(find_button(setup, "Bots: 3 seats"))
    tap(setup.bots_popup.buttons[0])  # random -> expert -> person
    tap(setup.bots_popup.buttons[0])
    tap(find_button(setup.bots_popup, "Done"))
    tap(find_button(setup, "Start"))
    table = app.table
    assert app.sm is not None and app.sm.current == "table" and table is not None
    start = table.session.start_event
    assert start.deck == "14-treasures"
    assert start.bots == ((1, "random"), (2, "random"))
    assert [r for r, _h, _b in seat_texts(app)] == ["Ana", "\u25c6 Bo", "\u25c6 Cy"]
    assert app.games.last_deck() == "14-treasures"
    assert not table.enter_card("T17")  # not in this box
    table.enter_card("T9")
    frames(2)
    assert table.collector.chosen == {1, 2}  # the bots chose at once
    assert not table.press(1, Choice.CAMP)  # a bot seat's buttons do nothing
    shot(app, "7-bots")


def test_only_kivys_cut_buffer_alarm_is_kept_off_the_console() -> None:
    import logging

    from kivy.logger import Logger

    configure(quiet=True, fast=True)  # again, as every command and test module does

    def record(msg: str) -> logging.LogRecord:
        return logging.LogRecord("kivy", logging.CRITICAL, __file__, 1, msg, None, None)

    assert not Logger.filter(record("Cutbuffer: Unable to find any valuable Cutbuffer provider"))
    assert Logger.filter(record("Clipboard: Unable to find any valuable Clipboard provider"))
    assert len(Logger.filters) == len({type(f) for f in Logger.filters})


def test_a_seat_icon_draws_its_status_alone_in_one_shape(app: CompanionApp, tmp_path: Path) -> None:
    """Each status is its own shape in its own colour, centred on the icon
    wherever its row lays it out, and only that shape is drawn: one
    instruction an icon (each costs a software renderer about 50 KB and a draw
    every frame), pixel for pixel what five instructions with the other shapes
    made transparent drew before (compared when it was changed)."""
    import cv2
    import numpy as np
    from kivy.core.window import Window
    from kivy.graphics import Color, Rectangle
    from kivy.graphics.instructions import VertexInstruction
    from kivy.uix.boxlayout import BoxLayout

    from ui.widgets import SEAT_ICON_COLOURS, SeatIcon

    # A row as the table's: it gives the icons their height and place after
    # they are made, as SeatRow does.
    row = BoxLayout(size_hint=(None, None), size=(260, 40), pos=(20, 20), spacing=20)
    with row.canvas.before:
        Color(0, 0, 0, 1)
        Rectangle(pos=(0, 0), size=(300, 80))
    statuses = ("in", "camp", "busted", "")
    icons = [SeatIcon(size_hint_x=None, width=40) for _ in statuses]
    for icon, status in zip(icons, statuses, strict=True):
        icon.status_key = status
        row.add_widget(icon)
    Window.add_widget(row)
    try:
        def colours_shown() -> list[set[str]]:
            frames(3)
            read = cv2.imread(str(app.save_screenshot(tmp_path / "icons.png")))
            assert read is not None
            shot = np.asarray(read, dtype=np.int16)
            height = shot.shape[0]
            shown = []
            for icon in icons:
                # The icon's box and 10 px around it (screen rows count from the top).
                left, bottom = int(icon.x) - 10, int(icon.y) - 10
                box = shot[height - bottom - 60: height - bottom, left: left + 60]
                found = set()
                for name, (r, g, b, _a) in SEAT_ICON_COLOURS.items():
                    bgr = np.array([round(b * 255), round(g * 255), round(r * 255)])
                    rows, cols = np.nonzero(np.abs(box - bgr).max(axis=2) <= 2)
                    if len(rows) < 60:
                        continue
                    found.add(name)
                    # Centred on the icon, and inside it.
                    assert abs(left + cols.mean() - icon.center_x) <= 4
                    assert abs(bottom + 60 - rows.mean() - icon.center_y) <= 4
                    assert left + cols.min() >= icon.x and left + cols.max() < icon.right
                shown.append(found)
            return shown

        assert colours_shown() == [{"in"}, {"camp"}, {"busted"}, set()]
        for icon in icons:
            assert sum(isinstance(c, VertexInstruction) for c in icon.canvas.children) == 1
        icons[0].status_key, icons[2].status_key = "busted", ""  # a seat busts; one is not in play
        assert colours_shown() == [{"busted"}, {"camp"}, set(), set()]
    finally:
        Window.remove_widget(row)


def test_a_seat_row_draws_its_choice_light_and_artifacts_only_while_they_show(
    app: CompanionApp, tmp_path: Path
) -> None:
    """A seat with no choice due has no light drawn, not a transparent one, and
    a seat with no artifact has no label in its artifacts' column: each would
    hold a software renderer's 50 KB and a draw every frame, on every row of
    the table for most of a game. What shows is drawn where it was before."""
    import cv2
    import numpy as np
    from kivy.core.window import Window
    from kivy.graphics import Ellipse
    from kivy.uix.label import Label

    from ui import kv
    from ui.kivyfree.presenters import SeatView
    from ui.widgets import SeatRow

    kv.load("pieces.kv")
    row = SeatRow(size_hint=(None, None), size=(400, 40), pos=(20, 20))
    Window.add_widget(row)

    def seat(choice: str, chosen: bool, worth: str) -> SeatView:
        status = "in" if choice else "camp"
        return SeatView(0, "Ana", (0.9, 0.3, 0.3, 1), status, status, "3", "12",
                        "5" if worth else "", choice, chosen, worth)

    def drawn() -> tuple[int, list[str]]:
        frames(2)
        dots = 0
        stack = [row.canvas]
        while stack:  # the row's canvas holds its children's, and groups nest
            group = stack.pop()
            dots += sum(isinstance(c, Ellipse) for c in group.children)
            stack += [c for c in group.children if hasattr(c, "children")]
            stack += [getattr(group, part) for part in ("before", "after") if hasattr(group, part)]
        labels = [w.text for w in row.walk(restrict=True) if isinstance(w, Label)]
        return dots, labels

    def light() -> set[str]:
        read = cv2.imread(str(app.save_screenshot(tmp_path / "row.png")))
        assert read is not None
        shot = np.asarray(read, dtype=np.int16)
        dot = row.children[0]  # the light's column, last in the row
        x, y = int(dot.center_x), shot.shape[0] - int(dot.center_y)
        b, g, r = shot[y, x]
        return {name for name, (rr, gg, bb) in (("green", (77, 255, 102)),
                                                   ("grey", (140, 140, 140)))
                if max(abs(r - rr), abs(g - gg), abs(b - bb)) <= 2}

    try:
        row.columns = [8, 120, 28, 40, 40, 40, 40]
        row.show(seat("", False, ""))  # in camp, no artifact
        assert drawn() == (0, ["Ana", "3", "12"])
        assert light() == set()
        row.show(seat("choosing…", False, ""))
        assert drawn() == (1, ["Ana", "3", "12"])
        assert light() == {"grey"}
        row.show(seat("chosen", True, "15"))
        assert drawn() == (1, ["Ana", "3", "12", "15"])
        assert light() == {"green"}
        row.show(seat("", False, "15"))  # the light goes out; the artifacts stay
        assert drawn() == (0, ["Ana", "3", "12", "15"])
        assert light() == set()
        row.with_artifacts = False  # a rule set with no artifacts
        assert drawn() == (0, ["Ana", "3", "12"])
    finally:
        Window.remove_widget(row)


def test_a_path_tile_draws_its_ring_and_its_bar_only_while_they_show(app: CompanionApp) -> None:
    """The bust's red ring (under the tile) and the taker's bar (over it) are
    drawn on the tiles that show them, and taken off a tile used again for a
    card that has neither (the path keeps its tiles from round to round)."""

    from kivy.graphics import RoundedRectangle
    from kivy.metrics import dp

    from ui import kv
    from ui.widgets import PathChip

    kv.load("pieces.kv")
    chip = PathChip(size_hint=(None, None), size=(60, 70), pos=(100, 100))

    def rounded(group: Any) -> list[tuple[float, ...]]:
        """The rounded rectangles under the tile's picture, as (x, y, w, h), in
        the order they are drawn."""
        found: list[tuple[float, ...]] = []
        for c in group.children:
            if isinstance(c, RoundedRectangle):
                found.append(tuple(round(v, 3) for v in (*c.pos, *c.size)))
            elif hasattr(c, "children"):
                found += rounded(c)
        return found

    def ring(x: float, y: float) -> tuple[float, ...]:
        return tuple(round(v, 3) for v in (x - dp(2), y - dp(2), 60 + dp(4), 70 + dp(4)))

    def bar(x: float, y: float) -> tuple[float, ...]:
        return tuple(round(v, 3) for v in (x + dp(3), y + dp(3), 60 - dp(6), dp(9)))

    tile = (100, 100, 60, 70)
    assert rounded(chip.canvas.before) == [tile]  # the tile alone
    chip.highlight = True
    chip.taker = (0.2, 0.6, 1.0, 1.0)
    assert rounded(chip.canvas.before) == [ring(100, 100), tile, bar(100, 100)]  # under, over
    chip.pos = (200, 100)  # the ring and the bar follow the tile
    frames(1)  # the kv rule moves the tile at the next frame
    tile = (200, 100, 60, 70)
    assert rounded(chip.canvas.before) == [ring(200, 100), tile, bar(200, 100)]
    chip.highlight = False
    chip.taker = (0, 0, 0, 0)
    assert rounded(chip.canvas.before) == [tile]
    chip.highlight = True  # shown again
    assert rounded(chip.canvas.before) == [ring(200, 100), tile]


def test_a_path_tile_holds_only_the_numbers_it_shows(app: CompanionApp) -> None:
    """A tile's empty numbers (no leftover, no odds, a hazard's value) are out of
    its widgets, not transparent in them, and come back in their drawing order:
    the value, then the leftover's badge, then the odds."""
    from kivy.uix.label import Label

    from ui import kv
    from ui.widgets import PathChip

    kv.load("pieces.kv")
    chip = PathChip(size_hint=(None, None), size=(60, 70), pos=(100, 100))

    def numbers() -> list[str]:
        """The tile's labels in the order they are drawn (Kivy's children run backwards)."""
        return [w.text for w in reversed(chip.children) if isinstance(w, Label)]

    assert numbers() == []
    chip.kind, chip.value = "treasure", "7"
    assert numbers() == ["7"]
    chip.chance = "12%"
    chip.gems = "3"  # a leftover, after the odds: still drawn between the value and the odds
    assert numbers() == ["7", "3", "12%"]
    chip.compact = True  # a bust's moment: the odds step aside
    assert numbers() == ["7", "3"]
    chip.gems, chip.compact = "", False
    assert numbers() == ["7", "12%"]
    chip.value = ""  # used again for a hazard
    assert numbers() == ["12%"]


def test_only_an_artifacts_worth_sits_on_a_badge(app: CompanionApp) -> None:
    """An artifact's worth is drawn on a dark badge, a treasure's number on the
    tile itself: no transparent badge under each of a long path's numbers."""
    from kivy.graphics import Color, RoundedRectangle
    from kivy.metrics import dp

    from ui import kv
    from ui.widgets import PathChip

    kv.load("pieces.kv")
    chip = PathChip(size_hint=(None, None), size=(60, 70), pos=(100, 100))
    value = chip.ids.tile_value

    def badges() -> list[tuple[tuple[float, ...], tuple[float, ...]]]:
        """The value's badges: (colour, (x, y, w, h)), in the order drawn."""
        found, colour = [], (1.0, 1.0, 1.0, 1.0)
        stack = list(reversed(value.canvas.before.children))
        while stack:
            c = stack.pop()
            if isinstance(c, Color):
                colour = tuple(round(v, 2) for v in c.rgba)
            elif isinstance(c, RoundedRectangle):
                found.append((colour, tuple(round(v, 2) for v in (*c.pos, *c.size))))
            elif hasattr(c, "children"):
                stack += reversed(c.children)
        return found

    chip.kind, chip.value = "treasure", "7"
    frames(1)
    assert badges() == []
    chip.kind, chip.value = "artifact", "10"
    frames(1)
    x, y, w, h = value.x, value.y, value.width, value.height
    assert w > 0 and h > 0
    assert badges() == [((0.06, 0.2, 0.42, 0.95),
                         tuple(round(v, 2) for v in (x - dp(2), y, w + dp(4), h)))]
    chip.pos = (200, 100)  # the badge follows its number
    frames(1)
    assert badges()[0][1][:2] == (round(value.x - dp(2), 2), round(value.y, 2))
    assert value.x > 200
    chip.kind, chip.value = "treasure", "9"  # the tile used again for a treasure
    frames(1)
    assert badges() == []


def test_a_label_lays_out_at_most_a_thousand_characters(app: CompanionApp) -> None:
    """Kivy's wrapping costs the square of a text's length: a name of 20,000
    letters held the first screen for 40 s. The label keeps its own text."""
    from kivy.uix.label import Label

    from ui.fonts import MAX_LABEL_CHARS

    label = Label(text="x" * 20_000, text_size=(400, None))
    label.texture_update()
    laid = "".join(w.text for line in label._label._cached_lines for w in line.words)
    assert (len(laid), laid[-2:]) == (MAX_LABEL_CHARS, "x…")
    assert label.text == "x" * 20_000


def test_the_menu_offers_the_switch_only_where_the_system_acts_on_it(
    app: CompanionApp, tmp_path: Path
) -> None:
    """A desktop's menu has no switch at all (not a hidden one); the kiosk's
    asks first, makes its request only on the yes, says what happens next,
    and says why when the request cannot be made."""
    from dataclasses import replace

    from kivy.core.window import Window
    from kivy.uix.button import Button

    from hardware.power import SwitchOffRequest
    from ui.kivyfree import i18n
    from ui.menu import Confirm

    i18n.set_language("en")

    def buttons(root: Any) -> list[str]:
        return [w.text for w in root.walk(restrict=True) if isinstance(w, Button)]

    def top() -> Any:
        frames(1)
        return Window.children[0]

    before = app.controls
    request = tmp_path / "switch-off"
    try:
        from ui.setup_screen import SetupScreen

        assert "Switch off" not in buttons(app.setup_screen)
        assert "switch_off" not in app.setup_screen.ids
        assert "Switch off" in buttons(SetupScreen(can_switch_off=True))  # beside the title
        app.open_menu()
        assert "Switch off" not in buttons(top())
        app.menus.close()
        app.controls = replace(before, switch_off=SwitchOffRequest(str(request)))
        app.open_menu()
        assert "Switch off" in buttons(top())
        app.menus.switch_off()
        ask = top()
        assert isinstance(ask, Confirm) and buttons(ask) == ["Cancel", "Switch off"]
        ask.dismiss(animation=False)  # Cancel: nothing is asked of the system
        assert not request.exists()
        app.menus.switch_off()
        top().confirm()
        told = top()
        assert request.exists() and app.menu is None
        assert isinstance(told, Confirm) and buttons(told) == ["Back"]
        assert told.question == ("Switching off. Unplug the device once the green light"
                                 " on its board has stopped flashing.")
        told.dismiss(animation=False)
        # The runtime folder gone: the reason, and the table as it was.
        app.controls = replace(before, switch_off=SwitchOffRequest(str(tmp_path / "gone" / "x")))
        app.open_menu()
        app.menus.switch_off()
        top().confirm()
        told = top()
        assert told.question == "The device could not be switched off: No such file or directory"
        told.dismiss(animation=False)
    finally:
        app.controls = before
        app.menus.close()
