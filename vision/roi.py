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

How much it covers (``zoom``): a camera low over the table has QR modules of
7 to 12 full-resolution pixels, too wide and too blurred for the decoder,
and a label wider than 640 pixels; then the window is taken 2 or 3 times as
wide and reduced to 640x480, for about :data:`MODULE_PX` pixels a module or
more.  The first zoom comes from the mounting height the camera is set up
for; each card read sets it from the modules it measured.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from vision.stickers import MICRO_RATIO

if TYPE_CHECKING:  # the decoder loads OpenCV: the frame sources do not need it to start
    from vision.decode import FrameReads

Point = tuple[float, float]

#: The window's size in full-resolution pixels: what a 640x480 frame costs.
WINDOW = (640, 480)
#: Decoded frames with no card read in the window after which the
#: low-resolution frame is searched for a sticker elsewhere; and, while none
#: is read, the frames between two searches (the decoder skips a still scene).
SEARCH_AFTER, SEARCH_EVERY = 2, 8
#: Pixels a QR module wants at least in the decoded window (bench/photo.py
#: --capture: reads fall below 3): a window whose modules are more than twice
#: that is taken from a wider area and reduced (``zoom``), up to 3 times.
MODULE_PX, MAX_ZOOM = 3.5, 3
#: Frames between two tries of the other zoom while no card is read (about
#: 2 s at 30 fps): a camera set up for another height still finds its cards,
#: and an empty table pays one more decode every 2 s, not every frame.
RETRY_ZOOM_EVERY = 64
#: How far off the window's middle a card is read, as a share of the window's
#: side, before the window moves to it (an eighth: the label stays whole inside).
RECENTRE_OFF = 1 / 8
#: A sticker's QR module in mm (25 mm across 21 modules), for the first zoom.
MODULE_MM = 25.0 / 21


def zoom_for(px_per_mm: float) -> int:
    """The zoom for a full-resolution stream of ``px_per_mm`` on the table (before any read)."""
    return max(1, min(MAX_ZOOM, int(px_per_mm * MODULE_MM / MODULE_PX)))


@dataclass(frozen=True)
class Detail:
    """A window of a full-resolution frame: its pixels (grey, reduced ``zoom``
    times), where it lies and the whole frame's size, in full-resolution
    pixels, and how many of them make one pixel of the low-resolution frame
    (``scale``).

    ``image`` is None when the window was not cut out, its scene judged
    unchanged by its ``thumb`` (the decoder's thumbnail of it), and ``size``
    then says how large it is in window pixels."""

    image: npt.NDArray[np.uint8] | None = field(repr=False)
    origin: tuple[int, int]
    full: tuple[int, int]
    scale: float
    zoom: int = 1  # full-resolution pixels a window pixel across (an area reduced)
    thumb: npt.NDArray[np.uint8] | None = field(default=None, repr=False)
    size: tuple[int, int] = (0, 0)  # width and height in window pixels (crop sets it)

    @property
    def extent(self) -> tuple[int, int]:
        """The window's width and height in window pixels: ``size``, or for a
        window made from its image alone (``size`` left at 0 x 0) the image's."""
        if self.image is None or self.size != (0, 0):
            return self.size
        h, w = self.image.shape[:2]
        return w, h


def _reduce(part: npt.NDArray[np.uint8], zoom: int) -> npt.NDArray[np.uint8]:
    """The mean of each ``zoom`` x ``zoom`` block of ``part`` (which may be a
    view into the camera's buffer: OpenCV reads it in place)."""
    import cv2

    rows, cols = part.shape[0] // zoom, part.shape[1] // zoom
    if zoom == 2:
        return np.asarray(cv2.resize(part, (cols, rows), interpolation=cv2.INTER_AREA), np.uint8)
    # As INTER_AREA gives it, but a box filter read at the blocks' centres:
    # OpenCV's area reduction has a fast path for halving only, and at 3 it took
    # 1.4 to 1.8 ms a frame here; this 0.5 to 1.5.
    blurred = cv2.blur(part, (zoom, zoom))
    return np.ascontiguousarray(
        blurred[zoom // 2:rows * zoom:zoom, zoom // 2:cols * zoom:zoom], np.uint8)


def window_box(centre: Point, full: tuple[int, int],
               size: tuple[int, int] = WINDOW) -> tuple[int, int, int, int]:
    """The window's left, top, right and bottom around ``centre``, inside the frame
    (``size`` full-resolution pixels, or the whole frame if it is smaller)."""
    fw, fh = full
    ww, wh = min(size[0], fw), min(size[1], fh)
    x0 = min(max(0, round(centre[0] - ww / 2)), fw - ww)
    y0 = min(max(0, round(centre[1] - wh / 2)), fh - wh)
    return x0, y0, x0 + ww, y0 + wh


#: Whether the scanner wants a window's pixels, given its thumbnail
#: (:meth:`vision.decode.Decoder.wants`).
Look = Callable[[npt.NDArray[np.uint8]], bool]


def crop(full: npt.NDArray[np.uint8], centre: Point, scale: float,
         size: tuple[int, int] = WINDOW, zoom: int = 1, look: Look | None = None) -> Detail:
    """The window of ``full`` (grey, or a YUV420 buffer's Y plane) around ``centre``,
    ``zoom`` times ``size`` reduced to ``size``, in an array of its own: the
    camera's buffer goes back to it at once.

    With ``look``, the window's thumbnail is taken first, sampled from the
    buffer (:func:`vision.decode.thumbnail`), and the window is cut only if
    ``look`` wants it: a still scene is judged on a few thousand of the
    window's pixels instead of all of them (a 1920x1440 window at zoom 3:
    ``bench/idle.py --main-scale 3.6``).

    A wider window is reduced straight from the buffer, not copied out first:
    at zoom 3 that takes 1.1 ms here, where the copy took 0.7 ms and reducing
    the copy 1.1 more (``bench/idle.py --main-scale 3.6``, profiled). The
    camera cuts a window only for the frames the scanner takes
    (:meth:`vision.sources.FrameSource._window_wanted`), so nothing is
    reduced that is not looked at."""
    h, w = full.shape[:2]
    x0, y0, x1, y1 = window_box(centre, (w, h), (size[0] * zoom, size[1] * zoom))
    part = full[y0:y1, x0:x1]
    extent = ((x1 - x0) // zoom, (y1 - y0) // zoom)
    thumb = None
    if look is not None:
        from vision.decode import thumbnail

        thumb = thumbnail(part, zoom)
        if not look(thumb):
            return Detail(None, (x0, y0), (w, h), scale, zoom, thumb, extent)
    image = _reduce(part, zoom) if zoom > 1 else np.ascontiguousarray(part)
    return Detail(image, (x0, y0), (w, h), scale, zoom, thumb, extent)


class Spot:
    """Where the next window goes (see the module docstring).

    Thread-safe enough for its use: the scanner thread moves it, the camera's
    thread reads :attr:`centre` (one tuple, replaced whole).
    """

    def __init__(self, size: tuple[int, int] = WINDOW, zoom: int = 1) -> None:
        self.size = size
        self.centre: Point | None = None  # None: the middle of the field
        self.zoom = zoom  # see crop(); set by each card read
        #: Whether the scanner wants a window's pixels (set by the scanner);
        #: None: every window is cut.
        self.look: Look | None = None
        self._unread = 0  # decoded frames in a row with no card read in the window
        self._since_zoom = 0  # frames since the zoom was last tried or learned
        self._since_search = 0  # frames since the whole field was last searched

    def at(self, full: tuple[int, int]) -> Point:
        """The window's centre for a frame of size ``full``."""
        return self.centre if self.centre is not None else (full[0] / 2, full[1] / 2)

    def follow(self, reads: FrameReads, detail: Detail,
               lores: npt.NDArray[np.uint8] | None = None) -> None:
        """Move the spot after ``reads`` (in window pixels) of ``detail``'s window."""
        x0, y0 = detail.origin
        z = detail.zoom
        self._since_zoom += 1
        self._since_search += 1
        cards = [r for r in reads.reads if r.card is not None]
        if cards:
            xs = [r.center[0] for r in cards]
            ys = [r.center[1] for r in cards]
            read_at = (x0 + z * sum(xs) / len(xs), y0 + z * sum(ys) / len(ys))
            # A card read well inside the window leaves it where it is: the
            # corners a decoder finds move by a pixel or two from frame to
            # frame, and a window following them would make a resting card look
            # changed in every frame, decoded each time instead of skipped.
            w, h = detail.extent
            off_x = abs(read_at[0] - (x0 + z * w / 2)) / (z * w)
            off_y = abs(read_at[1] - (y0 + z * h / 2)) / (z * h)
            if self.centre is None or max(off_x, off_y) > RECENTRE_OFF:
                self.centre = read_at
            # the QR's modules at full resolution set how much to reduce (a
            # Micro QR's are MICRO_RATIO * 21 / 17 times as wide); a zoom that
            # keeps them between MODULE_PX and 2.5 times that is kept, so a
            # module measured at the edge of two zooms does not flip between them
            module = z * max(r.size / (21 * (MICRO_RATIO if r.modules == 17 else 1.0))
                             for r in cards)
            now = module / self.zoom
            if not ((now >= MODULE_PX or self.zoom == 1)
                    and (now < 2.5 * MODULE_PX or self.zoom == MAX_ZOOM)):
                self.zoom = max(1, min(MAX_ZOOM, int(module / MODULE_PX)))
            self._unread = self._since_zoom = 0
            return
        if not reads.skipped:
            self._unread += 1
        # decoded with nothing sticker-like in the window, or twice with nothing
        # read: look at the whole field; and every SEARCH_EVERY frames anyway
        decoded_in_vain = not reads.skipped and (
            not reads.candidates or self._unread >= SEARCH_AFTER)
        if not decoded_in_vain and self._since_search < SEARCH_EVERY:
            return
        self._since_search = 0
        if self._since_zoom >= RETRY_ZOOM_EVERY:
            # nothing read at this zoom for a while: try the next (a camera
            # lower than it was set up for has modules too wide and blurred)
            self.zoom = self.zoom % MAX_ZOOM + 1
            self._since_zoom = 0
        if lores is None:
            return
        from vision.decode import candidates, to_gray

        points, _strength = candidates(to_gray(lores), k=1)
        if not points:
            return
        px, py = points[0][0] * detail.scale, points[0][1] * detail.scale
        bx0, by0, bx1, by1 = window_box(self.at(detail.full), detail.full,
                                        (self.size[0] * z, self.size[1] * z))
        # a region already well inside the window stays where it is: moving
        # the window would make a still scene look changed
        margin_x, margin_y = (bx1 - bx0) / 4, (by1 - by0) / 4
        if not (bx0 + margin_x <= px <= bx1 - margin_x and by0 + margin_y <= py <= by1 - margin_y):
            self.centre = (px, py)
