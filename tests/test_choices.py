"""The secret choice collection, with a fake clock (no gpiozero, no real time)."""

from __future__ import annotations

import copy
import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import companion.choices
from companion.choices import Choice, ChoiceCollector
from companion.events import Reveal
from companion.simulate import VirtualClock

T, C = Choice.TORCH, Choice.CAMP


class Table:
    """A collector whose reveals are kept in a list, as the controller takes them."""

    def __init__(self, countdown: float = 2.0) -> None:
        self.clock = VirtualClock(100.0)
        self.reveals: list[tuple[int, ...]] = []
        self.c = ChoiceCollector(countdown=countdown, clock=self.clock)

    def wait(self, seconds: float) -> bool:
        self.clock.advance(seconds)
        reveal = self.c.tick()
        if reveal is not None:
            self.reveals.append(reveal.camp)
        return reveal is not None

    def camp_if_revealed_now(self) -> tuple[int, ...]:
        """The reveal if every seat still waiting chose torch now and the countdown ran out.

        Played on a copy (its own collector, clock and reveals), so this table
        goes on untouched: the secret choices are seen only as a reveal shows them.
        """
        probe = copy.deepcopy(self)
        for seat in sorted(probe.c.waiting_for):
            assert probe.c.press(seat, T)
        assert probe.wait(probe.c.countdown + 0.001)
        assert self.reveals == probe.reveals[:-1]
        return probe.reveals[-1]


def test_doctests() -> None:
    assert doctest.testmod(companion.choices).failed == 0


def test_a_press_is_recorded_secretly_and_lights_the_seat() -> None:
    t = Table()
    t.c.open([0, 1, 2])
    assert t.c.press(1, C)
    assert t.c.chosen == {1}
    assert t.c.leds() == {1}
    assert t.c.waiting_for == {0, 2}
    assert t.c.countdown_left is None  # not everyone has chosen
    # Nothing public says what seat 1 chose: torch and camp look the same.
    u = Table()
    u.c.open([0, 1, 2])
    u.c.press(1, T)
    assert (u.c.chosen, u.c.leds(), u.c.countdown_left) == (t.c.chosen, t.c.leds(), None)


def test_everyone_chosen_starts_the_countdown_and_reveals_once() -> None:
    t = Table()
    t.c.open([0, 1, 2, 3])
    for seat, choice in [(0, T), (1, C), (2, T)]:
        t.c.press(seat, choice)
        t.wait(5.0)
    assert t.reveals == []  # seat 3 has not chosen, however long we wait
    t.c.press(3, C)
    assert t.c.countdown_left == 2.0
    assert not t.wait(1.5)
    assert t.c.countdown_left == pytest.approx(0.5)
    assert not t.wait(0.49)
    assert t.wait(0.0101)
    assert t.reveals == [(1, 3)]
    assert not t.c.is_open and t.c.chosen == frozenset() and t.c.leds() == frozenset()
    assert t.c.countdown_left is None
    assert not t.wait(10.0)
    assert t.reveals == [(1, 3)]  # exactly once


def test_a_change_of_mind_replaces_the_choice() -> None:
    t = Table()
    t.c.open([0, 1, 2])
    t.c.press(0, C)
    t.c.press(0, T)  # before everyone has chosen
    t.c.press(1, T)
    t.c.press(2, C)
    t.wait(2.0)
    assert t.reveals == [(2,)]


def test_a_change_during_the_countdown_restarts_it() -> None:
    t = Table()
    t.c.open([0, 1, 2])
    t.c.press(0, T)
    t.c.press(1, T)
    t.c.press(2, T)
    t.wait(1.9)
    assert t.c.press(1, C)
    assert t.c.countdown_left == 2.0
    assert not t.wait(1.9)
    assert t.wait(0.1001)
    assert t.reveals == [(1,)]


def test_pressing_the_same_choice_again_does_not_restart_the_countdown() -> None:
    t = Table()
    t.c.open([0, 1, 2])
    for seat in range(3):
        t.c.press(seat, T)
    t.wait(1.5)
    seen = t.c.visible
    assert t.c.press(2, T)  # accepted, but nothing changes (a repeating key, a double tap)
    assert t.c.countdown_left == pytest.approx(0.5)
    assert t.c.visible == seen
    assert t.wait(0.5)
    assert t.reveals == [()]


def test_a_held_reveal_waits_then_counts_down_in_full() -> None:
    t = Table()
    t.c.open([0, 1])
    t.c.press(0, T)
    t.c.hold()  # a question before everyone has chosen: the countdown never starts
    t.c.press(1, C)
    assert t.c.held and t.c.countdown_left is None
    assert not t.wait(60.0) and t.reveals == []
    t.c.release()
    assert not t.c.held and t.c.countdown_left == 2.0
    assert not t.wait(1.9) and t.wait(0.1)
    assert t.reveals == [(1,)]
    t.c.open([0])
    t.c.press(0, T)
    t.c.hold()  # during the countdown: it stops, and starts again in full
    assert t.c.countdown_left is None and not t.wait(5.0)
    t.c.release()
    assert t.c.countdown_left == 2.0
    t.c.open([0])  # a new turn is never held
    assert not t.c.held


def test_seats_not_in_the_temple_are_ignored() -> None:
    t = Table()
    t.c.open([0, 2, 3])  # seat 1 is in camp
    assert not t.c.press(1, C)
    assert not t.c.press(7, T)  # no such seat in this game
    assert t.c.chosen == frozenset() and 1 not in t.c.leds()
    for seat in (0, 2, 3):
        t.c.press(seat, T)
    assert not t.c.press(1, C)
    assert t.c.countdown_left == 2.0
    t.wait(2.0)
    assert t.reveals == [()]


def test_presses_when_no_choice_is_due_have_no_effect() -> None:
    t = Table()
    assert not t.c.is_open
    assert not t.c.press(0, T)
    t.c.open([0, 1, 2])
    t.c.close()  # e.g. an undo took the game back to a draw
    assert not t.c.press(0, T)
    assert t.c.chosen == frozenset() and t.c.leds() == frozenset()
    assert not t.wait(60)
    assert t.reveals == []


def test_close_during_the_countdown_cancels_the_reveal() -> None:
    t = Table()
    t.c.open([0, 1, 2])
    for seat in range(3):
        t.c.press(seat, C)
    t.c.close()
    assert t.c.countdown_left is None
    assert not t.wait(5)
    assert t.reveals == []


def test_open_clears_the_previous_turn() -> None:
    t = Table()
    t.c.open([0, 1, 2])
    t.c.press(0, C)
    t.c.open([0, 1, 2])
    assert t.c.chosen == frozenset()
    assert t.c.is_open


def test_open_with_nobody_due_is_closed() -> None:
    t = Table()
    t.c.open([])
    assert not t.c.is_open
    assert not t.c.press(0, T)


def test_the_next_turn_may_open_right_after_a_reveal() -> None:
    clock = VirtualClock(100.0)
    c = ChoiceCollector(clock=clock)
    c.open([0, 1, 2])
    c.press(0, C)
    c.press(1, T)
    c.press(2, T)
    clock.advance(2)
    reveal = c.tick()
    assert reveal == Reveal((0,)) and not c.is_open  # closed before it is handed over
    c.open([s for s in range(3) if s not in reveal.camp])  # the controller reopening
    assert c.is_open and c.due == {1, 2} and c.chosen == frozenset()


def test_a_zero_countdown_reveals_on_the_last_press() -> None:
    t = Table(countdown=0)
    t.c.open([0, 1, 2])
    t.c.press(0, T)
    t.c.press(1, T)
    assert t.reveals == []
    t.c.press(2, C)
    assert t.reveals == []
    assert t.wait(0)  # the tick right after the last press
    assert t.reveals == [(2,)]


def test_what_the_table_sees_changes_with_a_press_not_with_a_tick() -> None:
    t = Table()
    t.c.open([0, 1, 2])
    seen = t.c.visible
    t.c.press(0, T)
    assert t.c.visible != seen
    seen = t.c.visible
    t.c.press(5, T)  # ignored
    assert t.c.visible == seen
    t.wait(0.5)  # a tick without a reveal changes nothing
    assert t.c.visible == seen


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        ChoiceCollector(countdown=-1)
    with pytest.raises(ValueError):
        ChoiceCollector().open([-1, 0])


actions = st.lists(
    st.one_of(
        st.tuples(st.integers(0, 7), st.sampled_from(Choice), st.floats(0, 1.0)),
        st.just("expire"),
    ),
    max_size=300,
)


@given(seats=st.integers(3, 8), data=st.data(), script=actions)
def test_random_presses_keep_the_last_press_of_each_due_seat(
    seats: int, data: st.DataObject, script: list[object]
) -> None:
    due = data.draw(st.sets(st.integers(0, seats - 1), min_size=1), label="due")
    t = Table()
    t.c.open(due)
    last: dict[int, Choice] = {}
    for action in script:
        if action == "expire":
            revealed = t.wait(t.c.countdown + 0.001)
            if set(last) == due:
                assert revealed
                assert t.reveals[-1] == tuple(sorted(s for s, c in last.items() if c is C))
                t.c.open(due)
                last = {}
            else:
                assert not revealed
            continue
        assert isinstance(action, tuple)
        seat, choice, gap = action
        assert t.c.press(seat, choice) == (seat in due)
        if seat in due:
            last[seat] = choice
        assert t.c.chosen == set(last) == t.c.leds()
        # The secret state is exactly the last presses: camp for those whose
        # last press was camp, and for nobody else.
        assert t.camp_if_revealed_now() == tuple(sorted(s for s, c in last.items() if c is C))
        assert (t.c.countdown_left is not None) == (set(last) == due)
        t.clock.advance(gap)
