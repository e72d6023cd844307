"""The decoder on rendered camera frames (real zxing-cpp and pyzbar, no fakes)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest
import zxingcpp

from companion.cards import ALL_IDS
from vision import render
from vision.decode import Decoder, card_of, to_gray
from vision.render import Scene


def frame(card: str | None = None, **kw: object) -> np.ndarray:
    return render.render(Scene(card=card, **kw))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def hard() -> list[render.Sample]:
    """Three hard frames of every degradation, from a seed the benchmark does not use."""
    return render.hard_samples(seed=4242, per_kind=3)


def test_every_card_reads_as_itself_lying_anywhere_near_the_spot() -> None:
    rng = np.random.default_rng(17)
    decoder = Decoder(skip_unchanged=False)
    for card in ALL_IDS:
        reads = decoder.decode(render.render(render.base_scene(rng, card)))
        assert reads.cards == (card,), card
        assert reads.foreign == ()


@pytest.mark.parametrize("text", render.FOREIGN_PAYLOADS)
def test_a_sticker_that_is_not_a_card_is_a_foreign_read(text: str) -> None:
    reads = Decoder().decode(frame(sticker=text))
    assert reads.cards == ()
    assert reads.foreign == (text,)


def test_an_empty_table_reads_nothing() -> None:
    for sample in render.empty_samples(seed=8, n=6):
        assert Decoder().decode(sample.frame).reads == ()


def test_two_stickers_in_view_are_both_read_with_their_places() -> None:
    image = frame("T11A", x=200, y=240, extra=(("SPIDER2", "IG:SPIDER2", 460, 240, 30.0),))
    reads = Decoder().decode(image)
    assert sorted(reads.cards) == ["SPIDER2", "T11A"]
    where = {r.card: r.center for r in reads.reads}
    assert where["T11A"][0] < 320 < where["SPIDER2"][0]


def test_a_card_and_a_foreign_sticker_are_told_apart() -> None:
    image = frame("A3", x=200, y=240, extra=((None, "IG:T12", 460, 240, 0.0),))
    reads = Decoder().decode(image)
    assert reads.cards == ("A3",)
    assert reads.foreign == ("IG:T12",)


def test_hard_frames_are_read_more_often_than_by_raw_zxing_and_never_wrongly(
    hard: list[render.Sample],
) -> None:
    decoder = Decoder(skip_unchanged=False)
    ours = raw = 0
    for s in hard:
        reads = decoder.decode(s.frame)
        assert set(reads.cards) <= {s.truth}, (s.kind, reads.cards)
        ours += s.truth in reads.cards
        raw_texts = {b.text for b in zxingcpp.read_barcodes(
            s.frame, formats=zxingcpp.BarcodeFormat.QRCode)}
        raw_hit = f"IG:{s.truth}" in raw_texts
        raw += raw_hit
        if raw_hit:  # what raw zxing-cpp reads, the cascade reads too
            assert s.truth in reads.cards, s.kind
    assert ours > raw


def test_the_fallback_reads_a_small_blurred_sticker_zxing_alone_misses() -> None:
    image = frame("T17", scale=2.1, focus_blur=1.3, angle=20.0, noise=2.0, noise_seed=3)
    assert Decoder(fallback=False).decode(image).cards == ()
    reads = Decoder().decode(image)
    assert reads.cards == ("T17",)
    assert reads.reads[0].decoder.startswith(("zxing-roi", "pyzbar"))


def test_an_unchanged_empty_frame_is_not_decoded_again() -> None:
    decoder = Decoder()
    empty = frame(None, noise=3.0, noise_seed=1)
    assert decoder.decode(empty).skipped is False
    again = decoder.decode(frame(None, noise=3.0, noise_seed=2))  # new sensor noise only
    assert again.skipped is True and again.reads == ()
    card = decoder.decode(frame("T2", noise=3.0, noise_seed=3))
    assert card.skipped is False and card.cards == ("T2",)


def test_a_frame_with_an_unread_sticker_is_always_tried_again() -> None:
    decoder = Decoder()
    blurred = frame("T4", focus_blur=4.0, noise_seed=1)
    first = decoder.decode(blurred)
    assert first.cards == () and first.candidates
    assert decoder.decode(blurred).skipped is False


def test_an_unread_window_is_tried_again_on_the_next_frame_then_waits_if_empty() -> None:
    # The window's first decode looks for no sticker-like regions, so it does not
    # know yet whether the scene holds any: it is retried on the next frame like
    # a scene that does (before, it waited RETRY_EVERY = 64 frames, 2 s).
    blurred = frame("T4", focus_blur=4.0, noise_seed=1)
    decoder = Decoder()
    assert decoder.decode(blurred, window=True).cards == ()
    retry = decoder.decode(blurred, window=True)
    assert retry.skipped is False and retry.candidates
    # an empty table: the retry finds nothing sticker-like, and then it waits
    empty = frame(None, noise=3.0, noise_seed=1)
    decoder = Decoder()
    assert decoder.decode(empty, window=True).skipped is False
    retry = decoder.decode(empty, window=True)
    assert retry.skipped is False and retry.candidates == ()
    assert all(decoder.decode(empty, window=True).skipped for _ in range(20))


def test_a_defocused_window_is_read_on_its_retry_by_the_whole_window_deblurred() -> None:
    # Modules of 5 px under a focus blur of sigma 3.4 px: a fixed-focus camera
    # set for another height (bench/photo.py --capture: its unread placements).
    scene = Scene(card="T17", scale=4.2, focus_blur=3.4, angle=20.0, noise=2.0, noise_seed=1)
    image = render.render(scene)
    without = Decoder()
    without.window_steps = ()
    assert [without.decode(image, window=True).cards for _ in range(2)] == [(), ()]
    decoder = Decoder()
    assert decoder.decode(image, window=True).cards == ()
    reads = decoder.decode(image, window=True).reads
    assert [(r.card, r.decoder) for r in reads] == [("T17", "zxing-window-deblur")]


def test_grey_and_bgra_frames_decode_like_bgr() -> None:
    image = frame("ROCKS3")
    for variant in (to_gray(image), cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)):
        assert Decoder().decode(variant).cards == ("ROCKS3",)


def test_only_exact_sticker_payloads_are_cards() -> None:
    assert card_of("IG:T11A") == "T11A"
    assert card_of("IG:SPIDER2") == "SPIDER2"
    for text in ("IG:T12", "IG:T11A ", "ig-t11a", "", "https://x.y/IG:T1", "IG:",
                 # Letters that str.upper() folds into an id's: no case of it.
                 "IG:\u017fNAKE1", "IG:SP\u0131DER2", "IG:\ufb01RE1", "\u0131G:T1"):
        assert card_of(text) is None


def test_without_pyzbar_the_decoder_still_reads() -> None:
    assert Decoder(use_pyzbar=False).decode(frame("T13")).cards == ("T13",)


def test_a_tilted_dim_frame_reads_through_the_cascade() -> None:
    scene = replace(Scene(card="MUMMY3"), tilt=0.5, tilt_dir=30.0, x=420, y=300,
                    brightness=0.25, noise=5.0)
    assert Decoder().decode(render.render(scene)).cards == ("MUMMY3",)


# Frames that only one of the later cascade steps reads (found with bench/vision.py's
# generators): each step stays in the cascade only while it reads what the others miss.
def _small(scale: float, blur: float) -> Scene:
    return Scene(card="T17", scale=scale, focus_blur=blur, angle=20.0, noise=2.0, noise_seed=3)


LATER_STEPS = [
    pytest.param(_small(1.9, 1.3), "zxing-roi-sharp", id="blur-sharp"),
    pytest.param(_small(2.0, 1.5), "zxing-roi-deblur", id="blur-deblur"),
]


@pytest.mark.parametrize(("scene", "step"), LATER_STEPS)
def test_each_later_step_reads_a_frame_the_steps_before_it_miss(scene: Scene, step: str) -> None:
    image = render.render(scene)
    assert Decoder(fallback=False, skip_unchanged=False).decode(image).cards == ()
    reads = Decoder(skip_unchanged=False).decode(image).reads
    assert [(r.card, r.decoder) for r in reads] == [(scene.card, step)]


def micro_frame(text: str, level: str) -> np.ndarray:
    """An empty table with a printed Micro QR of ``text`` at ``level`` on it, 6 px a module."""
    from vision.stickers import qr_modules

    mods = qr_modules(text, level, micro=True)
    label = np.pad(np.where(mods, 30, 235).astype(np.uint8), 3, constant_values=235)
    big = cv2.resize(label, None, fx=6, fy=6, interpolation=cv2.INTER_NEAREST)
    image = frame().copy()
    y0, x0 = 240 - big.shape[0] // 2, 320 - big.shape[1] // 2
    image[y0:y0 + big.shape[0], x0:x0 + big.shape[1]] = big[:, :, None]
    return image


@pytest.mark.parametrize("level", ["L", "M"])
@pytest.mark.parametrize("text", ["HELLO", "IG:T11A"])
def test_a_foreign_micro_qr_below_level_q_is_reported_and_never_a_card(
        level: str, text: str) -> None:
    """Ours are all at level Q: a Micro QR at L or M is someone else's code, even one
    holding a card's payload, and it is said (not dropped)."""
    from vision.scanner import Scanner
    from vision.sources import NoSource

    image = micro_frame(text, level)
    reads = Decoder().decode(image)
    assert reads.cards == ()
    assert reads.foreign == (text,)
    notices: list[object] = []
    scanner = Scanner(NoSource(), print, notices.append)
    for _ in range(3):
        scanner.process(image)
    assert [n.text for n in notices] == [text]  # type: ignore[attr-defined]
    # A card's payload refused says why, where "Not a card: IG:T11A" contradicted itself.
    from ui.kivyfree import i18n
    from ui.kivyfree.notice_words import notice_text

    i18n.set_language("en")
    assert notice_text(notices[0]) == (  # type: ignore[arg-type]
        "\u201cIG:T11A\u201d is not one of this game's stickers: its Micro QR is below level Q."
        if text == "IG:T11A" else "Not a card: \u201cHELLO\u201d")


def test_a_micro_qr_at_level_q_holding_a_payload_is_that_card() -> None:
    assert Decoder().decode(micro_frame("IG:T11A", "Q")).cards == ("T11A",)
