"""Where frames come from: cameras, files, and a rendered virtual table.

Every source has the same small interface (:class:`FrameSource`):
``start()``, ``stop()``, ``latest()`` (the newest :class:`Frame`, never
blocking), ``wait(after_seq, timeout)`` (the next newer frame, blocking at
most ``timeout`` seconds) and ``status`` (``"ok"``, ``"no camera"`` or
``"reopening"``).  Each source captures on its own daemon thread and keeps
only the newest frame, so a slow consumer never makes the camera queue up
stale frames and the UI thread never waits on a camera.

A camera that fails to open, or stops delivering frames, is closed and
reopened with exponential back-off (0.5 s doubling to 8 s) while the rest of
the app keeps running; its status says so.

Use :func:`open_source` to build one from a configuration string.
"""

from __future__ import annotations

import enum
import logging
import math
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from vision import MAX_IMAGE_PIXELS, SourceKind
from vision.roi import Detail, Spot, zoom_for

log = logging.getLogger(__name__)



class SourceStatus(enum.StrEnum):
    """A frame source's own state; the scanner makes the camera's
    :class:`~companion.notices.CameraStatus` of it (reopening is no camera yet)."""

    OK = "ok"
    NO_CAMERA = "no camera"
    REOPENING = "reopening"


OK, NO_CAMERA, REOPENING = SourceStatus.OK, SourceStatus.NO_CAMERA, SourceStatus.REOPENING
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp", ".pgm",
                            ".ppm"})


@dataclass(frozen=True)
class Frame:
    """One captured image (BGR or grey uint8) with its sequence number and time.

    ``seq`` counts up from 1 for each frame a source delivers; ``t`` is
    ``time.monotonic()`` at capture.  A camera with a full-resolution stream
    beside the low-resolution ``image`` gives ``detail``: the window of it
    around the scan spot (:mod:`vision.roi`), where stickers are read.
    """

    image: npt.NDArray[np.uint8] = field(repr=False)
    seq: int
    t: float
    detail: Detail | None = field(default=None, repr=False)


class FrameSource:
    """Base of all sources: a capture thread that keeps the newest frame.

    Subclasses implement ``_open()`` (raise on failure), ``_read()`` (an image,
    or None when the device failed or a file ended) and ``_close()``.  The
    thread calls ``_read`` as fast as it returns, paced to ``fps`` when set.
    """

    #: Back-off between reopen attempts, in seconds.
    BACKOFF_START, BACKOFF_MAX = 0.5, 8.0
    name = "source"

    def __init__(self, fps: float | None = None) -> None:
        self.fps = fps
        self._lock = threading.Condition()
        self._frame: Frame | None = None
        self._seq = 0
        # The lowest frame number a waiter is waiting for: a scanner that
        # looks at every third frame of a still scene is woken for that frame
        # only, not for the two it skips.
        self._wake_at = math.inf
        # The first frame the scanner will take, kept after it is woken: the
        # frames before it need no window cut out (see _window_wanted).
        self._wanted_from = 0
        self._status = NO_CAMERA
        #: Where a source with a full-resolution stream puts its window (the
        #: scanner moves it); None for the others.
        self.spot: Spot | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ended = False

    # -- interface -------------------------------------------------------
    @property
    def status(self) -> SourceStatus:
        """``"ok"`` while frames arrive, ``"reopening"`` after a failure, else ``"no camera"``."""
        with self._lock:
            return self._status

    @property
    def ended(self) -> bool:
        """True when a finite source (files) has delivered its last frame."""
        return self._ended

    def start(self) -> None:
        """Start capturing on a daemon thread (idempotent)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"vision-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 2.0) -> None:
        """Stop capturing and release the device."""
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def latest(self) -> Frame | None:
        """The newest frame, or None before the first one (never blocks)."""
        with self._lock:
            return self._frame

    def wait(self, after_seq: int = 0, timeout: float = 1.0) -> Frame | None:
        """The newest frame with ``seq > after_seq``; None if none came within ``timeout``
        (at once when the source is stopped or a file source has ended)."""
        deadline = time.monotonic() + timeout
        with self._lock:
            self._wanted_from = after_seq + 1
            while self._frame is None or self._frame.seq <= after_seq:
                left = deadline - time.monotonic()
                if left <= 0 or self._stop.is_set() or self._ended:
                    return None
                self._wake_at = min(self._wake_at, after_seq + 1)
                self._lock.wait(left)
            return self._frame

    def __enter__(self) -> FrameSource:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- for subclasses --------------------------------------------------
    def _open(self) -> None:
        """Open the device; raise any exception when it cannot be opened."""

    def _read(self) -> npt.NDArray[np.uint8] | None:
        raise NotImplementedError

    def _close(self) -> None:
        """Release the device (must not raise)."""

    def _detail(self) -> Detail | None:
        """The full-resolution window of the frame ``_read`` just gave, if the source has one."""
        return None

    def _window_wanted(self) -> bool:
        """Whether the frame being read is one the scanner will take, so a source
        with a full-resolution stream cuts its window out only then. Of a still
        scene the scanner takes one frame in three (it says which in
        :meth:`wait`), and each cut is a copy out of the camera's buffer: at 30
        fps, 0.19 ms a frame here, half the cost of a resting card's window."""
        with self._lock:
            return self._seq + 1 >= self._wanted_from

    def _publish(self, image: npt.NDArray[np.uint8], detail: Detail | None = None) -> Frame:
        with self._lock:
            self._seq += 1
            self._frame = Frame(image, self._seq, time.monotonic(), detail)
            self._status = OK
            if self._seq >= self._wake_at:
                # Every waiter wakes; those waiting for a later frame set
                # their own number again before they sleep.
                self._wake_at = math.inf
                self._lock.notify_all()
            return self._frame

    def _set_status(self, status: SourceStatus) -> None:
        with self._lock:
            self._status = status

    def _run(self) -> None:
        backoff = self.BACKOFF_START
        opened = False
        while not self._stop.is_set():
            if not opened:
                try:
                    self._open()
                    opened = True
                except Exception as e:  # a missing or busy camera is an expected state
                    log.info("%s: cannot open (%s); retrying in %.1f s", self.name, e, backoff)
                    self._set_status(NO_CAMERA)
                    self._stop.wait(backoff)
                    backoff = min(self.BACKOFF_MAX, backoff * 2)
                    continue
            t0 = time.monotonic()
            try:
                image = self._read()
            except Exception as e:
                log.warning("%s: read failed: %s", self.name, e)
                image = None
            if image is None:
                if self._ended:
                    break
                self._safe_close()
                opened = False
                self._set_status(REOPENING)
                self._stop.wait(backoff)
                backoff = min(self.BACKOFF_MAX, backoff * 2)
                continue
            backoff = self.BACKOFF_START
            self._publish(image, self._detail())
            if self.fps:
                self._stop.wait(max(0.0, 1.0 / self.fps - (time.monotonic() - t0)))
        self._safe_close()
        with self._lock:
            self._lock.notify_all()

    def _safe_close(self) -> None:
        try:
            self._close()
        except Exception as e:
            log.warning("%s: close failed: %s", self.name, e)


class TwoStreamSource(FrameSource):
    """A source with two streams of one exposure: the whole field, which is
    each frame's ``image``, and the sensor's full resolution, of which only a
    :data:`vision.roi.WINDOW` around :attr:`spot` is kept, as the frame's
    ``detail``, where the scanner reads stickers (:mod:`vision.roi`).

    A subclass's ``_read`` calls :meth:`_cut` with the full-resolution frame
    when :meth:`_window_wanted` says the scanner will take it.
    """

    def __init__(self, fps: float | None = None) -> None:
        super().__init__(fps=fps)
        self.spot = Spot()
        self._window: Detail | None = None

    def _cut(self, main: npt.NDArray[np.uint8], scale: float) -> None:
        """Cut the window out of ``main``, ``scale`` times the whole field's width,
        for the frame being read (reduced by the spot's zoom, :func:`vision.roi.crop`)."""
        from vision.roi import crop

        spot = self.spot
        assert spot is not None, "a source with no spot has no window to cut"
        h, w = main.shape[:2]
        self._window = crop(main, spot.at((w, h)), scale, zoom=spot.zoom, look=spot.look)

    def _detail(self) -> Detail | None:
        window, self._window = self._window, None
        return window


class OpenCVCamera(FrameSource):
    """A V4L2 webcam through OpenCV (``device`` is an index or a /dev/video path)."""

    name = SourceKind.V4L2

    def __init__(self, device: int | str = 0, width: int = 640, height: int = 480,
                 fps: float | None = None) -> None:
        super().__init__(fps=None)
        self.device, self.width, self.height, self.camera_fps = device, width, height, fps
        self._cap: Any = None

    def _open(self) -> None:
        node = Path(f"/dev/video{self.device}" if isinstance(self.device, int) else self.device)
        if not node.exists():
            # Asking OpenCV anyway prints its own warnings on every retry.
            raise OSError(f"cannot open camera {self.device!r}: no {node}")
        import cv2

        cap = cv2.VideoCapture(self.device, cv2.CAP_V4L2)
        if not cap.isOpened():
            cap.release()
            raise OSError(f"cannot open camera {self.device!r}")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # newest frame, not a queue of old ones
        if self.camera_fps:
            cap.set(cv2.CAP_PROP_FPS, self.camera_fps)
        self._cap = cap

    def _read(self) -> npt.NDArray[np.uint8] | None:
        if self._cap is None:
            return None
        ok, image = self._cap.read()
        return image if ok and image is not None else None

    def _close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None

    def probe(self, timeout: float = 2.0) -> bool:
        """Whether the camera opens and gives a frame (used by ``open_source("auto")``)."""
        try:
            self._open()
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if self._read() is not None:
                    return True
            return False
        except Exception:
            return False
        finally:
            self._close()


def picamera_available() -> bool:
    """Whether picamera2 (python3-picamera2) imports, not only whether it is there.

    It can be found and still fail to import, e.g. under a numpy 2 that its
    compiled dependencies were not built for: then "auto" must go on to the
    next camera, not pick it and show "no camera".
    """
    import importlib
    import importlib.util

    if importlib.util.find_spec("picamera2") is None:
        return False
    try:
        importlib.import_module("picamera2")
    except Exception as e:
        log.warning("picamera2 is installed but does not import: %s", e)
        return False
    return True


#: Camera height above the scan spot the deployment notes give (deploy/README.md):
#: the middle of the 25 to 45 cm a Pi camera's full-resolution window supports.
CAMERA_HEIGHT_MM = 350.0


@dataclass(frozen=True)
class CameraSettings:
    """How the Pi camera is set up for reading stickers on the table.

    * ``height_mm``: the lens above the table (the config's ``[camera]
      above_table_cm``): focus distance, and the first zoom of the window
      and the scan zone's size until a card read measures the table
      (:mod:`vision.roi`).  A Camera Module 3 is focused by hand
      (``AfMode`` manual) at ``LensPosition`` = 1000 / ``height_mm``
      dioptres: 2.9 for 35 cm.  Autofocus hunts whenever a hand passes, and
      every hunt is blurred frames.  Fixed-focus cameras (Module 2) have no
      such control and are left alone.
    * ``exposure_us``: the longest exposure.  A card put down moves about
      0.2 m/s: 4 ms blurs it by 0.8 mm, two thirds of a QR module, at any
      height (``bench/photo.py --capture``: reads fall once motion blur
      passes two modules).  The shutter is
      fixed; the auto exposure makes up the light with analogue gain only
      (Raspberry Pi's AGC does so when ``ExposureTime`` is set).
    * ``fps``: a fixed frame rate (``FrameDurationLimits``), so the auto
      exposure cannot stretch frames in dim light.
    """

    height_mm: float = CAMERA_HEIGHT_MM
    exposure_us: int = 4000
    fps: float = 30.0
    size: tuple[int, int] = (640, 480)
    hfov_deg: float = 66.0  # Camera Module 3; a Module 2 has 62.2

    def px_per_mm(self, width: int) -> float:
        """Pixels a millimetre on the table for a frame ``width`` pixels across the field."""
        return width / (self.height_mm * self._field_per_height())

    def height_for(self, width: int, px_per_mm: float) -> float:
        """The lens's height above the table, in mm, at which a frame ``width``
        pixels across the field shows ``px_per_mm`` (as a card read measured it)."""
        return width / (px_per_mm * self._field_per_height())

    def _field_per_height(self) -> float:
        """The field's width on the table for each unit of the lens's height."""
        return 2 * math.tan(math.radians(self.hfov_deg / 2))


#: How far the height a card read measures may be from the configured one
#: before the log says to set it: a few centimetres either side of its focus
#: stay sharp, and a Camera Module 2 (62 degrees, where 66 are assumed)
#: measures 7 % low.
HEIGHT_SLACK = 0.15


def picamera_controls(settings: CameraSettings, available: Mapping[str, Any]) -> dict[str, Any]:
    """The libcamera controls for ``settings``, only those the camera has.

    ``available`` is ``Picamera2.camera_controls``: control name -> (min, max,
    default).  Values are clamped to the camera's range.
    """

    def clamp(name: str, value: float) -> float:
        low, high = available[name][0], available[name][1]
        return value if low is None or high is None else min(max(value, low), high)

    frame_us = round(1_000_000 / settings.fps)
    out: dict[str, Any] = {}
    if "AfMode" in available and "LensPosition" in available:
        out["AfMode"] = 0  # libcamera's AfModeManual
        out["LensPosition"] = clamp("LensPosition", 1000.0 / settings.height_mm)
    if "ExposureTime" in available:
        out["ExposureTime"] = int(clamp("ExposureTime", min(settings.exposure_us, frame_us)))
    if "FrameDurationLimits" in available:
        out["FrameDurationLimits"] = (frame_us, frame_us)
    return out


def stream_sizes(sensor: tuple[int, int], width: int = 640) -> tuple[tuple[int, int],
                                                                      tuple[int, int]]:
    """The two streams' sizes for a sensor of ``sensor`` pixels: ``main`` its 2x2
    binned mode (the whole field at half the resolution, the fast mode: Camera
    Module 3 2304x1296 at 56 fps, Module 2 1640x1232 at 41 fps) and ``lores``
    the same field ``width`` pixels wide (even sizes, as YUV420 wants).

    >>> stream_sizes((4608, 2592)), stream_sizes((3280, 2464))
    (((2304, 1296), (640, 360)), ((1640, 1232), (640, 480)))
    """
    main = (sensor[0] // 4 * 2, sensor[1] // 4 * 2)
    return main, (width, round(width * main[1] / main[0] / 2) * 2)


class PiCamera(TwoStreamSource):
    """The Raspberry Pi camera through picamera2, imported only when opened.

    With ``detail`` (the default) it runs two streams of one exposure: ``lores``
    (the whole field, ``width`` pixels wide, grey) is each frame's ``image``,
    and a :data:`vision.roi.WINDOW` of ``main`` (the sensor's binned
    resolution) around :attr:`spot` is its ``detail``, where the scanner reads
    stickers (:mod:`vision.roi`).  Without, one ``width`` x ``height`` colour stream.
    """

    name = SourceKind.PICAMERA

    def __init__(self, width: int = 640, height: int = 480,
                 settings: CameraSettings | None = None, detail: bool = True) -> None:
        super().__init__(fps=None)
        self.width, self.height = width, height
        self.settings = settings if settings is not None else CameraSettings(size=(width, height))
        self.controls: dict[str, Any] = {}  # what was asked of the camera (for the log)
        self.detail = detail
        if not detail:
            self.spot = None
        self.sizes: tuple[tuple[int, int], tuple[int, int]] | None = None  # main, lores
        self._cam: Any = None
        self._height_checked = False  # against the first card read, once a start

    def _open(self) -> None:
        from picamera2 import Picamera2  # type: ignore[import-not-found]

        cam = Picamera2()
        try:
            self.controls = picamera_controls(self.settings, dict(cam.camera_controls))
            if self.detail:
                self.sizes = main, lores = stream_sizes(tuple(cam.sensor_resolution), self.width)
                if self.spot is not None and self.spot.px_per_mm is None:
                    # what the camera is set up for, until a card read measures it
                    self.spot.px_per_mm = self.settings.px_per_mm(main[0])
                    self.spot.zoom = zoom_for(self.spot.px_per_mm)
                # YUV420: its first plane is the grey image, with no conversion;
                # a lores stream must be YUV420 on a Pi 4.
                config = cam.create_video_configuration(
                    main={"size": main, "format": "YUV420"},
                    lores={"size": lores, "format": "YUV420"}, buffer_count=2,
                    controls=self.controls,
                )
            else:
                # "RGB888" is stored B, G, R in memory: what OpenCV and zxing-cpp expect.
                config = cam.create_video_configuration(
                    main={"size": (self.width, self.height), "format": "RGB888"},
                    buffer_count=2, controls=self.controls,
                )
            cam.configure(config)
            cam.start()
        except Exception:
            cam.close()
            raise
        log.info("picamera streams %s, controls: %s", self.sizes, self.controls)
        self._cam = cam

    def _read(self) -> npt.NDArray[np.uint8] | None:
        if self._cam is None:
            return None
        if self.sizes is None:
            return np.asarray(self._cam.capture_array("main"), np.uint8)
        from picamera2 import MappedArray

        (mw, mh), (lw, lh) = self.sizes
        request = self._cam.capture_request()
        try:
            lores = np.asarray(request.make_array("lores"), np.uint8)[:lh, :lw]
            # the main buffer is mapped, not copied: only the window is
            self._window = None  # one cut for a frame that then failed is not handed on
            if self._window_wanted():
                with MappedArray(request, "main") as mapped:
                    self._cut(mapped.array[:mh, :mw], mw / lw)
        finally:
            request.release()
        if not self._height_checked and self.spot is not None and self.spot.measured:
            self._height_checked = True
            self._check_height(mw)
        return np.ascontiguousarray(lores)

    def _check_height(self, width: int) -> None:
        """Say in the log when the first card read puts the lens well away from
        the configured height: the focus is set for that height, and only the
        person who mounted the camera can set it right."""
        spot = self.spot
        if spot is None or not spot.px_per_mm or "LensPosition" not in self.controls:
            return  # a fixed-focus camera (Module 2) has nothing to set
        seen = self.settings.height_for(width, spot.px_per_mm)
        said = self.settings.height_mm
        if abs(seen / said - 1) > HEIGHT_SLACK:
            log.warning(
                "camera: the first card read puts the lens about %.0f cm above the table,"
                " and it is focused at %.0f cm: set [camera] above_table_cm = %.0f in the"
                " config file (for stickers printed at 25 mm)", seen / 10, said / 10, seen / 10,
            )

    def _close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
            finally:
                self._cam.close()
                self._cam = None


class FileSource(FrameSource):
    """Frames from image files, or from one video file, in order.

    ``paths`` is a list of image paths or a single video path.  Threaded use
    paces frames at ``fps`` (images: 15 by default; videos: their own rate)
    and, with ``loop``, starts over at the end; :meth:`frames` reads them
    synchronously for tests and tools.
    """

    name = SourceKind.FILE

    def __init__(self, paths: str | Path | Sequence[str | Path], fps: float | None = None,
                 loop: bool = False) -> None:
        super().__init__(fps=fps)
        items = [paths] if isinstance(paths, (str, Path)) else list(paths)
        self.paths = [Path(p) for p in items]
        self.loop = loop
        self._iter: Iterator[npt.NDArray[np.uint8]] | None = None

    @property
    def is_video(self) -> bool:
        return len(self.paths) == 1 and self.paths[0].suffix.lower() not in IMAGE_SUFFIXES

    def frames(self) -> Iterator[npt.NDArray[np.uint8]]:
        """Every frame once, in order; raises OSError for a file it cannot read."""
        import cv2

        if self.is_video:
            cap = cv2.VideoCapture(str(self.paths[0]))
            if not cap.isOpened():
                raise OSError(f"{self.paths[0]}: cannot open video")
            if self.fps is None:
                rate = cap.get(cv2.CAP_PROP_FPS)
                self.fps = rate if rate and math.isfinite(rate) and rate > 0 else 15.0
            try:
                while True:
                    ok, image = cap.read()
                    if not ok or image is None:
                        return
                    yield np.asarray(image, np.uint8)
            finally:
                cap.release()
        else:
            for path in self.paths:
                yield load_image(path)

    def _open(self) -> None:
        if self.fps is None and not self.is_video:
            self.fps = 15.0
        self._iter = self.frames()

    def _read(self) -> npt.NDArray[np.uint8] | None:
        assert self._iter is not None
        image = next(self._iter, None)
        if image is None and self.loop:
            self._iter = self.frames()
            image = next(self._iter, None)
        if image is None:
            self._ended = True
        return image


#: The largest image file read whole (a 48-megapixel PNG is about 100 MB).
MAX_IMAGE_BYTES = 200 * 1024 * 1024


def load_image(path: str | Path) -> npt.NDArray[np.uint8]:
    """An image file as a BGR array; OSError with a reason when it cannot be read."""
    import stat

    import cv2

    p = Path(path)
    try:
        # Opened without waiting and read only if a regular file: a named pipe
        # there held `scan` for ever.
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK)
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                raise OSError("not a file")
            if status.st_size > MAX_IMAGE_BYTES:
                raise OSError(f"larger than {MAX_IMAGE_BYTES // 2**20} MB")
            with open(fd, "rb", closefd=False) as f:
                data = np.frombuffer(f.read(), np.uint8)
        finally:
            os.close(fd)
    except (OSError, ValueError) as e:
        raise OSError(f"{p}: {getattr(e, 'strerror', None) or e}") from None
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except cv2.error as e:
        if "MAX_IMAGE_PIXELS" in str(e):
            raise OSError(f"{p}: more than {MAX_IMAGE_PIXELS // 1_000_000} megapixels") from None
        raise OSError(f"{p}: not an image OpenCV can read") from None
    if image is None:
        raise OSError(f"{p}: not an image OpenCV can read")
    return np.asarray(image, np.uint8)


#: Degradations a ``VirtualTable(hard=True)`` placement keeps while the card
#: rests (motion and hands come and go by themselves).
HARD_PLACEMENTS = ("blur", "noise", "jpeg", "glare", "tilt", "low_contrast", "dark", "small")


class VirtualTable(FrameSource):
    """A rendered camera above a table: the demo's and the tests' camera.

    ``place(card)`` slides a card onto the scan spot (``place(None)`` takes it
    away), ``hand_over()`` passes a hand across, ``foreign(text)`` lays a
    sticker that is not a card beside the spot, ``second(card)`` puts a second
    card in view.  Each placement draws fresh lighting, position, rotation,
    slant and focus from the seeded generator, and every frame gets its own
    sensor noise, so one seed always gives the same frames.

    With ``hard=True`` every placement also keeps one of
    :data:`HARD_PLACEMENTS` while it rests (the benchmark's hard sequences).

    Threaded, it renders at ``fps``; :meth:`next_image` renders the next frame
    synchronously (deterministic stepping for tests and the benchmark).
    ``rest_index`` is the index (0-based, counting every frame rendered) of the
    first frame in which the last placed card lies at rest (the hand may still
    be withdrawing), so callers can count frames from there; None when no
    card is placed.
    """

    name = SourceKind.VIRTUAL
    SLIDE_FRAMES = 4

    def __init__(self, seed: int = 0, fps: float | None = 15.0, hard: bool = False) -> None:
        super().__init__(fps=fps)
        self.seed = seed
        self.hard = hard
        self._rng = np.random.default_rng(seed)
        from vision import render

        self._render = render
        self._scene = replace(render.base_scene(self._rng, None), card=None)
        self._script: list[Callable[[Any], Any]] = []  # per-frame scene changes
        self._frames = 0
        self.rest_index: int | None = None
        self._steer = threading.Lock()
        self._extras: dict[str, tuple[str | None, str | None, float, float, float]] = {}

    # -- controls (thread-safe) -------------------------------------------
    def place(self, card: str | None) -> None:
        """Slide ``card`` onto the scan spot (over 4 frames, held by a hand that
        then withdraws), replacing any card there; None lifts the card away."""
        with self._steer:
            r = self._rng
            if card is None:
                self._scene = replace(self._scene, card=None, sticker=None, hand=None,
                                      motion=0.0)
                self._script = []
                self.rest_index = None
                return
            rest = self._render.base_scene(r, card)
            rest = replace(rest, tilt=float(r.uniform(0, 0.25)),
                           focus_blur=float(r.uniform(0.4, 1.1)),
                           table_seed=self._scene.table_seed, extra=self._scene.extra)
            if r.random() < 0.2:  # a lamp reflecting somewhere on the card
                a = float(r.uniform(0, 2 * math.pi))
                rest = replace(rest, glare=(rest.x + math.cos(a) * 60, rest.y + math.sin(a) * 60,
                                            float(r.uniform(15, 30)), float(r.uniform(0.3, 0.6))))
            if self.hard:
                kind = HARD_PLACEMENTS[int(r.integers(0, len(HARD_PLACEMENTS)))]
                rest = self._render.degrade(rest, kind, r)
            direction = float(r.uniform(0, 2 * math.pi))
            dx, dy = math.cos(direction), math.sin(direction)
            steps = self.SLIDE_FRAMES
            hand_angle = math.degrees(direction)
            script: list[Callable[[Any], Any]] = []
            for i in range(steps):
                k = (steps - i) / steps  # 1 .. 1/steps of the way out
                dist = 260 * k
                speed = 260 / steps
                turn = float(r.uniform(-25, 25)) * k
                pos = (rest.x + dx * dist, rest.y + dy * dist)
                hand = self._render.Hand(pos[0] + dx * 150, pos[1] + dy * 150, hand_angle)
                script.append(_changes(x=pos[0], y=pos[1], angle=rest.angle + turn, hand=hand,
                                       motion=speed * 0.5, motion_dir=hand_angle))
            for i in range(2):  # the hand lets go and withdraws
                away = 200 + 120 * i
                hand = self._render.Hand(rest.x + dx * away, rest.y + dy * away, hand_angle)
                script.append(_changes(hand=hand, motion=2.0 - i))
            self._scene = rest
            self._script = script
            self.rest_index = self._frames + steps

    def hand_over(self, frames: int = 6) -> None:
        """A hand sweeps across the spot, covering the card in the middle frames."""
        with self._steer:
            s0 = self._scene
            a = float(self._rng.uniform(0, 360))
            dx, dy = math.cos(math.radians(a)), math.sin(math.radians(a))
            script: list[Callable[[Any], Any]] = []
            for i in range(frames):
                k = 1 - 2 * (i + 0.5) / frames  # +1 .. -1 across the spot
                hand = self._render.Hand(s0.x + dx * 250 * k - dx * 40, s0.y + dy * 250 * k,
                                         a, 1.3)
                script.append(_changes(hand=hand, motion=0.0))
            self._script = script + self._script

    def foreign(self, text: str | None, offset: tuple[float, float] = (0.0, -150.0)) -> None:
        """A sticker that is not a card (None removes it), near the spot."""
        self._set_extra("foreign", None if text is None else (None, text, offset))

    def second(self, card: str | None, offset: tuple[float, float] = (-190.0, 0.0)) -> None:
        """A second card (None removes it) lying beside the spot."""
        self._set_extra("second", None if card is None else (card, None, offset))

    def _set_extra(self, slot: str, item: tuple[str | None, str | None, tuple[float, float]]
                   | None) -> None:
        with self._steer:
            if item is None:
                self._extras.pop(slot, None)
            else:
                card, text, (ox, oy) = item
                if text is None and card is not None:
                    from companion.cards import payload

                    text = payload(card)
                x = self._render.WIDTH / 2 + ox
                y = self._render.HEIGHT / 2 + oy
                self._extras[slot] = (card, text, x, y, float(self._rng.uniform(0, 360)))
            self._scene = replace(self._scene, extra=tuple(self._extras.values()))

    @property
    def frames_rendered(self) -> int:
        return self._frames

    def next_image(self) -> npt.NDArray[np.uint8]:
        """Render the next frame (deterministic for a seed and a call sequence)."""
        with self._steer:
            scene = self._scene
            if self._script:
                scene = self._script.pop(0)(scene)
            flicker = 1.0 + float(self._rng.normal(0, 0.01))
            scene = replace(scene, noise_seed=int(self._rng.integers(0, 2**31)), gain=flicker)
            self._frames += 1
        return self._render.render(scene)

    def _read(self) -> npt.NDArray[np.uint8] | None:
        return self.next_image()


def _changes(**changes: Any) -> Callable[[Any], Any]:
    """A step of a virtual-table animation: the scene with these fields changed."""
    return lambda scene: replace(scene, **changes)


class NoSource(FrameSource):
    """No camera at all (``kind="none"``): status stays "no camera", never a frame."""

    name = SourceKind.NONE

    def _open(self) -> None:
        raise OSError("no camera configured")

    def start(self) -> None:
        self._set_status(NO_CAMERA)


KINDS = tuple(k.value for k in SourceKind)  # with image files: the scan command and the tests


def open_source(kind: str = "auto", **opts: Any) -> FrameSource:
    """A frame source by name (not started).

    ``kind``: ``picamera`` (width, height, above_table_mm: the lens's height
    above the table, :class:`CameraSettings`), ``v4l2`` (device, width, height),
    ``virtual`` (seed, fps), ``file`` (paths, fps, loop), ``none``, or
    ``auto``: the Pi camera when picamera2 imports, else a V4L2 camera that
    actually opens and gives a frame, else ``fallback``: the virtual table
    (``"virtual"``, a desktop's stand-in) or no camera (``"none"``: on the
    device, where a virtual table would invent cards nobody turned).
    """
    width, height = int(opts.get("width", 640)), int(opts.get("height", 480))
    pi = CameraSettings(height_mm=float(opts.get("above_table_mm", CAMERA_HEIGHT_MM)),
                        size=(width, height))
    if kind == "picamera":
        return PiCamera(width, height, settings=pi)
    if kind == "v4l2":
        return OpenCVCamera(opts.get("device", 0), width, height, opts.get("fps"))
    if kind == "virtual":
        return VirtualTable(int(opts.get("seed", 0)), opts.get("fps", 15.0))
    if kind == "file":
        return FileSource(opts["paths"], opts.get("fps"), bool(opts.get("loop", False)))
    if kind == "none":
        return NoSource()
    if kind == "auto":
        if picamera_available():
            return PiCamera(width, height, settings=pi)
        cam = OpenCVCamera(opts.get("device", 0), width, height, opts.get("fps"))
        if cam.probe():
            return cam
        if opts.get("fallback", "virtual") == "none":
            log.warning("no camera found: cards are entered by tapping")
            return NoSource()
        log.info("no camera found: using the virtual table")
        return VirtualTable(int(opts.get("seed", 0)), opts.get("fps", 15.0))
    raise ValueError(f"unknown frame source {kind!r} (one of {', '.join(KINDS)})")
