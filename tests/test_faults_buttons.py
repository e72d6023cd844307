"""A seat button stuck down does not block the other seats, on a whole device.

The device is built as the app builds it (``incan_companion.compose.build``) with
the seat panel on gpiozero's MockFactory (``hardware.fake.MockSeats``, the
demo's pins) and the default pin map; presses reach the table through
``post``, drained by the test thread as the Kivy clock would. Time is fake,
shared by the debouncer and the reveal countdown.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import load_bench

from companion.choices import Choice
from companion.engine import Phase
from companion.events import Draw, Reveal, Start
from companion.simulate import VirtualClock
from hardware.fake import MockSeats
from incan_companion.config import Config
from storage import Store
from ui import presenters

ROOT = Path(__file__).resolve().parent.parent
T, C = Choice.TORCH, Choice.CAMP
SEATS = ("Ana", "Bo", "Cy", "Dee")


faults = load_bench("faults")


class Rig:
    def __init__(self, tmp: Path) -> None:
        from incan_companion.compose import build

        self.clock = VirtualClock()
        self.ui = faults.UiQueue()
        self.data = tmp / "games.sqlite"
        config = Config(countdown=1.0, data_file=self.data)
        self.device: Any = build(
            config, post=self.ui.post, clock=self.clock, seat_input="mock", camera="none"
        )
        assert self.device.seats.kind == "mock"
        assert self.device.seats.mock is not None
        self.seats: MockSeats = self.device.seats.mock
        self.table: Any = self.device.games.new_game(Start(SEATS, "incan-gold"))

    def pin(self, seat: int, choice: Choice) -> Any:
        return self.seats.pin(seat, choice)

    def press(self, seat: int, choice: Choice) -> None:
        self.seats.press(seat, choice, hold=lambda: self.clock.advance(0.1))
        self.clock.advance(0.1)
        self.ui.pump()

    def lit(self) -> frozenset[int]:
        return self.seats.lit()

    def held(self) -> list[tuple[int, Choice]]:
        return self.seats.panel.held()

    def reveal(self) -> None:
        self.clock.advance(1.5)
        self.ui.pump()
        assert self.table.tick()
        self.ui.pump()

    def waiting_for(self) -> str:
        c = self.table.collector
        return presenters.table_view(self.table.state, due=c.due, chosen=c.chosen).prompt


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    yield r
    r.device.close()


def test_a_stuck_torch_counts_once_and_never_blocks_the_others(rig: Rig) -> None:
    table = rig.table
    first = table.entry_options()[0]
    assert table.enter_card(first)
    assert table.state.phase is Phase.CHOOSE

    # Turn 1: Ana's torch button sticks down (pressed, never released).
    rig.pin(0, T).drive_low()
    rig.ui.pump()
    assert rig.held() == [(0, T)]
    for seat in (1, 2, 3):
        rig.press(seat, T)
    assert table.collector.chosen == {0, 1, 2, 3}
    assert rig.lit() == {0, 1, 2, 3}
    rig.reveal()

    second = next(c for c in table.entry_options() if c != first)
    assert table.enter_card(second)
    assert table.state.phase is Phase.CHOOSE, second

    # Turn 2: the stuck button gives no new press, so the table waits for Ana
    # alone, while every other seat's press is taken and lit as usual.
    for seat in (1, 2, 3):
        rig.press(seat, C if seat == 3 else T)
    assert table.collector.chosen == {1, 2, 3}
    assert rig.lit() == {1, 2, 3}
    assert "Ana" in rig.waiting_for()
    assert "Bo" not in rig.waiting_for()
    # Her other button still works: she chooses camp.
    rig.press(0, C)
    assert table.collector.chosen == {0, 1, 2, 3}
    rig.reveal()

    with Store(rig.data, readonly=True) as store:
        assert store.events(table.game) == [
            Start(SEATS, "incan-gold"),
            Draw(first),
            Reveal(()),
            Draw(second),
            Reveal((0, 3)),
        ]


def test_a_button_stuck_before_the_choice_is_due_is_not_a_choice(rig: Rig) -> None:
    table = rig.table
    rig.pin(2, C).drive_low()  # Cy's camp button is stuck from the start
    rig.ui.pump()
    assert table.enter_card(table.entry_options()[0])
    for seat in (0, 1, 3):
        rig.press(seat, T)
    assert table.collector.chosen == {0, 1, 3}
    assert "Cy" in rig.waiting_for()
    rig.clock.advance(5.0)
    assert not table.tick()  # nobody is revealed for a stuck button
    rig.press(2, T)
    rig.reveal()
    assert table.state.seats[2].status.value == "in"


def test_every_other_button_stuck_at_once_still_lets_the_last_seat_choose(rig: Rig) -> None:
    table = rig.table
    assert table.enter_card(table.entry_options()[0])
    for seat in (0, 1, 2):
        rig.pin(seat, T).drive_low()  # three torches held down for ever
    rig.ui.pump()
    assert sorted(rig.held()) == [(0, T), (1, T), (2, T)]
    rig.press(3, C)
    assert table.collector.chosen == {0, 1, 2, 3}
    rig.reveal()
    assert [s.status.value for s in table.state.seats] == ["in", "in", "in", "camp"]
