"""Every string a player sees goes through here (gettext, domain ``incan``).

The language is chosen once at start-up (config file or setup screen);
``_`` and ``ngettext`` always read the current catalogue, so modules may
import them at the top. Mark a string that must be translated later (a
module-level table, say) with ``N_`` and pass it through ``_`` when shown.

Catalogues live in ``ui/locale/<code>/LC_MESSAGES/incan.po``; the set-up
compiles them to the ``.mo`` files read here with the standard library's
:mod:`gettext` (``scripts/build-translations.sh``, with Babel). A ``.mo``
missing or older than its ``.po`` is not used: a warning names that script
and the table speaks English until it is run. Keeping the catalogues in step
with the source: ``ui/locale/README.md``.

    set_language("pl")   # "" = the system's language
    ngettext("{n} seat", "{n} seats", 5).format(n=5)   # -> "5 graczy"

Standard library only: the command line imports this.
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import os
import unicodedata
from collections.abc import Callable, Iterator

DOMAIN = "incan"
# A name, not a pathlib.Path: `replay`'s readable table never loads pathlib
# (see incan_companion.paths).
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "locale")
SOURCE_LANGUAGE = "en"

# Code -> the language's own name, as the setup screen offers it.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "pl": "Polski",
    "es": "Español",
    "ja": "日本語",
}

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_language = SOURCE_LANGUAGE
_listeners: list[Callable[[str], None]] = []
_warned: set[str] = set()


# --- choosing the language -------------------------------------------------


def _code(value: str) -> str:
    """``pl_PL.UTF-8`` -> ``pl``; ``C``/``POSIX`` -> ``""``."""
    code = value.split(".")[0].split("@")[0].split("_")[0].split("-")[0].strip().lower()
    return "" if code in ("c", "posix") else code


def system_language() -> str:
    """The system locale's language if we have it, else English.

    The locale is the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is
    set; ``LANGUAGE`` (a colon-separated preference list) is honoured before it
    unless the locale is ``C``, as GNU gettext does.
    """
    env = os.environ
    locale_value = next(
        (env[v] for v in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(v)), ""
    )
    wanted: list[str] = []
    if _code(locale_value) or not locale_value:
        wanted += [_code(v) for v in env.get("LANGUAGE", "").split(":") if v]
    wanted.append(_code(locale_value))
    return next((c for c in wanted if c in LANGUAGES), SOURCE_LANGUAGE)


def resolve(code: str) -> str:
    """A configured language as a code we have: ``""`` means the system's."""
    if not code:
        return system_language()
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {code!r} (one of {', '.join(LANGUAGES)})")
    return code


def set_language(code: str = "") -> str:
    """Use ``code``'s catalogue from now on (``""``: the system's); returns the code."""
    global _current, _language
    code = resolve(code)
    _current = translations(code)
    changed = code != _language
    _language = code
    if changed:
        for listener in list(_listeners):
            listener(code)
    return code


def on_change(listener: Callable[[str], None]) -> Callable[[], None]:
    """Call ``listener(code)`` whenever the language changes (the setup screen's
    choice): a screen rebuilds its texts then. Returns a function that stops it."""
    _listeners.append(listener)
    return lambda: _listeners.remove(listener) if listener in _listeners else None


def language() -> str:
    """The code of the language in use."""
    return _language


@contextlib.contextmanager
def speaking(code: str) -> Iterator[str]:
    """Word what is made inside the block in ``code``'s language, then go back.

    For the pages the device serves to phones, each in its viewer's language,
    made on the UI thread from the same presenters as the screen. The
    listeners are not told: the table's own language has not changed. The
    catalogue of each language is read once.
    """
    global _current, _language
    code = resolve(code)
    kept = _current, _language
    if code not in _speaking:
        _speaking[code] = translations(code)
    _current, _language = _speaking[code], code
    try:
        yield code
    finally:
        _current, _language = kept


_speaking: dict[str, _gettext.NullTranslations] = {}


# --- looking strings up --------------------------------------------------------


def _(message: str) -> str:
    return _current.gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue without translating it now."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in a context, for a word with two meanings in English."""
    return _current.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return _current.npgettext(context, singular, plural, n)


# --- terminal columns --------------------------------------------------------------


def text_width(text: str) -> int:
    """Columns ``text`` takes in a terminal: Japanese characters take two."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def ljust(text: str, width: int) -> str:
    """``text`` padded on the right to ``width`` terminal columns (str.ljust counts
    characters, which misaligns Japanese)."""
    return text + " " * max(0, width - text_width(text))


def rjust(text: str, width: int) -> str:
    return " " * max(0, width - text_width(text)) + text


# --- catalogues --------------------------------------------------------------------

# pip installs a package's files without their times, the .mo possibly just
# before its .po: only a .po newer by more than this was edited since.
_SLACK_SECONDS = 2.0


def translations(
    code: str, locale_dir: str | os.PathLike[str] = LOCALE_DIR
) -> _gettext.NullTranslations:
    """The compiled catalogue of ``code``; no translation (English) when its
    ``.mo`` is missing, unreadable or older than its ``.po``, with a warning
    (once) naming the script that compiles it."""
    if code == SOURCE_LANGUAGE:
        # The source's own words: its catalogue translates nothing (a test
        # keeps it so), and reading it was a tenth of `replay`'s own time.
        return _gettext.NullTranslations()
    po = os.path.join(locale_dir, code, "LC_MESSAGES", f"{DOMAIN}.po")
    mo = os.path.join(locale_dir, code, "LC_MESSAGES", f"{DOMAIN}.mo")
    try:
        stale = os.path.isfile(po) and os.stat(po).st_mtime > os.stat(mo).st_mtime + _SLACK_SECONDS
        if not stale:
            with open(mo, "rb") as fp:
                return _gettext.GNUTranslations(fp)
        problem = "is older than its .po"
    except FileNotFoundError:
        problem = "is missing"
    except (OSError, ValueError) as e:
        problem = f"cannot be read ({e})"
    if mo not in _warned:
        import logging  # only for this warning: 2 ms of start-up `replay`'s table never needs

        _warned.add(mo)
        logging.getLogger(__name__).warning(
            "%s %s: showing English; run scripts/build-translations.sh", mo, problem
        )
    return _gettext.NullTranslations()
