"""Our own contact-bounce filter, edge by edge, with fake time."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import hardware.debounce
from companion.simulate import VirtualClock
from hardware.debounce import Debouncer

MS = 0.001


def test_doctests() -> None:
    assert doctest.testmod(hardware.debounce).failed == 0


def run(edges: list[tuple[float, str, bool]], window: float = 30 * MS) -> list[bool]:
    """Feed (time in ms, pin, pressed) edges; the accept decision of each."""
    clock = VirtualClock(0.0)
    d = Debouncer(window, clock=clock)
    out = []
    for at, pin, pressed in edges:
        clock.now = at * MS
        out.append(d.edge(pin, pressed))
    return out


def test_a_burst_inside_the_window_counts_once() -> None:
    burst = [(t, "p", t % 2 == 0) for t in range(0, 12)]  # 12 edges, 1 ms apart
    assert sum(run(burst)) == 1
    assert run(burst)[0] is True


def test_release_bounce_is_not_a_press() -> None:
    edges = [(0, "p", True), (200, "p", False), (201, "p", True), (203, "p", False)]
    assert run(edges) == [True, False, False, False]


def test_presses_further_apart_than_the_window_both_count() -> None:
    edges = [(0, "p", True), (60, "p", False), (120, "p", True)]
    assert run(edges) == [True, False, True]


def test_the_quiet_time_is_counted_from_the_last_edge_of_any_kind() -> None:
    # A release 10 ms before the next press: that press is still bounce.
    edges = [(0, "p", True), (100, "p", False), (110, "p", True), (200, "p", True)]
    assert run(edges) == [True, False, False, True]


def test_pins_are_independent() -> None:
    edges = [(0, "a", True), (1, "b", True), (2, "a", False), (2, "b", False), (3, "c", True)]
    assert run(edges) == [True, True, False, False, True]


def test_a_pin_held_down_for_ever_does_not_block_others() -> None:
    edges = [(0, "stuck", True)] + [(10 + 100 * k, "other", k % 2 == 0) for k in range(20)]
    assert sum(run(edges)) == 1 + 10


def test_a_missed_edge_cannot_leave_a_pin_pressed() -> None:
    # Two "pressed" edges in a row (the release was lost): the second still counts.
    assert run([(0, "p", True), (500, "p", True)]) == [True, True]


def test_a_window_of_zero_accepts_every_press() -> None:
    assert run([(0, "p", True), (0, "p", False), (0, "p", True)], window=0) == [True, False, True]


def test_negative_window_is_refused() -> None:
    with pytest.raises(ValueError):
        Debouncer(-0.01)


@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 4), st.integers(31, 500)), max_size=200)
)
def test_bouncy_presses_count_once_each(presses: list[tuple[int, int, int]]) -> None:
    """Each press: a burst of edges under 30 ms, then a quiet gap; one count each."""
    clock = VirtualClock(0.0)
    d = Debouncer(30 * MS, clock=clock)
    counted = {pin: 0 for pin in range(6)}
    made = {pin: 0 for pin in range(6)}
    t = 0
    for pin, bounces, gap in presses:
        made[pin] += 1
        levels = [True] + [False, True] * bounces + [False]  # press, bounce, release
        for level in levels:
            clock.now = t * MS
            counted[pin] += d.edge(pin, level)
            t += 2  # at most 2 * 9 = 18 ms for a whole burst
        t += gap
    assert counted == made
