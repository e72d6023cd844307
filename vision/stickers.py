"""The printable sticker sheet: every card's symbols with its name in words.

Each sticker holds ``companion.cards.payload(card_id)`` (docs/cards-and-stickers.md)
twice: as a version 1 QR symbol at error correction level H (30% of the
symbol may be lost to a thumb, a scratch or glare) inside a white
four-module quiet zone, and above it as an M4 Micro QR symbol at level Q
(the most a 10-character payload gets in a Micro QR) in its own two-module
quiet zone, with the card's name in words and its id beside the QR (two
cards can share a name: T5A and T5B are both "treasure 5").  A thin grey outline is
the cut line, :data:`CUT_TOLERANCE_MM` beyond the quiet zones: a cut that strays
that far inside it still leaves every quiet zone whole.  The PDF is vector
(reportlab): modules stay sharp at any printer resolution.  ``micro=False``
gives the older QR-only label.

Default size, :data:`DEFAULT_SIZE_MM` = 25 mm for the QR, as the older QR-only
stickers, with a 38 mm Micro QR (:data:`MICRO_RATIO`) above it: a label of
about 50 x 80 mm that covers the middle of a 56 x 87 mm card's face.  Why
(figures in docs/cards-and-stickers.md, from ``bench/photo.py``): a Micro QR
needs 17 modules and a two-module quiet zone where a QR needs 21 and four,
so across the same card its modules are a third bigger than the biggest QR's
(2.2 mm against 1.7 mm for a 35 mm QR), which is what motion blur and small,
far stickers need; and two symbols at the two ends of the label are rarely
both covered by one finger or one reflection.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import numpy.typing as npt

from companion.cards import ALL_IDS, edition, payload

DEFAULT_SIZE_MM = 25.0
MIN_SIZE_MM, MAX_SIZE_MM = 12.0, 60.0
QUIET_MODULES = 4
#: White kept beyond each symbol's quiet zone up to the cut line: scissors
#: that stray this far inside the line still leave the whole quiet zone.
CUT_TOLERANCE_MM = 1.5
#: The Micro QR above the QR: M4 (17 modules a side), a two-module quiet zone
#: (what the Micro QR standard asks), its side 1.52 times the QR's (38 mm for
#: a 25 mm QR: as wide as a card allows with its quiet zone).
MICRO_MODULES, MICRO_QUIET_MODULES, MICRO_RATIO = 17, 2, 1.52
PAPERS = ("a4", "letter")
#: Page sizes in millimetres (reportlab's A4 and LETTER).
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@functools.lru_cache(maxsize=256)
def qr_modules(text: str, ec_level: str = "H", micro: bool = False) -> npt.NDArray[np.bool_]:
    """The QR (or Micro QR) symbol of ``text`` as a square boolean array (True = dark).

    Uses zxing-cpp's encoder (a dependency already) rather than a second QR
    library.  A card payload always gives 21x21 modules (version 1) at level H,
    and 17x17 (M4) as Micro QR at level Q.
    """
    import zxingcpp

    kind = zxingcpp.BarcodeFormat.MicroQRCode if micro else zxingcpp.BarcodeFormat.QRCode
    code = zxingcpp.create_barcode(text, kind, ecLevel=ec_level)
    img = np.asarray(code.to_image(scale=1, add_quiet_zones=False))
    return np.asarray(img < 128)


def card_modules(card_id: str) -> npt.NDArray[np.bool_]:
    """The sticker symbol of a card; checks it is version 1 (21x21 modules)."""
    mods = qr_modules(payload(card_id), "H")
    if mods.shape != (21, 21):  # pragma: no cover - guarded by the payload's fixed form
        raise ValueError(f"{card_id}: payload does not fit a version 1 symbol")
    return mods


def micro_modules(card_id: str) -> npt.NDArray[np.bool_]:
    """The Micro QR symbol of a card: M4 (17x17) at level Q, the most error
    correction a 10-character payload gets in a Micro QR (M4 at H does not exist)."""
    mods = qr_modules(payload(card_id), "Q", micro=True)
    if mods.shape != (MICRO_MODULES, MICRO_MODULES):  # pragma: no cover - fixed payload form
        raise ValueError(f"{card_id}: payload does not fit an M4 Micro QR symbol")
    return mods


def label_size_mm(size_mm: float, micro: bool = False) -> tuple[float, float]:
    """Width and height of one sticker (quiet zone and name included), in mm."""
    return label_layout(size_mm, micro).label


@dataclass(frozen=True)
class LabelLayout:
    """Where things are on one label, in mm from its top-left corner.

    ``label`` is its width and height; ``qr`` and ``micro`` the symbols'
    top-left corners and sides (``micro`` None on a QR-only label); ``text``
    the top-left and width of the name's column.
    """

    label: tuple[float, float]
    qr: tuple[float, float, float]
    micro: tuple[float, float, float] | None
    text: tuple[float, float, float]


def label_layout(size_mm: float, micro: bool = False) -> LabelLayout:
    """The label for a ``size_mm`` QR symbol, with a Micro QR above it if ``micro``.

    The Micro QR (:data:`MICRO_RATIO` times the QR's side) is centred at the
    top in its own two-module quiet zone; the QR goes under it at the left,
    in its four-module quiet zone, and the name to the QR's right, four QR
    modules from it.  Without it the name runs under the QR as it always did.
    Between a symbol's quiet zone and the cut line there is
    :data:`CUT_TOLERANCE_MM` more white.
    """
    cut = CUT_TOLERANCE_MM
    quiet = size_mm * QUIET_MODULES / 21
    edge = quiet + cut  # a QR's side to the cut line
    qr_block = size_mm + 2 * edge
    if not micro:
        text_h = max(8.0, size_mm * 0.3)
        return LabelLayout((qr_block, edge + size_mm + quiet + text_h + cut),
                           (edge, edge, size_mm), None,
                           (0.0, edge + size_mm + quiet, qr_block))
    side = size_mm * MICRO_RATIO
    mquiet = side * MICRO_QUIET_MODULES / MICRO_MODULES
    width = max(side + 2 * (mquiet + cut), qr_block)
    qr_top = mquiet + cut + side + max(mquiet, quiet)
    text_x = edge + size_mm + quiet
    return LabelLayout((width, qr_top + size_mm + edge), (edge, qr_top, size_mm),
                       ((width - side) / 2, mquiet + cut, side),
                       (text_x, qr_top + size_mm / 3, width - cut - text_x))


@dataclass(frozen=True)
class Box:
    """A rectangle in millimetres: left, top, width, height (y grows downwards)."""

    x: float
    y: float
    w: float
    h: float


def sheet_slots(paper: str, label_w: float, label_h: float, count: int) -> list[tuple[int, Box]]:
    """Where each of ``count`` labels goes: (page index, box on the page, mm from top left)."""
    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}")
    page_w, page_h = PAPER_MM[paper]
    margin, gap = 10.0, 4.0
    cols = max(1, int((page_w - 2 * margin + gap) // (label_w + gap)))
    rows = max(1, int((page_h - 2 * margin + gap) // (label_h + gap)))
    per_page = cols * rows
    x_start = (page_w - (cols * label_w + (cols - 1) * gap)) / 2
    y_start = (page_h - (rows * label_h + (rows - 1) * gap)) / 2
    out = []
    for index in range(count):
        slot = index % per_page
        col, row = slot % cols, slot // cols
        box = Box(x_start + col * (label_w + gap), y_start + row * (label_h + gap),
                  label_w, label_h)
        out.append((index // per_page, box))
    return out


#: A quest card's face, in mm.
CARD_MM = (56.0, 87.0)


@dataclass(frozen=True)
class Place:
    """Where one card's label is printed: page index, the label's box, and the
    card's outline around it (None when the label is not drawn on a card)."""

    page: int
    label: Box
    card: Box | None


def sheet_places(paper: str, size_mm: float, micro: bool, count: int) -> list[Place]:
    """Where each of ``count`` labels goes on the sheet.

    A label with both symbols is drawn centred in the outline of a card (dashed):
    the sheet shows where it goes on the card.  Nine fit an A4 page with or
    without it (four pages); letter paper takes six a page with it.
    """
    w, h = label_size_mm(size_mm, micro)
    on_card = micro and w <= CARD_MM[0] and h <= CARD_MM[1]
    slot_w, slot_h = CARD_MM if on_card else (w, h)
    out = []
    for page, slot in sheet_slots(paper, slot_w, slot_h, count):
        label = Box(slot.x + (slot_w - w) / 2, slot.y + (slot_h - h) / 2, w, h)
        out.append(Place(page, label, slot if on_card else None))
    return out


class NoFontForLanguage(ValueError):
    """The sheet's language needs letters no installed font has."""


@dataclass(frozen=True)
class LabelFont:
    """A TrueType font to embed for the card names (regular, and bold if any)."""

    name: str
    regular: Path
    bold: Path | None = None


def _label_fonts(names: list[str], font: LabelFont | None) -> tuple[str, str]:
    """Regular and bold font names for the names on the stickers.

    The PDF's built-in Helvetica has no ą, ę, ł or Japanese, so the
    all-languages TrueType font of the screens is embedded when it is
    given; Helvetica is kept only where it can draw ``names``.
    """
    from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped]
    from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped]

    if font is not None and font.regular.suffix.lower() == ".ttf":
        regular = f"incan-{font.name}"
        bold = f"{regular}-bold" if font.bold is not None else regular
        if regular not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(regular, str(font.regular)))
            if font.bold is not None:
                pdfmetrics.registerFont(TTFont(bold, str(font.bold)))
        return regular, bold
    try:
        for name in names:
            name.encode("cp1252")
    except UnicodeEncodeError:
        raise NoFontForLanguage(
            "the card names in this language need a font with all their letters: "
            "install the Debian package fonts-migmix (scripts/setup.sh does), "
            "or print the sheet in English (language = \"en\")"
        ) from None
    return "Helvetica", "Helvetica-Bold"


def _fitted(text: str, font: str, pt: float, width: float) -> float:
    # Polish and Spanish names run longer than the label at small sizes. The
    # name shrinks as far as it must: past its column it would be in the QR's
    # quiet zone.
    from reportlab.pdfbase.pdfmetrics import stringWidth  # type: ignore[import-untyped]

    wide = float(stringWidth(text, font, pt))
    return pt if wide <= width else pt * width / wide


def deck_cards(deck: str) -> tuple[str, ...]:
    """Every card of a box edition, in catalogue order: its treasures, the hazards,
    the artifacts (raises ``UnknownEdition``).

    >>> len(deck_cards("incan-gold")), "T17" in deck_cards("14-treasures")
    (35, False)
    """
    treasures = set(edition(deck))
    return tuple(c for c in ALL_IDS if not c.startswith("T") or c in treasures)


def write_pdf(
    out: str | Path | BinaryIO,
    paper: str = "a4",
    size_mm: float = DEFAULT_SIZE_MM,
    cards: tuple[str, ...] = ALL_IDS,
    *,
    name: Callable[[str], str] = str,
    font: LabelFont | None = None,
    micro: bool = True,
) -> int:
    """Write the sticker sheet for ``cards`` to ``out``; return the number of pages.

    ``name`` gives each card's name in words for its label (the UI's words,
    in the table's language; the id alone by default), and ``font`` the
    TrueType font that draws them.
    """
    from reportlab.lib.pagesizes import A4, LETTER  # type: ignore[import-untyped]
    from reportlab.lib.units import mm  # type: ignore[import-untyped]
    from reportlab.pdfgen import canvas  # type: ignore[import-untyped]

    if paper not in PAPERS:
        raise ValueError(f"paper must be one of {', '.join(PAPERS)}")
    if not MIN_SIZE_MM <= size_mm <= MAX_SIZE_MM:
        raise ValueError(f"size must be {MIN_SIZE_MM:g}..{MAX_SIZE_MM:g} mm")
    page_w, page_h = A4 if paper == "a4" else LETTER
    geometry = label_layout(size_mm, micro)
    w_mm, h_mm = geometry.label
    places = sheet_places(paper, size_mm, micro, len(cards))
    label_w, label_h = w_mm * mm, h_mm * mm
    name_pt = max(6.0, min(12.0, size_mm * 0.36))
    id_pt = name_pt * 0.75

    names = {card_id: name(card_id) for card_id in cards}
    regular, bold = _label_fonts(list(names.values()), font)
    pdf = canvas.Canvas(out if not isinstance(out, str | Path) else str(out),
                        pagesize=(page_w, page_h))
    pdf.setTitle("Incan Gold card stickers")
    pdf.setAuthor("incan-companion")
    pages = 0
    for card_id, place in zip(cards, places, strict=True):
        if place.page == pages:
            if pages:
                pdf.showPage()
            pages += 1
        if place.card is not None:
            # the card's edge, dashed and lighter than the cut line: where the
            # label goes on the card (centred)
            c = place.card
            pdf.setStrokeColorRGB(0.82, 0.82, 0.82)
            pdf.setLineWidth(0.3)
            pdf.setDash(1.5 * mm, 1.5 * mm)
            pdf.roundRect(c.x * mm, page_h - (c.y + c.h) * mm, c.w * mm, c.h * mm, 3 * mm,
                          stroke=1, fill=0)
            pdf.setDash()
        box = place.label
        x, top = box.x * mm, page_h - box.y * mm
        # cut line
        pdf.setStrokeColorRGB(0.75, 0.75, 0.75)
        pdf.setLineWidth(0.3)
        pdf.roundRect(x, top - label_h, label_w, label_h, 1.5 * mm, stroke=1, fill=0)
        pdf.setFillColorRGB(0, 0, 0)
        qx, qy, qside = geometry.qr
        _draw_symbol(pdf, card_modules(card_id), x + qx * mm, top - qy * mm, qside * mm)
        if geometry.micro is not None:
            mx, my, mside = geometry.micro
            _draw_symbol(pdf, micro_modules(card_id), x + mx * mm, top - my * mm, mside * mm)
        # name in words and id
        tx, ty, tw = (v * mm for v in geometry.text)
        said = names[card_id]
        pdf.setFont(bold, _fitted(said, bold, name_pt, tw - 2 * mm))
        pdf.drawCentredString(x + tx + tw / 2, top - ty - name_pt * 0.9, said)
        pdf.setFont(regular, _fitted(card_id, regular, id_pt, tw - 2 * mm))
        pdf.setFillColorRGB(0.3, 0.3, 0.3)
        pdf.drawCentredString(x + tx + tw / 2, top - ty - name_pt * 0.9 - id_pt * 1.3, card_id)
    pdf.showPage()
    pdf.save()
    return pages


def _draw_symbol(pdf: Any, mods: npt.NDArray[np.bool_], left: float, top: float,
                 side: float) -> None:
    """One path of horizontal module runs (no seams between modules), top-left at
    (``left``, ``top``) in PDF points (y up)."""
    module = side / mods.shape[0]
    path = pdf.beginPath()
    for r in range(mods.shape[0]):
        c = 0
        while c < mods.shape[1]:
            if mods[r, c]:
                start = c
                while c < mods.shape[1] and mods[r, c]:
                    c += 1
                path.rect(left + start * module, top - (r + 1) * module - 0.01,
                          (c - start) * module, module + 0.02)
            else:
                c += 1
    pdf.drawPath(path, stroke=0, fill=1)
