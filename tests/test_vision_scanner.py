"""Frame sources and the scanner: virtual table sequences, failing cameras, files."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt
import pytest
from helpers import paced

from companion import notices
from companion.notices import CameraStatus
from ui.kivyfree.notice_words import notice_text
from vision import render, sources
from vision.decode import Decoder, FrameReads
from vision.render import Scene
from vision.scanner import Scanner
from vision.sources import (
    NO_CAMERA,
    OK,
    FileSource,
    Frame,
    FrameSource,
    VirtualTable,
    open_source,
)
from vision.tracker import CardPlaced, ForeignPlaced, TwoCards

WAIT = 20.0  # generous upper bound for a thread to do its work; never a speed check


class Recorder:
    """Collects the scanner's callbacks; ``wait_for`` blocks until a condition holds."""

    def __init__(self) -> None:
        self.cards: list[str] = []
        self.notices: list[notices.NotACard | notices.TwoCardsInView] = []
        self.statuses: list[CameraStatus] = []
        self._cv = threading.Condition()

    def card(self, c: str) -> None:
        with self._cv:
            self.cards.append(c)
            self._cv.notify_all()

    def notice(self, reason: notices.NotACard | notices.TwoCardsInView) -> None:
        with self._cv:
            self.notices.append(reason)
            self._cv.notify_all()

    def status(self, s: CameraStatus) -> None:
        with self._cv:
            self.statuses.append(s)
            self._cv.notify_all()

    def wait_for(self, check: object) -> bool:
        with self._cv:
            return self._cv.wait_for(check, WAIT)  # type: ignore[arg-type]


def scanner_on(table: VirtualTable, rec: Recorder) -> Scanner:
    return Scanner(table, rec.card, rec.notice, rec.status)


def feed(scanner: Scanner, table: VirtualTable, frames: int) -> None:
    for _ in range(frames):
        scanner.process(table.next_image())


# -- the virtual table through the real pipeline ---------------------------------

def test_cards_placed_one_after_another_are_each_reported_once() -> None:
    table, rec = VirtualTable(seed=3, fps=None), Recorder()
    sc = scanner_on(table, rec)
    for card in ("T11A", "SPIDER2", "A4"):
        table.place(card)
        feed(sc, table, 12)
    assert rec.cards == ["T11A", "SPIDER2", "A4"]


def test_a_card_is_recognised_within_five_frames_of_coming_to_rest() -> None:
    table, rec = VirtualTable(seed=5, fps=None), Recorder()
    sc = scanner_on(table, rec)
    for card in ("T1", "ROCKS2", "A1", "T17"):
        table.place(card)
        rest = table.rest_index
        assert rest is not None
        while table.frames_rendered < rest + 5:
            sc.process(table.next_image())
        assert rec.cards[-1:] == [card]
        feed(sc, table, 3)
        table.place(None)
        feed(sc, table, 16)
    assert rec.cards == ["T1", "ROCKS2", "A1", "T17"]


def test_a_hand_passing_over_a_card_does_not_report_it_twice() -> None:
    table, rec = VirtualTable(seed=7, fps=None), Recorder()
    sc = scanner_on(table, rec)
    table.place("MUMMY2")
    feed(sc, table, 10)
    table.hand_over(frames=8)
    feed(sc, table, 20)
    assert rec.cards == ["MUMMY2"]


def test_a_card_put_back_after_it_left_is_reported_again() -> None:
    table, rec = VirtualTable(seed=9, fps=None), Recorder()
    sc = scanner_on(table, rec)
    table.place("T9")
    feed(sc, table, 10)
    table.place(None)
    feed(sc, table, 20)
    table.place("T9")
    feed(sc, table, 10)
    assert rec.cards == ["T9", "T9"]


def test_a_foreign_sticker_gives_one_notice_and_no_card() -> None:
    table, rec = VirtualTable(seed=11, fps=None), Recorder()
    sc = scanner_on(table, rec)
    table.foreign("https://example.com/other-game")
    feed(sc, table, 10)
    assert rec.cards == []
    assert rec.notices == [notices.NotACard("https://example.com/other-game")]
    assert "example.com/other-game" in notice_text(rec.notices[0])


def test_a_second_card_beside_the_reported_one_is_not_a_new_draw() -> None:
    table, rec = VirtualTable(seed=13, fps=None), Recorder()
    sc = scanner_on(table, rec)
    table.place("FIRE1")
    feed(sc, table, 10)
    table.place("T5B")  # the next card turned; FIRE1 pushed beside the spot
    table.second("FIRE1")
    feed(sc, table, 12)
    assert rec.cards == ["FIRE1", "T5B"]


def test_two_new_cards_in_view_at_once_give_a_notice_not_a_guess() -> None:
    sc_events = []
    decoder = Decoder()
    from vision.tracker import Tracker

    tracker = Tracker()
    image = render.render(Scene(card="T3", x=220, extra=(("T4", "IG:T4", 470, 240, 10.0),)))
    for _ in range(5):
        r = decoder.decode(image)
        sc_events += tracker.step(r.cards, r.foreign)
    assert sc_events == [TwoCards(("T3", "T4"), 1)]


# -- the thread, and sources that fail -----------------------------------------

def test_the_threaded_scanner_reports_cards_from_the_virtual_table() -> None:
    table, rec = VirtualTable(seed=21, fps=30.0), Recorder()
    sc = scanner_on(table, rec)
    sc.start()
    try:
        assert rec.wait_for(lambda: CameraStatus.OK in rec.statuses)
        table.place("T15")
        assert rec.wait_for(lambda: rec.cards == ["T15"])
    finally:
        sc.stop()
    assert not sc.running


class Flaky(FrameSource):
    """A camera that fails to open twice, gives frames, dies, comes back."""

    BACKOFF_START = BACKOFF_MAX = 0.01
    name = "flaky"

    def __init__(self, image: npt.NDArray[np.uint8], plan: list[str]) -> None:
        super().__init__()
        self.image, self.plan, self.opens = image, plan, 0

    def _open(self) -> None:
        self.opens += 1
        step = self.plan.pop(0) if self.plan else "frame"
        if step == "fail-open":
            raise OSError("no such device")
        if step != "open":
            self.plan.insert(0, step)

    def _read(self) -> npt.NDArray[np.uint8] | None:
        step = self.plan.pop(0) if self.plan else "frame"
        if step == "raise":
            raise RuntimeError("select() timeout")
        if step == "none":
            return None
        if step == "wait":
            self._stop.wait(0.05)
            return None
        return self.image


def test_a_camera_that_fails_and_recovers_keeps_the_scanner_alive() -> None:
    image = render.render(Scene(card="SNAKE3"))
    plan = ["fail-open", "fail-open", "open"] + ["frame"] * 3 + ["raise", "none", "fail-open",
                                                                 "open"]
    source, rec = Flaky(image, plan), Recorder()
    sc = Scanner(source, rec.card, rec.notice, rec.status, stall_timeout=0.2)
    sc.start()
    try:
        assert rec.wait_for(lambda: rec.cards == ["SNAKE3"])
        assert rec.wait_for(lambda: len(plan) == 0 and rec.statuses[-1:] == [CameraStatus.OK])
    finally:
        sc.stop()
    assert source.opens >= 4
    assert rec.cards == ["SNAKE3"]  # the same card over the outage is not a new draw


def test_a_source_that_raises_or_stalls_is_no_camera_until_frames_return() -> None:
    class Broken:
        status = OK
        calls = 0

        def wait(self, after: int, timeout: float) -> sources.Frame | None:
            Broken.calls += 1
            if Broken.calls == 1:
                raise RuntimeError("driver gone")
            if Broken.calls < 4:
                return None
            return sources.Frame(render.render(Scene(card="A5")), Broken.calls, 0.0)

        def start(self) -> None: ...
        def stop(self) -> None: ...

    rec = Recorder()
    sc = Scanner(Broken(), rec.card, rec.notice, rec.status, stall_timeout=0.0)  # type: ignore[arg-type]
    for _ in range(6):
        sc.step(timeout=0.01)
    assert rec.statuses == [CameraStatus.NO_CAMERA, CameraStatus.OK]
    assert rec.cards == ["A5"]


def test_a_callback_that_raises_does_not_stop_the_scanner() -> None:
    table = VirtualTable(seed=2, fps=None)
    seen: list[str] = []

    def bad(card: str) -> None:
        seen.append(card)
        raise ValueError("ui gone")

    sc = Scanner(table, bad)
    table.place("T2")
    feed(sc, table, 10)
    table.place("T3")
    feed(sc, table, 10)
    assert seen == ["T2", "T3"]


def test_a_missing_v4l2_camera_is_no_camera_and_stops_cleanly() -> None:
    cam = sources.OpenCVCamera("/dev/video-that-does-not-exist")
    cam.start()
    try:
        assert cam.wait(0, timeout=0.3) is None
        assert cam.status == NO_CAMERA
    finally:
        cam.stop()


def test_the_pi_camera_without_picamera2_is_no_camera() -> None:
    if sources.picamera_available():
        pytest.skip("picamera2 is installed here")
    cam = sources.PiCamera()
    cam.start()
    try:
        assert cam.wait(0, timeout=0.3) is None
        assert cam.status == NO_CAMERA
    finally:
        cam.stop()


# -- files ------------------------------------------------------------------------

def test_file_source_gives_images_in_order(tmp_path: Path) -> None:
    paths = []
    for i, card in enumerate(("T1", "T2")):
        p = tmp_path / f"{i}.png"
        cv2.imwrite(str(p), render.render(Scene(card=card)))
        paths.append(p)
    decoder = Decoder(skip_unchanged=False)
    assert [decoder.decode(f).cards for f in FileSource(paths).frames()] == [("T1",), ("T2",)]


def test_file_source_plays_a_video_through_the_scanner(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 15.0, (640, 480))
    assert writer.isOpened()
    table = VirtualTable(seed=4, fps=None)
    table.place("A2")
    for _ in range(10):
        writer.write(table.next_image())
    writer.release()
    source, rec = FileSource(path), Recorder()
    sc = Scanner(source, rec.card, rec.notice, rec.status)
    sc.start()
    try:
        assert rec.wait_for(lambda: rec.cards == ["A2"])
        assert source.wait(10**9, timeout=WAIT) is None  # returns once the file has ended
    finally:
        sc.stop()
    assert source.ended and rec.cards == ["A2"]


def test_file_source_raises_for_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.png"
    bad.write_text("not an image")
    with pytest.raises(OSError, match="not an image"):
        list(FileSource([bad]).frames())
    with pytest.raises(OSError):
        list(FileSource([tmp_path / "missing.png"]).frames())


# -- the factory ------------------------------------------------------------------

def test_open_source_builds_each_kind(tmp_path: Path) -> None:
    assert isinstance(open_source("virtual", seed=1), VirtualTable)
    assert isinstance(open_source("file", paths=[tmp_path / "x.png"]), FileSource)
    assert isinstance(open_source("v4l2", device=3), sources.OpenCVCamera)
    assert isinstance(open_source("picamera"), sources.PiCamera)
    none = open_source("none")
    none.start()
    assert none.status == NO_CAMERA and none.latest() is None
    with pytest.raises(ValueError, match="unknown frame source"):
        open_source("webcam")


def test_auto_falls_back_to_the_virtual_table_without_cameras(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sources, "picamera_available", lambda: False)
    monkeypatch.setattr(sources.OpenCVCamera, "probe", lambda self, timeout=2.0: False)
    assert isinstance(open_source("auto"), VirtualTable)
    monkeypatch.setattr(sources.OpenCVCamera, "probe", lambda self, timeout=2.0: True)
    assert isinstance(open_source("auto", device=0), sources.OpenCVCamera)
    monkeypatch.setattr(sources, "picamera_available", lambda: True)
    assert isinstance(open_source("auto"), sources.PiCamera)


def test_the_virtual_table_is_deterministic_for_a_seed() -> None:
    def run(seed: int) -> list[bytes]:
        t = VirtualTable(seed=seed, fps=None)
        t.place("T13")
        return [t.next_image().tobytes() for _ in range(3)]

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_scanner_events_carry_what_the_tracker_said() -> None:
    table, rec = VirtualTable(seed=30, fps=None), Recorder()
    sc = scanner_on(table, rec)
    table.place("T7B")
    events = []
    for _ in range(10):
        events += sc.process(table.next_image())
    assert [e.card for e in events if isinstance(e, CardPlaced)] == ["T7B"]
    assert not any(isinstance(e, ForeignPlaced) for e in events)


class Published(FrameSource):
    """Frames handed in by the test, each with the next sequence number."""

    def put(self, image: npt.NDArray[np.uint8], times: int = 1) -> None:
        for _ in range(times):
            self._publish(image)


class Asleep(threading.Condition):
    """A frame source's condition that tells the test when a waiter has gone to
    sleep in it: its ``wait`` is entered holding the lock, which it gives up only
    as it sleeps, so a frame published after :meth:`one_more` cannot be missed."""

    def __init__(self) -> None:
        super().__init__()
        self._sleepers = threading.Semaphore(0)

    def wait(self, timeout: float | None = None) -> bool:
        self._sleepers.release()
        return super().wait(timeout)

    def one_more(self) -> None:
        """Until one more waiter has gone to sleep (at this machine's pace)."""
        assert self._sleepers.acquire(timeout=paced(10)), "no waiter went to sleep"


def watched() -> tuple[Published, Asleep]:
    source = Published()
    asleep = Asleep()
    source._lock = asleep  # the source's own condition, watched
    return source, asleep


class CountingDecoder(Decoder):
    def __init__(self) -> None:
        super().__init__()
        self.frames = 0

    def decode(self, frame: npt.NDArray[Any]) -> FrameReads:
        self.frames += 1
        return super().decode(frame)


def test_a_still_scene_is_looked_at_every_third_frame_until_a_card_comes() -> None:
    from vision.scanner import STILL_FRAMES, STILL_STRIDE

    source = Published()
    decoder = CountingDecoder()
    placed: list[str] = []
    scanner = Scanner(source, placed.append, decoder=decoder)
    empty = render.render(Scene(card=None))
    card = render.render(Scene(card="T11A"))

    def taken(image: npt.NDArray[np.uint8], times: int = 1) -> int:
        """Frames the scanner looked at after ``times`` new frames and one step."""
        before = decoder.frames
        source.put(image, times)
        scanner.step(timeout=0.01)
        return decoder.frames - before

    # Every frame is looked at until the spot has been still for STILL_FRAMES.
    assert [taken(empty) for _ in range(STILL_FRAMES + 1)] == [1] * (STILL_FRAMES + 1)
    # Then only every STILL_STRIDE-th frame: fewer new frames are not waited for.
    assert taken(empty, STILL_STRIDE - 1) == 0
    assert taken(empty) == 1
    # A card comes: the first frame taken is a changed one, then every frame again.
    assert taken(card, STILL_STRIDE) == 1
    assert [taken(card) for _ in range(3)] == [1, 1, 1]
    assert placed == ["T11A"]


def test_a_waiter_for_a_later_frame_gets_it_when_it_comes_from_another_thread() -> None:
    source, asleep = watched()
    image = render.render(Scene(card=None))
    source.put(image)
    got: list[Frame | None] = []
    forever = paced(60)  # a lost wake-up: the waiter would still be asleep at the join
    waiter = threading.Thread(target=lambda: got.append(source.wait(after_seq=3, timeout=forever)))
    waiter.start()
    asleep.one_more()
    source.put(image, 3)  # frames 2 and 3 are not the one it waits for; 4 is
    waiter.join(paced(5))
    assert not waiter.is_alive()
    assert got[0] is not None and got[0].seq == 4
    # One that waits past what never comes is let go by stop(), not by the frames.
    late: list[Frame | None] = []
    waiter = threading.Thread(
        target=lambda: late.append(source.wait(after_seq=99, timeout=forever))
    )
    waiter.start()
    asleep.one_more()
    source.put(image)
    source.stop()
    waiter.join(paced(5))
    assert late == [None]


def test_waiters_for_different_frames_each_get_theirs() -> None:
    # The source wakes its waiters only when the lowest frame one of them waits
    # for comes: the one waiting for a later frame must still get it.
    source, asleep = watched()
    image = render.render(Scene(card=None))
    got: dict[str, Frame | None] = {}
    forever = paced(60)  # a lost wake-up: the waiter would still be asleep at the join

    def wait(name: str, after_seq: int) -> None:
        got[name] = source.wait(after_seq=after_seq, timeout=forever)

    sooner = threading.Thread(target=wait, args=("sooner", 2))
    later = threading.Thread(target=wait, args=("later", 5))
    # The sooner one sleeps first, so the later one's number must not replace its own.
    for waiter in (sooner, later):
        waiter.start()
        asleep.one_more()
    source.put(image, 3)  # the sooner one's frame: it takes it before the next comes
    sooner.join(paced(5))
    assert not sooner.is_alive()
    source.put(image, 3)
    later.join(paced(5))
    assert not later.is_alive()
    assert got["sooner"] is not None and got["sooner"].seq == 3
    assert got["later"] is not None and got["later"].seq == 6
