"""The printed sticker sheet keeps every symbol's quiet zone, and a cutting
tolerance beyond it, white: checked on the PDF rasterised by poppler as a
printer would, in every language (the names are the longest thing printed
beside the QR)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import ALL_IDS
from ui import fonts
from ui.kivyfree import i18n
from vision.stickers import (
    CUT_TOLERANCE_MM,
    MICRO_MODULES,
    MICRO_QUIET_MODULES,
    QUIET_MODULES,
    LabelFont,
    label_layout,
    sheet_places,
    write_pdf,
)

DPI = 150
WHITE = 200  # paper is 255, the grey cut line about 190 where it is drawn in full


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def pages(pdf: Path) -> list[np.ndarray]:
    assert shutil.which("pdftoppm"), "poppler-utils (pdftoppm) is needed: scripts/setup.sh"
    subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", str(pdf),
                    str(pdf.with_suffix(""))], check=True, timeout=120)
    return [cv2.imread(str(p), cv2.IMREAD_GRAYSCALE)
            for p in sorted(pdf.parent.glob(f"{pdf.stem}-*.pgm"))]


def clear(page: np.ndarray, left: float, top: float, side: float, quiet: float,
          cut: tuple[str, ...]) -> list[str]:
    """Where the white around one symbol (mm on the page) is broken: its quiet zone
    all round, and the cutting tolerance beyond it on the ``cut`` sides (those
    facing the cut line; the others face the name or the other symbol)."""
    k = DPI / 25.4

    def box(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
        # a pixel in from each edge: anti-aliasing of the symbol's own border
        return page[round(y0 * k) + 1:round(y1 * k) - 1, round(x0 * k) + 1:round(x1 * k) - 1]

    right, bottom, far = left + side, top + side, quiet + CUT_TOLERANCE_MM
    regions = {
        "quiet zone above": box(left - quiet, top - quiet, right + quiet, top),
        "quiet zone below": box(left - quiet, bottom, right + quiet, bottom + quiet),
        "quiet zone left": box(left - quiet, top, left, bottom),
        "quiet zone right": box(right, top, right + quiet, bottom),
        "tolerance above": box(left, top - far, right, top) if "above" in cut else None,
        "tolerance below": box(left, bottom, right, bottom + far) if "below" in cut else None,
        "tolerance left": box(left - far, top, left, bottom) if "left" in cut else None,
        "tolerance right": box(right, top, right + far, bottom) if "right" in cut else None,
    }
    return [name for name, px in regions.items()
            if px is not None and (px.size == 0 or int(px.min()) < WHITE)]


def broken_margins(pdf: Path, size_mm: float, micro: bool, cards: tuple[str, ...]) -> list[str]:
    geometry = label_layout(size_mm, micro)
    images = pages(pdf)
    out = []
    for card, place in zip(cards, sheet_places("a4", size_mm, micro, len(cards)), strict=True):
        page, lab = images[place.page], place.label
        qx, qy, qside = geometry.qr
        # the QR faces the cut line on three sides of the QR-only label (the
        # name is under it), on two of the new one (the Micro QR above, the name
        # at the right)
        cut = ("left", "below") if micro else ("left", "above", "right")
        found = clear(page, lab.x + qx, lab.y + qy, qside, qside * QUIET_MODULES / 21, cut)
        out += [f"{card} QR: {where}" for where in found]
        if geometry.micro is not None:
            mx, my, mside = geometry.micro
            mquiet = mside * MICRO_QUIET_MODULES / MICRO_MODULES
            found = clear(page, lab.x + mx, lab.y + my, mside, mquiet, ("left", "above", "right"))
            out += [f"{card} Micro QR: {where}" for where in found]
        # the symbol is there: its top-left finder's dark corner module
        k = DPI / 25.4
        corner = page[round((lab.y + qy) * k) + 1, round((lab.x + qx) * k) + 1]
        assert corner < 100, card
    return out


@pytest.mark.parametrize("code", ["en", "pl", "es", "ja"])
def test_the_label_keeps_both_quiet_zones_and_a_cutting_tolerance(code: str,
                                                                  tmp_path: Path) -> None:
    from ui.kivyfree.words import card_name

    i18n.set_language(code)
    found = fonts.ui_font()
    font = LabelFont(found.name, found.regular, found.bold) if found is not None else None
    pdf = tmp_path / f"{code}.pdf"
    write_pdf(pdf, cards=ALL_IDS, name=card_name, font=font)
    assert broken_margins(pdf, 25.0, True, ALL_IDS) == []


@pytest.mark.parametrize(("size_mm", "micro"), [(12.0, True), (60.0, True), (25.0, False),
                                                (12.0, False)])
def test_every_size_and_the_qr_only_label_keep_them_too(size_mm: float, micro: bool,
                                                        tmp_path: Path) -> None:
    cards = ("SPIDER1", "T11A", "A5")
    pdf = tmp_path / "sheet.pdf"
    write_pdf(pdf, size_mm=size_mm, cards=cards, micro=micro)
    assert broken_margins(pdf, size_mm, micro, cards) == []


def test_the_default_label_still_fits_on_a_card() -> None:
    # 38 mm Micro QR in 2 modules and 1.5 mm each side; 25 mm QR below it
    width, height = label_layout(25.0, True).label
    assert (round(width, 2), round(height, 2)) == (49.94, 79.99)
    assert width <= 56.0 and height <= 87.0
