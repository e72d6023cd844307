"""Keeping the catalogues in step with the source: extract, update, check, compile.

    python -m companion.i18n_tools update    # source -> incan.pot -> each incan.po
    python -m companion.i18n_tools check     # untranslated, fuzzy or missing strings
    python -m companion.i18n_tools compile   # each incan.po -> incan.mo

Strings are found in the Python sources of the product packages (calls of
``_``, ``N_``, ``ngettext``, ``pgettext`` and ``npgettext`` with literal
arguments, read with :mod:`ast`) and in their ``.kv`` files (the same calls
inside property values). A comment line ``# i18n: ...`` just above a call
goes to the translators as a note.

``update`` keeps every translation whose English is unchanged; a new string
close to one that went away gets the old translation marked fuzzy, to be
checked; strings that went away stay at the end as obsolete (``#~``). The
English catalogue is filled with the English itself.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import re
import string
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    PLURAL_FORMS,
    SOURCE_LANGUAGE,
    Message,
    compile_catalogues,
    po_path,
    read_po,
)

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "ui", "vision", "hardware")
# name -> the roles of its positional arguments
KEYWORDS: dict[str, tuple[str, ...]] = {
    "_": ("msgid",),
    "N_": ("msgid",),
    "gettext": ("msgid",),
    "ngettext": ("msgid", "msgid_plural", "n"),
    "pgettext": ("msgctxt", "msgid"),
    "npgettext": ("msgctxt", "msgid", "msgid_plural", "n"),
}
POT = LOCALE_DIR / f"{DOMAIN}.pot"
HEADER_COMMENT = "Incan Gold table companion: every string a player reads."


@dataclass
class Problem:
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def source_files(root: Path = ROOT) -> list[Path]:
    """The product's ``.py`` and ``.kv`` files (not tests, scripts or tools)."""
    found: list[Path] = []
    for package in PACKAGES:
        base = root / package
        if base.is_dir():
            found += [p for p in base.rglob("*") if p.suffix in (".py", ".kv") and p.is_file()]
    return sorted(found)


def _note(lines: Sequence[str], lineno: int) -> list[str]:
    """``# i18n:`` comment lines right above line ``lineno`` (1-based)."""
    notes: list[str] = []
    i = lineno - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        text = lines[i].strip().lstrip("#").strip()
        if text.lower().startswith(("i18n:", "translators:")):
            notes.insert(0, text.split(":", 1)[1].strip())
        i -= 1
    return notes


def _message(call: ast.Call, name: str, where: str, problems: list[Problem]) -> Message | None:
    roles = KEYWORDS[name]
    fields: dict[str, str] = {}
    for role, arg in zip(roles, call.args, strict=False):
        if role == "n":
            continue
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            fields[role] = arg.value
        elif isinstance(arg, ast.JoinedStr):
            problems.append(Problem(where, f"{name}() of an f-string cannot be translated"))
            return None
        else:
            return None  # a variable: a string marked elsewhere with N_()
    if len(call.args) < len([r for r in roles if r != "n"]) or "msgid" not in fields:
        return None
    return Message(
        fields["msgid"],
        msgid_plural=fields.get("msgid_plural"),
        msgctxt=fields.get("msgctxt"),
        locations=[where],
    )


def _calls(tree: ast.AST) -> Iterable[tuple[ast.Call, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else ""
            )
            if name in KEYWORDS:
                yield node, name


def extract_python(path: Path, rel: str, problems: list[Problem]) -> list[Message]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found: list[Message] = []
    calls = sorted(_calls(ast.parse(text, str(path))), key=lambda c: (c[0].lineno, c[0].col_offset))
    for call, name in calls:
        m = _message(call, name, f"{rel}:{call.lineno}", problems)
        if m is not None:
            m.comments = _note(lines, call.lineno)
            found.append(m)
    return found


_KV_CALL = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, KEYWORDS)) + r")\s*\(")


def _call_end(text: str, start: int) -> int:
    """The index after the parenthesis closing the one at ``start``, or -1."""
    depth, i, quote = 0, start, ""
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif text.startswith(quote, i):
                i += len(quote) - 1
                quote = ""
        elif c in "'\"":
            quote = c * 3 if text.startswith(c * 3, i) else c
            i += len(quote) - 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == "\n" and depth == 0:
            return -1
        i += 1
    return -1


def extract_kv(path: Path, rel: str, problems: list[Problem]) -> list[Message]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    found: list[Message] = []
    for match in _KV_CALL.finditer(text):
        line_start = text.rfind("\n", 0, match.start()) + 1
        if text[line_start:match.start()].lstrip().startswith("#"):
            continue  # a comment or a #: directive
        end = _call_end(text, match.end() - 1)
        lineno = text.count("\n", 0, match.start()) + 1
        if end < 0:
            problems.append(Problem(f"{rel}:{lineno}", "cannot read this call"))
            continue
        source = text[match.start():end]
        try:
            node = ast.parse(source.replace("\n", " "), mode="eval").body
        except SyntaxError:
            problems.append(Problem(f"{rel}:{lineno}", f"cannot read {source!r}"))
            continue
        if isinstance(node, ast.Call):
            m = _message(node, match.group(1), f"{rel}:{lineno}", problems)
            if m is not None:
                m.comments = _note(lines, lineno)
                found.append(m)
    return found


def extract(root: Path = ROOT) -> tuple[list[Message], list[Problem]]:
    """Every translatable string of the product, merged by (context, English)."""
    problems: list[Problem] = []
    merged: dict[tuple[str | None, str], Message] = {}
    for path in source_files(root):
        rel = path.relative_to(root).as_posix()
        if path.suffix == ".py":
            found = extract_python(path, rel, problems)
        else:
            found = extract_kv(path, rel, problems)
        for m in found:
            old = merged.get(m.key)
            if old is None:
                merged[m.key] = m
                continue
            if (old.msgid_plural or None) != (m.msgid_plural or None):
                problems.append(
                    Problem(m.locations[0], f"{m.msgid!r} has another plural at {old.locations[0]}")
                )
            old.locations += m.locations
            old.comments += [c for c in m.comments if c not in old.comments]
    for m in merged.values():
        if "{" in m.msgid or "{" in (m.msgid_plural or ""):
            m.flags = ["python-brace-format"]
    return list(merged.values()), problems


# --- writing .po / .pot ----------------------------------------------------------


def _quote(value: str) -> str:
    return '"' + (
        value.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n")
    ) + '"'


def _field(keyword: str, value: str, prefix: str = "") -> list[str]:
    parts = value.splitlines(keepends=True)
    if len(parts) <= 1:
        return [f"{prefix}{keyword} {_quote(value)}"]
    return [f'{prefix}{keyword} ""'] + [f"{prefix}{_quote(p)}" for p in parts]


def header(code: str | None) -> Message:
    """The header entry of ``code``'s catalogue (None: the template)."""
    fields = [
        "Project-Id-Version: incan-companion",
        f"Language: {code or ''}",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=UTF-8",
        "Content-Transfer-Encoding: 8bit",
        f"Plural-Forms: {PLURAL_FORMS[code] if code else 'nplurals=INTEGER; plural=EXPRESSION;'}",
    ]
    name = LANGUAGES.get(code or "", "template")
    return Message(
        "",
        msgstr=["".join(f + "\n" for f in fields)],
        translator_comments=[HEADER_COMMENT, f"Language: {name}."],
    )


def format_po(messages: Sequence[Message]) -> str:
    blocks: list[str] = []
    for m in messages:
        lines = [f"# {c}".rstrip() for c in m.translator_comments]
        lines += [f"#. {c}" for c in m.comments]
        if m.locations and not m.obsolete:
            lines.append("#: " + " ".join(m.locations))
        if m.flags:
            lines.append("#, " + ", ".join(m.flags))
        pre = "#~ " if m.obsolete else ""
        if m.msgctxt is not None:
            lines += _field("msgctxt", m.msgctxt, pre)
        lines += _field("msgid", m.msgid, pre)
        if m.msgid_plural is not None:
            lines += _field("msgid_plural", m.msgid_plural, pre)
            for i, s in enumerate(m.msgstr):
                lines += _field(f"msgstr[{i}]", s, pre)
        else:
            lines += _field("msgstr", m.msgstr[0] if m.msgstr else "", pre)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"


def nplurals(code: str) -> int:
    return int(PLURAL_FORMS[code].split(";")[0].split("=")[1])


def template(messages: Sequence[Message]) -> list[Message]:
    """The ``.pot`` entries: the English with empty translations."""
    out = [header(None)]
    for m in messages:
        width = 2 if m.msgid_plural is not None else 1
        out.append(
            Message(
                m.msgid, m.msgid_plural, m.msgctxt, [""] * width, list(m.flags),
                list(m.locations), list(m.comments),
            )
        )
    return out


def merge(code: str, messages: Sequence[Message], old: Sequence[Message]) -> list[Message]:
    """``code``'s catalogue for ``messages``, keeping what ``old`` translated."""
    known = {m.key: m for m in old if m.msgid}
    width = nplurals(code)
    out = [header(code)]
    used: set[tuple[str | None, str]] = set()
    gone = [m for m in old if m.msgid and m.translated]
    for m in messages:
        new = Message(
            m.msgid, m.msgid_plural, m.msgctxt, [], [f for f in m.flags if f != "fuzzy"],
            list(m.locations), list(m.comments),
        )
        prev = known.get(m.key)
        if prev is not None and (prev.msgid_plural is None) == (m.msgid_plural is None):
            used.add(prev.key)
            new.msgstr = list(prev.msgstr)
            new.translator_comments = list(prev.translator_comments)
            if prev.fuzzy or prev.msgid_plural != m.msgid_plural:
                new.flags.append("fuzzy")
        elif code == SOURCE_LANGUAGE:
            new.msgstr = [m.msgid] if m.msgid_plural is None else [m.msgid, m.msgid_plural]
        else:
            similar = [g for g in gone if (g.msgid_plural is None) == (m.msgid_plural is None)]
            close = difflib.get_close_matches(m.msgid, [g.msgid for g in similar], 1, 0.75)
            if close:
                guess = next(g for g in similar if g.msgid == close[0])
                new.msgstr = list(guess.msgstr)
                new.flags.append("fuzzy")
        plural = m.msgid_plural is not None
        want = width if plural else 1
        new.msgstr = (new.msgstr + [""] * want)[:want]
        if code == SOURCE_LANGUAGE and plural:
            new.msgstr = (new.msgstr + [m.msgid_plural or ""] * 2)[:2]
        out.append(new)
    for m in old:
        if m.msgid and m.key not in used and m.translated and m.key not in {x.key for x in out}:
            out.append(
                Message(m.msgid, m.msgid_plural, m.msgctxt, list(m.msgstr), obsolete=True,
                        translator_comments=list(m.translator_comments))
            )
    return out


def update(root: Path = ROOT, locale_dir: Path = LOCALE_DIR) -> list[Problem]:
    """Write ``incan.pot`` from the source and bring every ``incan.po`` up to it."""
    messages, problems = extract(root)
    locale_dir.mkdir(parents=True, exist_ok=True)
    (locale_dir / f"{DOMAIN}.pot").write_text(format_po(template(messages)), encoding="utf-8")
    for code in LANGUAGES:
        po = po_path(code, locale_dir)
        old = read_po(po.read_text(encoding="utf-8")) if po.is_file() else []
        po.parent.mkdir(parents=True, exist_ok=True)
        po.write_text(format_po(merge(code, messages, old)), encoding="utf-8")
    return problems


# --- checking ---------------------------------------------------------------------


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a ``str.format`` string uses."""
    try:
        return {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f is not None}
    except ValueError:
        return {"<unbalanced braces>"}


def check_message(code: str, m: Message) -> list[str]:
    """What is wrong with one entry of ``code``'s catalogue."""
    if not m.msgid or m.obsolete:
        return []
    if m.fuzzy:
        return ["fuzzy (check the translation, then drop the flag)"]
    want = nplurals(code) if m.msgid_plural is not None else 1
    if code == SOURCE_LANGUAGE and m.msgid_plural is not None:
        want = 2
    if len(m.msgstr) != want or not m.translated:
        return ["untranslated"]
    wrong: list[str] = []
    if "python-brace-format" in m.flags or "{" in m.msgid:
        given = placeholders(m.msgid) | placeholders(m.msgid_plural or "")
        needed = placeholders(m.msgid)
        if m.msgid_plural is not None:
            needed &= placeholders(m.msgid_plural)
        for s in m.msgstr:
            extra = placeholders(s) - given
            missing = needed - placeholders(s)
            if extra:
                wrong.append(f"{s!r}: unknown {', '.join(sorted(extra))}")
            if missing:
                wrong.append(f"{s!r}: lacks {', '.join(sorted(missing))}")
    return wrong


def check(root: Path = ROOT, locale_dir: Path = LOCALE_DIR) -> list[Problem]:
    """Every string of the source that some catalogue lacks or has not translated."""
    messages, problems = extract(root)
    for code in LANGUAGES:
        po = po_path(code, locale_dir)
        rel = po.relative_to(locale_dir.parent.parent).as_posix() if po.is_file() else str(po)
        if not po.is_file():
            problems.append(Problem(rel, "missing"))
            continue
        entries = {m.key: m for m in read_po(po.read_text(encoding="utf-8")) if not m.obsolete}
        header_text = entries.get((None, ""), Message("")).msgstr
        if not header_text or f"Plural-Forms: {PLURAL_FORMS[code]}" not in header_text[0]:
            problems.append(Problem(rel, f"header lacks Plural-Forms: {PLURAL_FORMS[code]}"))
        for m in messages:
            entry = entries.get(m.key)
            if entry is None:
                problems.append(Problem(rel, f"{m.msgid!r} ({m.locations[0]}) is not in it"))
            elif entry.msgid_plural != m.msgid_plural:
                problems.append(Problem(rel, f"{m.msgid!r}: the plural changed"))
            else:
                problems += [Problem(rel, f"{m.msgid!r}: {w}") for w in check_message(code, entry)]
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.i18n_tools")
    parser.add_argument("command", choices=("update", "check", "compile"))
    args = parser.parse_args(argv)
    if args.command == "compile":
        for mo in compile_catalogues():
            print(f"wrote {mo.relative_to(ROOT) if mo.is_relative_to(ROOT) else mo}")
        return 0
    problems = update() if args.command == "update" else check()
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
