"""One font for every language: Kivy's default font is replaced at start.

Kivy's bundled Roboto has no Japanese, and Kivy's SDL2 text provider has no
fallback fonts, so every label must use one font that draws Latin with the
Polish and Spanish letters *and* Japanese. That font comes from Debian
(``fonts-migmix``, installed by ``scripts/setup.sh``), never from the network;
see :data:`companion.i18n.FONT_CANDIDATES` for the order tried and why Noto
Sans CJK and Droid Sans Fallback are not enough.

Call :func:`register_fonts` once at app start, after Kivy's options are set
and before the first label is drawn. Every ``Label``/``Button``/``TextInput``
that keeps the default ``font_name`` (``"Roboto"``) then draws with it.
"""

from __future__ import annotations

import logging

from companion.i18n import FontFiles, language, ui_font

_log = logging.getLogger(__name__)

_registered: FontFiles | None = None


def register_fonts() -> FontFiles | None:
    """Make the all-languages font Kivy's default; returns it (None: not installed).

    Without it Kivy keeps Roboto: English, Polish and Spanish still show, but
    Japanese would be boxes, so this logs an error naming the Debian package.
    Safe to call more than once.
    """
    global _registered
    from kivy.core.text import DEFAULT_FONT, LabelBase

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
