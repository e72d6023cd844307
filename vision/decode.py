"""Frame -> the QR and Micro QR payloads in it, with where they are.

The cascade, and why each step is there (figures from ``bench/photo.py``:
the project's sticker sheet printed and photographed):

1. **zxing-cpp on the grey frame, QR and Micro QR**, without its inverted,
   rotated or downscaled retries (a sticker is dark on light, QR finders
   work at any angle, and a 640x480 frame needs no downscaling).  On the
   photographed frames that reads the same frames as zxing-cpp's defaults at
   about a quarter of the time, and most frames with a card are read here.
2. Only when step 1 found no card: **find sticker-like regions** (the densest
   patch of edges in a half-size frame: a symbol's modules make more edges
   than card art, a hand or wood grain) and decode a 2x-enlarged crop of each
   with zxing-cpp, then the same crop sharpened (unsharp mask).  A symbol seen
   at 3 px per module is at the limit of zxing's detector; doubling it turns
   many blurred, small or dark failures into reads, and a crop costs a
   fraction of a full 2x frame.
3. On the **strongest region only**, a 3x crop sharpened hard (focus blur).
   Sharpening is done before enlarging: the same mask on a quarter of the
   pixels.  Local-contrast (CLAHE) and wide-mask steps, and pyzbar, read
   nothing these missed on the photographed frames and were dropped from the
   default chain (``Decoder(use_pyzbar=True)`` adds pyzbar back).

Only payloads that ``companion.cards.card_from_payload`` accepts become
cards; everything else is kept as a foreign read so the tracker can say
"not a card".  No step has ever produced a wrong payload in the benchmark
(Reed-Solomon: level H on the QR, Q on the Micro QR), and nothing here guesses.

Skipping work (a still camera sees the same scene for seconds): a 40x30
thumbnail of the frame is compared with the last decoded one.  A camera with a
full-resolution window takes the thumbnail before it cuts the window and asks
:meth:`Decoder.wants` whether the pixels are needed at all: a still scene's
window is then never cut out of the camera's buffer (:func:`vision.roi.crop`).

* Nothing read and the scene unchanged: the frame is not decoded, except 1
  and 3 frames later (sensor noise can make an unread sticker readable, e.g.
  on a card that just came to rest) and then every :data:`RETRY_EVERY`
  frames.  So an empty table with art on it does not pay the whole fallback
  chain every frame.
* A card read and the scene unchanged, including the blocks under its
  symbols (a card swapped for another in the same place changes them): the
  last frame's reads are given again, and the card is read again every
  :data:`REFRESH_EVERY` frames anyway.
"""

from __future__ import annotations

import functools
import importlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.cards import NotACardError, card_from_payload


def _load(name: str) -> ModuleType | None:
    """``name`` imported, or None when it (or the C library under it) cannot be loaded."""
    try:
        return importlib.import_module(name)
    except (ImportError, OSError):
        return None


#: zxing-cpp, the reader of both symbols; None where its wheel cannot be
#: loaded (a platform with no wheel, a broken install).  Then pyzbar (Debian's
#: libzbar) reads the QR half of each label: zbar has no Micro QR.
zxingcpp: Any = _load("zxingcpp")
ZXING, PYZBAR = "zxing-cpp", "pyzbar"


class NoReader(ImportError):
    """Neither zxing-cpp nor pyzbar can be loaded: nothing can read a sticker."""


@functools.lru_cache(maxsize=1)
def best_reader() -> str:
    """The reader this machine has: :data:`ZXING`, else :data:`PYZBAR` (QR only).

    Raises :class:`NoReader` when neither loads.
    """
    if zxingcpp is not None:
        return ZXING
    if _load("pyzbar.pyzbar") is not None:
        return PYZBAR
    raise NoReader("no QR reader: neither zxing-cpp nor pyzbar (Debian's libzbar0) loads")

Gray = npt.NDArray[np.uint8]
Point = tuple[float, float]

#: Box-filtered edge strength (0..255 scale) below which a frame holds no
#: sticker-like region at all.  The empty benchmark table peaks at 9-15; the
#: darkest, flattest card frames at 26 and more.
EMPTY_EDGE_DENSITY = 20.0
#: Largest thumbnail difference (grey levels, means of 16 samples of a 16x16
#: block) still "the same frame": sensor noise of 8 levels gives up to 7, a
#: hand or a card moving in gives tens.
UNCHANGED_LEVELS = 10
_ROI_HALF = 120  # half side of a crop around a candidate, in frame pixels
#: Unchanged frames after which a scene with no card read is decoded again
#: (after two quick retries): about 2 s at 30 fps, which keeps a still empty
#: table with art on it under a quarter of raw zxing-cpp's cost a frame.
RETRY_EVERY = 64
#: Unchanged frames after which a card kept from an earlier frame is read again:
#: about 10 s at 30 fps. A swap is caught by the symbol blocks, not by this; a
#: read a second (every 30) was most of a resting card's idle cost (bench/idle.py:
#: 2.6 % of a core against 1.8 % with it every 10 s, an empty Kivy app 1.0 %).
REFRESH_EVERY = 300
#: Something new on the spot (a changed scene with sticker-like regions) and
#: no card read: after the two quick retries it is tried every
#: :data:`EAGER_EVERY` frames until it is :data:`EAGER_FRAMES` old (3 s at
#: 30 fps), each time with one more fallback step of :data:`VARIATIONS`, then
#: every :data:`RETRY_EVERY`.  A quarter of the frames for 3 s keeps within the
#: idle budget, which is spent on still scenes of minutes; over a new unread
#: scene's first 5 s it costs 0.79x raw zxing-cpp a frame against 0.24x with
#: the retries at 1, 3 and 64 alone (bench/photo.py, "still empty spot": a
#: card without a sticker), the same as before once the scene is 3 s old.
EAGER_EVERY, EAGER_FRAMES = 4, 90
#: Mean grey-level difference of a read symbol's thumbnail blocks above which
#: it changed: sensor noise stays near 1, another card's modules give tens.
SYMBOL_CHANGED = 4.0


@dataclass(frozen=True)
class _Memory:
    """What the decoder keeps of the last decoded frame."""

    thumb: Gray
    reads: tuple[Read, ...]
    symbols: tuple[tuple[int, int, int, int], ...]  # card symbols' boxes in the thumbnail
    skipped: int  # unchanged frames since it was decoded
    wait: int  # unchanged frames before an unread scene is tried again
    age: int = 0  # frames since the scene was first decoded
    tries: int = 0  # retries of the scene so far (each with its own variation)


@dataclass(frozen=True)
class Read:
    """One QR code read in a frame.

    ``card`` is the card id when ``text`` is a sticker payload
    (docs/cards-and-stickers.md), else None: a foreign code.  ``corners`` are the
    symbol's four corners in frame pixels; ``decoder`` names the cascade step
    that read it (for the benchmark and for debugging).
    """

    text: str
    card: str | None
    corners: tuple[Point, Point, Point, Point]
    decoder: str
    modules: int = 21  # across the symbol: 21 for a sticker's QR, 17 for its Micro QR

    @property
    def center(self) -> Point:
        xs = [p[0] for p in self.corners]
        ys = [p[1] for p in self.corners]
        return (sum(xs) / 4.0, sum(ys) / 4.0)

    @property
    def size(self) -> float:
        """Longest side of the symbol in pixels."""
        c = self.corners
        return max(
            float(np.hypot(c[i][0] - c[(i + 1) % 4][0], c[i][1] - c[(i + 1) % 4][1]))
            for i in range(4)
        )


@dataclass(frozen=True)
class FrameReads:
    """Everything read in one frame.

    ``skipped`` is True when the frame was judged unchanged and empty and was
    not decoded at all; ``ms`` is the time spent on this frame.
    """

    reads: tuple[Read, ...] = ()
    ms: float = 0.0
    skipped: bool = False
    candidates: tuple[Point, ...] = field(default=(), repr=False)

    @property
    def cards(self) -> tuple[str, ...]:
        """Distinct card ids read, in reading order."""
        return tuple(dict.fromkeys(r.card for r in self.reads if r.card is not None))

    @property
    def foreign(self) -> tuple[str, ...]:
        """Distinct payloads read that are not cards."""
        return tuple(dict.fromkeys(r.text for r in self.reads if r.card is None))


def card_of(text: str) -> str | None:
    """The card id a payload names, or None for anything that is not a sticker."""
    try:
        return card_from_payload(text).id
    except NotACardError:
        return None


def to_gray(frame: npt.NDArray[Any]) -> Gray:
    """A grey uint8 image of a grey, BGR or BGRA frame."""
    if frame.ndim == 2:
        return np.ascontiguousarray(frame, dtype=np.uint8)
    if frame.shape[2] == 4:
        return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGRA2GRAY), np.uint8)
    return np.asarray(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), np.uint8)


Quad = tuple[Point, Point, Point, Point]
#: A reader's finds: the text, the corners, whether the symbol can be one of
#: our stickers (a Micro QR below level Q cannot: ours are all at Q), and its
#: modules across as a sticker has them (21 for a QR, 17 for a Micro QR).
Found = list[tuple[str, Quad, bool, int]]


def _zxing(img: Gray, downscale: bool = False) -> Found:
    out = []
    # No inverted, rotated or downscaled retries: a sticker is dark on light, the
    # QR finder works at any angle, and a frame is small.  On the photographed
    # sticker frames this reads the same frames as the defaults at a quarter of
    # raw zxing-cpp's time, which is what pays for the fallback steps.  A
    # full-resolution window (``downscale``) is tried smaller too when nothing
    # reads: its modules can be 7 px and blurred.
    # The format set is made for each call: one kept at module level outlives
    # the binding at exit, and nanobind then prints a leak report on stderr.
    # Both symbols a sticker can carry: the QR every sticker has, and the
    # Micro QR of the newer labels (docs/cards-and-stickers.md).
    micro = zxingcpp.BarcodeFormat.MicroQRCode
    formats = zxingcpp.BarcodeFormats((zxingcpp.BarcodeFormat.QRCode, micro))
    for b in zxingcpp.read_barcodes(img, formats=formats, try_rotate=False,
                                    try_downscale=downscale,
                                    try_invert=False):
        if not b.valid:
            continue
        p = b.position
        corners = (
            (float(p.top_left.x), float(p.top_left.y)),
            (float(p.top_right.x), float(p.top_right.y)),
            (float(p.bottom_right.x), float(p.bottom_right.y)),
            (float(p.bottom_left.x), float(p.bottom_left.y)),
        )
        # A Micro QR at level L or M is another code (ours are at Q): it is
        # reported as not a card whatever it holds, never taken for one.
        ours = b.format != micro or b.ec_level == "Q"
        out.append((str(b.text), corners, ours, 17 if b.format == micro else 21))
    return out


def _pyzbar(img: Gray) -> Found:
    from pyzbar import pyzbar  # type: ignore[import-untyped]

    out = []
    for r in pyzbar.decode(img, symbols=[pyzbar.ZBarSymbol.QRCODE]):
        try:
            text = r.data.decode("utf-8")
        except UnicodeDecodeError:
            text = r.data.decode("latin-1")
        pts = [(float(p.x), float(p.y)) for p in r.polygon][:4]
        if len(pts) < 4:
            x, y, w, h = r.rect
            pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
        out.append((text, (pts[0], pts[1], pts[2], pts[3]), True, 21))  # zbar reads no Micro QR
    return out


def _gray(img: Any) -> Gray:
    return np.asarray(img, np.uint8)


def _enlarged(img: Gray, factor: int) -> Gray:
    return _gray(cv2.resize(img, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC))


def _otsu(img: Gray) -> Gray:
    return _gray(cv2.threshold(img, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)[1])


def _unsharp(img: Gray, sigma: float = 2.0, amount: float = 1.5) -> Gray:
    blurred = cv2.GaussianBlur(img, (0, 0), sigma)
    return _gray(cv2.addWeighted(img, 1 + amount, blurred, -amount, 0))


def candidates(gray: Gray, k: int = 2) -> tuple[list[Point], float]:
    """Centres of up to ``k`` sticker-like regions, and the strongest edge density.

    Works on a half-size frame: Sobel edge strength averaged over a window
    about the size of a sticker; the peaks are where modules are densest.
    Regions below :data:`EMPTY_EDGE_DENSITY` are not returned.
    """
    h, w = gray.shape
    if h < 32 or w < 32:
        return [], 0.0
    half = cv2.resize(gray, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    gx = cv2.convertScaleAbs(cv2.Sobel(half, cv2.CV_16S, 1, 0), alpha=0.5)
    gy = cv2.convertScaleAbs(cv2.Sobel(half, cv2.CV_16S, 0, 1), alpha=0.5)
    density = cv2.boxFilter(cv2.add(gx, gy), cv2.CV_32F, (21, 21))
    out: list[Point] = []
    strongest = 0.0
    for i in range(k):
        _, peak, _, loc = cv2.minMaxLoc(density)
        if i == 0:
            strongest = float(peak)
        if peak < EMPTY_EDGE_DENSITY:
            break
        out.append((loc[0] * 2.0, loc[1] * 2.0))
        cv2.circle(density, loc, 35, (0.0,), -1)
    return out, strongest


class Decoder:
    """Reads QR payloads in frames (the cascade in the module docstring).

    >>> from vision.render import Scene, render
    >>> Decoder().decode(render(Scene(card="T11A"))).cards
    ('T11A',)

    ``fallback=False`` gives the first step alone; ``use_pyzbar=True`` adds
    pyzbar as the strongest region's last step (it read no frame the other
    steps missed on the benchmark); ``skip_unchanged=False`` decodes every
    frame.  ``reader`` is :data:`ZXING` or :data:`PYZBAR`, by default the best
    this machine loads (:func:`best_reader`): with pyzbar every step reads
    with it, and only the QR half of a label is read (zbar has no Micro QR).
    Not thread-safe: one decoder per thread (it remembers the last frame).
    """

    def __init__(
        self, *, fallback: bool = True, use_pyzbar: bool = False, skip_unchanged: bool = True,
        reader: str | None = None,
    ) -> None:
        self.reader = best_reader() if reader is None else reader
        if self.reader not in (ZXING, PYZBAR):
            raise ValueError(f"unknown reader {reader!r} (one of {ZXING}, {PYZBAR})")
        if self.reader == ZXING and zxingcpp is None:
            raise NoReader("zxing-cpp cannot be loaded")
        self._read: _Reader = _zxing if self.reader == ZXING else _pyzbar
        self.fallback = fallback
        self.use_pyzbar = use_pyzbar and self.reader == ZXING
        self.skip_unchanged = skip_unchanged
        self._last: _Memory | None = None
        self._age = 0  # the age of the scene this decode looks at (0: a new scene)
        self._tries = 0  # the retries of this scene before this decode
        self._clahe = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(4, 4))
        #: The fallback steps tried on every candidate region, then on the
        #: strongest one only (names of :data:`_STEPS`, in order).
        self.region_steps: tuple[str, ...] = REGION_STEPS
        self.strongest_steps: tuple[str, ...] = STRONGEST_STEPS
        #: The steps on the whole of a full-resolution window, on the retries
        #: of an unread scene, before its regions (names of :data:`_WINDOW_STEPS`).
        self.window_steps: tuple[str, ...] = WINDOW_STEPS

    def reset(self) -> None:
        """Forget the last frame (e.g. after the camera was reopened)."""
        self._last = None
        self._age = self._tries = 0

    def wants(self, thumb: Gray) -> bool:
        """Whether the next frame, whose :func:`thumbnail` is ``thumb``, would be
        decoded: False when it would be skipped as unchanged.

        Asked from the camera's thread before it cuts a window out of its
        buffer: it reads the last frame's memory (one object, replaced whole)
        and changes nothing.
        """
        return not self.skip_unchanged or _look(self._last, thumb)[0] != _KEEP

    def decode(self, frame: npt.NDArray[Any] | None, *, window: bool = False,
               thumb: Gray | None = None) -> FrameReads:
        """All codes read in ``frame`` (grey, BGR or BGRA uint8).

        ``window``: the frame is a full-resolution window (:mod:`vision.roi`),
        where modules are 3.5 px or more.  There the crops read 1 frame in 169
        that the whole window did not (``bench/photo.py --capture``) and were
        most of the cost: they are tried only on the retries of an unread scene.

        ``thumb``: the frame's :func:`thumbnail`, taken already (a window's is
        taken from the camera's full resolution).  ``frame`` may then be None,
        where :meth:`wants` said it would be skipped: the last reads are given
        again.  Should the scene need decoding after all (the memory changed
        in between, as after :meth:`reset`), the frame is passed over unread:
        the memory is left as it was, so the next frame, judged against it,
        is cut out and decoded.
        """
        t0 = time.perf_counter()
        if frame is None and (thumb is None or not self.skip_unchanged):
            raise ValueError("no frame to decode, and no thumbnail to keep the last reads by")
        if self.skip_unchanged:
            if thumb is None:
                assert frame is not None
                thumb = thumbnail(frame)
            kept = self._unchanged(thumb)
            if kept is None and frame is None:  # passed over: the next frame is judged anew
                self._age = self._tries = 0  # a retry's count is set again by that judgement
                kept = self._last.reads if self._last is not None else ()
            if kept is not None:
                return FrameReads(kept, (time.perf_counter() - t0) * 1000.0, skipped=True)
        else:
            thumb = None
        assert frame is not None  # a frame passed over has returned above
        age, tries = (self._age, self._tries) if thumb is not None else (0, 0)
        self._age = self._tries = 0
        gray = to_gray(frame)
        first = "zxing" if self.reader == ZXING else "pyzbar"
        found_first = _zxing(gray, window) if self._read is _zxing else self._read(gray)
        reads = [Read(t, card_of(t) if ours else None, c, first, n)
                 for t, c, ours, n in found_first]
        found: tuple[Point, ...] = ()
        if self.fallback and window and tries and not any(r.card for r in reads):
            for name in self.window_steps:
                reads += [Read(t, card_of(t) if ours else None, c, name, n)
                          for t, c, ours, n in self._read(_WINDOW_STEPS[name](gray))]
                if any(r.card for r in reads):
                    break
        if self.fallback and not any(r.card for r in reads) and (tries or not window):
            points, _strongest = candidates(gray)
            found = tuple(points)
            for i, point in enumerate(points):
                if any(_near(point, r) for r in reads):
                    continue
                extra = (VARIATIONS[(tries - 1) % len(VARIATIONS)],) if tries and i == 0 else ()
                reads += self._decode_region(gray, point, strongest=i == 0, extra=extra)
        out = tuple(_dedupe(reads))
        if thumb is not None:
            # A window's first decode looks for no regions (they cost more than
            # they read there): whether it holds anything sticker-like is not
            # known yet, so it is retried as if it did, and the retry finds out.
            unknown = window and not tries and not out
            wait = _next_wait(age, bool(found or out) or unknown)
            self._last = _Memory(thumb, out, _symbols(thumb, out), 0, wait, age, tries)
        return FrameReads(out, (time.perf_counter() - t0) * 1000.0, candidates=found)

    def _unchanged(self, thumb: Gray) -> tuple[Read, ...] | None:
        """The last frame's reads if ``thumb`` shows the same scene, else None (decode it).

        A scene where no card was read is retried 1 and 3 frames later (a
        card that just came to rest: sensor noise can make an unread sticker
        readable), then, while it is new and holds sticker-like regions,
        every :data:`EAGER_EVERY` frames with a variation, and after that
        every :data:`RETRY_EVERY` unchanged frames: an empty table with art on
        it must not pay the whole fallback chain every frame (see
        :func:`_next_wait`).  A card that was read is kept while
        its symbols' pixels stay the same (a card swapped for another in the
        same place changes them), and read again every :data:`REFRESH_EVERY`
        frames anyway.
        """
        last = self._last
        verdict, skipped = _look(last, thumb)
        if last is None or verdict == _NEW:
            return None
        if verdict == _RETRY:
            self._age, self._tries = last.age + skipped, last.tries + 1
            return None
        self._last = replace(last, skipped=skipped)
        return last.reads

    def _decode_region(self, gray: Gray, point: Point, *, strongest: bool,
                       extra: tuple[str, ...] = ()) -> list[Read]:
        h, w = gray.shape
        x, y = int(point[0]), int(point[1])
        x0, y0 = max(0, x - _ROI_HALF), max(0, y - _ROI_HALF)
        x1, y1 = min(w, x + _ROI_HALF), min(h, y + _ROI_HALF)
        roi = gray[y0:y1, x0:x1]
        if roi.size == 0:
            return []
        names = self.region_steps + (self.strongest_steps if strongest else ()) + extra
        if strongest and self.use_pyzbar:
            names += ("pyzbar-roi",)
        # Each step's image is made only when the steps before it read nothing:
        # most regions are read by the first.
        steps = [(name, *_STEPS[name]) for name in names]
        for name, image, scale, read in steps:
            if read is _zxing and self.reader == PYZBAR:
                read, name = _pyzbar, name.replace("zxing", "pyzbar", 1)
            got = read(image(roi, self))
            if got:
                return [
                    Read(t, card_of(t) if ours else None, _shift(c, scale, x0, y0), name, n)
                    for t, c, ours, n in got
                ]
        return []


_Reader = Callable[[Gray], Found]
#: The fallback steps: name -> (the image from a crop, its scale, the reader).
#: Sharpening is done on the crop before it is enlarged (the same mask on a
#: quarter of the pixels: the blur was most of the chain's time).
_STEPS: dict[str, tuple[Callable[[Gray, Decoder], Gray], float, _Reader]] = {
    "zxing-roi": (lambda roi, d: _enlarged(roi, 2), 2.0, _zxing),
    "zxing-roi-sharp": (lambda roi, d: _enlarged(_unsharp(roi, 1.0), 2), 2.0, _zxing),
    # local contrast: a sticker half washed out by a lamp's reflection
    "zxing-roi-clahe": (
        lambda roi, d: _enlarged(_unsharp(_gray(d._clahe.apply(roi)), 1.0), 2), 2.0, _zxing),
    # a wider unsharp mask undoes blocky JPEG
    "zxing-roi-wide": (lambda roi, d: _enlarged(_unsharp(roi, 1.5), 2), 2.0, _zxing),
    # a 3x crop sharpened hard undoes focus blur
    "zxing-roi-deblur": (lambda roi, d: _enlarged(_unsharp(roi, 1.5, 5.0), 3), 3.0, _zxing),
    # Otsu's threshold on the sharpened crop: one level for the whole label
    "zxing-roi-binary": (lambda roi, d: _enlarged(_otsu(_unsharp(roi, 1.0)), 2), 2.0, _zxing),
    "pyzbar-roi": (lambda roi, d: _enlarged(roi, 2), 2.0, _pyzbar),
}
#: The steps on a whole full-resolution window: name -> its image.
_WINDOW_STEPS: dict[str, Callable[[Gray], Gray]] = {
    # Focus blur of 2 to 3.5 px (a fixed-focus camera, or a lens set for
    # another height) over modules of 4 to 6: the sensor's noise smoothed
    # first, then a wide mask sharpened hard. A crop around a region is too
    # small for a label at this scale, so it is done on the whole window.
    "zxing-window-deblur": lambda img: _unsharp(_gray(cv2.GaussianBlur(img, (0, 0), 0.8)),
                                                3.0, 4.0),
}
WINDOW_STEPS = ("zxing-window-deblur",)
#: On 200 photographed frames of each sticker kind (bench/photo.py, seed 99,
#: not the benchmark's), these three read every frame the five steps did
#: (CLAHE and the wide mask read none the others missed) at 2.3x raw zxing-cpp's
#: p95 time instead of 5.9x.
REGION_STEPS = ("zxing-roi", "zxing-roi-sharp")
STRONGEST_STEPS = ("zxing-roi-deblur",)
#: The steps a retry of an unread new scene adds, one each retry in turn: the
#: ones that read where the others failed on a few frames but were too dear
#: for every frame (local contrast for a lamp's reflection, a wider mask for
#: blocky coding, a fixed threshold for a dim or washed-out label).
VARIATIONS = ("zxing-roi-clahe", "zxing-roi-wide", "zxing-roi-binary")


def _next_wait(age: int, anything: bool) -> int:
    """Unchanged frames before an unread scene of ``age`` frames is decoded again.

    Frames 1 and 3 after it came, then every :data:`EAGER_EVERY` while it is
    younger than :data:`EAGER_FRAMES`, then every :data:`RETRY_EVERY`; a
    scene with nothing sticker-like in it (``anything`` False) waits the long
    wait at once.

    >>> [_next_wait(age, True) for age in (0, 1, 3, 87, 91)], _next_wait(0, False)
    ([1, 2, 4, 4, 64], 64)
    """
    if not anything:
        return RETRY_EVERY
    if age < 2:
        return age + 1
    return EAGER_EVERY if age < EAGER_FRAMES else RETRY_EVERY


def thumbnail(frame: npt.NDArray[Any], zoom: int = 1) -> Gray:
    """A 16x smaller grey frame: each pixel the mean of 16 samples of a 16x16 block.

    Sampling every 4th pixel first (nearest) makes it cost a fifth of a grey
    conversion of the whole frame, which is what a skipped frame must not pay.
    ``zoom``: ``frame`` is a full-resolution part that a window reduces
    ``zoom`` times (:func:`vision.roi.crop`); its thumbnail is the window's,
    sampled from the part itself, so a still scene is judged without the
    window being made. Its pixels are not the window's means of ``zoom`` x
    ``zoom`` blocks but single pixels, noisier, so it takes four times the
    samples (every ``2 * zoom``-th pixel: 64 a block): a resting card's
    fresh noise then moves it by 4 or 5 grey levels where a window's own
    thumbnail moves by 3, well inside :data:`UNCHANGED_LEVELS` (single
    pixels every ``4 * zoom`` moved it by 6 to 9).
    """
    h, w = frame.shape[0] // zoom, frame.shape[1] // zoom
    step = 4 if zoom == 1 else 2
    sampled = cv2.resize(frame, (max(1, w // step), max(1, h // step)),
                         interpolation=cv2.INTER_NEAREST)
    small = to_gray(np.asarray(sampled, np.uint8))
    return _gray(cv2.resize(small, (max(1, w // 16), max(1, h // 16)),
                            interpolation=cv2.INTER_AREA))


def same_scene(a: Gray, b: Gray) -> bool:
    """Whether two thumbnails (:func:`thumbnail`) show the same scene: no
    block differs by more than :data:`UNCHANGED_LEVELS` grey levels."""
    # cv2.norm gives the largest difference in one call, with no array in
    # between: a still scene's look runs on a thread that has just woken,
    # where each layer of numpy costs many times what it does in a loop.
    return a.shape == b.shape and float(cv2.norm(a, b, cv2.NORM_INF)) <= UNCHANGED_LEVELS


#: What a look at a frame's thumbnail finds (:func:`_look`): a scene to decode
#: as new, an unread scene due for a retry, or one to keep unread.
_NEW, _RETRY, _KEEP = "new", "retry", "keep"


def _look(last: _Memory | None, thumb: Gray) -> tuple[str, int]:
    """What :meth:`Decoder._unchanged` does with ``thumb`` after ``last``, and
    the count of unchanged frames it makes; changes nothing."""
    if last is None or not same_scene(last.thumb, thumb):
        return _NEW, 0
    skipped = last.skipped + 1
    if any(r.card for r in last.reads):
        if skipped >= REFRESH_EVERY or not _same_symbols(last.thumb, thumb, last.symbols):
            return _NEW, 0
        return _KEEP, skipped
    return (_RETRY if skipped >= last.wait else _KEEP), skipped


def _symbols(thumb: Gray, reads: Sequence[Read]) -> tuple[tuple[int, int, int, int], ...]:
    """Each card symbol's bounding box in thumbnail blocks (16 px a side)."""
    h, w = thumb.shape
    out = []
    for r in reads:
        if r.card is None:
            continue
        xs = [p[0] / 16 for p in r.corners]
        ys = [p[1] / 16 for p in r.corners]
        x0, y0 = max(0, int(min(xs))), max(0, int(min(ys)))
        x1, y1 = min(w, int(max(xs)) + 1), min(h, int(max(ys)) + 1)
        if x1 > x0 and y1 > y0:
            out.append((x0, y0, x1, y1))
    return tuple(out)


def _same_symbols(before: Gray, now: Gray, boxes: tuple[tuple[int, int, int, int], ...]) -> bool:
    """Whether the blocks under each read symbol kept their grey levels.

    Stricter than the whole-frame test: a mean over the symbol's blocks, where
    sensor noise averages out to about 1 level and another card's modules
    move it by tens.
    """
    for x0, y0, x1, y1 in boxes:
        block = before[y0:y1, x0:x1]
        if cv2.norm(block, now[y0:y1, x0:x1], cv2.NORM_L1) / block.size > SYMBOL_CHANGED:
            return False
    return bool(boxes)


def _shift(corners: Quad, scale: float, x0: int, y0: int) -> Quad:
    a, b, c, d = ((px / scale + x0, py / scale + y0) for px, py in corners)
    return (a, b, c, d)


def _near(point: Point, read: Read) -> bool:
    cx, cy = read.center
    return bool(np.hypot(point[0] - cx, point[1] - cy) < max(40.0, read.size))


def _dedupe(reads: Sequence[Read]) -> list[Read]:
    """One read per sticker: the same text at (nearly) the same place counts once."""
    out: list[Read] = []
    for r in reads:
        if not any(o.text == r.text and _near(r.center, o) for o in out):
            out.append(r)
    return out
