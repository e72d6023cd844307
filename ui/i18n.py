"""Every string a player sees goes through here (gettext, domain ``incan``).

The language is chosen once at start-up (config file or setup screen);
``_`` and ``ngettext`` always read the current catalogue, so modules may
import them at the top. Mark a string that must be translated later (a
module-level table, say) with ``N_`` and pass it through ``_`` when shown.

Catalogues live in ``companion/locale/<code>/LC_MESSAGES/incan.po``; the set-up
compiles them to ``.mo`` (``scripts/build-translations.sh``). When a ``.mo`` is
missing or older than its ``.po`` (an install that skipped that step, or a
catalogue edited since), the ``.po`` is compiled in memory instead, so the
table never shows English by accident. Maintenance commands (extract, update,
check) live in :mod:`ui.i18n_tools`.

    set_language("pl")   # "" = the system's language
    ngettext("{n} seat", "{n} seats", 5).format(n=5)   # -> "5 graczy"

Standard library only: the command line imports this.
"""

from __future__ import annotations

import ast
import gettext as _gettext
import io
import os
import struct
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

DOMAIN = "incan"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE = "en"

# Code -> the language's own name, as the setup screen offers it.
LANGUAGES: dict[str, str] = {
    "en": "English",
    "pl": "Polski",
    "es": "Español",
    "ja": "日本語",
}

PLURAL_FORMS: dict[str, str] = {
    "en": "nplurals=2; plural=(n != 1);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "es": "nplurals=2; plural=(n != 1);",
    "ja": "nplurals=1; plural=0;",
}

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_language = SOURCE_LANGUAGE
_listeners: list[Callable[[str], None]] = []


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


def po_path(code: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / code / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(code: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return po_path(code, locale_dir).with_suffix(".mo")


def translations(code: str, locale_dir: Path = LOCALE_DIR) -> _gettext.NullTranslations:
    """The catalogue of ``code``: its ``.mo``, or its ``.po`` compiled in memory
    when the ``.mo`` is missing or older; no translation if neither exists."""
    po, mo = po_path(code, locale_dir), mo_path(code, locale_dir)
    try:
        po_time = po.stat().st_mtime
    except OSError:
        po_time = None
    try:
        if mo.is_file() and (po_time is None or mo.stat().st_mtime >= po_time):
            with mo.open("rb") as fp:
                return _gettext.GNUTranslations(fp)
        if po_time is not None:
            data = mo_bytes(read_po(po.read_text(encoding="utf-8")))
            return _gettext.GNUTranslations(io.BytesIO(data))
    except (OSError, ValueError):
        pass
    return _gettext.NullTranslations()


@dataclass
class Message:
    """One entry of a ``.po`` file."""

    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: list[str] = field(default_factory=list)
    locations: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # "#." for translators
    translator_comments: list[str] = field(default_factory=list)  # "# "
    obsolete: bool = False

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr)


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    value = ast.literal_eval(text)
    if not isinstance(value, str):
        raise ValueError(f"{where}: not a string: {text!r}")
    return value


def read_po(text: str) -> list[Message]:
    """The entries of a ``.po`` file, the header (``msgid ""``) first if present.

    Obsolete entries (``#~``) are read too, with ``obsolete=True``.
    """
    messages: list[Message] = []
    current: Message | None = None
    target: tuple[str, int] | None = None  # which field continuation lines extend
    pending = Message("")  # comments seen before the next msgid

    def finish() -> None:
        nonlocal current
        if current is not None:
            messages.append(current)
        current = None

    for number, raw in enumerate(text.splitlines(), start=1):
        where = f"line {number}"
        line = raw.strip()
        obsolete = line.startswith("#~")
        if obsolete:
            line = line[2:].strip()
        if not line:
            continue
        if line.startswith("#"):
            kind, rest = line[1:2], line[2:].strip()
            if kind == ",":
                pending.flags += [f.strip() for f in rest.split(",") if f.strip()]
            elif kind == ":":
                pending.locations += rest.split()
            elif kind == ".":
                pending.comments.append(rest)
            elif kind in (" ", ""):
                pending.translator_comments.append(line[2:])
            continue
        if line.startswith('"'):
            if target is None or current is None:
                raise ValueError(f"{where}: a string outside an entry")
            name, index = target
            value = _unquote(line, where)
            if name == "msgstr":
                current.msgstr[index] += value
            elif name == "msgid":
                current.msgid += value
            elif name == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + value
            else:
                current.msgctxt = (current.msgctxt or "") + value
            continue
        keyword, _sep, rest = line.partition(" ")
        starts_entry = keyword == "msgctxt" or (
            keyword == "msgid" and (target is None or target[0] != "msgctxt")
        )
        if starts_entry:
            finish()
            current, pending = pending, Message("")
            current.obsolete = obsolete
        if current is None:
            raise ValueError(f"{where}: {keyword} before msgid")
        if keyword == "msgctxt":
            current.msgctxt = _unquote(rest, where)
            target = ("msgctxt", 0)
        elif keyword == "msgid":
            current.msgid = _unquote(rest, where)
            target = ("msgid", 0)
        elif keyword == "msgid_plural":
            current.msgid_plural = _unquote(rest, where)
            target = ("msgid_plural", 0)
        elif keyword == "msgstr":
            current.msgstr = [_unquote(rest, where)]
            target = ("msgstr", 0)
        elif keyword.startswith("msgstr[") and keyword.endswith("]"):
            index = int(keyword[7:-1])
            if index != len(current.msgstr):
                raise ValueError(f"{where}: {keyword} out of order")
            current.msgstr.append(_unquote(rest, where))
            target = ("msgstr", index)
        else:
            raise ValueError(f"{where}: unknown keyword {keyword!r}")
    finish()
    return messages


def mo_bytes(messages: Iterable[Message]) -> bytes:
    """A GNU ``.mo`` file of the translated, non-fuzzy, non-obsolete entries
    (the header is kept as it is): what ``msgfmt`` writes."""
    table: dict[bytes, bytes] = {}
    for m in messages:
        if m.obsolete or (m.msgid and (m.fuzzy or not m.translated)):
            continue
        key = m.msgid if m.msgid_plural is None else f"{m.msgid}\0{m.msgid_plural}"
        if m.msgctxt is not None:
            key = f"{m.msgctxt}\x04{key}"
        table[key.encode()] = "\0".join(m.msgstr).encode()
    keys = sorted(table)
    count = len(keys)
    ids_at = 7 * 4
    strs_at = ids_at + 8 * count
    data_at = strs_at + 8 * count
    ids, strs, blob = b"", b"", b""
    for k in keys:
        ids += struct.pack("<2I", len(k), data_at + len(blob))
        blob += k + b"\0"
    for k in keys:
        v = table[k]
        strs += struct.pack("<2I", len(v), data_at + len(blob))
        blob += v + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, count, ids_at, strs_at, 0, data_at)
    return header + ids + strs + blob


def compile_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write every ``.po`` under ``locale_dir`` as its ``.mo``; returns the ``.mo`` paths."""
    written = []
    for po in sorted(locale_dir.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        try:
            data = mo_bytes(read_po(po.read_text(encoding="utf-8")))
        except ValueError as e:
            raise ValueError(f"{po}: {e}") from None
        mo = po.with_suffix(".mo")
        tmp = mo.with_suffix(".mo.tmp")
        tmp.write_bytes(data)
        tmp.replace(mo)
        written.append(mo)
    return written
