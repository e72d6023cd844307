"""The tracker on hand-written read sequences: one event per placement."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pytest

from vision.tracker import LEAVE, CardPlaced, Event, ForeignPlaced, Tracker, TwoCards


def run(frames: Iterable[Sequence[str]], tracker: Tracker | None = None) -> list[Event]:
    t = tracker or Tracker()
    out: list[Event] = []
    for cards in frames:
        out += t.step(cards)
    return out


def placed(events: list[Event]) -> list[tuple[str, int]]:
    return [(e.card, e.frame) for e in events if isinstance(e, CardPlaced)]


def test_a_card_is_reported_on_its_second_read_and_only_once() -> None:
    events = run([["T11A"]] * 50)
    assert events == [CardPlaced("T11A", 1)]


def test_one_read_is_not_enough() -> None:
    # a card swept over the spot on its way to the path
    assert run([[], ["T11A"], [], [], [], []]) == []


def test_two_reads_with_one_missed_frame_between_count() -> None:
    assert placed(run([["T3"], [], ["T3"]])) == [("T3", 2)]


def test_two_reads_too_far_apart_do_not_count() -> None:
    assert run([["T3"], [], [], ["T3"], [], []]) == []


def test_a_hand_passing_over_the_card_does_not_report_it_again() -> None:
    frames = [["T7A"]] * 5 + [[]] * (LEAVE - 1) + [["T7A"]] * 10
    assert placed(run(frames)) == [("T7A", 1)]


def test_a_card_that_left_and_is_put_back_is_reported_again() -> None:
    frames = [["T7A"]] * 5 + [[]] * LEAVE + [["T7A"]] * 3
    assert placed(run(frames)) == [("T7A", 1), ("T7A", 5 + LEAVE + 1)]


def test_a_different_card_replacing_the_last_is_reported_at_once() -> None:
    frames = [["MUMMY1"]] * 4 + [["A2"]] * 4
    assert placed(run(frames)) == [("MUMMY1", 1), ("A2", 5)]


def test_a_new_card_laid_on_the_last_one_while_it_shows_is_reported() -> None:
    frames = [["FIRE2"]] * 4 + [["FIRE2", "T9"]] * 4 + [["T9"]] * 4
    assert placed(run(frames)) == [("FIRE2", 1), ("T9", 5)]


def test_the_old_card_showing_again_beside_the_new_one_is_not_reported() -> None:
    frames = [["FIRE2"]] * 4 + [["T9"]] * 4 + [["FIRE2", "T9"]] * 6
    assert placed(run(frames)) == [("FIRE2", 1), ("T9", 5)]


def test_two_new_cards_at_once_are_not_guessed() -> None:
    t = Tracker()
    events = run([["T1", "T2"]] * 10, t)
    assert events == [TwoCards(("T1", "T2"), 1)]
    assert t.present == frozenset()


def test_after_two_cards_the_one_that_stays_is_reported_once_the_other_left() -> None:
    t = Tracker()
    run([["T1", "T2"]] * 4, t)
    events = run([["T2"]] * (LEAVE + 2), t)
    # T1 was last read at frame 3; it has left at frame 3 + LEAVE
    assert events == [CardPlaced("T2", 3 + LEAVE)]


def test_a_rival_missing_a_couple_of_frames_still_blocks_the_report() -> None:
    frames = [["T1", "T2"]] * 3 + [["T2"]] * 3 + [["T1", "T2"]] * 3
    assert placed(run(frames)) == []


def test_foreign_codes_give_one_notice_per_appearance() -> None:
    t = Tracker()
    events: list[Event] = []
    for _ in range(20):
        events += t.step([], ["https://example.com"])
    for _ in range(LEAVE):
        events += t.step([], [])
    events += t.step([], ["https://example.com"])
    url = "https://example.com"
    assert events == [ForeignPlaced(url, 0), ForeignPlaced(url, 20 + LEAVE)]


def test_a_foreign_code_beside_a_card_does_not_hide_the_card() -> None:
    t = Tracker()
    events = t.step(["T14"], ["IG:T12"]) + t.step(["T14"], ["IG:T12"])
    assert events == [ForeignPlaced("IG:T12", 0), CardPlaced("T14", 1)]


def test_duplicate_reads_in_one_frame_count_once() -> None:
    assert run([["T5A", "T5A"], []]) == []


def test_confirm_one_reports_on_the_first_read() -> None:
    assert placed(run([["A5"]], Tracker(confirm=1, window=1))) == [("A5", 0)]


def test_reset_forgets_present_cards() -> None:
    t = Tracker()
    run([["A5"]] * 3, t)
    t.reset()
    assert placed(run([["A5"]] * 3, t)) == [("A5", 1)]


@pytest.mark.parametrize("args", [(0, 3, 5), (4, 3, 5), (2, 3, 0)])
def test_bad_settings_are_refused(args: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError):
        Tracker(*args)


def test_the_tracker_imports_no_opencv() -> None:
    import subprocess
    import sys

    code = "import sys, vision.tracker; sys.exit('cv2' in sys.modules or 'numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
