"""A Babel extraction method for Kivy ``.kv`` files (``babel.cfg`` names it).

A kv file calls ``_('...')``, ``ngettext(...)`` and ``pgettext(...)`` inside
the Python after the colon of a property line, or on the lines of an
``on_...:`` block. Each such piece of Python (joined with the lines after it
while a bracket is open) goes through Babel's own Python extractor, with the
``#`` comment lines right above it, so a ``# i18n: ...`` note reaches the
translators just as it does from a ``.py`` file.

>>> import io
>>> kv = b'''#:import _ ui.kivyfree.i18n._
... <Table>:
...     Label:
...         # i18n: the button that takes the last step back
...         text: _('Undo') if root.ready else pgettext('button', 'Camp')
...     Label:
...         text: ngettext('{n} seat', '{n} seats',
...                        root.n).format(n=root.n)
... '''
>>> keywords = {'_': None, 'ngettext': (1, 2), 'pgettext': ((1, 'c'), 2)}
>>> for found in extract_kv(io.BytesIO(kv), keywords, ['i18n:'], {}):
...     print(found)
(5, '_', 'Undo', ['i18n: the button that takes the last step back'])
(5, 'pgettext', ('button', 'Camp'), [])
(7, 'ngettext', ('{n} seat', '{n} seats', None), [])
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Collection, Iterator, Mapping
from typing import IO, TYPE_CHECKING, Any

from babel.messages.extract import extract_python

if TYPE_CHECKING:
    from babel.messages.extract import _ExtractionResult, _Keyword

# "text:", "on_release:", "canvas.before:": what follows the colon is Python.
_PROPERTY = re.compile(r"\s*[A-Za-z_][\w.]*\s*:(?!=)")


def _python(line: str) -> str | None:
    """The Python on a kv line: after a property's colon, else the whole line
    (a line of an ``on_...:`` block); None for a blank, a comment or a
    ``#:`` directive."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    match = _PROPERTY.match(line)
    return line[match.end():].strip() if match else text


def _complete(source: str) -> bool:
    """False while ``source`` leaves a bracket or a triple quote open."""
    try:
        for _token in tokenize.generate_tokens(io.StringIO(source).readline):
            pass
    except tokenize.TokenError:
        return False
    except SyntaxError:  # an indentation error: Babel's extractor reports it
        return True
    return True


def _notes(lines: list[str], index: int) -> list[str]:
    """The comment lines right above line ``index`` (not ``#:`` directives)."""
    start = index
    while start > 0 and lines[start - 1].strip().startswith("#") and not lines[
        start - 1
    ].strip().startswith("#:"):
        start -= 1
    return [line.strip() for line in lines[start:index]]


def extract_kv(
    fileobj: IO[bytes],
    keywords: Mapping[str, _Keyword],
    comment_tags: Collection[str],
    options: Mapping[str, Any],
) -> Iterator[_ExtractionResult]:
    """Yield ``(lineno, funcname, messages, comments)`` for each call of a
    keyword in the kv file ``fileobj``, as Babel's extractors do."""
    encoding = str(options.get("encoding", "utf-8"))
    lines = fileobj.read().decode(encoding).splitlines()
    index = 0
    while index < len(lines):
        code = _python(lines[index])
        start = index
        index += 1
        if code is None:
            continue
        while not _complete(code) and index < len(lines):
            code += "\n" + lines[index]
            index += 1
        notes = _notes(lines, start)
        source = "".join(f"{note}\n" for note in notes) + code + "\n"
        # Line k of ``source`` is line start - len(notes) + k of the file.
        shift = start - len(notes)
        for lineno, funcname, messages, comments in extract_python(
            io.BytesIO(source.encode("utf-8")), keywords, comment_tags, {"encoding": "utf-8"}
        ):
            yield lineno + shift, funcname, messages, comments
