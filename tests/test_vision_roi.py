"""The full-resolution window: found once, tracked, zoomed to the modules it sees.

The frames are the project's own printed label (bench/photo.py rasterises the
sticker sheet) laid on a noisy table in a full-resolution frame, and the
low-resolution field made from it as the camera's ISP does (area reduction).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.helpers import load_bench
from vision.decode import Decoder, FrameReads, Read, thumbnail
from vision.roi import (
    FIELD_MM,
    REACH_MM,
    RETRY_ZOOM_EVERY,
    SEARCH_AFTER,
    SYMBOL_MM,
    Detail,
    Spot,
    _reduce,
    crop,
    window_box,
    zoom_for,
)
from vision.scanner import STILL_FRAMES, STILL_STRIDE, Scanner
from vision.sources import CameraSettings, NoSource, TwoStreamSource

photo = load_bench("photo")
FULL = (2304, 1296)
LORES = (640, 360)


def noise(shape: tuple[int, int], seed: int) -> np.ndarray:
    """An empty grey table as the sensor sees it (mean 90, 6 levels of noise).
    OpenCV's generator, straight into bytes: numpy's normal() and the clip took
    70 ms a full frame, half of this file's time."""
    out = np.empty(shape, np.uint8)
    cv2.setRNGSeed(seed)
    cv2.randn(out, 90.0, 6.0)  # type: ignore[call-overload]
    return out


def frames(card: str, at: tuple[int, int], px_per_mm: float,
           seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A full-resolution grey frame with ``card``'s label centred ``at``, and its lores field."""
    full = noise((FULL[1], FULL[0]), seed)
    label = photo.printed_labels(25.0, True)[card]
    k = px_per_mm / (photo.DPI / 25.4)
    small = cv2.resize(label, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    h, w = small.shape
    x0, y0 = at[0] - w // 2, at[1] - h // 2
    full[y0:y0 + h, x0:x0 + w] = (30 + small.astype(np.float32) * 0.8).astype(np.uint8)
    lores = cv2.resize(full, LORES, interpolation=cv2.INTER_AREA)
    return full, lores


def run(card: str, at: tuple[int, int], px_per_mm: float, n: int, zoom: int = 1
        ) -> tuple[list[int], Spot]:
    """Frames until the scanner placed the card: the frame numbers it was placed on."""
    source = NoSource()
    source.spot = Spot(zoom=zoom)
    placed: list[int] = []
    scanner = Scanner(source, lambda c: placed.append(len(seen)), decoder=Decoder())
    seen: list[int] = []
    for i in range(n):
        full, lores = frames(card, at, px_per_mm, seed=i)
        spot = source.spot
        detail = crop(full, spot.at(FULL), FULL[0] / LORES[0], zoom=spot.zoom)
        seen.append(i)
        scanner.process(lores, detail)
    return placed, source.spot


def test_a_card_in_the_window_is_read_and_the_window_follows_it() -> None:
    placed, spot = run("T11A", (1300, 700), 5.0, 4)  # 6 px a module: no reduction
    assert placed == [2]  # read in frames 0 and 1: placed on the second
    assert spot.centre is not None
    assert abs(spot.centre[0] - 1300) < 60 and abs(spot.centre[1] - 700) < 160
    assert spot.zoom == 1


def read_at(x: float, y: float, card: str = "T11A", half: float = 50) -> Read:
    """A card's QR read with its middle at ``x``, ``y`` (window pixels), ``2 * half`` across."""
    corners = ((x - half, y - half), (x + half, y - half), (x + half, y + half),
               (x - half, y + half))
    return Read(f"IG:{card}", card, corners, "zxing")


def test_a_card_read_near_the_windows_middle_leaves_the_window_where_it_is() -> None:
    # The corners a decoder finds move by a pixel or two from frame to frame; a
    # window following them would make a resting card look new in every frame.
    spot = Spot()
    window = Detail(np.zeros((480, 640), np.uint8), (832, 408), FULL, FULL[0] / LORES[0])
    spot.follow(FrameReads((read_at(330, 235),)), window)  # 10 px off home: the window stays there
    assert spot.centre is None and spot.at(FULL) == (1152, 648)
    spot.follow(FrameReads((read_at(333, 238),)), window)  # 13 px of 640 off the middle
    assert spot.centre is None
    spot.follow(FrameReads((read_at(400, 240),)), window)  # 80 px: more than an eighth
    assert spot.centre == (832 + 400, 408 + 240)
    assert spot.zoom == 1  # 4.8 px a module
    assert spot.px_per_mm == pytest.approx(4.0)  # 100 px for the 25 mm QR


def test_a_card_nudged_far_takes_the_window_no_further_than_the_zone() -> None:
    spot = Spot()
    window = Detail(np.zeros((480, 640), np.uint8), (832, 408), FULL, FULL[0] / LORES[0])
    spot.follow(FrameReads((read_at(600, 400),)), window)  # 4 px a mm: 112 and 41 mm off home
    # the window stays inside REACH_MM (400 px) of home and SYMBOL_MM more:
    # its middle 148 px off across (the window is 640 wide), and 160 down,
    # where the card is
    assert spot.centre == (1152 + (REACH_MM + SYMBOL_MM) * 4 - 320, 408 + 400)


def test_a_window_wider_than_the_zone_is_not_tried_once_a_card_measured_the_table() -> None:
    # An empty spot for a while tries the other zooms (a camera lower than it
    # was set up for); once a card measured the table, not one whose window
    # reaches past the zone: it would read the path's cards.
    corners = ((270.0, 190.0), (370.0, 190.0), (370.0, 290.0), (270.0, 290.0))
    window = Detail(np.zeros((480, 640), np.uint8), (832, 408), FULL, FULL[0] / LORES[0])
    measured = Spot()
    measured.follow(FrameReads((Read("IG:T11A", "T11A", corners, "zxing"),)), window)
    never = Spot()  # a field 455 mm across: 1280 px is 253 mm, wider than the zone
    for _ in range(RETRY_ZOOM_EVERY + 1):
        measured.follow(FrameReads(), window)
        never.follow(FrameReads(), window)
    assert measured.zoom == 1  # 4 px a mm: a 1280 px window is 320 mm, the zone 234
    assert never.zoom == 2


def test_a_card_beside_the_window_is_found_near_home() -> None:
    placed, spot = run("SPIDER2", (752, 560), 5.0, 8)  # 80 mm left of home
    # the middle window sees table only; the zone around home, searched in the
    # field, holds a sticker-like region: the window goes there
    assert placed and placed[0] <= SEARCH_AFTER + 3
    assert spot.centre is not None and spot.centre[0] < 1152 - 100  # toward it


def test_a_card_far_from_home_is_not_looked_for() -> None:
    # 150 mm from home, where the path of played cards lies: never the scan spot
    placed, spot = run("SPIDER2", (400, 300), 5.0, 8)
    assert placed == [] and spot.centre is None


def test_the_field_before_a_read_is_the_one_the_camera_is_set_up_for() -> None:
    assert CameraSettings().px_per_mm(FULL[0]) == pytest.approx(FULL[0] / FIELD_MM)


def scene(labels: list[tuple[str, tuple[int, int]]], px_per_mm: float,
          seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A full-resolution grey frame with these labels centred where said, and its lores field."""
    full = noise((FULL[1], FULL[0]), seed)
    k = px_per_mm / (photo.DPI / 25.4)
    for card, at in labels:
        small = cv2.resize(photo.printed_labels(25.0, True)[card], None, fx=k, fy=k,
                           interpolation=cv2.INTER_AREA)
        h, w = small.shape
        x0, y0 = at[0] - w // 2, at[1] - h // 2
        full[y0:y0 + h, x0:x0 + w] = (30 + small.astype(np.float32) * 0.8).astype(np.uint8)
    return full, cv2.resize(full, LORES, interpolation=cv2.INTER_AREA)


def play(steps: list[tuple[int, list[tuple[str, tuple[int, int]]]]],
         px_per_mm: float = 5.0) -> tuple[list[tuple[int, str]], list[tuple[int, int]]]:
    """The scanner through a Pi camera's two streams, ``frames`` of each scene in turn:
    the cards placed (frame, card), and where each frame's window lay."""
    source = NoSource()
    source.spot = Spot()
    placed: list[tuple[int, str]] = []
    scanner = Scanner(source, lambda c: placed.append((frame, c)), decoder=Decoder())
    origins = []
    frame = 0
    for count, labels in steps:
        for _ in range(count):
            full, lores = scene(labels, px_per_mm, seed=frame)
            spot = source.spot
            detail = crop(full, spot.at(FULL), FULL[0] / LORES[0], zoom=spot.zoom,
                          look=spot.look)
            origins.append(detail.origin)
            scanner.process(lores, detail)
            frame += 1
    return placed, origins


HOME = (1152, 648)


def test_a_card_laid_beside_the_card_read_is_read_too() -> None:
    # The last card stays on the spot and the next is laid 60 mm beside it:
    # the window read the last card only, and never looked for the next.
    old, new = ("T9", HOME), ("SPIDER2", (HOME[0] + 300, HOME[1] + 50))
    placed, _ = play([(6, [old]), (8, [old, new])])
    assert [c for _, c in placed] == ["T9", "SPIDER2"]
    assert placed[1][0] <= 6 + 4  # within 4 frames of being laid


def test_a_card_laid_on_the_spot_is_read_with_the_path_in_view() -> None:
    # The path of played cards 150 mm beside the spot; the last card is moved
    # onto it and the next one laid on the spot.  The window must not go to
    # the path (a card there is read as one laid, and keeps the window there).
    path = [("FIRE1", (HOME[0] - 750, HOME[1])), ("SNAKE1", (HOME[0] + 750, HOME[1] - 100))]
    moved = ("T9", (HOME[0] + 750, HOME[1] + 350))
    placed, origins = play([(4, [*path, ("T9", HOME)]), (8, [*path, moved]),
                            (6, [*path, moved, ("SPIDER2", HOME)])])
    assert [c for _, c in placed] == ["T9", "SPIDER2"]
    assert placed[1][0] <= 12 + 3
    assert all(abs(x + 320 - HOME[0]) <= 200 and abs(y + 240 - HOME[1]) <= 200
               for x, y in origins)


def test_a_card_nudged_on_the_spot_is_followed_and_reported_once() -> None:
    at = [("T9", (HOME[0] + dx, HOME[1] + dx // 2)) for dx in (0, 50, 100, 150)]
    placed, origins = play([(4, [at[0]]), (1, [at[1]]), (1, [at[2]]), (8, [at[3]])])
    assert placed == [(1, "T9")]
    assert origins[-1][0] > origins[0][0]  # the window followed it


def test_a_camera_low_over_the_table_learns_to_reduce_its_window() -> None:
    # 12 px a QR module: the label is wider than a 640 px window
    placed, spot = run("FIRE1", (1152, 648), 10.0, 4, zoom=3)
    assert placed == [2]
    assert spot.zoom == 3  # 12 px / 3.5 px a module


@pytest.mark.parametrize(("px_per_mm", "zoom"), [(3.94, 1), (5.9, 2), (10.4, 3), (20.0, 3)])
def test_the_first_zoom_follows_the_mounting_height(px_per_mm: float, zoom: int) -> None:
    # Camera Module 3 at 45, 30, 17 cm and closer
    assert zoom_for(px_per_mm) == zoom


@pytest.mark.parametrize("zoom", [2, 3])
def test_a_reduced_window_is_the_mean_of_its_blocks_as_an_area_reduction_gives(
        zoom: int) -> None:
    full, _ = frames("T11A", (1000, 600), 10.0)
    detail = crop(full, (1000.0, 600.0), FULL[0] / LORES[0], zoom=zoom)
    x0, y0, x1, y1 = window_box((1000.0, 600.0), FULL, (640 * zoom, 480 * zoom))
    area = cv2.resize(full[y0:y1, x0:x1], ((x1 - x0) // zoom, (y1 - y0) // zoom),
                      interpolation=cv2.INTER_AREA)
    assert detail.image.shape == area.shape == ((y1 - y0) // zoom, (x1 - x0) // zoom)
    assert detail.image.flags.c_contiguous and detail.origin == (x0, y0) and detail.full == FULL
    assert int(np.abs(detail.image.astype(int) - area.astype(int)).max()) <= 1


@pytest.mark.parametrize("zoom", [1, 2, 3])
def test_a_window_is_reduced_straight_from_the_buffer_into_an_array_of_its_own(
        zoom: int) -> None:
    full, _ = frames("T11A", (1000, 600), 10.0)
    before = full.copy()
    window = crop(full, (1000.0, 600.0), FULL[0] / LORES[0], zoom=zoom)
    x0, y0, x1, y1 = window_box((1000.0, 600.0), FULL, (640 * zoom, 480 * zoom))
    assert (window.origin, window.full, window.zoom) == ((x0, y0), FULL, zoom)
    assert window.image.shape == ((y1 - y0) // zoom, 640)
    assert np.array_equal(window.image, _reduce(full[y0:y1, x0:x1].copy(), zoom) if zoom > 1
                          else full[y0:y1, x0:x1])
    # The camera's buffer is used again for the next frame: the window keeps
    # nothing of it, and the reduction left it as it was.
    assert not np.shares_memory(window.image, full) and np.array_equal(full, before)


def test_the_scanner_reads_a_card_through_a_reduced_window() -> None:
    full, lores = frames("T11A", (1000, 600), 10.0)
    source = NoSource()
    source.spot = Spot(zoom=3)
    placed: list[str] = []
    scanner = Scanner(source, placed.append, decoder=Decoder())
    for _ in range(3):
        scanner.process(lores, crop(full, source.spot.at(FULL), FULL[0] / LORES[0],
                                    zoom=source.spot.zoom))
    assert placed == ["T11A"]


def test_the_window_stays_inside_the_frame() -> None:
    assert window_box((0.0, 0.0), FULL) == (0, 0, 640, 480)
    assert window_box((2304.0, 1296.0), FULL) == (1664, 816, 2304, 1296)
    assert window_box((1152.0, 648.0), FULL, (1920, 1440)) == (192, 0, 2112, 1296)


class TwoStreams(TwoStreamSource):
    """A Pi camera's two streams, shot by hand: the window is cut out as
    vision.sources.PiCamera cuts it, only for a frame the scanner will take."""

    name = "two streams"

    def __init__(self) -> None:
        super().__init__()
        self.cut: list[bool] = []

    def shoot(self, full: np.ndarray, lores: np.ndarray) -> None:
        if self._window_wanted():
            self._cut(full, FULL[0] / LORES[0])
        window = self._detail()
        self.cut.append(window is not None)
        self._publish(lores, window)


def test_a_still_scene_has_only_the_frames_the_scanner_takes_cut_out() -> None:
    source = TwoStreams()
    placed: list[str] = []
    scanner = Scanner(source, placed.append, decoder=Decoder())
    taken: list[Detail | None] = []
    real = scanner.process

    def process(image: np.ndarray, detail: Detail | None = None) -> list:
        taken.append(detail)
        return real(image, detail)

    def shoot(full: np.ndarray, lores: np.ndarray) -> None:
        source.shoot(full, lores)
        scanner.step(timeout=0)  # takes the frame if it wants it
        scanner.step(timeout=0)  # then waits, saying which frame it takes next

    scanner.process = process  # type: ignore[method-assign]
    still = STILL_FRAMES + 2 + 3 * STILL_STRIDE
    for i in range(still):  # the empty spot, fresh sensor noise in each frame
        full = noise((FULL[1], FULL[0]), 500 + i)
        shoot(full, cv2.resize(full, LORES, interpolation=cv2.INTER_AREA))
    # every frame until the scanner has seen the spot unchanged STILL_FRAMES
    # times (a new scene is decoded twice first), then the one in three it takes
    assert source.cut == [True] * (STILL_FRAMES + 2) + [False, False, True] * 3
    assert len(taken) == STILL_FRAMES + 2 + 3 and None not in taken
    for i in range(4):  # a card comes: the frame taken shows it, then every frame is cut
        shoot(*frames("T11A", (1300, 700), 5.0, seed=i))
    assert source.cut[still:] == [False, False, True, True]
    assert placed == ["T11A"] and None not in taken


def test_a_resting_cards_window_is_judged_by_its_thumbnail_and_not_cut_out() -> None:
    # A camera low over the table (12 px a module, the window reduced 3 times):
    # reducing a 1920x1440 window for every frame taken of a still scene was
    # most of a resting card's cost there (bench/idle.py --main-scale 3.6).
    source = TwoStreams()
    assert source.spot is not None
    source.spot.zoom = 3
    placed: list[str] = []
    scanner = Scanner(source, placed.append, decoder=Decoder())
    taken: list[Detail] = []
    real = scanner.process

    def process(image: np.ndarray, detail: Detail | None = None) -> list:
        assert detail is not None
        taken.append(detail)
        return real(image, detail)

    scanner.process = process  # type: ignore[method-assign]
    for i in range(STILL_FRAMES + 12):  # the card comes to rest, fresh noise in each frame
        source.shoot(*frames("T11A", (1152, 648), 10.0, seed=i))
        scanner.step(timeout=0)
        assert scanner.last is not None and scanner.last.cards == ("T11A",)
    assert placed == ["T11A"]
    # read in the middle, read again where the window moved to (centred on
    # the card), then only looked at
    assert [d.image is not None for d in taken] == [True, True] + [False] * (len(taken) - 2)
    assert len({d.origin for d in taken[1:]}) == 1
    for d in taken:
        assert d.zoom == 3 and d.extent == (640, 432) and d.thumb is not None
        assert d.thumb.shape == (432 // 16, 640 // 16)  # as the window's own would be
    # Another card put down in its place changes the blocks under the symbol:
    # its window is cut out and read (the scanner takes one frame in three of
    # a still scene: the first it takes shows the new card).
    before = len(taken)
    for i in range(STILL_STRIDE + 2):
        source.shoot(*frames("SPIDER2", (1152, 648), 10.0, seed=50 + i))
        scanner.step(timeout=0)
    assert placed == ["T11A", "SPIDER2"]
    assert taken[before].image is not None and scanner.last.cards == ("SPIDER2",)


def test_a_window_left_uncut_that_had_to_be_read_is_read_in_the_next_frame() -> None:
    full, _ = frames("T11A", (1300, 700), 5.0)
    scale = FULL[0] / LORES[0]
    decoder = Decoder()
    first = crop(full, (1300.0, 700.0), scale, look=decoder.wants)
    assert first.image is not None  # nothing seen yet: wanted
    assert decoder.decode(first.image, window=True, thumb=first.thumb).cards == ("T11A",)
    again = crop(frames("T11A", (1300, 700), 5.0, seed=1)[0], (1300.0, 700.0), scale,
                 look=decoder.wants)
    assert again.image is None and again.extent == (640, 480)
    kept = decoder.decode(None, window=True, thumb=again.thumb)
    assert kept.skipped and kept.cards == ("T11A",)
    # The decoder's memory changes between the camera's look and the decode
    # (forgotten, as when the camera reopens): the frame is passed over, and
    # the next one is cut out and read.
    passed = crop(frames("T11A", (1300, 700), 5.0, seed=2)[0], (1300.0, 700.0), scale,
                  look=decoder.wants)
    assert passed.image is None
    decoder.reset()
    over = decoder.decode(None, window=True, thumb=passed.thumb)
    assert over.skipped and over.cards == ()
    after = crop(frames("T11A", (1300, 700), 5.0, seed=3)[0], (1300.0, 700.0), scale,
                 look=decoder.wants)
    assert after.image is not None
    read = decoder.decode(after.image, window=True, thumb=after.thumb)
    assert not read.skipped and read.cards == ("T11A",)
    with pytest.raises(ValueError, match="no frame to decode"):
        Decoder().decode(None, window=True)


def test_a_window_passed_over_on_its_retry_leaves_no_retry_to_the_next_scene() -> None:
    """A frame passed over when its unread scene was due a retry does not pass
    that retry on: the next new scene's first decode is a first decode, which
    in a window looks for no regions; its own retry does."""
    rng = np.random.default_rng(4)
    empty = np.clip(rng.normal(90, 6, (480, 640)), 0, 255).astype(np.uint8)
    # Modules strewn at random: sticker-like to the region search, no code to read.
    strewn = empty.copy()
    strewn[165:315, 245:395] = np.kron(rng.integers(0, 2, (25, 25)) * 220 + 20,
                                       np.ones((6, 6))).astype(np.uint8)
    decoder = Decoder()
    first = decoder.decode(empty, window=True, thumb=thumbnail(empty))
    assert first.reads == () and first.candidates == ()
    # An unread window is retried on the next unchanged frame; this one comes
    # without its pixels (the camera's look said no), so it is passed over.
    over = decoder.decode(None, window=True, thumb=thumbnail(empty))
    assert over.skipped and over.reads == ()
    new = decoder.decode(strewn, window=True, thumb=thumbnail(strewn))
    assert not new.skipped and new.reads == () and new.candidates == ()
    retried = decoder.decode(strewn, window=True, thumb=thumbnail(strewn))
    assert not retried.skipped and retried.reads == () and len(retried.candidates) >= 1


def test_a_card_read_out_of_the_scan_zone_is_no_card_laid() -> None:
    # A window wider than the zone (a zoom tried before any card measured the
    # table, as after a restart with the path in view) holds a path card 130 mm
    # from home beside the card laid on the spot: the path card is not taken.
    # a window of zoom 3 at home: 1920 px across from x = 192, the frame's
    # height; the 25 mm QR at 4 px a mm is 100 / 3 of its pixels across
    half = 100 / 3 / 2
    on_spot = read_at((1152 - 192) / 3, 216, "T9", half)
    on_path = read_at((1152 + 520 - 192) / 3, 216, "FIRE1", half)

    class Both(Decoder):
        def decode(self, image: object, **_kw: object) -> FrameReads:
            return FrameReads((on_path, on_spot))

    source = NoSource()
    source.spot = Spot(zoom=3, px_per_mm=4.0)  # the zone: 400 px around home
    placed: list[str] = []
    notices: list[object] = []
    scanner = Scanner(source, placed.append, notices.append, decoder=Both())
    window = Detail(np.zeros((432, 640), np.uint8), (192, 0), FULL, FULL[0] / LORES[0], zoom=3)
    for _ in range(6):
        scanner.process(np.zeros((LORES[1], LORES[0]), np.uint8), window)
    assert placed == ["T9"] and notices == []
    assert source.spot.in_zone(FrameReads((on_path, on_spot)), window).reads == (on_spot,)
