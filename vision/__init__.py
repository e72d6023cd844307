"""The card scanner: camera frames in, "this card was placed" out.

Modules (import them directly; this package imports nothing heavy, so the
command line stays fast):

* ``vision.sources``: frame sources behind one interface (``FrameSource``:
  ``start()``, ``stop()``, ``latest()``, ``wait(after_seq, timeout)``,
  ``status``): ``OpenCVCamera``, ``PiCamera`` (picamera2, imported lazily),
  ``FileSource`` (images or a video), ``VirtualTable`` (rendered frames of a
  card on a table, for the demo and tests), and ``open_source(kind, ...)``.
* ``vision.decode``: ``Decoder().decode(frame) -> FrameReads``: zxing-cpp
  (QR and Micro QR) on the whole frame, then on sharpened, enlarged crops of
  sticker-like regions when that reads no card; pyzbar instead where
  zxing-cpp cannot be loaded (the QR half of each label); a still scene is
  not decoded again; only ``companion.cards`` payloads become cards.
* ``vision.roi``: the window of a Pi camera's full resolution around the
  scan spot where stickers are read (``Spot``, ``crop``, ``Detail``).
* ``vision.tracker``: ``Tracker().step(cards, foreign) -> events``
  (``CardPlaced``, ``ForeignPlaced``, ``TwoCards``); pure Python.
* ``vision.scanner``: ``Scanner(source, on_card, on_notice, on_status)`` on
  its own thread, with ``process(image, detail)``/``step()`` for deterministic use.
* ``vision.stickers``: the printable sticker sheet (PDF).
* ``vision.render``: the deterministic frame renderer behind the virtual
  table, the tests and ``bench/vision.py``.
"""

import enum


class SourceKind(enum.StrEnum):
    """A frame source by name (``open_source(kind)``, ``FrameSource.name``)."""

    AUTO = "auto"  # the Pi camera, else a webcam, else the fallback (never a source's own)
    PICAMERA = "picamera"
    V4L2 = "v4l2"
    VIRTUAL = "virtual"
    NONE = "none"
    FILE = "file"  # image files or a video (the command line's, never the config's)


#: The camera sources a config file may name (``[camera] source``).
CAMERA_SOURCES = tuple(k.value for k in SourceKind if k is not SourceKind.FILE)


#: The largest picture an image file may hold: a 48-megapixel phone photo fits;
#: a 31 KB PNG of 16000 x 16000 pixels took 1.5 GB to decode, more than a Pi
#: has to spare.
MAX_IMAGE_PIXELS = 50_000_000


def limit_image_size() -> None:
    """Have OpenCV refuse to decode a picture of more than :data:`MAX_IMAGE_PIXELS`
    (its own check, whose limit it reads from the environment once, as it loads:
    so before anything imports ``cv2``; after, this changes nothing)."""
    import os

    os.environ["OPENCV_IO_MAX_IMAGE_PIXELS"] = str(MAX_IMAGE_PIXELS)
