"""One font for every language: Kivy's default font is replaced at start.

Kivy's bundled Roboto has no Japanese, and Kivy's SDL2 text provider has no
fallback fonts, so every label must use one font that draws Latin with the
Polish and Spanish letters *and* Japanese. That font comes from Debian
(``fonts-migmix``, installed by ``scripts/setup.sh``), never from the network;
see :data:`FONT_CANDIDATES` for the order tried and why Noto
Sans CJK and Droid Sans Fallback are not enough.

Call :func:`register_fonts` once at app start, after Kivy's options are set
and before the first label is drawn. Every ``Label``/``Button``/``TextInput``
that keeps the default ``font_name`` (``"Roboto"``) then draws with it.

Japanese lines: Kivy breaks a line at a space, and a run of text with no
space (a Japanese sentence) anywhere at all, "もう一度" as "も/う一度" and
"ください。" as "くださ/い。". :func:`japanese_lines` breaks it where a
reader expects, between the phrases BudouX finds (Google's phrase segmenter,
``budoux`` on PyPI), never before a closing mark or a small kana (kinsoku);
:func:`register_fonts` makes every Kivy label wrap its Japanese that way
(:func:`install_line_breaks`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ui.kivyfree.i18n import language

FONT_ENV = "INCAN_FONT"


@dataclass(frozen=True)
class FontFiles:
    """A font that draws every language we have (Latin with Polish and Spanish
    letters, and Japanese), and the Debian package that installs it."""

    name: str
    regular: Path
    bold: Path | None
    package: str


# In order of preference. Noto Sans CJK and Droid Sans Fallback are not here:
# the first lacks ą, ę and ł, the second every accented Latin letter.
FONT_CANDIDATES: tuple[FontFiles, ...] = (
    FontFiles(
        "MigMix 2P",
        Path("/usr/share/fonts/truetype/migmix/migmix-2p-regular.ttf"),
        Path("/usr/share/fonts/truetype/migmix/migmix-2p-bold.ttf"),
        "fonts-migmix",
    ),
    FontFiles(
        "IPAexGothic",
        Path("/usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf"),
        None,
        "fonts-ipaexfont-gothic",
    ),
)


# Japanese-only fallbacks, used for Japanese when none of the above is
# installed (their Latin lacks Polish letters, so other languages keep Kivy's
# Roboto rather than these).
JAPANESE_FALLBACKS: tuple[FontFiles, ...] = (
    FontFiles(
        "Noto Sans CJK JP",
        Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
        Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
        "fonts-noto-cjk",
    ),
    FontFiles(
        "Droid Sans Fallback",
        Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
        None,
        "fonts-droid-fallback",
    ),
)


def _installed(fonts: Iterable[FontFiles]) -> FontFiles | None:
    for font in fonts:
        if font.regular.is_file():
            bold = font.bold if font.bold is not None and font.bold.is_file() else None
            return FontFiles(font.name, font.regular, bold, font.package)
    return None


def ui_font(code: str | None = None) -> FontFiles | None:
    """The installed font for every language (``$INCAN_FONT`` first), or None.

    With none installed, Japanese (``code`` or the language in use) still gets
    a CJK font if there is one; the others then keep Kivy's own Roboto.
    """
    env = os.environ.get(FONT_ENV)
    if env and Path(env).is_file():
        return FontFiles(Path(env).stem, Path(env), None, "")
    font = _installed(FONT_CANDIDATES)
    if font is None and (code or language()) == "ja":
        font = _installed(JAPANESE_FALLBACKS)
    return font


_registered: FontFiles | None = None


def register_fonts() -> FontFiles | None:
    """Make the all-languages font Kivy's default; returns it (None: not installed).

    Without it Kivy keeps Roboto: English, Polish and Spanish still show, but
    Japanese would be boxes, so this logs an error naming the Debian package.
    Safe to call more than once.
    """
    global _registered
    import logging  # here, not at the top: the command line imports this module for font files

    from kivy.core.text import DEFAULT_FONT, LabelBase

    _log = logging.getLogger(__name__)

    install_line_breaks()
    font = ui_font(language())
    if font is None:
        _log.error(
            "no font for every language is installed; Japanese text will show as "
            "boxes (install the Debian package fonts-migmix: scripts/setup.sh does)"
        )
        return None
    if font.package != "fonts-migmix" and font.package:
        _log.warning("using %s (%s): install fonts-migmix for every language",
                     font.name, font.package)
    bold = str(font.bold) if font.bold is not None else None
    LabelBase.register(
        DEFAULT_FONT,
        fn_regular=str(font.regular),
        fn_italic=str(font.regular),
        fn_bold=bold,
        fn_bolditalic=bold,
    )
    _registered = font
    _log.debug("default font: %s (%s)", font.name, font.regular)
    return font


def registered() -> FontFiles | None:
    """The font :func:`register_fonts` made the default, if any."""
    return _registered


# --- Japanese lines ---------------------------------------------------------------

# Where a line may break lives in ui/kivyfree/lines.py (no Kivy there: the words use it).
from ui.kivyfree.lines import (  # noqa: E402
    NO_LINE_END,
    NO_LINE_START,
    japanese_lines,
    keep_whole,
    phrases,
    wide,
)

__all__ = [
    "NO_LINE_END", "NO_LINE_START", "install_line_breaks", "japanese_lines", "keep_whole",
    "phrases", "register_fonts", "registered", "ui_font", "wide",
]  # fmt: skip


_installed_breaks = False

#: The most characters a label lays out. Kivy measures a wrapped line again at
#: every place it tries to cut it, so a label's time grows with the square of
#: its length: a name of 20,000 letters in a data file written elsewhere held
#: the first screen for 40 s, and no signal stopped it. No sentence of ours
#: comes near (the longest, with eight names in it, is under 400).
MAX_LABEL_CHARS = 1000


def bounded(text: str) -> str:
    """``text`` as a label lays it out: cut to :data:`MAX_LABEL_CHARS`, with an ellipsis.

    >>> len(bounded("x" * 5000)), bounded("Ana") == "Ana"
    (1000, True)
    """
    return text if len(text) <= MAX_LABEL_CHARS else f"{text[: MAX_LABEL_CHARS - 1]}…"


def install_line_breaks() -> None:
    """Make every Kivy label that wraps (``text_size`` with a width) break its
    Japanese by :func:`japanese_lines` while the table speaks Japanese.

    Kivy's ``Label`` makes its text with the class ``kivy.uix.label.CoreLabel``;
    that name is given a subclass of Kivy's own text provider whose layout
    first puts the phrase breaks in, measured by that label's font. The
    label's ``text`` is untouched. Safe to call more than once.
    """
    global _installed_breaks
    if _installed_breaks:
        return
    import kivy.uix.label as label_module

    provider = label_module.CoreLabel

    class PhraseLabel(provider):  # type: ignore[misc, valid-type]
        __doc__ = f"Kivy's {provider.__name__}, Japanese broken at phrases (ui.fonts)."
        text: str  # Kivy's own property, typed for us (an annotation only)

        def render(self, real: bool = False) -> Any:
            text: str = self.text
            wrapped = self.phrase_lines(bounded(text))
            if wrapped == text:
                return super().render(real)
            self.text = wrapped
            try:
                return super().render(real)
            finally:
                self.text = text

        def phrase_lines(self, text: str) -> str:
            uw = self._text_size[0]
            if not uw or self.options["shorten"] or language() != "ja":
                return text
            pad_left, _top, pad_right, _bottom = self.options["padding"]
            extents = self.get_cached_extents()
            return japanese_lines(text, uw - pad_left - pad_right,
                                  lambda line: float(extents(line)[0]))

    label_module.CoreLabel = PhraseLabel
    _installed_breaks = True
