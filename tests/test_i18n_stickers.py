"""The sticker sheet names the cards in the chosen language, in a font that has
the letters; the QR payloads and ids never change with the language."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import run

from ui import fonts
from ui.kivyfree import i18n

CARDS = ("SNAKE1", "FIRE1", "A1", "T5A")
SAID = {
    "en": ["snakes", "fire", "artifact 1", "treasure 5"],
    "pl": ["węże", "ogień", "artefakt 1", "skarb 5"],
    "es": ["serpientes", "fuego", "artefacto 1", "tesoro 5"],
    "ja": ["ヘビ", "火", "秘宝1", "宝石5"],
}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def poppler(tool: str, pdf: Path) -> str:
    assert shutil.which(tool), f"poppler-utils ({tool}) is needed: scripts/setup.sh"
    args = [tool, "-layout", str(pdf), "-"] if tool == "pdftotext" else [tool, str(pdf)]
    return run(args, text=True, check=True, seconds=60).stdout


def write_sheet(out: Path) -> int:
    """The sheet in the language in use, as `incan-companion stickers` writes it."""
    from ui.kivyfree.words import card_name
    from vision.stickers import LabelFont, write_pdf

    found = fonts.ui_font()
    font = LabelFont(found.name, found.regular, found.bold) if found is not None else None
    return write_pdf(out, cards=CARDS, name=card_name, font=font)


def sheet_text(code: str, out: Path) -> str:
    i18n.set_language(code)
    write_sheet(out)
    return poppler("pdftotext", out)


@pytest.mark.parametrize("code", list(SAID))
def test_sticker_names_in_the_chosen_language(code: str, tmp_path: Path) -> None:
    text = sheet_text(code, tmp_path / f"{code}.pdf")
    missing = [w for w in SAID[code] if w not in text]
    assert not missing, text
    assert all(card in text for card in CARDS)  # ids never change
    # The names' TrueType font is in the file, so any printer draws ę and ヘ;
    # only PDF's own base fonts (Type 1, which printers carry) may be left out.
    fonts = poppler("pdffonts", tmp_path / f"{code}.pdf").splitlines()[2:]
    truetype = [line for line in fonts if "TrueType" in line]
    assert truetype and all(" yes " in line for line in truetype), fonts
    assert all("Type 1" in line for line in fonts if line not in truetype), fonts


def test_sticker_payloads_do_not_change_with_the_language() -> None:
    from vision.stickers import card_modules

    i18n.set_language("en")
    english = [card_modules(c).tobytes() for c in CARDS]
    i18n.set_language("ja")
    assert [card_modules(c).tobytes() for c in CARDS] == english


def test_a_sheet_needing_a_missing_font_is_refused_with_the_package_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from vision.stickers import NoFontForLanguage

    monkeypatch.setattr(fonts, "FONT_CANDIDATES", ())
    monkeypatch.setattr(fonts, "JAPANESE_FALLBACKS", ())
    monkeypatch.delenv(fonts.FONT_ENV, raising=False)
    i18n.set_language("ja")
    out = tmp_path / "ja.pdf"
    with pytest.raises(NoFontForLanguage, match="fonts-migmix"):
        write_sheet(out)
    assert not out.exists()
    i18n.set_language("es")  # Helvetica has every Spanish letter
    write_sheet(out)
    text = poppler("pdftotext", out)
    assert all(word in text for word in SAID["es"]), text
