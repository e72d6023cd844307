"""The table's screen while the phones' pages are on, off, or failed (a real
offscreen Kivy window; the server on loopback)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest

from ui.kivy_setup import configure

configure(quiet=True, fast=True)

from ui_helpers import find_button, frames, tap  # noqa: E402
from web_helpers import phones_app  # noqa: E402

from companion.choices import Choice  # noqa: E402
from companion.games import Games  # noqa: E402
from companion.memory import MemoryStore  # noqa: E402
from companion.simulate import VirtualClock  # noqa: E402
from ui.app import CompanionApp  # noqa: E402
from web.phones import Phones  # noqa: E402

FAILED = "Phones failed, the table plays on"


@pytest.fixture(scope="module")
def app() -> Iterator[CompanionApp]:
    yield from phones_app(Games(MemoryStore(), clock=VirtualClock(0.0)))


def test_the_status_line_says_while_the_phones_are_on_and_when_they_failed(
    app: CompanionApp,
) -> None:
    app.setup.start_game(["Ana", "Bo", "Cy"], "incan-gold", False)
    frames(3)
    phones = app.controls.phones
    assert isinstance(phones, Phones)
    assert "phones" not in app.table_screen.status  # off until the table turns them on
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        phones.port = taken.getsockname()[1]
        app.menus.open_phones()
        frames(2)
        tap(find_button(app.phones_window, "Turn phones on"))
        assert not phones.on
        assert app.phones_window.said.startswith("Phones are off: 127.0.0.1:")
        frames(2)
        assert FAILED in app.table_screen.status
    phones.port = 0
    tap(find_button(app.phones_window, "Turn phones on"))
    assert phones.on
    frames(2)
    status = app.table_screen.status
    assert FAILED not in status and f"phones: {phones.links().watch}" in status
    # New codes: every seat's link changes; the window shows the new one.
    before = [link for _n, link in phones.links().seats]
    shown = app.phones_window.shown
    tap(find_button(app.phones_window, "New codes"))
    after = [link for _n, link in phones.links().seats]
    assert shown == before[0] and app.phones_window.shown == after[0]
    assert all(a != b for a, b in zip(before, after, strict=True))
    tap(find_button(app.phones_window, "Turn phones off"))
    assert not phones.on
    frames(2)
    assert "phones" not in app.table_screen.status
    app.phones_window.dismiss(animation=False)


def test_each_seat_on_the_phones_window_wears_its_colour_as_a_mark(app: CompanionApp) -> None:
    from ui.players import PlayerChip

    phones = app.controls.phones
    assert isinstance(phones, Phones)
    app.setup.start_game(["Ana", "Bo", "Cy"], "incan-gold", False)
    frames(2)
    table = app.table
    assert table is not None
    phones.switch(True)
    app.menus.open_phones()
    frames(2)
    window = app.phones_window
    seats = [b for b in reversed(window.ids.seats.children) if isinstance(b, PlayerChip)]
    # The table's colours (remembered players keep theirs), as marks; the names
    # white, or dark on the lit seat, never drawn in the colour on the button.
    assert [(b.text, b.mark) for b in seats] == [
        (name, list(colour))
        for name, colour in zip(("Ana", "Bo", "Cy"), app.players.seat_colours(table.state),
                                strict=True)]
    assert [b.seated for b in seats] == [True, False, False]
    assert [b.color for b in seats] == [[0.1, 0.08, 0.02, 1], [1, 1, 1, 1], [1, 1, 1, 1]]
    tap(seats[2])
    frames(2)
    seats = [b for b in reversed(window.ids.seats.children) if isinstance(b, PlayerChip)]
    assert [b.seated for b in seats] == [False, False, True]
    window.dismiss(animation=False)
    phones.switch(False)


def test_the_watchers_follow_the_odds_panel_and_hidden_tents(app: CompanionApp) -> None:
    from websockets.sync.client import connect

    phones = app.controls.phones
    assert isinstance(phones, Phones)
    app.setup.start_game(["Ana", "Bo", "Cy"], "incan-gold", True)  # hidden tents
    frames(2)
    assert phones.switch(True)
    table = app.table
    assert table is not None
    base = phones.links().watch.removesuffix("/watch")
    with connect(base.replace("http", "ws") + "/ws/watch", origin=base,
                 proxy=None) as watcher:  # type: ignore[arg-type]

        def view_where(check: Any) -> dict[str, Any]:
            while True:
                frames(1)  # the app's thread makes the views
                message = json.loads(watcher.recv(timeout=10))
                if message["type"] == "table" and message["table"] and check(message["table"]):
                    return dict(message["table"])

        table.enter_card("T5A")
        for seat in (0, 1, 2):
            table.press(seat, Choice.CAMP if seat == 0 else Choice.TORCH)
        app.games.clock.advance(10.0)  # type: ignore[attr-defined]
        assert table.tick()
        shown = view_where(lambda t: t["revealed"] == 1)
        assert [s["banked"] for s in shown["seats"]] == ["•••"] * 3  # Ana banked 3, hidden
        assert shown["odds"] == ""
        app.menus.set_odds(True)
        shown = view_where(lambda t: t["odds"] != "")
        assert shown["odds"].startswith("Next card busts: 0")  # no hazard on the path yet
        app.menus.set_odds(False)
        assert view_where(lambda t: t["odds"] == "")["odds"] == ""
    phones.switch(False)
