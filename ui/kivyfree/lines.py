"""Where a Japanese line may break: between the phrases BudouX finds (Google's
phrase segmenter, ``budoux`` on PyPI), never before a closing mark or a small
kana, never after an opening bracket (kinsoku), never inside a seat's name.

Kivy-free, so that the words (:mod:`ui.kivyfree.words`), the command line and the web
pages can use it; :mod:`ui.fonts` makes every Kivy label wrap with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

TYPE_CHECKING = False  # mypy reads it as true: typing (2 ms) is for the annotations only
if TYPE_CHECKING:
    from typing import Any

__all__ = ["NO_LINE_END", "NO_LINE_START", "japanese_lines", "keep_whole", "phrases", "wide"]

# No line starts with a closing mark or a small kana, none ends with an
# opening bracket (kinsoku shori).
NO_LINE_START = frozenset(
    "、。，．,.・：；？！?!ー」』）)】〉》〕］｝〙〗〟’”ゝゞヽヾ々"  # noqa: RUF001 (Japanese marks)
    "ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ…‥"
)
NO_LINE_END = frozenset("「『（(【〈《〔［｛〘〖〝‘“")  # noqa: RUF001 (Japanese brackets)


def wide(c: str) -> bool:
    """Whether ``c`` is a Japanese (or other fullwidth) character."""
    return "\u2e80" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" or "\uff00" <= c <= "\uffef"


@lru_cache(maxsize=1)
def _parser() -> Any:
    import budoux  # loaded with the first Japanese line: 0.1 s at start otherwise

    return budoux.load_default_japanese_parser()


# Names a line never breaks inside (the seats' names: BudouX does not know
# them, and would cut "渡辺みなみ子" as "渡辺みな/み子"); the latest ones kept.
_whole: dict[str, None] = {}
_WHOLE_KEPT = 64


def keep_whole(words: Iterable[str]) -> None:
    """Never break a line inside any of ``words`` (players' names)."""
    for word in words:
        if len(word) > 1:
            _whole.pop(word, None)
            _whole[word] = None
    while len(_whole) > _WHOLE_KEPT:
        del _whole[next(iter(_whole))]


def phrases(paragraph: str) -> tuple[str, ...]:
    """``paragraph`` cut where a line may break: between BudouX's phrases and
    after a space, never before a closing mark or a small kana, never after
    an opening bracket, never inside a word of :func:`keep_whole`. Joined,
    they are ``paragraph``."""
    kept = frozenset(w for w in _whole if w in paragraph)
    return _phrases(paragraph, kept)


# A game measures a few hundred texts again and again; a bounded cache of
# them, not every text of an evening (thousands of them grew the memory for
# hours of play).
@lru_cache(maxsize=512)
def _phrases(paragraph: str, kept: frozenset[str]) -> tuple[str, ...]:
    units: list[str] = []
    for chunk in _parser().parse(paragraph):
        start = 0
        for i, c in enumerate(chunk):  # a space is a break too: Latin words, after a "?"
            if c == " " and i + 1 < len(chunk) and chunk[i + 1] != " ":
                units.append(chunk[start : i + 1])
                start = i + 1
        units.append(chunk[start:])
    inside: set[int] = set()  # offsets inside a kept word: no break there
    for word in kept:
        start = paragraph.find(word)
        while start >= 0:
            inside.update(range(start + 1, start + len(word)))
            start = paragraph.find(word, start + 1)
    glued: list[str] = []
    at = 0
    for unit in units:
        if glued and (unit[0] in NO_LINE_START or glued[-1][-1] in NO_LINE_END or at in inside):
            glued[-1] += unit
        else:
            glued.append(unit)
        at += len(unit)
    return tuple(glued)


def japanese_lines(text: str, room: float, width: Callable[[str], float]) -> str:
    """``text`` with line breaks where a Japanese reader expects them: as many
    whole :func:`phrases` on a line as fit ``room`` (``width`` measures a
    line in the label's font), spaces at a break dropped. A phrase wider
    than a whole line is broken by characters, still never before a closing
    mark. Text without Japanese is returned as it is."""
    if room <= 0 or not any(wide(c) for c in text):
        return text
    out: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for unit in phrases(paragraph):
            if line and width((line + unit).rstrip(" ")) <= room:
                line += unit
                continue
            if line:
                out.append(line.rstrip(" "))
                unit = unit.lstrip(" ")
            line = unit
            while width(line.rstrip(" ")) > room and len(line) > 1:  # a phrase too wide
                cut = len(line) - 1
                while cut > 1 and width(line[:cut]) > room:
                    cut -= 1
                while cut > 1 and (line[cut] in NO_LINE_START or line[cut - 1] in NO_LINE_END):
                    cut -= 1
                out.append(line[:cut].rstrip(" "))
                line = line[cut:].lstrip(" ")
        out.append(line.rstrip(" "))
    return "\n".join(out)
