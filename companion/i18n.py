"""Every string a player sees goes through here (gettext, domain ``incan``).

The language is chosen once at start-up (config file or setup screen);
``_`` and ``ngettext`` always read the current catalogue, so modules may
import them at the top.
"""

from __future__ import annotations

import gettext as _gettext
import locale
import os
from pathlib import Path

DOMAIN = "incan"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES: dict[str, str] = {"en": "English"}

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_language = "en"


def system_language() -> str:
    """The system locale's language if we have it, else English."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            code = value.split(":")[0].split(".")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
    try:
        code = (locale.getlocale()[0] or "").split("_")[0].lower()
    except ValueError:
        code = ""
    return code if code in LANGUAGES else "en"


def set_language(code: str) -> None:
    global _current, _language
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r} (one of {', '.join(LANGUAGES)})")
    _current = _gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    _language = code


def language() -> str:
    return _language


def _(message: str) -> str:
    return _current.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)
