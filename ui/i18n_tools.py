"""Keeping the catalogues in step with the source: pybabel with this project's options.

    python -m ui.i18n_tools update    # source -> ui/locale/incan.pot -> each incan.po
    python -m ui.i18n_tools compile   # each incan.po -> incan.mo

``extract`` writes the template only. Everything here is Babel's (run in this
process, as the ``pybabel`` command would): strings are found by
``babel.cfg`` at the top of the repository (Python, and ``.kv`` files through
:mod:`ui.babel_kv`); ``update`` keeps every translation whose English is
unchanged, offers a close one for a reworded string as fuzzy, and drops
strings that went away. The English catalogue says every string as itself.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from pathlib import Path

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po, write_po

from ui.kivyfree import i18n
from ui.kivyfree.i18n import DOMAIN, LANGUAGES, SOURCE_LANGUAGE

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = Path(i18n.LOCALE_DIR)
MAPPING = ROOT / "babel.cfg"
PACKAGES = ("companion", "ui", "vision", "hardware", "web", "incan_companion")
KEYWORDS = ("_", "N_", "ngettext:1,2", "pgettext:1c,2", "npgettext:1c,2,3")
POT = LOCALE_DIR / f"{DOMAIN}.pot"
HEADER = "# Incan Gold table companion: every string a player reads."


def pybabel(*args: str) -> int:
    """``pybabel -q <args>`` in this process, from the top of the repository."""
    with contextlib.chdir(ROOT):
        code = CommandLineInterface().run(["pybabel", "-q", *args])  # type: ignore[no-untyped-call]
    return int(code or 0)


def extract(pot: Path = POT) -> int:
    """Write the template ``pot`` from the source."""
    return pybabel(
        "extract", "--mapping-file", str(MAPPING), "--no-default-keywords",
        *(f"--keyword={k}" for k in KEYWORDS), "--add-comments=i18n:", "--strip-comments",
        "--project=incan-companion", f"--header-comment={HEADER}", "--output-file", str(pot),
        *PACKAGES,
    )


def update() -> int:
    """Extract, then bring every language's catalogue up to the template."""
    failed = extract()
    for code in LANGUAGES:
        failed |= pybabel(
            "update", "--domain", DOMAIN, "--input-file", str(POT), "--output-dir",
            str(LOCALE_DIR), "--locale", code, "--init-missing", "--ignore-obsolete",
        )
    po = LOCALE_DIR / SOURCE_LANGUAGE / "LC_MESSAGES" / f"{DOMAIN}.po"
    with po.open("rb") as fp:
        english = read_po(fp, locale=SOURCE_LANGUAGE)
    for message in english:
        if message.id:
            message.string = message.id
            message.flags.discard("fuzzy")
            message.previous_id = []
    with po.open("wb") as fp:
        write_po(fp, english, ignore_obsolete=True)
    return failed


def compile_all() -> int:
    """Write every ``<code>/LC_MESSAGES/incan.po`` as its ``.mo``."""
    return pybabel("compile", "--domain", DOMAIN, "--directory", str(LOCALE_DIR))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.i18n_tools")
    parser.add_argument("command", choices=("extract", "update", "compile"))
    command = parser.parse_args(argv).command
    return {"extract": extract, "update": update, "compile": compile_all}[command]()


if __name__ == "__main__":
    sys.exit(main())
