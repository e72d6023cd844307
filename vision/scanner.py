"""The card scanner: frames in, "this card was placed" callbacks out.

``Scanner(source, on_card, on_notice, on_status)`` runs on its own thread:
it waits for the source's next frame, decodes it (``vision.decode``), steps
the tracker (``vision.tracker``) and calls

* ``on_card(card_id)`` once per placed card,
* ``on_notice(reason)`` with a :mod:`companion.notices` reason when a code
  that is not a card is in view, or two new cards are in view at once,
* ``on_status(status)`` when the camera status changes: ``CameraStatus.OK``
  (``QR_ONLY`` when zxing-cpp cannot be loaded and pyzbar reads) or
  ``CameraStatus.NO_CAMERA`` (a source that is reopening, raises, or
  delivers nothing for ``stall_timeout`` seconds counts as no camera).

Those three are a :class:`companion.ports.CardSink`'s methods (the core's
``Inbox``); the scanner itself fits :class:`companion.ports.CardFeed`.

A scene that has stayed the same for :data:`STILL_FRAMES` frames (a card at
rest, an empty spot) is looked at every :data:`STILL_STRIDE`-th frame only;
the first change brings every frame back.

Callbacks run on the scanner thread; the UI marshals them to its own thread
(``Clock.schedule_once``).  An exception in a callback is logged and does
not stop the scanner.  For tests, ``process(image)`` runs one frame through
the same path synchronously, and ``step()`` does one iteration of the thread
loop.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.notices import CameraStatus, NotACard, TwoCardsInView
from companion.text import without_secrets
from vision.decode import ZXING, Decoder, FrameReads
from vision.roi import Detail
from vision.sources import NO_CAMERA, OK, FrameSource
from vision.tracker import CardPlaced, Event, ForeignPlaced, Tracker, TwoCards

#: Frames in a row judged unchanged after which the scanner takes only every
#: STILL_STRIDE-th frame (bench/idle.py: a resting card's scanner and camera
#: threads cost 1.7 % of a core looking at every frame, 1.2 % at every other).
STILL_FRAMES = 15
STILL_STRIDE = 3

log = logging.getLogger(__name__)


def notice(event: ForeignPlaced | TwoCards) -> NotACard | TwoCardsInView:
    """The core's reason for a tracker notice (the UI words it)."""
    if isinstance(event, ForeignPlaced):
        return NotACard(without_secrets(event.text))
    return TwoCardsInView(event.cards)


class Scanner:
    """Reads cards from a frame source on its own thread (see module docstring)."""

    def __init__(
        self,
        source: FrameSource,
        on_card: Callable[[str], Any],
        on_notice: Callable[[NotACard | TwoCardsInView], Any] | None = None,
        on_status: Callable[[CameraStatus], Any] | None = None,
        *,
        decoder: Decoder | None = None,
        tracker: Tracker | None = None,
        stall_timeout: float = 2.0,
    ) -> None:
        self.source = source
        self.on_card = on_card
        self.on_notice = on_notice
        self.on_status = on_status
        self.decoder = decoder if decoder is not None else Decoder()
        self.tracker = tracker if tracker is not None else Tracker()
        self.stall_timeout = stall_timeout
        self.status: CameraStatus | None = None  # last status reported
        self.last: FrameReads | None = None  # reads of the last frame processed
        self._seq = 0
        self._still = 0  # frames in a row judged unchanged (not decoded)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_frame_time = time.monotonic()
        spot = getattr(source, "spot", None)  # a source of whole frames may have none
        if spot is not None and self.decoder.skip_unchanged:
            # The camera asks before it cuts a window out: a still scene's is not.
            spot.look = self.decoder.wants

    # -- thread ----------------------------------------------------------
    def start(self) -> None:
        """Start the source and the scanner thread."""
        if self._thread is not None and self._thread.is_alive():
            return
        # One OpenCV thread: at 640x480 its worker threads give no speed-up, and
        # the other core is the UI's.
        cv2.setNumThreads(1)
        self._stop.clear()
        self._last_frame_time = time.monotonic()
        try:
            self.source.start()
        except Exception as e:
            log.warning("frame source failed to start: %s", e)
        self._thread = threading.Thread(target=self._run, name="vision-scanner", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        """Stop the scanner thread and the source."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        try:
            self.source.stop()
        except Exception as e:
            log.warning("frame source failed to stop: %s", e)

    @property
    def ok_status(self) -> CameraStatus:
        """The status while frames arrive: ``QR_ONLY`` when the decoder reads with
        pyzbar (zxing-cpp not loaded), so the table knows Micro QR labels go unread."""
        return CameraStatus.OK if self.decoder.reader == ZXING else CameraStatus.QR_ONLY

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.step(timeout=0.25)
            except Exception:  # never let the thread die: log and carry on
                log.exception("scanner step failed")
                self._stop.wait(0.1)

    # -- one iteration ----------------------------------------------------
    def step(self, timeout: float = 0.25) -> list[Event]:
        """Wait up to ``timeout`` s for a new frame and process it; update the status."""
        try:
            # A scene that has stayed still for a while is looked at every
            # third frame: a third of the wake-ups of a resting card or an
            # empty spot. Any change brings every frame back, and a card comes
            # in moving, so it is seen before it rests.
            after = self._seq + (STILL_STRIDE - 1 if self._still >= STILL_FRAMES else 0)
            frame = self.source.wait(after, timeout)
            source_status = self.source.status
        except Exception as e:
            log.warning("frame source failed: %s", e)
            frame, source_status = None, NO_CAMERA
            self._stop.wait(min(timeout, 0.25))
        now = time.monotonic()
        if frame is None:
            stalled = now - self._last_frame_time >= self.stall_timeout
            if source_status != OK or stalled:
                self._report_status(CameraStatus.NO_CAMERA)
            return []
        self._seq = frame.seq
        self._last_frame_time = now
        self._report_status(self.ok_status)
        return self.process(frame.image, frame.detail)

    def process(self, image: npt.NDArray[np.uint8], detail: Detail | None = None) -> list[Event]:
        """Decode one frame, step the tracker, call the callbacks; return the events.

        With ``detail`` (a full-resolution window, :mod:`vision.roi`) the window
        is decoded and ``image``, the whole field, only tells where the source's
        next window goes.
        """
        if detail is None:
            reads = self.decoder.decode(image)
        else:
            reads = self.decoder.decode(detail.image, window=True, thumb=detail.thumb)
            if self.source.spot is not None:
                reads = self.source.spot.in_zone(reads, detail)
                self.source.spot.follow(reads, detail, image)
        self.last = reads
        self._still = self._still + 1 if reads.skipped else 0
        events = self.tracker.step(reads.cards, reads.foreign)
        for event in events:
            if isinstance(event, CardPlaced):
                self._call(self.on_card, event.card)
            else:
                self._call(self.on_notice, notice(event))
        return events

    def _report_status(self, status: CameraStatus) -> None:
        if status != self.status:
            self.status = status
            self._call(self.on_status, status)

    @staticmethod
    def _call(callback: Callable[[Any], Any] | None, arg: object) -> None:
        if callback is None:
            return
        try:
            callback(arg)
        except Exception:
            log.exception("scanner callback failed")


class FrameStepper:
    """The scanner stepped one frame per :meth:`step`, by its caller, with no thread.

    Why not its thread: the demo needs the same frames read in the same order
    on every run (same seed, same game), and the virtual table renders a
    frame only when asked. The frames still go through :meth:`Scanner.process`,
    the path the scanner thread takes.
    """

    def __init__(self, scanner: Scanner, render: Callable[[], npt.NDArray[np.uint8]]) -> None:
        self.scanner = scanner
        self.render = render

    @property
    def tracker(self) -> Tracker:
        return self.scanner.tracker

    def step(self) -> list[CardPlaced]:
        """Render one frame and run it through the scanner."""
        return [e for e in self.scanner.process(self.render()) if isinstance(e, CardPlaced)]
