"""Reading printed-and-photographed stickers (bench/photo.py's frames, real decoders).

The frames come from the real sticker sheet rasterised at 300 dpi; the
benchmark runs hundreds of them, these tests a fixed handful of the same seed.
"""

from __future__ import annotations

import sys
import time
import types
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from tests.helpers import load_bench
from vision.decode import Decoder, FrameReads
from vision.scanner import Scanner
from vision.sources import CameraSettings, NoSource, PiCamera, picamera_controls
from vision.tracker import CardPlaced, Tracker

photo = load_bench("photo")
SHOTS = [photo.shot(16, i) for i in range(24)]
EMPTY = [2, 3, 8, 17, 21]  # shots with no sticker in view


def reads(layout: Any) -> dict[int, FrameReads]:
    decoder = Decoder(skip_unchanged=False)
    return {s.index: decoder.decode(photo.frame(s, layout)) for s in SHOTS}


@pytest.fixture(scope="module")
def old() -> dict[int, FrameReads]:
    return reads(photo.VARIANTS["old"])


@pytest.fixture(scope="module")
def new() -> dict[int, FrameReads]:
    return reads(photo.VARIANTS["new"])


def test_the_sample_holds_cards_and_empty_frames() -> None:
    assert [s.index for s in SHOTS if s.card is None] == EMPTY
    assert [s.index for s in SHOTS if s.card is None and s.art] == [2, 3, 21]  # art, no sticker


@pytest.mark.parametrize("layout", ["old", "new"])
def test_never_a_wrong_card_nor_a_non_card(layout: str, request: pytest.FixtureRequest) -> None:
    got: dict[int, FrameReads] = request.getfixturevalue(layout)
    for s in SHOTS:
        assert got[s.index].foreign == ()
        assert got[s.index].cards in ((), (s.card,) if s.card else ()), s.index


def test_old_stickers_still_read_where_they_did(old: dict[int, FrameReads]) -> None:
    read = [i for i, r in old.items() if r.cards]
    # the QR-only label as printed now, with its cutting tolerance (1.5 mm
    # more white all round: the same 25 mm QR, framed differently on the card)
    assert read == [4, 6, 10, 12, 15, 16, 18, 22]


def test_new_stickers_read_in_more_frames_of_the_same_shots(new: dict[int, FrameReads],
                                                            old: dict[int, FrameReads]) -> None:
    read = [i for i, r in new.items() if r.cards]
    assert read == [0, 1, 4, 6, 7, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19, 20, 22, 23]
    assert {i for i, r in old.items() if r.cards} <= set(read)


def test_the_new_label_carries_a_micro_qr_that_reads_alone() -> None:
    label = photo.printed_labels(25.0, True)["SPIDER2"]
    qr_only = photo.printed_labels(25.0, False)["SPIDER2"]
    import zxingcpp

    kinds = {b.format.name: b.text for b in zxingcpp.read_barcodes(label)}
    assert kinds == {"QRCode": "IG:SPIDER2", "MicroQRCode": "IG:SPIDER2"}
    assert {b.format.name for b in zxingcpp.read_barcodes(qr_only)} == {"QRCode"}


# -- unchanged frames: an empty spot and a resting card ---------------------------

def still(index: int, card: str | None = None, layout: str = "new") -> list[np.ndarray]:
    """Ten frames of one shot at rest (fresh sensor noise each), optionally another card."""
    s = replace(SHOTS[index], motion=0.0, finger=None, glare=None)
    if card is not None:
        s = replace(s, card=card)
    base = photo.clean(s, photo.VARIANTS[layout])
    return [photo.finish(base, s, i) for i in range(10)]


def test_a_resting_card_is_kept_without_decoding_and_a_swap_is_seen() -> None:
    decoder, tracker = Decoder(), Tracker()
    placed: list[str] = []
    for img in still(4) + still(4, card="T11A"):
        r = decoder.decode(img)
        placed += [e.card for e in tracker.step(r.cards, r.foreign) if isinstance(e, CardPlaced)]
        assert r.cards in (("FIRE1",), ("T11A",))
    assert placed == ["FIRE1", "T11A"]
    # the swap is decoded at once: the frame right after it holds the new card
    decoder = Decoder()
    frames = still(4)[:4] + still(4, card="T11A")[:1]
    results = [decoder.decode(img) for img in frames]
    assert [r.skipped for r in results] == [False, True, True, True, False]
    assert results[-1].cards == ("T11A",)


def test_something_new_and_unread_is_retried_often_for_3_s_then_every_64_frames() -> None:
    decoder = Decoder()
    results = [decoder.decode(img) for img in (still(2) * 16)[:160]]  # a card with no sticker
    decoded = [i for i, r in enumerate(results) if not r.skipped]
    # 1 and 3 frames later, every 4th until 3 s (90 frames) old, then every 64
    assert decoded == [0, 1, 3, *range(7, 92, 4), 155]
    assert all(r.cards == () for r in results)


def test_the_scanner_uses_one_opencv_thread() -> None:
    before = cv2.getNumThreads()
    try:
        cv2.setNumThreads(2)
        scanner = Scanner(NoSource(), lambda _card: None)
        scanner.start()
        scanner.stop()
        assert cv2.getNumThreads() == 1
    finally:
        cv2.setNumThreads(before)


# -- the Pi camera, against a fake picamera2 ------------------------------------

CM3 = {"AfMode": (0, 2, 0), "LensPosition": (0.0, 15.0, 1.0), "ExposureTime": (29, 66_666, 20_000),
       "AnalogueGain": (1.0, 16.0, 1.0), "FrameDurationLimits": (33_333, 120_000, 33_333)}
CM2 = {k: v for k, v in CM3.items() if k not in ("AfMode", "LensPosition")}


class FakeRequest:
    """picamera2's CompletedRequest: both streams of one exposure, YUV420 as
    (height * 3/2, width) arrays; the main one's grey plane is x // 4 % 256."""

    def __init__(self, config: dict[str, Any]) -> None:
        self.buffers = {}
        for name in ("main", "lores"):
            w, h = config[name]["size"]
            yuv = np.full((h * 3 // 2, w), 128, np.uint8)
            yuv[:h] = (np.arange(w) // 4 % 256).astype(np.uint8)[None, :]
            self.buffers[name] = yuv
        self.released = False

    def make_array(self, name: str) -> np.ndarray:
        return self.buffers[name].copy()

    def release(self) -> None:
        self.released = True


class FakeMappedArray:
    def __init__(self, request: FakeRequest, stream: str) -> None:
        self.array = request.buffers[stream]

    def __enter__(self) -> FakeMappedArray:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class FakePicamera2:
    controls = CM3
    sensor_resolution = (4608, 2592)  # Camera Module 3
    opened: ClassVar[list[FakePicamera2]] = []

    def __init__(self) -> None:
        self.camera_controls = dict(self.controls)
        self.config: dict[str, Any] = {}
        self.started = False
        self.requests: list[FakeRequest] = []
        FakePicamera2.opened.append(self)

    def capture_request(self) -> FakeRequest:
        self.requests.append(FakeRequest(self.config))
        return self.requests[-1]

    def create_video_configuration(self, **kw: Any) -> dict[str, Any]:
        return kw

    def configure(self, config: dict[str, Any]) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_array(self, stream: str) -> np.ndarray:
        w, h = self.config["main"]["size"]
        return np.zeros((h, w, 3), np.uint8)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        pass


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    module.MappedArray = FakeMappedArray  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.opened = []
    FakePicamera2.controls = CM3
    return FakePicamera2


def test_the_pi_camera_is_focused_at_table_height_with_a_short_exposure(
    fake_picamera2: type[FakePicamera2],
) -> None:
    cam = PiCamera(640, 480, detail=False)
    cam._open()
    (opened,) = fake_picamera2.opened
    assert opened.started
    assert opened.config["main"] == {"size": (640, 480), "format": "RGB888"}
    assert opened.config["controls"] == {
        "AfMode": 0, "LensPosition": pytest.approx(1000 / 350), "ExposureTime": 4000,
        "FrameDurationLimits": (33_333, 33_333)}
    assert cam._read() is not None and cam._read().shape == (480, 640, 3)  # type: ignore[union-attr]
    cam._close()


def test_the_config_says_how_high_the_camera_stands(
    fake_picamera2: type[FakePicamera2], tmp_path: Path,
) -> None:
    """A camera on a 25 cm stand: focused at 25 cm, not the default 35, and its
    window reduced for the wider modules from the first frame, before any read."""
    from incan_companion.compose import build
    from incan_companion.config import load
    from vision.roi import zoom_for

    config = tmp_path / "config.toml"
    config.write_text('[camera]\nsource = "picamera"\nabove_table_cm = 25\n', encoding="utf-8")
    data = tmp_path / "games.sqlite"
    device = build(load(config), seat_input="keyboard", camera="config", data_file=data,
                   camera_later=True)
    try:
        device.start_camera()  # the scanner's thread opens it, as after the first screen
        cam = device.camera.source
        assert isinstance(cam, PiCamera) and cam.settings.height_mm == 250.0
        opened_by = time.monotonic() + 60
        # started: its controls asked and its first zone set, just before
        while not (fake_picamera2.opened and fake_picamera2.opened[0].started) \
                and time.monotonic() < opened_by:
            time.sleep(0.005)
        assert cam.controls["LensPosition"] == pytest.approx(4.0)  # 1 / 0.25 m
        assert cam.spot is not None
        # 2304 px across 2 x 250 mm x tan(33 degrees): 7.10 px a mm, 8.4 px a QR module
        assert cam.spot.px_per_mm == pytest.approx(7.096, abs=1e-3)
        assert cam.spot.zoom == zoom_for(cam.spot.px_per_mm) == 2
        assert zoom_for(CameraSettings().px_per_mm(2304)) == 1  # at the default 35 cm
    finally:
        device.close()


def _read_at(cam: PiCamera, height_mm: float) -> None:
    """The scanner reads a 25 mm sticker's QR in the camera's window as a
    camera ``height_mm`` above the table sees it."""
    from companion.cards import payload
    from vision.decode import Read
    from vision.roi import Detail

    assert cam.spot is not None and cam.sizes is not None
    (mw, mh), _lores = cam.sizes
    side = 25 * CameraSettings(height_mm=height_mm).px_per_mm(mw)  # window pixels at zoom 1
    x, y = 320 - side / 2, 240 - side / 2
    read = Read(payload("T13"), "T13", ((x, y), (x + side, y), (x + side, y + side), (x, y + side)),
                "test")
    window = Detail(np.zeros((480, 640), np.uint8), (832, 408), (mw, mh), 3.6, zoom=1)
    cam.spot.follow(FrameReads(reads=(read,)), window)


@pytest.mark.parametrize(("stands_cm", "said"), [
    (25.0, "camera: the first card read puts the lens about 25 cm above the table, and it is"
           " focused at 35 cm: set [camera] above_table_cm = 25 in the config file (for"
           " stickers printed at 25 mm)"),
    (46.0, "camera: the first card read puts the lens about 46 cm above the table, and it is"
           " focused at 35 cm: set [camera] above_table_cm = 46 in the config file (for"
           " stickers printed at 25 mm)"),
    (31.0, None),  # within the slack: nothing to set
    (39.0, None),
])
def test_the_log_says_when_the_camera_stands_elsewhere_than_set_up(
    fake_picamera2: type[FakePicamera2], caplog: pytest.LogCaptureFixture, stands_cm: float,
    said: str | None,
) -> None:
    cam = PiCamera()  # set up for the default 35 cm
    cam._open()
    cam._read()
    _read_at(cam, stands_cm * 10)
    assert cam.spot is not None and cam.spot.measured
    with caplog.at_level("WARNING", logger="vision.sources"):
        cam._read()
        cam._read()  # said once, not at every frame
    assert [r.getMessage() for r in caplog.records] == ([said] if said else [])
    cam._close()


def test_a_fixed_focus_camera_has_no_height_to_set(
    fake_picamera2: type[FakePicamera2], caplog: pytest.LogCaptureFixture,
) -> None:
    fake_picamera2.controls = CM2
    cam = PiCamera()
    cam._open()
    _read_at(cam, 250.0)
    with caplog.at_level("WARNING", logger="vision.sources"):
        cam._read()
    assert caplog.records == []
    cam._close()


def test_a_fixed_focus_camera_gets_no_focus_controls(
    fake_picamera2: type[FakePicamera2],
) -> None:
    fake_picamera2.controls = CM2
    cam = PiCamera(640, 480, detail=False)
    cam._open()
    assert "AfMode" not in cam.controls and "LensPosition" not in cam.controls
    assert cam.controls["ExposureTime"] == 4000
    cam._close()


def test_camera_controls_stay_in_the_cameras_range() -> None:
    near = CameraSettings(height_mm=50.0, exposure_us=100_000, fps=60.0)
    got = picamera_controls(near, CM3)
    assert got["LensPosition"] == 15.0  # 20 dioptres asked, the lens stops at 15
    assert got["ExposureTime"] == 16_667  # never longer than a frame
    assert got["FrameDurationLimits"] == (16_667, 16_667)


def test_the_pi_camera_gives_the_whole_field_and_a_full_resolution_window(
    fake_picamera2: type[FakePicamera2],
) -> None:
    cam = PiCamera(settings=CameraSettings(height_mm=450.0))
    cam._open()
    (opened,) = fake_picamera2.opened
    assert cam.spot is not None and cam.spot.zoom == 1  # 4.7 px a QR module at 45 cm
    assert opened.config["main"] == {"size": (2304, 1296), "format": "YUV420"}
    assert opened.config["lores"] == {"size": (640, 360), "format": "YUV420"}
    image = cam._read()
    assert image is not None and image.shape == (360, 640)  # the lores grey plane
    window = cam._detail()
    assert window is not None and cam._detail() is None  # each window goes with one frame
    assert (window.origin, window.full, window.scale) == ((832, 408), (2304, 1296), 3.6)
    assert window.image.shape == (480, 640)
    assert window.image[0, 0] == 832 // 4 % 256  # the main plane's pixels at the origin
    assert all(r.released for r in opened.requests)
    # the scanner moved the spot: the window follows, inside the frame
    assert cam.spot is not None
    cam.spot.centre = (2250.0, 40.0)
    cam._read()
    moved = cam._detail()
    assert moved is not None and moved.origin == (2304 - 640, 0)
    # a frame the scanner said it will not take (a still scene) has no window cut
    # out, and its buffer goes back all the same
    assert cam.wait(after_seq=2, timeout=0) is None
    assert cam._read() is not None and cam._detail() is None
    assert all(r.released for r in opened.requests) and len(opened.requests) == 3
    cam.wait(after_seq=0, timeout=0)
    cam._read()
    assert cam._detail() is not None
    cam._close()


def test_a_camera_set_up_low_reduces_a_wider_window(fake_picamera2: type[FakePicamera2]) -> None:
    cam = PiCamera(settings=CameraSettings(height_mm=170.0))
    cam._open()
    assert cam.spot is not None and cam.spot.zoom == 3  # 12.4 px a QR module at 17 cm
    cam._read()
    window = cam._detail()
    # 1920 pixels of the 2304 across, all 1296 down, reduced to a third
    assert window is not None and (window.origin, window.zoom) == ((192, 0), 3)
    assert window.image.shape == (432, 640)
    assert window.image[0, 0] == (192 // 4) % 256
    cam._close()


def test_a_module_2_gets_its_own_binned_mode(fake_picamera2: type[FakePicamera2]) -> None:
    fake_picamera2.sensor_resolution = (3280, 2464)
    try:
        cam = PiCamera()
        cam._open()
        assert cam.sizes == ((1640, 1232), (640, 480))
        cam._close()
    finally:
        fake_picamera2.sensor_resolution = (4608, 2592)
