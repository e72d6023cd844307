"""The rendered camera frames: what is drawn only where cards and glare are
gives the very pixels of drawing the whole table at the supersampled size."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from companion.cards import ALL_IDS
from vision import render
from vision.render import Hand, Scene


def whole_canvas(scene: Scene) -> np.ndarray:
    """The composite the long way: the whole table drawn at the supersampled
    size, every card and the glare on it, then reduced."""
    ss = render._SS
    canvas = render.table_texture(scene.table_seed).copy()
    stickers = []
    if scene.card is not None or scene.sticker is not None:
        stickers.append((scene.card, scene.sticker_text(), scene.x, scene.y, scene.angle))
    stickers += list(scene.extra)
    for card_id, text, x, y, angle in stickers:
        face = render.card_image(card_id, text, scene.scale * ss, scene.sticker_mm)
        quad = render._card_quad(x * ss, y * ss, angle, face.shape[1], face.shape[0])
        render._paste(canvas, face, render._tilt(quad, scene.tilt, scene.tilt_dir))
    if scene.glare is not None:
        gx, gy, gr, gs = scene.glare
        render._add_glare(canvas, gx * ss, gy * ss, gr * ss, gs)
    return np.asarray(cv2.resize(canvas, (render.WIDTH, render.HEIGHT),
                                 interpolation=cv2.INTER_AREA))  # fmt: skip


CARD = Scene(card=ALL_IDS[0])
SCENES = {
    "empty table": Scene(),
    "at the spot": CARD,
    "odd position and angle": replace(CARD, x=321.3, y=239.7, angle=33.3, scale=2.71),
    "partly out, top left": replace(CARD, x=5.0, y=5.0),
    "partly out, bottom right": replace(CARD, x=635.0, y=475.0, angle=33.0),
    "out of view": replace(CARD, x=-200.0),
    "glare at a corner": replace(CARD, glare=(2.0, 3.0, 30.0, 0.8)),
    "glare at the far corner": replace(CARD, x=600.0, glare=(639.0, 479.0, 40.0, 0.5)),
    "glare off the card": replace(CARD, glare=(500.3, 100.7, 21.5, 0.6)),
    "slanted": replace(CARD, tilt=0.7, tilt_dir=45.0, x=500.0, y=100.0),
    "a second card and a foreign sticker": replace(
        CARD, extra=((ALL_IDS[-1], None, 100.0, 240.0, 10.0), (None, "IG:T12", 320.0, 60.0, 80.0))
    ),
    "another table": replace(CARD, table_seed=3, x=410.0, y=300.0),
}


@pytest.mark.parametrize("scene", SCENES.values(), ids=SCENES.keys())
def test_the_composite_is_the_whole_canvas_reduced(scene: Scene) -> None:
    assert np.array_equal(render.composite(scene), whole_canvas(scene))


@pytest.mark.parametrize("hand", [Hand(600.0, 400.0, 45.0, 0.7), Hand(320.0, 240.0, 200.0, 1.3),
                                  Hand(-300.0, -300.0, 0.0)])  # fmt: skip
def test_a_hand_is_blended_as_over_the_whole_frame(hand: Hand) -> None:
    frame = render.composite(CARD).copy()
    alpha = (render.hand_mask(hand).astype(np.float32) / 255.0)[:, :, None]
    whole = frame * (1.0 - alpha) + alpha * np.array(render.SKIN, np.float32)
    render._draw_hand(frame, hand)
    assert np.array_equal(frame, whole)


def test_a_cards_face_is_kept_read_only() -> None:
    face = render.card_image(ALL_IDS[3], "IG:T4", 5.6)
    assert face is render.card_image(ALL_IDS[3], "IG:T4", 5.6)
    with pytest.raises(ValueError, match="read-only"):
        face[0, 0] = 0
