"""Rendered camera frames of a quest card lying on a table.

The virtual table (``vision.sources.VirtualTable``), the tests and the
benchmark all need frames that look like what the camera above the scan spot
sees: a card with its QR sticker, anywhere near the spot, at any rotation,
seen at a slant, out of focus, moving, noisy, badly lit, with glare, a hand in
the way, or a sticker that is not ours.  Everything here is deterministic: a
:class:`Scene` fully describes one frame, and :func:`base_scene` and
:func:`degrade` draw a scene from a seeded ``numpy`` generator, so a seed
always gives the same pixels.

Geometry: the frame is 640x480 and the scan spot is its centre.  ``scale`` is
the camera's pixels per millimetre at the table (a camera about 20 cm above
the table gives roughly 2.5-3 px/mm); a card is 56 x 87 mm.  The frame is
rendered at twice its size and reduced with area averaging, so the sticker's
edges are anti-aliased the way a real sensor sees them.
"""

from __future__ import annotations

import functools
import math
import zlib
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from companion.cards import CATALOGUE, payload
from vision.stickers import DEFAULT_SIZE_MM, QUIET_MODULES, qr_modules

Image = npt.NDArray[np.uint8]
FloatImage = npt.NDArray[np.float32]

WIDTH, HEIGHT = 640, 480
CARD_MM = (56.0, 87.0)
#: Default printed QR symbol side (without its quiet zone), in millimetres;
#: see ``vision.stickers`` for why.
STICKER_MM = DEFAULT_SIZE_MM
_SS = 2  # supersampling factor


def sticker_image(text: str, px_per_module: int, label: str | None = None) -> Image:
    """A printed sticker: white label, quiet zone, QR, and a text line under it.

    Grey-level, ``px_per_module`` pixels per QR module.
    """
    mods = qr_modules(text)
    n = mods.shape[0] + 2 * QUIET_MODULES
    side = n * px_per_module
    band = int(side * 0.22) if label else 0
    img = np.full((side + band, side), 250, np.uint8)
    small = np.where(mods, 25, 250).astype(np.uint8)
    qr = np.asarray(cv2.resize(small, None, fx=px_per_module, fy=px_per_module,
                               interpolation=cv2.INTER_NEAREST), np.uint8)
    q = QUIET_MODULES * px_per_module
    img[q : q + qr.shape[0], q : q + qr.shape[1]] = qr
    if label:
        fs = band / 40.0
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, fs, 1)
        org = (max(0, (side - tw) // 2), side - q // 2 + (band + th) // 2)
        cv2.putText(img, label, org, cv2.FONT_HERSHEY_SIMPLEX, fs, (40,), max(1, int(fs * 2)))
    return img


_KIND_COLOURS = {
    "treasure": (60, 170, 215),
    "hazard": (40, 50, 150),
    "artifact": (140, 60, 110),
    "foreign": (120, 120, 120),
}


@functools.lru_cache(maxsize=8)
def card_image(card_id: str | None, sticker_text: str | None, px_per_mm: float,
               sticker_mm: float = STICKER_MM) -> Image:
    """The face of a card (BGR) at ``px_per_mm``, its sticker in the middle.

    ``card_id`` picks the artwork (None: a plain grey card, e.g. another
    game's); ``sticker_text`` is what the sticker's QR holds (None: no sticker).
    Kept for the next frames and read-only: a card sliding in is the same face
    in every frame (drawing it took a tenth of a frame's rendering).
    """
    w, h = round(CARD_MM[0] * px_per_mm), round(CARD_MM[1] * px_per_mm)
    kind = CATALOGUE[card_id].kind.value if card_id in CATALOGUE else "foreign"
    bg = _KIND_COLOURS[kind]
    img = np.empty((h, w, 3), np.uint8)
    img[:] = bg
    border = max(2, round(2.5 * px_per_mm))
    cv2.rectangle(img, (border, border), (w - border, h - border),
                  tuple(min(255, c + 50) for c in bg), max(1, round(px_per_mm)))
    # Some artwork around the sticker: busy edges are what a real card shows.
    # zlib.crc32, not hash(): str hashes change from one process to the next
    rng = np.random.default_rng(zlib.crc32(card_id.encode()) if card_id else 7)
    for _ in range(14):
        centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        radius = int(rng.integers(w // 20, w // 6))
        colour = tuple(int(c) for c in rng.integers(20, 235, 3))
        cv2.circle(img, centre, radius, colour, -1, cv2.LINE_AA)
    if sticker_text is not None:
        mods = qr_modules(sticker_text).shape[0]
        ppm = max(1, round(sticker_mm * px_per_mm / mods))
        label = card_id if card_id in CATALOGUE else None
        big = sticker_image(sticker_text, ppm, label)
        target = (sticker_mm / mods) * px_per_mm / ppm
        st = cv2.resize(big, None, fx=target, fy=target, interpolation=cv2.INTER_AREA)
        sh, sw = st.shape
        if sw < w and sh < h:
            y0, x0 = (h - sh) // 2, (w - sw) // 2
            img[y0 : y0 + sh, x0 : x0 + sw] = st[:, :, None]
    img.flags.writeable = False
    return img


@dataclass(frozen=True)
class Hand:
    """A hand (with forearm) over the table; ``x, y`` is the palm centre in frame pixels."""

    x: float
    y: float
    angle: float = 0.0  # direction the forearm comes from, degrees
    size: float = 1.0


@dataclass(frozen=True)
class Scene:
    """Everything that decides one rendered frame.

    ``card`` is the card lying on the table (None: empty table); ``sticker``
    overrides the text of its sticker (a foreign code, or None for "use the
    card's payload").  ``extra`` adds further stickers ``(card_or_None,
    sticker_text_or_None, x, y, angle)``, e.g. a second card in view or a
    card with no sticker.
    """

    card: str | None = None
    sticker: str | None = None
    x: float = WIDTH / 2
    y: float = HEIGHT / 2
    angle: float = 0.0
    scale: float = 2.8  # px per mm at the table
    tilt: float = 0.0  # 0 = camera straight down; 0.3 = strongly slanted
    tilt_dir: float = 0.0  # degrees
    focus_blur: float = 0.6  # Gaussian sigma in frame pixels
    motion: float = 0.0  # motion blur length in pixels
    motion_dir: float = 0.0
    noise: float = 3.0  # sensor noise sigma, grey levels
    gain: float = 1.0  # per-frame exposure flicker, applied after the cached render
    jpeg: int = 0  # JPEG quality, 0 = none
    brightness: float = 1.0
    contrast: float = 1.0
    gradient: float = 0.15  # uneven lighting strength
    glare: tuple[float, float, float, float] | None = None  # x, y, radius, strength
    hand: Hand | None = None
    extra: tuple[tuple[str | None, str | None, float, float, float], ...] = ()
    table_seed: int = 0
    noise_seed: int = 0
    sticker_mm: float = STICKER_MM

    def sticker_text(self) -> str | None:
        if self.sticker is not None:
            return self.sticker
        return payload(self.card) if self.card is not None else None


@functools.lru_cache(maxsize=8)
def table_texture(seed: int) -> FloatImage:
    """A wood-like table top at the supersampled size (float BGR, 0..255)."""
    rng = np.random.default_rng(seed)
    h, w = HEIGHT * _SS, WIDTH * _SS
    base = np.array(rng.choice([(60, 90, 130), (50, 75, 105), (70, 110, 70), (90, 90, 95)]),
                    np.float32)
    seed_grain = rng.normal(0, 1, (h // 16, w // 2)).astype(np.float32)
    grain = cv2.resize(seed_grain, (w, h), interpolation=cv2.INTER_CUBIC)
    low = cv2.resize(rng.normal(0, 1, (6, 8)).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    shade = 1.0 + 0.08 * grain + 0.1 * low
    tex = base[None, None, :] * shade[:, :, None]
    return np.asarray(np.clip(tex, 0, 255), np.float32)


def _card_quad(x: float, y: float, angle: float, w: float, h: float) -> npt.NDArray[np.float32]:
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    pts = []
    for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        pts.append((x + c * dx - s * dy, y + s * dx + c * dy))
    return np.array(pts, np.float32)


def _tilt(pts: npt.NDArray[np.float32], tilt: float, direction: float) -> npt.NDArray[np.float32]:
    """Project table points as a slanted camera would: far side shrinks."""
    if tilt == 0:
        return pts
    d = math.radians(direction)
    ux, uy = math.cos(d), math.sin(d)
    cx, cy = WIDTH * _SS / 2, HEIGHT * _SS / 2
    out = []
    for px, py in pts:
        along = ((px - cx) * ux + (py - cy) * uy) / (WIDTH * _SS / 2)
        k = 1.0 / (1.0 + tilt * along)
        out.append((cx + (px - cx) * k, cy + (py - cy) * k))
    return np.array(out, np.float32)


def _paste_box(quad: npt.NDArray[np.float32]) -> tuple[int, int, int, int]:
    """The part of the supersampled frame that pasting onto ``quad`` touches."""
    cw, ch = WIDTH * _SS, HEIGHT * _SS
    x0, y0 = (max(0, int(v) - 2) for v in quad.min(axis=0))
    return x0, y0, min(cw, int(quad[:, 0].max()) + 3), min(ch, int(quad[:, 1].max()) + 3)


def _paste(canvas: FloatImage, img: Image, quad: npt.NDArray[np.float32],
           origin: tuple[int, int] = (0, 0)) -> None:  # fmt: skip
    """Warp ``img`` onto ``quad`` (frame coordinates) of ``canvas``, the part of
    the supersampled frame whose top left corner is ``origin``, touching only
    the quad's bounding box."""
    h, w = img.shape[:2]
    x0, y0, x1, y1 = _paste_box(quad)
    if x1 <= x0 or y1 <= y0:
        return
    src = np.array([(0, 0), (w, 0), (w, h), (0, h)], np.float32)
    m = cv2.getPerspectiveTransform(src, quad - np.array([x0, y0], np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(img, m, size, flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, size, flags=cv2.INTER_LINEAR)
    alpha = mask.astype(np.float32) * np.float32(1.0 / 255.0)
    ox, oy = origin
    roi = canvas[y0 - oy : y1 - oy, x0 - ox : x1 - ox]
    # OpenCV's blend in one pass: 5.5x quicker than numpy's four (4.7 to 0.85 ms
    # for a card's box), the same to a few thousandths of a level.
    roi[...] = cv2.blendLinear(warped.astype(np.float32), roi, alpha, 1.0 - alpha)


def _glare_box(gx: float, gy: float, gr: float) -> tuple[int, int, int, int]:
    """Where a glare centred at ``gx, gy`` (supersampled pixels) lights the canvas."""
    cw, ch = WIDTH * _SS, HEIGHT * _SS
    return (max(0, int(gx - 3 * gr)), max(0, int(gy - 3 * gr)),
            min(cw, int(gx + 3 * gr) + 1), min(ch, int(gy + 3 * gr) + 1))  # fmt: skip


def _add_glare(canvas: FloatImage, gx: float, gy: float, gr: float, gs: float,
               origin: tuple[int, int] = (0, 0)) -> None:  # fmt: skip
    """A lamp's glare added to ``canvas``, the part of the supersampled frame
    whose top left corner is ``origin`` (the glare's own coordinates are the
    frame's, so its pixels do not depend on the part)."""
    x0, y0, x1, y1 = _glare_box(gx, gy, gr)
    if x1 <= x0 or y1 <= y0:
        return
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d2 = ((xx - gx) ** 2 + (yy - gy) ** 2) / gr**2
    ox, oy = origin
    canvas[y0 - oy : y1 - oy, x0 - ox : x1 - ox] += (gs * 255.0 * np.exp(-d2))[:, :, None]


@functools.lru_cache(maxsize=1)
def _grid() -> tuple[FloatImage, FloatImage]:
    yy, xx = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    return (xx / WIDTH - 0.3) ** 2, (yy / HEIGHT - 0.2) ** 2


SKIN = (120.0, 150.0, 205.0)


def hand_mask(hand: Hand) -> Image:
    """How much of each pixel of the frame ``hand`` covers (0 to 255), soft-edged."""
    s = hand.size
    a = math.radians(hand.angle)
    cx, cy = hand.x, hand.y
    layer = np.zeros((HEIGHT, WIDTH), np.uint8)
    # forearm from outside the frame to the palm
    far = (int(cx + math.cos(a) * 900 * s), int(cy + math.sin(a) * 900 * s))
    cv2.line(layer, (int(cx), int(cy)), far, (255,), int(110 * s))
    cv2.ellipse(layer, (int(cx), int(cy)), (int(75 * s), int(60 * s)), hand.angle, 0, 360,
                (255,), -1)
    for k in (-1.5, -0.5, 0.5, 1.5):
        fa = a + math.pi + k * 0.22
        tip = (int(cx + math.cos(fa) * 150 * s), int(cy + math.sin(fa) * 150 * s))
        cv2.line(layer, (int(cx), int(cy)), tip, (255,), int(26 * s))
    return np.asarray(cv2.GaussianBlur(layer, (0, 0), 3), np.uint8)


def _draw_hand(canvas: FloatImage, hand: Hand) -> None:
    soft = hand_mask(hand)
    # Blended where the hand is only: elsewhere the blend leaves each pixel as it was.
    x, y, w, h = cv2.boundingRect(soft)
    if w == 0 or h == 0:
        return
    alpha = (np.asarray(soft[y : y + h, x : x + w], np.float32) / 255.0)[:, :, None]
    part = canvas[y : y + h, x : x + w]
    part *= 1.0 - alpha
    part += alpha * np.array(SKIN, np.float32)


def _motion_kernel(length: float, direction: float) -> npt.NDArray[np.float32]:
    n = max(3, math.ceil(length) | 1)
    k = np.zeros((n, n), np.float32)
    c = n // 2
    d = math.radians(direction)
    x1, y1 = c + math.cos(d) * length / 2, c + math.sin(d) * length / 2
    x0, y0 = c - math.cos(d) * length / 2, c - math.sin(d) * length / 2
    cv2.line(k, (round(x0), round(y0)), (round(x1), round(y1)), (1.0,), 1, cv2.LINE_AA)
    total = float(k.sum())
    return k / total if total > 0 else k


#: A streak longer than this (pixels) is drawn at half the frame's size.
HALF_SIZE_STREAK = 12.0


def _motion_blur(frame: FloatImage, length: float, direction: float) -> FloatImage:
    """The frame streaked ``length`` pixels along ``direction`` (degrees).

    A long streak (a card slid in by hand: 32 pixels) is drawn at half the
    size and scaled back: the same streak, with a quarter of the pixels under a
    kernel half as long, 3.4x quicker here (16.4 to 4.9 ms a frame, a third of
    a sliding frame's rendering). Nothing finer than two pixels is left in such
    a frame anyway, and no decoder reads a card in motion. The benchmark's
    hard frames streak at most 6.5 pixels: drawn at full size, as before.
    """
    if length <= HALF_SIZE_STREAK:
        return np.asarray(cv2.filter2D(frame, -1, _motion_kernel(length, direction)), np.float32)
    h, w = frame.shape[:2]
    small = cv2.resize(frame, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    small = cv2.filter2D(small, -1, _motion_kernel(length / 2, direction))
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def render(scene: Scene) -> Image:
    """The BGR 640x480 camera frame of ``scene``.

    Everything but the sensor noise and the JPEG step is cached per scene, so a
    card lying still costs little more than the noise of each new frame.
    """
    frame = _clean(replace(scene, noise=0.0, noise_seed=0, jpeg=0, gain=1.0))
    if scene.gain != 1.0:
        frame = frame * np.float32(scene.gain)
    if scene.noise > 0:
        noise = np.empty(frame.shape, np.float32)
        cv2.setRNGSeed(scene.noise_seed % 2**31)
        cv2.randn(noise, 0.0, float(scene.noise))  # type: ignore[call-overload]
        frame = frame + noise
    out = np.clip(frame, 0, 255).astype(np.uint8)
    if scene.jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(scene.jpeg)])
        if ok:
            out = np.asarray(cv2.imdecode(buf, cv2.IMREAD_COLOR), np.uint8)
    return np.ascontiguousarray(out)


@functools.lru_cache(maxsize=8)
def _table_frame(seed: int) -> FloatImage:
    """The table top at the frame's size, read-only."""
    frame = np.asarray(cv2.resize(table_texture(seed), (WIDTH, HEIGHT),
                                  interpolation=cv2.INTER_AREA), np.float32)  # fmt: skip
    frame.flags.writeable = False
    return frame


def composite(scene: Scene) -> FloatImage:
    """The table with the scene's cards and glare, at the frame's size (float
    BGR): what the camera's lens would make of it before light, focus and
    motion."""
    ppm = scene.scale * _SS
    stickers: list[tuple[str | None, str | None, float, float, float]] = []
    if scene.card is not None or scene.sticker is not None:
        stickers.append((scene.card, scene.sticker_text(), scene.x, scene.y, scene.angle))
    stickers += [(c, t, x, y, a) for c, t, x, y, a in scene.extra]
    pasted = []
    for card_id, text, x, y, angle in stickers:
        face = card_image(card_id, text, ppm, scene.sticker_mm)
        quad = _card_quad(x * _SS, y * _SS, angle, face.shape[1], face.shape[0])
        pasted.append((face, _tilt(quad, scene.tilt, scene.tilt_dir)))
    glare = None
    if scene.glare is not None:
        gx, gy, gr, gs = scene.glare
        glare = (gx * _SS, gy * _SS, gr * _SS, gs)
    # Only the part of the table that cards and glare touch is drawn at twice
    # the size and reduced; the rest is the table reduced once. An area
    # reduction by a whole factor averages each block on its own, so a part
    # made of whole blocks reduces to the very pixels of the whole.
    frame = _table_frame(scene.table_seed).copy()
    boxes = [_paste_box(quad) for _face, quad in pasted]
    boxes += [_glare_box(*glare[:3])] if glare is not None else []
    boxes = [b for b in boxes if b[2] > b[0] and b[3] > b[1]]
    if boxes:
        # On whole blocks: down to a multiple of _SS, and up (-(-n // k) is n / k rounded up).
        x0 = min(b[0] for b in boxes) // _SS * _SS
        y0 = min(b[1] for b in boxes) // _SS * _SS
        x1 = -(-max(b[2] for b in boxes) // _SS) * _SS
        y1 = -(-max(b[3] for b in boxes) // _SS) * _SS
        canvas = table_texture(scene.table_seed)[y0:y1, x0:x1].copy()
        for face, quad in pasted:
            _paste(canvas, face, quad, (x0, y0))
        if glare is not None:
            _add_glare(canvas, *glare, origin=(x0, y0))
        frame[y0 // _SS : y1 // _SS, x0 // _SS : x1 // _SS] = cv2.resize(
            canvas, ((x1 - x0) // _SS, (y1 - y0) // _SS), interpolation=cv2.INTER_AREA
        )
    return frame


@functools.lru_cache(maxsize=16)
def _clean(scene: Scene) -> FloatImage:
    frame: Any = composite(scene)
    if scene.hand is not None:
        _draw_hand(frame, scene.hand)
    # lighting: uneven illumination, exposure, contrast
    lx, ly = _grid()
    light = (1.0 - scene.gradient * (lx + ly)) * (scene.contrast * scene.brightness)
    frame = frame * light[:, :, None] + (128.0 * (1.0 - scene.contrast) * scene.brightness)
    if scene.focus_blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), scene.focus_blur)
    if scene.motion > 1:
        frame = _motion_blur(frame, scene.motion, scene.motion_dir)
    frame.flags.writeable = False
    return np.asarray(frame, np.float32)


#: The degradations of the benchmark's hard frames, one per frame.
DEGRADATIONS: tuple[str, ...] = (
    "blur", "motion", "noise", "jpeg", "glare", "tilt", "low_contrast", "dark", "small", "hand",
)  # fmt: skip

#: Codes a camera may see that are not ours (docs/cards-and-stickers.md: never a card).
FOREIGN_PAYLOADS: tuple[str, ...] = (
    "https://example.com/game",
    "IG:T12",
    "IG:SPIDER4",
    "IG-T11A",
    "TICKET 4711",
    "IG:A6",
    "XG:T11A",
    "IGT11A",
)


def base_scene(rng: np.random.Generator, card: str | None) -> Scene:
    """A card lying near the scan spot in ordinary conditions."""
    return Scene(
        card=card,
        x=WIDTH / 2 + float(rng.uniform(-70, 70)),
        y=HEIGHT / 2 + float(rng.uniform(-50, 50)),
        angle=float(rng.uniform(0, 360)),
        scale=float(rng.uniform(2.4, 3.2)),
        tilt=float(rng.uniform(0, 0.12)),
        tilt_dir=float(rng.uniform(0, 360)),
        focus_blur=float(rng.uniform(0.4, 0.9)),
        noise=float(rng.uniform(1.5, 5)),
        brightness=float(rng.uniform(0.85, 1.1)),
        contrast=float(rng.uniform(0.85, 1.0)),
        gradient=float(rng.uniform(0, 0.4)),
        table_seed=int(rng.integers(0, 4)),
        noise_seed=int(rng.integers(0, 2**31)),
    )


def degrade(scene: Scene, kind: str, rng: np.random.Generator) -> Scene:
    """``scene`` made hard in one way (one of :data:`DEGRADATIONS`)."""
    u = functools.partial(rng.uniform)
    match kind:
        case "blur":
            return replace(scene, focus_blur=float(u(1.2, 1.9)))
        case "motion":
            return replace(scene, motion=float(u(3, 6.5)), motion_dir=float(u(0, 180)))
        case "noise":
            return replace(scene, noise=float(u(18, 32)))
        case "jpeg":
            return replace(scene, jpeg=int(rng.integers(6, 14)), focus_blur=float(u(0.8, 1.4)))
        case "glare":
            r = float(u(18, 40))
            return replace(scene, glare=(scene.x + float(u(-25, 25)), scene.y + float(u(-25, 25)),
                                         r, float(u(0.5, 0.9))))
        case "tilt":
            return replace(scene, tilt=float(u(0.45, 0.75)), scale=float(u(2.3, 2.8)),
                           x=float(u(150, 490)), y=float(u(120, 360)))
        case "low_contrast":
            return replace(scene, contrast=float(u(0.12, 0.22)), noise=float(u(3, 6)))
        case "dark":
            return replace(scene, brightness=float(u(0.1, 0.2)), noise=float(u(4, 8)))
        case "small":
            return replace(scene, scale=float(u(1.7, 2.1)), focus_blur=float(u(0.7, 1.1)))
        case "hand":
            a = float(u(0, 360))
            # the hand covers part of the card but (mostly) not the sticker
            dist = float(u(190, 230))
            hx = scene.x + math.cos(math.radians(a)) * dist
            hy = scene.y + math.sin(math.radians(a)) * dist
            return replace(scene, hand=Hand(hx, hy, a, float(u(0.7, 1.0))),
                           motion=float(u(0, 4)), motion_dir=float(u(0, 180)))
    raise ValueError(f"unknown degradation {kind!r}")


@dataclass(frozen=True)
class Sample:
    """One generated frame with what it truly shows (for tests and the benchmark)."""

    scene: Scene
    kind: str  # a degradation, "empty" or "foreign"
    truth: str | None  # the card id, or None
    frame: Image = field(repr=False, compare=False)


def hard_samples(seed: int, per_kind: int) -> list[Sample]:
    """``per_kind`` hard frames for every degradation, each card in turn."""
    rng = np.random.default_rng(seed)
    ids = list(CATALOGUE)
    out: list[Sample] = []
    i = 0
    for kind in DEGRADATIONS:
        for _ in range(per_kind):
            card = ids[i % len(ids)]
            i += 1
            scene = degrade(base_scene(rng, card), kind, rng)
            out.append(Sample(scene, kind, card, render(scene)))
    return out


def empty_samples(seed: int, n: int) -> list[Sample]:
    """Frames with no sticker: the empty table, a hand, a card without a sticker."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        scene = replace(base_scene(rng, None), card=None)
        if i % 3 == 1:
            scene = replace(scene, hand=Hand(float(rng.uniform(100, 540)),
                                             float(rng.uniform(100, 380)),
                                             float(rng.uniform(0, 360))))
        elif i % 3 == 2:
            plain = str(rng.choice(list(CATALOGUE)))
            scene = replace(scene, extra=((plain, None, scene.x, scene.y, scene.angle),))
        out.append(Sample(scene, "empty", None, render(scene)))
    return out


def foreign_samples(seed: int, n: int) -> list[Sample]:
    """Frames with a sticker that is not a card (sometimes degraded)."""
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        text = FOREIGN_PAYLOADS[i % len(FOREIGN_PAYLOADS)]
        scene = replace(base_scene(rng, None), sticker=text)
        if i % 2:
            scene = degrade(scene, DEGRADATIONS[int(rng.integers(0, len(DEGRADATIONS)))], rng)
        out.append(Sample(scene, "foreign", None, render(scene)))
    return out
