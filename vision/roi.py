"""A window of the camera's full resolution around the scan spot: where stickers are read.

A camera 30 to 45 cm above the table sees a whole card comfortably, but at
640x480 a QR module is then 1.3 to 2 pixels, where reading fails most.  The
Pi camera gives two streams of one exposure side by side: a low-resolution
one of the whole field (``lores``, 640 pixels wide) and one at the sensor's
binned resolution (``main``: Camera Module 3 2304x1296, Module 2 1640x1232),
3.6 or 2.6 times as many pixels a millimetre.  Only a window of ``main`` as
big as a 640x480 frame is copied and decoded: the decoder's cost stays that
of a 640x480 frame, and its modules are 3.6 times wider.

Where the window goes (:class:`Spot`): at first on the middle of the field
(the camera is mounted over the scan spot); then wherever a card was read
(found once, and tracked: a card nudged or put down a little aside moves the
window with it).  While nothing is read in the window, the strongest
sticker-like region of the low-resolution frame
(:func:`vision.decode.candidates`) moves it there: a card put down beside the
window is found within a frame or two.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:  # the decoder loads OpenCV: the frame sources do not need it to start
    from vision.decode import FrameReads

Point = tuple[float, float]

#: The window's size in full-resolution pixels: what a 640x480 frame costs.
WINDOW = (640, 480)
#: Decoded frames with no card read in the window after which the
#: low-resolution frame is searched for a sticker elsewhere.
SEARCH_AFTER = 2


@dataclass(frozen=True)
class Detail:
    """A window of a full-resolution frame: its pixels (grey), where it lies and
    the whole frame's size, in full-resolution pixels, and how many of them
    make one pixel of the low-resolution frame (``scale``)."""

    image: npt.NDArray[np.uint8] = field(repr=False)
    origin: tuple[int, int]
    full: tuple[int, int]
    scale: float


def window_box(centre: Point, full: tuple[int, int],
               size: tuple[int, int] = WINDOW) -> tuple[int, int, int, int]:
    """The window's left, top, right and bottom around ``centre``, inside the frame."""
    fw, fh = full
    ww, wh = min(size[0], fw), min(size[1], fh)
    x0 = min(max(0, round(centre[0] - ww / 2)), fw - ww)
    y0 = min(max(0, round(centre[1] - wh / 2)), fh - wh)
    return x0, y0, x0 + ww, y0 + wh


def crop(full: npt.NDArray[np.uint8], centre: Point, scale: float,
         size: tuple[int, int] = WINDOW) -> Detail:
    """The window of ``full`` (grey, or a YUV420 buffer's Y plane) around ``centre``,
    copied: the camera's buffer goes back to it at once."""
    h, w = full.shape[:2]
    x0, y0, x1, y1 = window_box(centre, (w, h), size)
    return Detail(np.ascontiguousarray(full[y0:y1, x0:x1]), (x0, y0), (w, h), scale)


class Spot:
    """Where the next window goes (see the module docstring).

    Thread-safe enough for its use: the scanner thread moves it, the camera's
    thread reads :attr:`centre` (one tuple, replaced whole).
    """

    def __init__(self, size: tuple[int, int] = WINDOW) -> None:
        self.size = size
        self.centre: Point | None = None  # None: the middle of the field
        self._unread = 0  # decoded frames in a row with no card read in the window

    def at(self, full: tuple[int, int]) -> Point:
        """The window's centre for a frame of size ``full``."""
        return self.centre if self.centre is not None else (full[0] / 2, full[1] / 2)

    def follow(self, reads: FrameReads, detail: Detail,
               lores: npt.NDArray[np.uint8] | None = None) -> None:
        """Move the spot after ``reads`` (in window pixels) of ``detail``'s window."""
        x0, y0 = detail.origin
        cards = [r for r in reads.reads if r.card is not None]
        if cards:
            xs = [r.center[0] for r in cards]
            ys = [r.center[1] for r in cards]
            self.centre = (x0 + sum(xs) / len(xs), y0 + sum(ys) / len(ys))
            self._unread = 0
            return
        if reads.skipped:
            return
        self._unread += 1
        if lores is None or self._unread < SEARCH_AFTER:
            return
        from vision.decode import candidates, to_gray

        points, _strength = candidates(to_gray(lores), k=1)
        if not points:
            return
        px, py = points[0][0] * detail.scale, points[0][1] * detail.scale
        bx0, by0, bx1, by1 = window_box(self.at(detail.full), detail.full, self.size)
        # a region already well inside the window stays where it is: moving
        # the window would make a still scene look changed
        margin_x, margin_y = (bx1 - bx0) / 4, (by1 - by0) / 4
        if not (bx0 + margin_x <= px <= bx1 - margin_x and by0 + margin_y <= py <= by1 - margin_y):
            self.centre = (px, py)
            self._unread = 0
