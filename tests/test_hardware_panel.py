"""The seat panel on gpiozero's MockFactory, wired to a ChoiceCollector as the app wires it.

Presses are ``pin.drive_low()`` (buttons are active low with the pull-up);
time is a fake clock, so no test waits for real.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import pytest
from gpiozero import DigitalInputDevice
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.choices import Choice, ChoiceCollector
from companion.simulate import VirtualClock
from hardware.panel import PinUnavailable, SeatPanel
from hardware.pins import DEFAULT_PINS, SeatPins

T, C = Choice.TORCH, Choice.CAMP
MS = 0.001
WINDOW = 0.030


class Box:
    """A mock seat box: panel + collector, with the app's wiring done synchronously."""

    def __init__(self, factory: MockFactory, seats: int = 8, countdown: float = 2.0) -> None:
        self.factory = factory
        self.clock = VirtualClock()
        self.reveals: list[tuple[int, ...]] = []
        self.presses: list[tuple[int, Choice]] = []
        self.collector = ChoiceCollector(countdown=countdown, clock=self.clock)
        self.panel = SeatPanel(
            DEFAULT_PINS[:seats],
            pin_factory=factory,
            on_press=self.on_press,
            clock=self.clock,
            debounce_s=WINDOW,
        )

    def on_press(self, seat: int, choice: Choice) -> None:
        # On the Pi this runs on gpiozero's thread and is marshalled to the UI thread.
        self.presses.append((seat, choice))
        self.collector.press(seat, choice)
        self.refresh()

    def open(self, due: Iterable[int]) -> None:
        self.collector.open(due)
        self.refresh()

    def tick(self) -> bool:
        """The app's tick: a reveal, if it is due, and the LEDs as the table sets them."""
        reveal = self.collector.tick()
        if reveal is not None:
            self.reveals.append(reveal.camp)
        self.refresh()
        return reveal is not None

    def refresh(self) -> None:
        self.panel.set_leds(self.collector.leds())

    def pin(self, seat: int, choice: Choice):  # type: ignore[no-untyped-def]
        return self.factory.pin(getattr(DEFAULT_PINS[seat], choice.value))

    def press(self, seat: int, choice: Choice, *, bounces: int = 0, hold: float = 0.1) -> None:
        """Press and release one button; ``bounces`` extra edge pairs 1 ms apart each way."""
        pin = self.pin(seat, choice)
        pin.drive_low()
        for _ in range(bounces):
            self.clock.advance(MS)
            pin.drive_high()
            self.clock.advance(MS)
            pin.drive_low()
        self.clock.advance(hold)
        pin.drive_high()
        for _ in range(bounces):
            self.clock.advance(MS)
            pin.drive_low()
            self.clock.advance(MS)
            pin.drive_high()
        self.clock.advance(0.1)  # let the contacts rest before the next press

    def lit(self) -> set[int]:
        return {
            seat
            for seat in range(self.panel.seats)
            if self.factory.pin(DEFAULT_PINS[seat].led).state
        }

    def wait(self, seconds: float) -> bool:
        self.clock.advance(seconds)
        return self.tick()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()
    f.close()


@pytest.fixture
def box(factory: MockFactory) -> Iterator[Box]:
    b = Box(factory)
    yield b
    b.panel.close()


def test_a_press_is_recorded_and_lights_only_that_seat(box: Box) -> None:
    box.open([0, 1, 2, 3])
    assert box.lit() == set()
    box.press(2, C)
    assert box.presses == [(2, C)]
    assert box.collector.chosen == {2}
    assert box.lit() == {2}


def test_torch_and_camp_light_the_same_led(box: Box) -> None:
    box.open([0, 1, 2])
    box.press(0, T)
    box.press(1, C)
    assert box.lit() == {0, 1}


def test_a_burst_of_edges_counts_once(box: Box) -> None:
    box.open([0, 1, 2])
    box.press(1, T, bounces=5)  # 11 edges in 10 ms on press, 10 more on release
    assert box.presses == [(1, T)]


def test_gpiozero_sees_the_bounce_we_filter(box: Box, factory: MockFactory) -> None:
    """Without our filter every bounce would be a press: the mock does not debounce."""
    free = 14  # no seat's pin: a button wired as the panel wires its own, unfiltered
    assert all(free not in (p.torch, p.camp, p.led) for p in DEFAULT_PINS)
    raw: list[int] = []
    button = DigitalInputDevice(free, pull_up=True, bounce_time=None, pin_factory=factory)
    try:
        button.when_activated = lambda: raw.append(1)
        for pin in (factory.pin(free), box.pin(0, T)):  # the same bounce on both buttons
            pin.drive_low()
            pin.drive_high()
            pin.drive_low()
    finally:
        button.close()
    assert len(raw) == 2
    assert box.presses == [(0, T)]


def test_presses_further_apart_than_the_window_count_twice(box: Box) -> None:
    box.open([0, 1, 2])
    pin = box.pin(0, T)
    pin.drive_low()
    box.clock.advance(0.040)
    pin.drive_high()
    box.clock.advance(0.040)
    pin.drive_low()
    assert box.presses == [(0, T), (0, T)]


def test_a_change_of_mind_is_the_choice_revealed(box: Box) -> None:
    box.open([0, 1, 2])
    box.press(0, C)
    box.press(0, T)
    box.press(1, T)
    box.press(2, C)
    box.press(2, T)
    box.press(2, C)
    assert box.wait(2.0)
    assert box.reveals == [(2,)]


def test_seats_not_in_the_temple_are_ignored_and_stay_dark(box: Box) -> None:
    box.open([0, 2])  # seat 1 in camp, seats 3..7 not playing
    box.press(1, T)
    box.press(5, C)
    assert box.collector.chosen == frozenset()
    assert box.lit() == set()
    box.press(0, T)
    box.press(2, T)
    box.press(1, C)  # still ignored during the countdown: it does not restart it
    assert box.collector.countdown_left == pytest.approx(1.6)
    assert box.lit() == {0, 2}
    assert box.wait(2.0)
    assert box.reveals == [()]
    assert box.lit() == set()  # LEDs off after the reveal


def test_presses_while_no_choice_is_due_do_nothing(box: Box) -> None:
    box.press(0, T)
    box.press(1, C)
    assert box.collector.chosen == frozenset()
    assert box.lit() == set()
    assert not box.wait(10)
    assert box.reveals == []
    box.open([0, 1, 2])  # the earlier presses were not kept
    assert box.collector.chosen == frozenset()


def test_the_countdown_restarts_on_a_change_and_reveals_once(box: Box) -> None:
    box.open([0, 1, 2])
    box.press(0, T)
    box.press(1, T)
    box.press(2, T)  # the press and its release take 0.2 s of fake time
    assert box.collector.countdown_left == pytest.approx(1.8)
    box.wait(1.0)
    box.press(1, C)  # changes her mind with 0.6 s to go
    assert box.collector.countdown_left == pytest.approx(1.8)
    assert not box.wait(1.7)
    assert box.wait(0.11)
    assert box.reveals == [(1,)]
    assert not box.wait(5)
    assert box.reveals == [(1,)]


def test_a_stuck_button_does_not_block_other_seats(box: Box) -> None:
    box.open([0, 1, 2])
    box.pin(0, C).drive_low()  # held down and never released
    assert box.panel.held() == [(0, C)]
    box.clock.advance(0.5)
    box.press(1, T)
    box.press(2, T, bounces=3)
    assert box.presses == [(0, C), (1, T), (2, T)]
    assert box.collector.chosen == {0, 1, 2}
    box.press(0, T)  # the same seat's other button still works
    assert box.wait(2.0)
    assert box.reveals == [()]


def test_both_buttons_at_once_the_later_edge_wins(box: Box) -> None:
    box.open([0, 1, 2])
    box.pin(0, T).drive_low()
    box.pin(0, C).drive_low()
    assert box.presses == [(0, T), (0, C)]
    for seat in (1, 2):
        box.press(seat, T)
    assert box.wait(2.0)
    assert box.reveals == [(0,)]


def test_a_failing_callback_does_not_stop_the_panel(factory: MockFactory) -> None:
    calls: list[int] = []

    def on_press(seat: int, choice: Choice) -> None:
        calls.append(seat)
        if seat == 0:
            raise RuntimeError("boom")

    with SeatPanel(DEFAULT_PINS[:3], pin_factory=factory, on_press=on_press) as panel:
        factory.pin(DEFAULT_PINS[0].torch).drive_low()
        factory.pin(DEFAULT_PINS[1].torch).drive_low()
        assert calls == [0, 1]
        assert panel.seats == 3


def test_set_leds_takes_a_set_or_a_mapping(box: Box) -> None:
    box.panel.set_leds({1, 3, 42})
    assert box.lit() == {1, 3}
    box.panel.set_leds({0: True, 1: False, 5: True})
    assert box.lit() == {0, 5}
    box.panel.set_leds(())
    assert box.lit() == set()


def test_close_turns_leds_off_releases_pins_and_is_idempotent(factory: MockFactory) -> None:
    panel = SeatPanel(DEFAULT_PINS, pin_factory=factory, on_press=lambda s, c: None)
    panel.set_leds({0, 7})
    panel.close()
    panel.close()
    assert not factory.pin(DEFAULT_PINS[0].led).state
    # The pins are free again: a new panel on the same factory works.
    seen: list[tuple[int, Choice]] = []
    with SeatPanel(DEFAULT_PINS, pin_factory=factory, on_press=lambda s, c: seen.append((s, c))):
        factory.pin(DEFAULT_PINS[7].camp).drive_low()
    assert seen == [(7, C)]


def test_a_closed_panel_reports_nothing(factory: MockFactory) -> None:
    seen: list[int] = []
    panel = SeatPanel(DEFAULT_PINS[:3], pin_factory=factory, on_press=lambda s, c: seen.append(s))
    panel.close()
    panel.set_leds({0})  # harmless after close
    assert seen == []


def test_bad_pin_maps_are_refused_and_nothing_stays_reserved(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match="1 to 8 seats"):
        SeatPanel(DEFAULT_PINS + DEFAULT_PINS[:1], pin_factory=factory, on_press=print)
    with pytest.raises(ValueError, match="GPIO 2 is used twice"):
        SeatPanel([SeatPins(2, 3, 4), SeatPins(5, 2, 6)], pin_factory=factory, on_press=print)
    # A pin that cannot be opened says which seat's wire it is (gpiozero's error says the pin).
    with pytest.raises(PinUnavailable, match=r"^seat2 led \(GPIO 99\): "):
        SeatPanel([SeatPins(2, 3, 4), SeatPins(5, 6, 99)], pin_factory=factory, on_press=print)
    busy = DigitalInputDevice(9, pin_factory=factory)  # taken by another program
    with pytest.raises(PinUnavailable, match=r"^seat3 camp \(GPIO 9, header pin 21\): "):
        SeatPanel(DEFAULT_PINS[:3], pin_factory=factory, on_press=print)
    busy.close()
    # The half-built panel released its pins.
    SeatPanel(DEFAULT_PINS[:2], pin_factory=factory, on_press=print).close()


def test_an_led_failing_in_play_says_which_seat(factory: MockFactory) -> None:
    """lgpio's error ("GPIO not allocated") named no seat, in the game's
    status line and in the buttons check alike."""

    def fails(*_args: object) -> None:
        raise OSError("lgpio: GPIO not allocated")

    with SeatPanel(DEFAULT_PINS[:4], pin_factory=factory, on_press=print) as panel:
        factory.pin(DEFAULT_PINS[2].led)._change_state = fails
        with pytest.raises(PinUnavailable, match=r"^seat3 led \(GPIO 11, header pin 23\): lgpio"):
            panel.set_leds({0})


def test_a_panel_with_a_configured_pin_map(factory: MockFactory) -> None:
    pins = [SeatPins(14, 15, 16), SeatPins(2, 3, 4), SeatPins(5, 6, 7)]
    seen: list[tuple[int, Choice]] = []
    with SeatPanel(pins, pin_factory=factory, on_press=lambda s, c: seen.append((s, c))) as p:
        factory.pin(15).drive_low()
        p.set_leds({0})
        assert factory.pin(16).state
    assert seen == [(0, C)]


# One random action: (seat, button, bounce edge pairs, hold ms, rest ms after the release).
press_action = st.tuples(
    st.integers(0, 7),
    st.sampled_from(Choice),
    st.integers(0, 6),
    st.integers(0, 300),
    st.integers(31, 400),
)


@settings(max_examples=60)
@given(
    seats=st.integers(3, 8),
    data=st.data(),
    script=st.lists(st.one_of(press_action, st.just("expire")), min_size=100, max_size=400),
)
def test_hundreds_of_random_presses(seats: int, data: st.DataObject, script: list[object]) -> None:
    """Random seats press random buttons with random bounce (the whole 8-seat box is
    wired, only ``seats`` play and only ``due`` are in the temple): nothing crashes,
    every press counts once, and the state is always the last press of each due seat."""
    due = data.draw(st.sets(st.integers(0, seats - 1), min_size=1), label="due")
    f = MockFactory()
    box = Box(f)
    try:
        box.open(due)
        last: dict[int, Choice] = {}
        pressed = 0
        for action in script:
            if action == "expire":
                box.clock.advance(2.001)
                revealed = box.tick()
                assert revealed == (set(last) == due)
                if revealed:
                    assert box.reveals[-1] == tuple(sorted(s for s, c in last.items() if c is C))
                    box.open(due)
                    last = {}
                continue
            assert isinstance(action, tuple)
            seat, choice, bounces, hold_ms, rest_ms = action
            box.press(seat, choice, bounces=bounces, hold=hold_ms * MS)
            box.clock.advance(rest_ms * MS)
            pressed += 1
            if seat in due:
                last[seat] = choice
            assert len(box.presses) == pressed  # every press once, bounces never
            assert box.collector.chosen == set(last) == box.lit()
        # The seats still choosing take a torch: the reveal is exactly the last presses.
        for seat in sorted(due - set(last)):
            box.press(seat, T)
            last[seat] = T
        box.clock.advance(2.001)
        assert box.tick()
        assert box.reveals[-1] == tuple(sorted(s for s, c in last.items() if c is C))
    finally:
        box.panel.close()
        f.reset()
        f.close()
