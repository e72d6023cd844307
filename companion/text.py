r"""Text from outside (a camera's payload, a player's name, an error of the
system) made safe to show on one line: the one place that decides what is
escaped and where a line is cut.

>>> printable("Ana\x1b[31m\u2028Bo\nCy", keep="\n")
'Ana\\x1b[31m\\u2028Bo\nCy'
>>> one_line("disk  I/O\nerror", 9)
'disk I/O…'
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["cut", "is_utf8", "one_line", "printable", "without_secrets"]

#: A message of ours is at most this long (SQLite's own can run to pages).
LINE_CHARS = 300

# Characters never printed as they are: controls, lone surrogates, line and
# paragraph separators, and the bidirectional embeddings that reorder a line.
_HIDDEN = {"Cc", "Cs", "Zl", "Zp"}
_BIDI = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def printable(
    text: str, keep: str = "", *, strict: bool = False, replace: str | None = None
) -> str:
    r"""``text`` safe for a terminal: control characters (but those in ``keep``),
    lone surrogates, U+2028/U+2029 and bidirectional overrides are escaped, or
    each replaced by ``replace``. ``strict``: everything Python does not call
    printable is (a zero-width joiner, a no-break space too), for text no
    person chose, such as another program's command line.

    >>> printable("Bo\u200d\tCy", strict=True), printable("Zoë\x07", replace="?")
    ('Bo\\u200d\\tCy', 'Zoë?')
    """
    if text.isprintable():
        return text
    hidden = _not_printable if strict else _hidden
    return "".join(
        ch if ch in keep or not hidden(ch) else _escaped(ch, strict) if replace is None else replace
        for ch in text
    )


def _hidden(ch: str) -> bool:
    return unicodedata.category(ch) in _HIDDEN or ch in _BIDI


def _not_printable(ch: str) -> bool:
    return not ch.isprintable()


def _escaped(ch: str, strict: bool) -> str:
    if strict:
        return ch.encode("unicode_escape", "replace").decode()
    return f"\\x{ord(ch):02x}" if ord(ch) < 0x100 else f"\\u{ord(ch):04x}"


def cut(text: str, limit: int) -> str:
    """At most ``limit`` characters, the last of a shortened text being "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(text: str, limit: int = LINE_CHARS) -> str:
    """``text`` on one line (any run of white space, line breaks included, is one
    space), at most ``limit`` characters."""
    return cut(" ".join(text.split()), limit)


def is_utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8: not when it holds a lone
    surrogate, as JSON's ``"\\ud800"`` or a file name's stray byte gives.

    >>> is_utf8("Zoë"), is_utf8("caf\\udce9")
    (True, False)
    """
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


# A Wi-Fi code's password (its P: field, ";" escaped as "\;"), and a URL's user and password.
_WIFI_PASSWORD = re.compile(r"(?i)(?<=[:;])P:(?:\\.|[^;])*")
_URL_USER = re.compile(r"(?i)^([a-z][a-z0-9+.-]*://)[^/@\s]*@")
#: What a secret is shown as.
HIDDEN_SECRET = "\u2022\u2022\u2022"


def without_secrets(code: str) -> str:
    r"""A foreign code as it may be shown and logged: a Wi-Fi code's password
    and a URL's user and password hidden, since a code laid under the camera
    is shown on the table's screen, on its LAN page and in the journal.

    >>> without_secrets("WIFI:S:Home;T:WPA;P:pa\\;ss;;")
    'WIFI:S:Home;T:WPA;P:•••;;'
    >>> without_secrets("https://ana:pw@example.org/x")
    'https://•••@example.org/x'
    """
    if code[:5].upper() == "WIFI:":
        code = _WIFI_PASSWORD.sub("P:" + HIDDEN_SECRET, code)
    return _URL_USER.sub(r"\g<1>" + HIDDEN_SECRET + "@", code)
