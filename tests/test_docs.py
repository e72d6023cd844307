"""The project's own documentation under docs/ exists, is self-contained and matches the code.

The files searched are the repository's: what ``git ls-files`` lists (tracked
files, plus new files git does not ignore, so a page is checked before it is
committed), or, without git, the tree minus virtual environments and caches.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from helpers import run

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TEXT_SUFFIXES = (".py", ".md", ".toml", ".sh", ".kv")
SKIP_DIRS = {
    ".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache",
    ".hypothesis", "build", "dist", "out", "node_modules",
}  # fmt: skip

# The reference notes the project was written from must not be cited. The
# names are built here by concatenation so that this file does not contain
# them itself and can be searched like every other file.
FORBIDDEN = ("CONTRACTS" + ".md", "RULES" + ".md", "ARCHITECTURE" + ".md", ".." + "/shared")



def _commands() -> tuple[str, ...]:
    """Every subcommand, as the command line's own parser registers it."""
    import argparse

    from incan_companion.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return tuple(sub.choices)


COMMANDS = _commands()
# Our packages: each one's docstring may name its modules and the others'.
PACKAGES = ("companion", "hardware", "incan_companion", "storage", "ui", "vision")
RULES_EXAMPLES = "tests/test_rules_examples.py"

# A docs/<name>.md path, also inside ../docs/...; a URL is filtered out below.
DOC_REF = re.compile(r"(?<![\w.-])docs/([\w.-]+?)\.md\b")
TEST_REF = re.compile(re.escape(RULES_EXAMPLES) + r"::(\w+)")
TABLE_KEY = re.compile(r"^\|\s*`([A-Za-z_][A-Za-z0-9_]*)`\s*\|", re.MULTILINE)
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _walk() -> list[Path]:
    found = []
    for here, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.endswith(".egg-info"))
        found += [Path(here) / f for f in sorted(files)]
    return found


@cache
def repo_files() -> tuple[Path, ...]:
    try:
        out = run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            check=True,
            seconds=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return tuple(_walk())
    names = {n for n in out.decode("utf-8", "surrogateescape").split("\0") if n}
    # A file deleted or renamed in the work tree is still in the index: skip it.
    return tuple(sorted(ROOT / n for n in names if (ROOT / n).is_file()))


def text_files() -> list[Path]:
    return [p for p in repo_files() if p.suffix in TEXT_SUFFIXES]


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _in_url(text: str, at: int) -> bool:
    start = max(text.rfind(c, 0, at) for c in " \t\n\"'(<[`")
    return "://" in text[start + 1 : at]


# --- (a) every docs/<name>.md that is mentioned exists ------------------------------


def test_every_mentioned_docs_page_exists() -> None:
    missing = []
    for path in text_files():
        text = read(path)
        for m in DOC_REF.finditer(text):
            if _in_url(text, m.start()):
                continue
            if not (DOCS / f"{m.group(1)}.md").is_file():
                line = text.count("\n", 0, m.start()) + 1
                missing.append(f"{rel(path)}:{line}: {m.group(0)}")
    assert not missing, "pages mentioned but absent:\n" + "\n".join(missing)


def test_docs_pages_and_their_relative_links_exist() -> None:
    pages = sorted(DOCS.glob("*.md"))
    assert {p.name for p in pages} >= {
        "README.md", "rules.md", "cards-and-stickers.md", "game-log.md", "state-json.md",
        "command-line.md", "architecture.md",
    }  # fmt: skip
    broken = []
    for page in pages:
        for target in MD_LINK.findall(read(page)):
            if "://" in target or target.startswith(("#", "mailto:")):
                continue
            if not (page.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{rel(page)}: {target}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)


# --- (b) nothing cites the reference notes ---------------------------------------------


def test_no_file_cites_the_reference_notes() -> None:
    assert Path(__file__).resolve() in repo_files() or not (ROOT / ".git").exists()
    citing = []
    for path in repo_files():
        try:
            data = path.read_bytes()
        except OSError:
            continue
        said = [name for name in FORBIDDEN if name.encode() in data]
        if said:
            citing.append(f"{rel(path)}: {', '.join(said)}")
    assert not citing, "files citing the reference notes:\n" + "\n".join(citing)


# --- (c) the worked examples name tests that exist --------------------------------------


def _test_functions() -> set[str]:
    tree = ast.parse(read(ROOT / RULES_EXAMPLES))
    return {
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and node.name.startswith("test_")
    }


def test_tests_named_in_rules_exist() -> None:
    named = TEST_REF.findall(read(DOCS / "rules.md"))
    assert named, f"docs/rules.md names no test of {RULES_EXAMPLES}"
    missing = sorted(set(named) - _test_functions())
    assert not missing, f"named in docs/rules.md but not in {RULES_EXAMPLES}: {missing}"


def test_each_worked_example_names_a_test() -> None:
    text = read(DOCS / "rules.md")
    assert "## Worked examples" in text
    section = text.split("## Worked examples", 1)[1].split("\n## ", 1)[0]
    items = re.split(r"^(\d+)\. ", section, flags=re.MULTILINE)
    numbered = {int(n): body for n, body in zip(items[1::2], items[2::2], strict=True)}
    assert sorted(numbered) == list(range(1, 9))
    without = [n for n, body in numbered.items() if not TEST_REF.search(body)]
    assert not without, f"worked examples naming no test: {without}"


# --- (d) the command line page covers every subcommand -----------------------------------


def test_the_commands_are_read_from_the_parser() -> None:
    assert len(COMMANDS) >= 9 and {"review", "stats", "replay", "buttons"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_command_line_page_mentions_command(command: str) -> None:
    text = read(DOCS / "command-line.md")
    assert re.search(rf"incan-companion {command}\b", text), command
    assert re.search(rf"^## {command}$", text, re.MULTILINE), f"no section for {command}"


# --- (e) the state page lists every key to_json gives ------------------------------------


def _json_keys(out: dict[str, Any]) -> set[str]:
    keys = set(out)
    for seat in out["seats"]:
        keys |= set(seat)
    for card in out["path"]:
        keys |= set(card)
    return keys


def test_state_page_lists_every_key() -> None:
    from companion import engine

    state = engine.new_game(["Ana", "Bo", "Cy"])
    state = engine.draw(state, "T11A")
    keys = _json_keys(engine.to_json(state))

    # A whole game of busts: each round a hazard, everyone goes on, the same hazard again.
    over = engine.new_game(["Ana", "Bo", "Cy"])
    for kind in ("SNAKE", "SPIDER", "MUMMY", "FIRE", "ROCKS"):
        over = engine.draw(over, f"{kind}1")
        over = engine.reveal(over, [])
        over = engine.draw(over, f"{kind}2")
    assert over.phase is engine.Phase.GAME_OVER
    keys |= _json_keys(engine.to_json(over))

    listed = set(TABLE_KEY.findall(read(DOCS / "state-json.md")))
    missing = sorted(keys - listed)
    assert not missing, f"state keys not described in docs/state-json.md: {missing}"


# --- (f) the packages' docstrings name only modules that exist ------------------------------

# ``package.module`` (or deeper) in a docstring.
DOTTED = re.compile(rf"(?<![/\w.])({'|'.join(PACKAGES)})((?:\.\w+)+)")


def _exists(package: str, path: tuple[str, ...]) -> bool:
    """Whether ``package.path`` is a module, a subpackage, or a name one of them defines."""
    here = ROOT / package
    for i, part in enumerate(path):
        if (here / f"{part}.py").is_file():
            here = here / f"{part}.py"
            return i == len(path) - 1 or _defines(here, path[i + 1])
        if (here / part / "__init__.py").is_file():
            here = here / part
            continue
        return _defines(here / "__init__.py", part)
    return True


def _defines(module: Path, name: str) -> bool:
    tree = ast.parse(read(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name == name:
                return True
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for t in ast.walk(target):
                    if isinstance(t, ast.Name) and t.id == name:
                        return True
        elif isinstance(node, ast.ImportFrom | ast.Import) and any(
            (alias.asname or alias.name) == name for alias in node.names
        ):
            return True
    return False


def _named_modules(package: str) -> list[str]:
    """What ``package``'s docstring names that does not exist."""
    doc = ast.get_docstring(ast.parse(read(ROOT / package / "__init__.py"))) or ""
    wrong = []
    for m in DOTTED.finditer(doc):
        path = tuple(m.group(2).strip(".").split("."))
        if not _exists(m.group(1), path):
            wrong.append(f"{package}/__init__.py: {m.group(0)}")
    # A package's table of its own modules: | ``module`` | ... |
    for name in re.findall(r"^\|\s*``(\w+)``\s*\|", doc, re.MULTILINE):
        if not _exists(package, (name,)):
            wrong.append(f"{package}/__init__.py: {name}")
    return wrong


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_docstring_names_only_modules_that_exist(package: str) -> None:
    assert _named_modules(package) == []


def test_the_docstring_check_finds_a_module_that_is_gone(tmp_path: Path) -> None:
    assert _exists("vision", ("decode",)) and _exists("vision", ("sources", "SourceStatus"))
    assert _exists("storage", ("Store",)) and _exists("companion", ("ports", "GameLog"))
    assert not _exists("ui", ("describe",))
    assert not _exists("incan_companion", ("store",))
    assert not _exists("vision", ("sources", "Pyzbar"))


def test_the_review_example_is_what_review_prints(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The page once showed a review line of a format long gone."""
    from incan_companion.cli import main

    page = (DOCS / "command-line.md").read_text(encoding="utf-8")
    example = page.split("(`examples/game.jsonl`, its start):\n\n```\n", 1)[1].split("```", 1)[0]
    shown = [line for line in example.splitlines() if line.strip() != "..."]
    monkeypatch.setenv("INCAN_CONFIG", str(tmp_path / "none.toml"))
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.delenv("LANGUAGE", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    from ui.kivyfree import i18n

    before = i18n.language()
    try:
        assert main(["review", str(ROOT / "examples" / "game.jsonl")]) == 0
    finally:
        i18n.set_language(before)
    printed = capsys.readouterr().out.splitlines()
    assert len(shown) == 8 and printed[: len(shown)] == shown
