"""A window of the camera's full resolution around the scan spot: where stickers are read.

A camera 30 to 45 cm above the table sees a whole card comfortably, but at
640x480 a QR module is then 1.3 to 2 pixels, where reading fails most.  The
Pi camera gives two streams of one exposure side by side: a low-resolution
one of the whole field (``lores``, 640 pixels wide) and one at the sensor's
binned resolution (``main``: Camera Module 3 2304x1296, Module 2 1640x1232),
3.6 or 2.6 times as many pixels a millimetre.  Only a window of ``main`` as
big as a 640x480 frame is copied and decoded: the decoder's cost stays that
of a 640x480 frame, and its modules are 3.6 times wider.

Where the window goes (:class:`Spot`): home, the scan spot, which is the
middle of the field (the camera is mounted over it), or near it: it holds
no more than the scan zone, the sticker-like regions whose middle lies within
:data:`REACH_MM` (100 mm) of home along each axis, and :data:`SYMBOL_MM`
around them so that such a symbol fits whole.  A card nudged or put down a
little aside is read and followed there; when nothing is read the window
goes back home.  A code read with its middle out of the zone is dropped
(:meth:`Spot.in_zone`): it is no card laid, whatever window held it.  The
field around it is a table with the path of cards already played, each
with its sticker: a window free to go to the strongest sticker-like region
anywhere settled on a path card (read as laid, and kept
there by its reads), and a card then laid on the spot went unread.

Why 100 mm: a card laid beside the last one, partly on the spot, lies 45 to
75 mm from it, its symbols' middles up to about 80 mm from home; a path card
120 mm away (the path lies 12 to 20 cm from the spot) has its symbols' near
edge 107 mm away, never whole in a window that ends at 117 mm, and turned
across, its nearest symbol's middle 99 mm away (a label's symbols lie 15 and
21 mm from its middle): 12 cm is the least distance at which a path card
stays unread, and from 13 cm none is near.  The millimetres are the table's:
full-resolution pixels a millimetre (``px_per_mm``) come from the height the
camera is set up for (:class:`vision.sources.CameraSettings`) and are then
measured by each card read (its QR modules).  At 25, 35 and 45 cm a window at
zoom 1 covers 90, 126 and 162 mm across (68, 95 and 122 down), so following
a card moves it at most 72, 54 and 36 mm off home across (83, 70 and 56
down); a window wider than the zone stays at home.

The zone of the low-resolution frame (``lores``, the whole field) is watched:
when it changed and came to rest (its 16x16-block thumbnail, as the decoder
judges a window's), its sticker-like regions (:func:`vision.decode.candidates`)
that the window does not hold are looked at: the window goes to the
strongest, or between it and the card read when one window holds both (a
card laid beside the last one, which stays where it is).  A region read in
vain for :data:`SEARCH_AFTER` decodes is not gone to again until the zone
changes.  A still scene moves nothing: a moved window looks changed, and is
decoded instead of skipped (:meth:`vision.decode.Decoder.wants`).

How much it covers (``zoom``): a camera low over the table has QR modules of
7 to 12 full-resolution pixels, too wide and too blurred for the decoder,
and a label wider than 640 pixels; then the window is taken 2 or 3 times as
wide and reduced to 640x480, for about :data:`MODULE_PX` pixels a module or
more.  The first zoom comes from the mounting height the camera is set up
for; each card read sets it from the modules it measured.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from vision.stickers import MICRO_RATIO

if TYPE_CHECKING:  # the decoder loads OpenCV: the frame sources do not need it to start
    from vision.decode import FrameReads, Read

Point = tuple[float, float]

#: The window's size in full-resolution pixels: what a 640x480 frame costs.
WINDOW = (640, 480)
#: Decoded frames at a region the window went to with nothing read there
#: after which it is given up (the decoder retries an unread window once, a
#: frame later: ``vision.decode._next_wait``).
SEARCH_AFTER = 2
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
#: A sticker's QR module in mm (25 mm across 21 modules), for the first zoom
#: and the table's scale.
MODULE_MM = 25.0 / 21
#: The scan zone: how far from home, in mm on the table along each axis, the
#: window may reach (see the module docstring for why 100).
REACH_MM = 100.0
#: Half the side of what a symbol needs whole in a window (the 25 mm QR and
#: its quiet zone, and a little): a region this far inside a window is in it.
SYMBOL_MM = 17.0
#: A region this near a card read, or a region visited in vain, is that one.
NEAR_MM = 25.0
#: A region the window went to is read when a card is read this near it (a
#: label's two symbols are 36 mm apart: the region may be either).
LABEL_MM = 45.0
#: A move smaller than this share of the window's side is not made: a still
#: scene would look changed for nothing (half of RECENTRE_OFF).
STAY = RECENTRE_OFF / 2
#: The field across, in mm, before a card read measures the table's scale:
#: Camera Module 3's 66 degrees at the deployment's 35 cm
#: (:class:`vision.sources.CameraSettings`; a test keeps the two the same).
FIELD_MM = 2 * 350.0 * math.tan(math.radians(33.0))


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
    """Where the next window goes (see the module docstring): at home, or
    near it, never out of the scan zone (:data:`REACH_MM` around home).

    ``home`` is the scan spot in full-resolution pixels (None: the middle of
    the field, over which the camera is mounted); ``px_per_mm`` the
    full-resolution pixels a millimetre of table, which sizes the zone (None:
    a field :data:`FIELD_MM` across, until a card read measures it).

    Thread-safe enough for its use: the scanner thread moves it, the camera's
    thread reads :attr:`centre` (one tuple, replaced whole).
    """

    def __init__(self, size: tuple[int, int] = WINDOW, zoom: int = 1,
                 px_per_mm: float | None = None, home: Point | None = None) -> None:
        self.size = size
        self.home = home
        self.centre: Point | None = None  # None: at home
        self.zoom = zoom  # see crop(); set by each card read
        self.px_per_mm = px_per_mm  # set by the camera, then by each card read
        #: Whether the scanner wants a window's pixels (set by the scanner);
        #: None: every window is cut.
        self.look: Look | None = None
        self._since_zoom = 0  # frames since the zoom was last tried or learned
        self._module = 0.0  # the last card's QR module in full-resolution pixels
        self._measured = False  # whether a card read has measured the table's scale
        self._zone: npt.NDArray[np.uint8] | None = None  # the zone's thumbnail, last frame
        self._searched: npt.NDArray[np.uint8] | None = None  # ... when it was last searched
        self._visit: Point | None = None  # a region the window went to, not read yet
        self._vain = 0  # decoded frames at the visit with nothing read there
        self._tried: list[Point] = []  # regions visited in vain since the zone last changed

    @property
    def measured(self) -> bool:
        """Whether a card read has measured the table's scale (``px_per_mm``)."""
        return self._measured

    def at(self, full: tuple[int, int]) -> Point:
        """The window's centre for a frame of size ``full``."""
        return self.centre if self.centre is not None else self.home_at(full)

    def home_at(self, full: tuple[int, int]) -> Point:
        """Home for a frame of size ``full``."""
        return self.home if self.home is not None else (full[0] / 2, full[1] / 2)

    def scale_at(self, full: tuple[int, int]) -> float:
        """Full-resolution pixels a millimetre of table, for a frame of size ``full``."""
        return self.px_per_mm if self.px_per_mm else full[0] / FIELD_MM

    def zone(self, full: tuple[int, int]) -> tuple[float, float, float, float]:
        """The scan zone's left, top, right and bottom (full-resolution pixels)."""
        hx, hy = self.home_at(full)
        reach = REACH_MM * self.scale_at(full)
        return hx - reach, hy - reach, hx + reach, hy + reach

    def in_zone(self, reads: FrameReads, detail: Detail) -> FrameReads:
        """``reads`` (in window pixels) of ``detail``'s window without those
        whose middle is out of the scan zone: a window wider than the zone (a
        zoom tried before any card measured the table, as after a restart
        with the path in view) may hold a path card, which is no card laid."""
        zx0, zy0, zx1, zy1 = self.zone(detail.full)
        x0, y0 = detail.origin
        z = detail.zoom
        kept = tuple(r for r in reads.reads
                     if zx0 <= x0 + z * r.center[0] <= zx1 and zy0 <= y0 + z * r.center[1] <= zy1)
        return reads if len(kept) == len(reads.reads) else replace(reads, reads=kept)

    def follow(self, reads: FrameReads, detail: Detail,
               lores: npt.NDArray[np.uint8] | None = None) -> None:
        """Move the spot after ``reads`` (in window pixels) of ``detail``'s window;
        ``lores`` is the whole field, searched near home when it changed."""
        x0, y0 = detail.origin
        z = detail.zoom
        w, h = detail.extent
        box = (x0, y0, x0 + z * w, y0 + z * h)
        self._since_zoom += 1
        cards = [r for r in reads.reads if r.card is not None]
        read = [(x0 + z * r.center[0], y0 + z * r.center[1]) for r in cards]
        if cards:
            self._learn(cards, z)
            self._since_zoom = 0
        fresh = self._settled_change(lores, detail)
        gave_up = False
        if self._visit is not None and not reads.skipped:
            mm = self.scale_at(detail.full)
            if any(math.dist(p, self._visit) <= LABEL_MM * mm for p in read):
                self._visit = None  # a card there: it is followed as any other
            else:
                self._vain += 1
                if self._vain >= SEARCH_AFTER:  # the decoder has had its retry
                    self._tried.append(self._visit)
                    self._visit, gave_up = None, True
        if self._visit is not None:
            return  # the window stays at the region it went to until it is read or given up
        if cards:
            read_at = (sum(p[0] for p in read) / len(read), sum(p[1] for p in read) / len(read))
            if fresh:
                regions = self._search(lores, detail, box, read)
                if regions:
                    # something new near home beside the card read: a window
                    # holding both if one can, else the new one
                    self._visit = regions[0]
                    self._move(self._both(read_at, regions[0], detail), detail.full)
                    return
            # A card read well inside the window leaves it where it is: the
            # corners a decoder finds move by a pixel or two from frame to
            # frame, and a window following them would make a resting card look
            # changed in every frame, decoded each time instead of skipped.
            off_x = abs(read_at[0] - (box[0] + box[2]) / 2) / (box[2] - box[0])
            off_y = abs(read_at[1] - (box[1] + box[3]) / 2) / (box[3] - box[1])
            if self.centre is None or gave_up or max(off_x, off_y) > RECENTRE_OFF:
                self._move(read_at, detail.full)
            return
        if self._since_zoom >= RETRY_ZOOM_EVERY:
            # nothing read at this zoom for a while: try the next (a camera
            # lower than it was set up for has modules too wide and blurred);
            # once a card measured the table, only a window inside the zone
            # (a wider one would read the path's cards)
            zooms = [z for z in range(1, MAX_ZOOM + 1)
                     if not self._measured or self._inside(z, detail.full)]
            later = [z for z in zooms if z > self.zoom]
            self.zoom = later[0] if later else zooms[0] if zooms else self.zoom
            self._since_zoom = 0
        if not (fresh or gave_up):
            return  # a still scene's window stays where it is
        regions = self._search(lores, detail, box, read)
        if regions:
            self._visit = regions[0]
            self._move(regions[0], detail.full)
        elif self.centre is not None:
            self.centre, self._vain = None, 0  # nothing new near home: back home

    def _learn(self, cards: list[Read], z: int) -> None:
        """The zoom and the table's scale from the QR modules of ``cards``."""
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
        self._module = module
        self._measured = True
        # the table's scale, kept unless it changed by more than a few per cent:
        # the zone and the window's bounds do not move by a pixel with each read
        measured = module / MODULE_MM
        if not self.px_per_mm or abs(measured / self.px_per_mm - 1) > 0.05:
            self.px_per_mm = measured

    def _settled_change(self, lores: npt.NDArray[np.uint8] | None, detail: Detail) -> bool:
        """Whether the zone of ``lores`` is as in the last frame and not as when
        it was last searched: something changed near home and came to rest."""
        if lores is None:
            return False
        from vision.decode import same_scene, thumbnail, to_gray

        lx0, ly0, lx1, ly1 = self._zone_in(lores, detail)
        thumb = thumbnail(to_gray(lores[ly0:ly1, lx0:lx1]))

        def same(a: npt.NDArray[np.uint8] | None) -> bool:
            return a is not None and same_scene(a, thumb)

        settled = same(self._zone)
        self._zone = thumb
        if not settled or same(self._searched):
            return False
        self._searched = thumb
        self._tried = []  # a new scene: what was unreadable may be read now
        return True

    def _zone_in(self, lores: npt.NDArray[np.uint8], detail: Detail) -> tuple[int, int, int, int]:
        """The scan zone in ``lores`` pixels, inside it."""
        lh, lw = lores.shape[:2]
        zx0, zy0, zx1, zy1 = (v / detail.scale for v in self.zone(detail.full))
        return (max(0, int(zx0)), max(0, int(zy0)), min(lw, math.ceil(zx1)),
                min(lh, math.ceil(zy1)))

    def _search(self, lores: npt.NDArray[np.uint8] | None, detail: Detail,
                box: tuple[float, float, float, float], read: list[Point]) -> list[Point]:
        """Sticker-like regions in the zone of ``lores`` (full-resolution
        pixels, strongest first) that the window does not hold, that are no
        card read and were not visited in vain."""
        if lores is None:
            return []
        from vision.decode import candidates, to_gray

        lx0, ly0, lx1, ly1 = self._zone_in(lores, detail)
        points, _strength = candidates(to_gray(lores[ly0:ly1, lx0:lx1]), k=3)
        mm = self.scale_at(detail.full)
        out = []
        for px, py in points:
            p = ((lx0 + px) * detail.scale, (ly0 + py) * detail.scale)
            if (self._covers(box, p, mm)
                    or any(math.dist(p, q) <= NEAR_MM * mm for q in read + self._tried)):
                continue
            out.append(p)
        return out

    @staticmethod
    def _covers(box: tuple[float, float, float, float], p: Point, mm: float) -> bool:
        """Whether a symbol at ``p`` lies whole in the window ``box``."""
        mx = min(SYMBOL_MM * mm, (box[2] - box[0]) / 4)
        my = min(SYMBOL_MM * mm, (box[3] - box[1]) / 4)
        return box[0] + mx <= p[0] <= box[2] - mx and box[1] + my <= p[1] <= box[3] - my

    def _both(self, card: Point, region: Point, detail: Detail) -> Point:
        """Where the window goes for a new ``region`` beside a ``card`` read:
        between the two when a window holds both (reduced once more if its
        modules stay :data:`MODULE_PX` wide), else on the region."""
        full, mm = detail.full, self.scale_at(detail.full)
        mid = ((card[0] + region[0]) / 2, (card[1] + region[1]) / 2)
        zooms = [self.zoom] + ([self.zoom + 1] if self.zoom < MAX_ZOOM
                               and self._module / (self.zoom + 1) >= MODULE_PX else [])
        for zoom in zooms:
            if zoom != self.zoom and not self._inside(zoom, full):
                break  # a wider window would reach out of the zone
            size = (self.size[0] * zoom, self.size[1] * zoom)
            box = window_box(self._bounded(mid, full, zoom), full, size)
            if self._covers(box, card, mm) and self._covers(box, region, mm):
                self.zoom = zoom
                return mid
        return region

    def bounds(self, full: tuple[int, int]) -> tuple[float, float, float, float]:
        """What a window may cover (full-resolution pixels): the zone and
        :data:`SYMBOL_MM` more, so a symbol whose middle is in the zone can
        be held whole, and a path card's, 120 mm from home, cannot."""
        zx0, zy0, zx1, zy1 = self.zone(full)
        more = SYMBOL_MM * self.scale_at(full)
        return zx0 - more, zy0 - more, zx1 + more, zy1 + more

    def _inside(self, zoom: int, full: tuple[int, int]) -> bool:
        """Whether a window at ``zoom`` fits in :meth:`bounds`."""
        bx0, by0, bx1, by1 = self.bounds(full)
        return self.size[0] * zoom <= bx1 - bx0 and self.size[1] * zoom <= by1 - by0

    def _bounded(self, p: Point, full: tuple[int, int], zoom: int | None = None) -> Point:
        """``p``, moved as little as needed for the window around it to stay in :meth:`bounds`."""
        zoom = self.zoom if zoom is None else zoom
        hx, hy = self.home_at(full)
        zx0, zy0, zx1, zy1 = self.bounds(full)
        half_w, half_h = self.size[0] * zoom / 2, self.size[1] * zoom / 2
        x = hx if zx1 - zx0 <= 2 * half_w else min(max(p[0], zx0 + half_w), zx1 - half_w)
        y = hy if zy1 - zy0 <= 2 * half_h else min(max(p[1], zy0 + half_h), zy1 - half_h)
        return x, y

    def _move(self, p: Point, full: tuple[int, int]) -> None:
        """The window to ``p``, in the zone; not by a few pixels (a still scene
        would look changed)."""
        new = self._bounded(p, full)
        old = self.at(full)
        self._vain = 0
        if (abs(new[0] - old[0]) <= self.size[0] * self.zoom * STAY
                                and abs(new[1] - old[1]) <= self.size[1] * self.zoom * STAY):
            return
        self.centre = new
