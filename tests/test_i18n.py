"""Languages: every string a player reads is in every catalogue, translated,
with the right plural forms, in a font that draws it. The catalogues are read
with Babel's reader (``babel.messages.pofile.read_po``) and compiled with
Babel; the app reads the compiled ``.mo`` files with :mod:`gettext`."""

from __future__ import annotations

import ast
import doctest
import functools
import gettext
import io
import logging
import os
import random
import re
import shutil
import string
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.frontend import parse_keywords
from babel.messages.pofile import read_po
from helpers import japanese_phrases, paced

from ui import babel_kv, fonts, i18n_tools
from ui.kivyfree import i18n
from ui.kivyfree.i18n import LANGUAGES, _, ngettext

ROOT = Path(__file__).resolve().parent.parent
LOCALE = Path(i18n.LOCALE_DIR)
EXAMPLE = ROOT / "examples" / "game.jsonl"
TRANSLATED = ("pl", "es", "ja")
PLURAL_FORMS = {
    "en": "nplurals=2; plural=(n != 1);",
    "pl": "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
    "es": "nplurals=2; plural=(n != 1);",
    "ja": "nplurals=1; plural=0;",
}
UPDATE = "python -m ui.i18n_tools update (ui/locale/README.md)"


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    """The .mo files as the set-up leaves them (the script skips when fresh)."""
    done = subprocess.run([str(ROOT / "scripts" / "build-translations.sh")], capture_output=True,
                          text=True, check=False, env={**os.environ, "PYTHON": sys.executable},
                          timeout=paced(120))
    assert done.returncode == 0, done.stderr


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def po_file(code: str, locale: Path = LOCALE) -> Path:
    return locale / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def catalogue(code: str) -> Catalog:
    with po_file(code).open("rb") as fp:
        return read_po(fp, locale=code)


def template(path: Path = LOCALE / "incan.pot") -> Catalog:
    with path.open("rb") as fp:
        return read_po(fp)


def keys(cat: Catalog) -> set[tuple[str | None, str | tuple[str, ...]]]:
    """(context, msgid or (msgid, msgid_plural)) of every entry but the header."""
    return {(m.context, m.id) for m in cat if m.id}


def forms(value: str | tuple[str, ...] | tuple[str | None, ...]) -> tuple[str, ...]:
    return (value,) if isinstance(value, str) else tuple(v or "" for v in value)


def placeholders(text: str) -> set[str]:
    """The ``{names}`` a ``str.format`` string uses."""
    return {field for _lit, field, _spec, _conv in string.Formatter().parse(text)
            if field is not None}


def names(value: str | tuple[str, ...] | tuple[str | None, ...]) -> set[str]:
    return set().union(*(placeholders(f) for f in forms(value)))


# --- the catalogues against the source ----------------------------------------------


def test_the_template_is_what_the_source_gives_now(tmp_path: Path) -> None:
    """Fails when a `_()`/`ngettext()` string was added or reworded since the
    last update. Fix: run the update, translate the new entries, run this again."""
    fresh = tmp_path / "incan.pot"
    assert i18n_tools.extract(fresh) == 0
    now, committed = keys(template(fresh)), keys(template())
    assert now == committed, (
        f"incan.pot is out of date: run {UPDATE}\n"
        f"new: {sorted(map(str, now - committed))}\ngone: {sorted(map(str, committed - now))}"
    )
    places = {loc.split("/")[0] for m in template(fresh) for loc, _line in m.locations}
    assert "ui" in places and "companion" not in places  # the core words nothing


def _gettext_calls(tree: ast.AST) -> Iterator[tuple[str | None, str | tuple[str, ...]]]:
    """(context, msgid or (msgid, msgid_plural)) of every call with literal
    strings, as the catalogues key them, wherever it is (inside an f-string too)."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            continue
        texts = [a.value for a in node.args if isinstance(a, ast.Constant)
                 and isinstance(a.value, str)]  # fmt: skip
        name = node.func.id
        if name in ("_", "N_") and len(texts) == 1:
            yield None, texts[0]
        elif name == "ngettext" and len(texts) == 2:
            yield None, (texts[0], texts[1])
        elif name == "pgettext" and len(texts) == 2:
            yield texts[0], texts[1]
        elif name == "npgettext" and len(texts) == 3:
            yield texts[0], (texts[1], texts[2])


def test_every_string_the_source_asks_for_is_in_the_template() -> None:
    """The extractor on Python 3.11 does not look inside an f-string's
    expressions: a `_()` there would never be translated. This reads the
    source's syntax tree, which does."""
    known = keys(template())
    missing = {
        f"{path.relative_to(ROOT)}: {key}"
        for package in i18n_tools.PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for key in _gettext_calls(ast.parse(path.read_text(encoding="utf-8")))
        if key not in known
    }
    assert missing == set(), f"not in incan.pot (outside an f-string, then {UPDATE})"


def test_the_source_check_sees_inside_an_f_string() -> None:
    tree = ast.parse("f\"{_('status'):<9} {ngettext('a', 'b', n)}\"; pgettext('c', 'd')")
    assert set(_gettext_calls(tree)) == {(None, "status"), (None, ("a", "b")), ("c", "d")}


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_every_string_of_the_template_is_in_the_catalogue(code: str) -> None:
    assert keys(catalogue(code)) == keys(template()), f"run {UPDATE}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalogue_has_no_fuzzy_or_untranslated_entry(code: str) -> None:
    cat = catalogue(code)
    assert not cat.fuzzy, "the header is marked fuzzy: pybabel compile would skip the file"
    entries = [m for m in cat if m.id]
    assert entries
    assert [m.id for m in entries if m.fuzzy] == [], "check these, then drop the fuzzy flag"
    width = cat.num_plurals
    untranslated = [m.id for m in entries if not all(forms(m.string))
                    or (m.pluralizable and len(forms(m.string)) != width)]
    assert untranslated == []


def test_the_english_catalogue_says_every_string_as_itself() -> None:
    for m in catalogue("en"):
        if m.id:
            assert forms(m.string) == forms(m.id), m.id


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_plural_forms_header(code: str) -> None:
    assert catalogue(code).plural_forms == PLURAL_FORMS[code]


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_translations_keep_the_placeholders(code: str) -> None:
    """Each form of a translation names exactly the `{placeholders}` of the English."""
    wrong = []
    for m in catalogue(code):
        if not m.id:
            continue
        want = names(m.id)
        wrong += [(m.id, s) for s in forms(m.string) if s and placeholders(s) != want]
    assert wrong == []


def test_the_placeholder_check_can_fail() -> None:
    good = Message("{n} gem", "{n} klejnot")
    bad = Message(("{n} gem", "{n} gems"), ("{n} klejnot", "klejnoty", "{count} klejnotów"))
    assert placeholders(forms(good.string)[0]) == names(good.id)
    assert [placeholders(s) == names(bad.id) for s in forms(bad.string)] == [True, False, False]


def test_every_catalogue_compiles_with_babel(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale, ignore=shutil.ignore_patterns("*.mo"))
    assert i18n_tools.pybabel("compile", "--domain", i18n.DOMAIN, "--directory",
                              str(locale)) == 0
    for code in LANGUAGES:
        with po_file(code, locale).with_suffix(".mo").open("rb") as fp:
            compiled = gettext.GNUTranslations(fp)._catalog  # type: ignore[attr-defined]
        cat = catalogue(code)
        for m in cat:  # every entry went in as it is: none left out as fuzzy or empty
            if not m.id:
                continue
            key = (f"{m.context}\x04" if m.context else "") + forms(m.id)[0]
            if m.pluralizable:
                said = tuple(compiled.get((key, i)) for i in range(cat.num_plurals))
            else:
                said = (compiled.get(key),)
            assert said == forms(m.string), (code, m.id)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext not installed")
@pytest.mark.parametrize("code", list(LANGUAGES))
def test_gnu_msgfmt_accepts_the_catalogue(code: str, tmp_path: Path) -> None:
    done = subprocess.run(
        ["msgfmt", "--check-format", "--check-domain", "-o", str(tmp_path / "x.mo"),
         str(po_file(code))],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr


# --- the kv extractor ------------------------------------------------------------------

KEYWORDS = parse_keywords(i18n_tools.KEYWORDS)


def test_the_kv_extractor_finds_the_setup_screen_strings() -> None:
    kv = ROOT / "ui" / "setup.kv"
    with kv.open("rb") as fp:
        found = list(babel_kv.extract_kv(fp, KEYWORDS, ["i18n:"], {}))
    lines = kv.read_text(encoding="utf-8").splitlines()
    said = {message: lineno for lineno, _func, message, _notes in found}
    assert "Hidden tents" in said and "Start" in said
    assert "_('Hidden tents')" in lines[said["Hidden tents"] - 1]


def test_the_kv_extractor_on_tricky_lines() -> None:
    kv = (
        "#:import _ ui.kivyfree.i18n._\n"
        "#:set label _('not this: a directive')\n"
        "<Screen@Widget>:\n"
        "    # text: _('commented out')\n"
        "    Label:\n"
        "        # i18n: the seat's choice\n"
        "        text: _('Undo') if root.x else _(\"It's (odd): {n}\")\n"
        "        hint: pgettext('button', 'Camp')  # a note\n"
        "    Label:\n"
        "        text:\n"
        "            ngettext('{n} gem',\n"
        "                     '{n} gems', root.n).format(n=root.n)\n"
        "        on_press:\n"
        "            root.say(_('Pressed'))\n"
        "            if root.x: root.say(npgettext('seat', '{n} left', '{n} left', 2))\n"
        "        size_hint_y: None\n"
        "        value: _(root.name)\n"
    )
    found = list(babel_kv.extract_kv(io.BytesIO(kv.encode()), KEYWORDS, ["i18n:"], {}))
    assert found == [
        (7, "_", "Undo", ["i18n: the seat's choice"]),
        (7, "_", "It's (odd): {n}", []),
        (8, "pgettext", ("button", "Camp"), []),
        (11, "ngettext", ("{n} gem", "{n} gems", None), []),
        (14, "_", "Pressed", []),
        (15, "npgettext", ("seat", "{n} left", "{n} left", None), []),
        (17, "_", None, []),
    ]


def test_the_kv_extractor_doctest() -> None:
    result = doctest.testmod(babel_kv)
    assert result.attempted and not result.failed


def test_babel_reads_kv_files_through_the_mapping(tmp_path: Path) -> None:
    """babel.cfg sends .kv files to ui.babel_kv, with the keywords of the update."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    (tmp_path / "screen.kv").write_text("<S>:\n    text: _('From kv')\n", encoding="utf-8")
    (tmp_path / "screen.py").write_text("x = pgettext('menu', 'From py')\n", encoding="utf-8")
    with (ROOT / "babel.cfg").open(encoding="utf-8") as fp:
        method_map, options_map = parse_mapping_cfg(fp)  # type: ignore[no-untyped-call]
    found = {(ctx, msg) for _f, _l, msg, _c, ctx in
             extract_from_dir(str(tmp_path), method_map, options_map, keywords=KEYWORDS)}
    assert found == {(None, "From kv"), ("menu", "From py")}


# --- the compiled catalogues in use -----------------------------------------------------


def test_the_compiled_mo_is_what_the_app_reads() -> None:
    i18n.set_language("pl")
    assert _("Undo") == "Cofnij"
    mo = po_file("pl").with_suffix(".mo")
    with mo.open("rb") as fp:
        assert gettext.GNUTranslations(fp).gettext("Undo") == "Cofnij"


def test_a_missing_or_stale_mo_shows_english_with_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale)
    mo = po_file("pl", locale).with_suffix(".mo")
    assert i18n.translations("pl", locale).gettext("Undo") == "Cofnij"
    # pip installs the .po a moment after the .mo: that is not an edit.
    os.utime(po_file("pl", locale), (mo.stat().st_mtime + 1, mo.stat().st_mtime + 1))
    assert i18n.translations("pl", locale).gettext("Undo") == "Cofnij"
    assert not caplog.records
    later = mo.stat().st_mtime + 60
    os.utime(po_file("pl", locale), (later, later))  # the .po edited since
    with caplog.at_level(logging.WARNING, logger="ui.kivyfree.i18n"):
        assert type(i18n.translations("pl", locale)) is gettext.NullTranslations  # English
        assert i18n.translations("pl", locale).gettext("Undo") == "Undo"
    assert len(caplog.records) == 1  # once
    assert "older than its .po" in caplog.text and "scripts/build-translations.sh" in caplog.text
    caplog.clear()
    po_file("es", locale).with_suffix(".mo").unlink()
    with caplog.at_level(logging.WARNING, logger="ui.kivyfree.i18n"):
        assert i18n.translations("es", locale).gettext("Undo") == "Undo"
    assert "is missing" in caplog.text and "scripts/build-translations.sh" in caplog.text


def test_the_build_script_compiles_every_catalogue() -> None:
    script = ROOT / "scripts" / "build-translations.sh"
    assert os.access(script, os.X_OK)
    po = po_file("ja")
    os.utime(po)  # newer than its .mo: the script must compile again
    env = {**os.environ, "PYTHON": sys.executable}
    done = subprocess.run([str(script)], capture_output=True, text=True, check=False, env=env,
                          timeout=paced(120))
    assert done.returncode == 0, done.stderr
    assert "compiling" in done.stdout
    for code in LANGUAGES:
        mo = po_file(code).with_suffix(".mo")
        assert mo.is_file() and mo.stat().st_mtime >= po_file(code).stat().st_mtime
    again = subprocess.run([str(script)], capture_output=True, text=True, check=True, env=env,
                           timeout=paced(120))
    assert "up to date" in again.stdout
    ignored = subprocess.run(["git", "check-ignore", "-q", str(po.with_suffix(".mo"))], cwd=ROOT,
                             check=False)
    assert ignored.returncode == 0, ".mo files must not be committed"


# --- no gettext file format of our own ------------------------------------------------

SKIPPED_DIRS = {".git", ".venv", "out", "build", "dist", "__pycache__", ".mypy_cache",
                ".ruff_cache", ".pytest_cache", ".hypothesis"}
HAND_WRITTEN = [
    re.compile(r"950412de", re.IGNORECASE),  # the .mo magic number
    re.compile(r"\\xde\\x12\\x04\\x95", re.IGNORECASE),  # the same, as bytes
    re.compile(r"""["']msg(?:id|str|ctxt)(?:_plural)?(?:\[|["'\s])"""),  # "msgid " etc.
    re.compile(r"\^\s*msg(?:id|str|ctxt)"),  # a regex or awk pattern on .po lines
]


def test_no_file_reads_or_writes_po_or_mo_by_hand() -> None:
    """Babel reads, writes and compiles the catalogues; gettext reads the .mo."""
    found = []
    for path in sorted(ROOT.rglob("*")):
        rel = path.relative_to(ROOT)
        if (SKIPPED_DIRS & set(rel.parts) or rel.parts[0].endswith(".egg-info")
                or path.suffix not in (".py", ".sh", ".kv") or path == Path(__file__)):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        found += [f"{rel}: {p.pattern}" for p in HAND_WRITTEN if p.search(text)]
    assert found == []
    for gone in ("read_po", "mo_bytes", "compile_catalogues", "po_path", "mo_path", "Message"):
        assert not hasattr(i18n, gone), gone


# --- plural forms and choosing the language ------------------------------------------


def test_polish_has_three_plural_forms() -> None:
    i18n.set_language("pl")
    said = {n: ngettext("kept {n} gem", "kept {n} gems", n).format(n=n) for n in
            (1, 2, 5, 12, 22, 25, 0)}
    assert said == {
        1: "zachowuje 1 klejnot",
        2: "zachowuje 2 klejnoty",
        5: "zachowuje 5 klejnotów",
        12: "zachowuje 12 klejnotów",
        22: "zachowuje 22 klejnoty",
        25: "zachowuje 25 klejnotów",
        0: "zachowuje 0 klejnotów",
    }


def test_spanish_and_japanese_plurals() -> None:
    i18n.set_language("es")
    assert ngettext("kept {n} gem", "kept {n} gems", 1).format(n=1) == "se queda con 1 gema"
    assert ngettext("kept {n} gem", "kept {n} gems", 2).format(n=2) == "se queda con 2 gemas"
    i18n.set_language("ja")
    for n in (1, 2, 5):
        assert ngettext("kept {n} gem", "kept {n} gems", n).format(n=n) == f"宝石{n}個を獲得"
    i18n.set_language("en")
    assert ngettext("kept {n} gem", "kept {n} gems", 1).format(n=1) == "kept 1 gem"
    assert ngettext("kept {n} gem", "kept {n} gems", 3).format(n=3) == "kept 3 gems"


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({"LANG": "pl_PL.UTF-8"}, "pl"),
        ({"LANG": "es_ES.UTF-8"}, "es"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
        ({"LC_ALL": "es_MX.UTF-8", "LANG": "pl_PL.UTF-8"}, "es"),
        ({"LANGUAGE": "fr:ja", "LANG": "de_DE.UTF-8"}, "ja"),
        ({"LANGUAGE": "ja", "LC_ALL": "C"}, "en"),
    ],
)
def test_system_language(monkeypatch: pytest.MonkeyPatch, env: dict[str, str],
                         expected: str) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert i18n.system_language() == expected


def test_set_language_from_config_code_or_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    assert i18n.set_language("") == "ja" and i18n.language() == "ja"
    assert _("Undo") == "取り消し"
    assert i18n.set_language("es") == "es"
    assert _("Undo") == "Deshacer"
    assert i18n.pgettext("no such context", "Undo") == "Undo"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        i18n.set_language("fr")
    assert i18n.language() == "es"
    assert list(LANGUAGES) == ["en", "pl", "es", "ja"]


def test_new_strings_of_the_restructuring_are_translated() -> None:
    said = {}
    for code in TRANSLATED:
        i18n.set_language(code)
        said[code] = _("The reveal failed: {error}").format(error="E")
    assert said == {"pl": "Nie udało się odkryć wyborów: E", "es": "Falló la revelación: E",
                    "ja": "公開に失敗しました\uff1aE"}


# --- the editions' vocabulary --------------------------------------------------------


VOCABULARY = {
    # torch/camp, then the five hazards, then treasure/artifact/temple/tent
    "pl": ["pochodnia", "obozowisko", "węże", "pająki", "mumia", "ogień", "lawina",
           "skarb", "artefakt", "świątyni", "namiot"],
    "es": ["antorcha", "campamento", "serpientes", "arañas", "momia", "fuego", "derrumbe",
           "tesoro", "artefacto", "templo", "tienda"],
    "ja": ["進む", "帰る", "ヘビ", "クモ", "ミイラ", "火", "落石",
           "宝石", "秘宝", "神殿", "テント"],
}


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_editions_vocabulary(code: str) -> None:
    from companion.engine import Phase, Status
    from ui.kivyfree.words import card_name, phase_name, status_name

    i18n.set_language(code)
    said = " ".join(
        [phase_name(Phase.CHOOSE)]
        + [card_name(c) for c in ("SNAKE1", "SPIDER1", "MUMMY1", "FIRE1", "ROCKS1", "T5A", "A1")]
        + [status_name(Status.IN), _("tent"), _("Everyone has left the temple.")]
    ).lower()
    missing = [w for w in VOCABULARY[code] if w not in said]
    assert not missing, said


#: The choice's two words in every catalogue string that names it (the seat's
#: status "in camp" has its own short words, in the table above).
CHOICE_WORDS = {"pl": ("pochodni", "obozowisk"), "es": ("antorcha", "campamento"),
                "ja": ("進", "帰")}


@pytest.mark.parametrize("code", TRANSLATED)
def test_torch_and_camp_are_the_editions_words_everywhere(code: str) -> None:
    """The review once said "obóz" and "松明かキャンプ" where the table said
    "obozowisko" and "進む" and "帰る": one choice, two names."""
    torch, camp = CHOICE_WORDS[code]
    wrong = []
    for message in catalogue(code):
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        said = " ".join(strings).lower()
        for english, word in (("torch", torch), ("camp", camp)):
            if (any(re.search(rf"\b{english}\b", i, re.IGNORECASE) for i in ids)
                    and ids[0] != "in camp" and word not in said):
                wrong.append(f"{ids[0]!r}: {said!r} lacks {word!r}")
    assert not wrong


def test_readable_replay_follows_the_language_json_does_not() -> None:
    from companion import engine
    from incan_companion.commands.game import replay_log
    from ui.kivyfree.words import table

    state = replay_log(EXAMPLE).state
    english = table(state)
    as_json = engine.to_json(state)
    i18n.set_language("pl")
    polish = table(state)
    assert "runda 2 z 5" in polish and "Wtasuj A3 do talii przed rundą 3." in polish
    assert polish != english
    i18n.set_language("ja")
    assert "ラウンド 2/5" in table(state)
    assert engine.to_json(state) == as_json


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_readable_table_lines_up_in_every_language(code: str) -> None:
    from companion.session import Session
    from companion.simulate import random_events
    from incan_companion.commands.game import replay_log
    from ui.kivyfree.words import table

    *_, (_event, last) = random_events(random.Random(3), seats=8)
    over = Session.replay(last.log).state
    assert over.winners
    i18n.set_language(code)
    for state in (replay_log(EXAMPLE).state, over):
        seats = len(state.seats)
        head, *rows = table(state).splitlines()[1 : 2 + seats]
        rows = [row.removesuffix(" *") for row in rows]
        # Every line as wide in a terminal as the headings, the scores aligned
        # on the right: a Japanese character takes two columns.
        assert {i18n.text_width(row) for row in rows} == {i18n.text_width(head)}, table(state)
        if code != "en":
            assert not {"status", "hand", "banked"} & set(head.split()), head


# --- the font --------------------------------------------------------------------------


def _glyph(font: object, char: str) -> tuple[object, bytes]:
    mask = font.getmask(char)  # type: ignore[attr-defined]
    return mask.size, bytes(mask)


def test_the_font_draws_every_character_of_every_catalogue() -> None:
    from PIL import ImageFont

    font_files = fonts.ui_font()
    assert font_files is not None, (
        "no font for every language: install the Debian package fonts-migmix "
        "(scripts/setup.sh does)"
    )
    chars = set("".join(LANGUAGES.values())) | set("\u2022\u2026\u00d7\u00b7 0123456789")
    for code in LANGUAGES:
        for m in catalogue(code):
            if m.id:
                chars |= set("".join(forms(m.string)))
    chars -= set(" \n\t")
    for path in filter(None, (font_files.regular, font_files.bold)):
        font = ImageFont.truetype(str(path), 24)
        notdef = _glyph(font, "\u0378")  # an unassigned code point: the empty box
        boxes = sorted(c for c in chars if _glyph(font, c) == notdef)
        assert not boxes, f"{path.name} draws boxes for {''.join(boxes)!r}"


def test_listeners_hear_a_change_of_language() -> None:
    heard: list[str] = []
    stop = i18n.on_change(heard.append)
    i18n.set_language("pl")
    i18n.set_language("pl")  # no change, nothing said
    i18n.set_language("ja")
    stop()
    i18n.set_language("es")
    assert heard == ["pl", "ja"]


def test_terminal_columns_count_japanese_as_two() -> None:
    assert i18n.text_width("得点") == 4 and i18n.text_width("wynik") == 5
    assert i18n.ljust("得点", 6) == "得点  " and i18n.rjust("ab", 4) == "  ab"


def _cli(*args: str, lang: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(LANG=lang, INCAN_CONFIG=str(tmp_path / "none.toml"), PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "incan_companion", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=paced(60), check=False)


def test_cli_readable_output_follows_the_locale_json_never(tmp_path: Path) -> None:
    polish = _cli("replay", str(EXAMPLE), lang="pl_PL.UTF-8", tmp_path=tmp_path)
    assert polish.returncode == 0, polish.stderr
    assert "runda 2 z 5" in polish.stdout and "Wtasuj A3 do talii przed rundą 3." in polish.stdout
    japanese = _cli("replay", str(EXAMPLE), lang="ja_JP.UTF-8", tmp_path=tmp_path)
    assert "ラウンド 2/5" in japanese.stdout
    english = _cli("replay", str(EXAMPLE), lang="C.UTF-8", tmp_path=tmp_path)
    assert "round 2 of 5" in english.stdout
    outputs = {
        lang: _cli("replay", str(EXAMPLE), "--json", lang=lang, tmp_path=tmp_path).stdout
        for lang in ("C.UTF-8", "pl_PL.UTF-8", "ja_JP.UTF-8")
    }
    assert len(set(outputs.values())) == 1 and outputs["C.UTF-8"].startswith("{")
    (tmp_path / "none.toml").write_text('[game]\nlanguage = "es"\n', encoding="utf-8")
    spanish = _cli("replay", str(EXAMPLE), lang="pl_PL.UTF-8", tmp_path=tmp_path)
    assert "ronda 2 de 5" in spanish.stdout  # the config file before the locale
    # A file that cannot be read, or a language we do not have: the locale's,
    # and the replay still prints (the commands that need the config say why).
    for text in ('[game\nlanguage = "es"\n', '[game]\nlanguage = "xx"\n', "game = 3\n",
                 '[game]\nlanguage = 5\n', "\udcff"):
        (tmp_path / "none.toml").write_bytes(text.encode("utf-8", "surrogateescape"))
        polish = _cli("replay", str(EXAMPLE), lang="pl_PL.UTF-8", tmp_path=tmp_path)
        assert polish.returncode == 0 and "runda 2 z 5" in polish.stdout, (text, polish.stderr)


@pytest.mark.parametrize(
    ("command", "polish", "english"),
    [
        ("replay", "runda 2 z 5", "round 2 of 5"),
        ("review", "Największe różnice", "Largest swings"),
        ("stats", "przeciw innym przy stole", "against the others at the table"),
    ],
)
def test_every_readable_command_speaks_the_locale(
        command: str, polish: str, english: str, tmp_path: Path) -> None:
    """Each command whose output is words, run as a user runs it: in the
    locale's language (no config file), its words and nothing of English."""
    from test_history_store import stored
    from test_stats import GAME_1

    from companion.events import Start
    from storage import Store

    source = EXAMPLE
    if command == "stats":
        source = tmp_path / "games.sqlite"
        with Store(source) as store:
            stored(store, Start(("Ana", "Bo", "Cy")), GAME_1)
    said = _cli(command, str(source), lang="pl_PL.UTF-8", tmp_path=tmp_path)
    assert said.returncode == 0, said.stderr
    assert polish in said.stdout and english not in said.stdout, said.stdout
    said = _cli(command, str(source), lang="C.UTF-8", tmp_path=tmp_path)
    assert english in said.stdout, said.stdout


def test_the_configured_language_is_remembered_until_the_file_changes(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import tomllib

    from incan_companion import paths

    config = tmp_path / "config.toml"
    config.write_text('[game]\nlanguage = "es"\n', encoding="utf-8")
    cache = paths.default_cache_file("config-language")
    # Just written: a second edit within the clock's tick could look the same,
    # so the answer is not remembered yet.
    assert paths.configured_language(config, LANGUAGES) == "es" and not cache.exists()
    monkeypatch.setattr(paths, "SETTLED_S", 0.0)
    assert paths.configured_language(config, LANGUAGES) == "es" and cache.exists()

    def no_parse(*_: object) -> object:
        raise AssertionError("parsed again")

    with monkeypatch.context() as parser:
        parser.setattr(tomllib, "load", no_parse)
        assert paths.configured_language(config, LANGUAGES) == "es"  # from the cache
    # The same size, and the modification time put back: the change is still seen.
    before = config.stat()
    config.write_text('[game]\nlanguage = "pl"\n', encoding="utf-8")
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert paths.configured_language(config, LANGUAGES) == "pl"
    assert paths.configured_language(tmp_path / "other.toml", LANGUAGES) == ""
    other = tmp_path / "other.toml"
    other.write_text('[game]\nlanguage = "ja"\n', encoding="utf-8")
    assert paths.configured_language(other, LANGUAGES) == "ja"
    assert paths.configured_language(config, LANGUAGES) == "pl"
    # A cache that is damaged, or cannot be written, costs only the parse.
    cache.write_bytes(b"\xff\x00garbage")
    assert paths.configured_language(config, LANGUAGES) == "pl"
    cache.unlink()
    cache.parent.chmod(0o500)
    try:
        assert paths.configured_language(config, LANGUAGES) == "pl"
    finally:
        cache.parent.chmod(0o700)
    assert list(cache.parent.iterdir()) == [] or os.geteuid() == 0
    # A language the cache holds but this build lacks is not used.
    assert paths.configured_language(other, LANGUAGES) == "ja"
    assert paths.configured_language(other, ("en",)) == ""


def test_font_choice_and_the_japanese_fallback(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.delenv(fonts.FONT_ENV, raising=False)
    font = fonts.ui_font()
    assert font is not None and font.package == "fonts-migmix"
    assert font.bold is not None
    cjk = tmp_path / "cjk.ttc"
    cjk.write_bytes(b"")
    monkeypatch.setattr(fonts, "FONT_CANDIDATES", (
        fonts.FontFiles("gone", tmp_path / "gone.ttf", None, "fonts-gone"),))
    monkeypatch.setattr(fonts, "JAPANESE_FALLBACKS", (
        fonts.FontFiles("CJK", cjk, tmp_path / "no-bold.ttc", "fonts-cjk"),))
    assert fonts.ui_font("pl") is None  # Polish keeps Kivy's Roboto: it has ą, ę, ł
    fallback = fonts.ui_font("ja")
    assert fallback is not None and fallback.regular == cjk and fallback.bold is None
    monkeypatch.setenv(fonts.FONT_ENV, str(cjk))
    chosen = fonts.ui_font("pl")
    assert chosen is not None and chosen.regular == cjk


# --- case and number: the slips a table found (issue 24) -------------------------------


def said_in(code: str, words: Any) -> str:
    i18n.set_language(code)
    return str(words())


def test_the_undo_question_names_a_hazard_as_the_object_of_its_verb() -> None:
    from companion.events import Draw
    from companion.notices import UndoWouldDropChoices
    from ui.kivyfree.notice_words import notice_text

    def asked(card: str) -> Callable[[], str]:
        return lambda: notice_text(UndoWouldDropChoices(2, Draw(card)))

    assert said_in("pl", asked("ROCKS1")) == (
        "2 graczy już wybrało: dotknij Cofnij jeszcze raz, aby cofnąć lawinę i skasować "
        "ich wybory.")
    assert "aby cofnąć mumię " in said_in("pl", asked("MUMMY2"))
    assert "aby cofnąć skarb 7 " in said_in("pl", asked("T7A"))
    assert "para deshacer el derrumbe " in said_in("es", asked("ROCKS1"))
    assert "to take back rockslide " in said_in("en", asked("ROCKS1"))


def test_a_seat_leaving_with_nothing_from_the_path_is_not_given_zero() -> None:
    from helpers import play

    from ui.kivyfree.words import last_event

    state = play(3, "incan-gold", "SNAKE1", [0]).state  # nothing on the path to share
    assert said_in("en", lambda: last_event(state)) == "Ana leaves: no gems from the path."
    assert said_in("pl", lambda: last_event(state)) == "Ana wraca: nic ze ścieżki."
    assert said_in("ja", lambda: last_event(state)) == "Anaが帰還：道の宝石はなし。"  # noqa: RUF001
    # 7 // 3 = 2 each, 1 left on the card; two leave: 1 // 2 = 0 each (was "道から1人0")
    state = play(3, "incan-gold", "T7A", [], "SNAKE1", [0, 1]).state
    assert said_in("ja", lambda: last_event(state)) == (
        "AnaとBoが帰還：道の宝石はなし。道に1個残る。")  # noqa: RUF001
    assert said_in("en", lambda: last_event(state)) == (
        "Ana and Bo leave: no gems from the path; 1 stays on the path.")
    state = play(3, "incan-gold", "T11A", [0, 1]).state  # 3 each, 2 left; two leave: 1 each
    assert said_in("ja", lambda: last_event(state)) == "AnaとBoが帰還：道から1人1個。"  # noqa: RUF001


def test_a_treasure_too_small_to_share_is_not_zero_each() -> None:
    from helpers import play

    from ui.kivyfree.words import last_event

    state = play(8, "incan-gold", "T1").state  # 1 gem, 8 seats (was "1人0個")
    assert said_in("en", lambda: last_event(state)) == (
        "1 split 8 ways: no gems each, 1 left on the card.")
    assert said_in("pl", lambda: last_event(state)) == (
        "1 dla 8 graczy: nikt nic nie dostaje, 1 zostaje na karcie.")
    assert said_in("es", lambda: last_event(state)) == (
        "1 entre 8: nada para nadie, queda 1 en la carta.")
    assert said_in("ja", lambda: last_event(state)) == "1を8人では分けられない、カードに1個残る。"
    state = play(3, "incan-gold", "T7A").state
    assert said_in("ja", lambda: last_event(state)) == "7を3人で分ける：1人2個、カードに1個残る。"  # noqa: RUF001


def test_a_treasure_for_one_seat_says_the_count_once() -> None:
    from helpers import play

    from ui.kivyfree.words import last_event

    # Bo and Cy leave on T17's leftover; T5 then goes whole to Ana (was "5 for 1 seat: 5 each").
    state = play(3, "incan-gold", "T17", [1, 2], "T5A").state
    assert said_in("en", lambda: last_event(state)) == "5 gems, all for the one seat still in."
    assert said_in("pl", lambda: last_event(state)) == (
        "5 klejnotów, wszystkie dla jedynego gracza w świątyni.")
    assert said_in("es", lambda: last_event(state)) == (
        "5 gemas, todas para el único jugador dentro.")
    state = play(3, "incan-gold", "T17", [1, 2], "T1").state
    assert said_in("en", lambda: last_event(state)) == "1 gem, all for the one seat still in."
    assert said_in("ja", lambda: last_event(state)) == "宝石1個、残る1人がすべて取る。"


def test_a_mean_of_gems_is_a_figure_not_a_count() -> None:
    from companion.stats import PlayerStats
    from ui.kivyfree.presenters.history import stats_row

    one = PlayerStats("Ana", 1, 1, 20, 20, 0, 5, 5, 0, ())  # 5 gems banked in 5 rounds
    row = said_in("en", lambda: stats_row(one, (1, 1, 1, 1)).rounds)
    assert row == "busted in 0% of rounds · gems a round: 1 · 0 artifacts"
    assert "1 gems" not in row
    assert "na rundę: 1 ·" in said_in("pl", lambda: stats_row(one, (1, 1, 1, 1)).rounds)
    assert "1ラウンドの宝石：1個" in said_in("ja", lambda: stats_row(one, (1, 1, 1, 1)).rounds)  # noqa: RUF001


def test_lists_are_joined_as_the_language_writes_them() -> None:
    from helpers import play

    from ui.kivyfree.words import names

    state = play(4, "incan-gold").state
    assert said_in("en", lambda: names(state, [0, 1, 2, 3])) == "Ana, Bo, Cy and Dee"
    assert said_in("pl", lambda: names(state, [0, 1, 2])) == "Ana, Bo i Cy"
    assert said_in("ja", lambda: names(state, [0, 1, 2, 3])) == "Ana、Bo、CyとDee"


@pytest.mark.parametrize(("singular", "plural", "polish"), [
    ("{n} gem", "{n} gems", ("klejnot", "klejnoty", "klejnotów")),
    ("{n} card", "{n} cards", ("karta", "karty", "kart")),
    ("{n} game", "{n} games", ("gra", "gry", "gier")),
    ("{n} artifact", "{n} artifacts", ("artefakt", "artefakty", "artefaktów")),
    ("Bots: {n} seat", "Bots: {n} seats", ("miejsce", "miejsca", "miejsc")),
])
def test_polish_counts_take_the_form_of_their_number(singular: str, plural: str,
                                                     polish: tuple[str, str, str]) -> None:
    """1 is the first form; 2-4, 22-24 the second; 5-21 and 25 the third (12-14 too)."""
    i18n.set_language("pl")
    one, few, many = polish
    want = {1: one, 2: few, 4: few, 5: many, 12: many, 13: many, 14: many, 21: many,
            22: few, 25: many}
    said = {n: ngettext(singular, plural, n).format(n=n) for n in want}
    assert {n: said[n].split()[-1] for n in want} == want
    assert all(f"{n} " in said[n] for n in want)


def test_the_odds_count_cards_gems_and_seats_each_in_its_own_number() -> None:
    from helpers import play

    from ui.kivyfree.presenters import odds_text

    state = play(3, "incan-gold", "SNAKE1", [], "SPIDER1").state
    assert said_in("en", lambda: odds_text(state).split("\n")[1]) == (
        "29 cards and 124 gems left; a treasure gives each of the 3 about 2.3")
    assert said_in("pl", lambda: odds_text(state).split("\n")[1]) == (
        "Zostaje: 29 kart i 124 klejnoty; skarb da każdemu z 3 około 2,3")
    assert said_in("ja", lambda: odds_text(state).split("\n")[1]) == (
        "残り：カード29枚・宝石124個。宝石カードなら3人それぞれ約2.3")  # noqa: RUF001
    state = play(3, "incan-gold", "SNAKE1", [0, 1]).state  # one seat still in
    assert said_in("en", lambda: odds_text(state).split("\n")[1]) == (
        "30 cards and 124 gems left; 1 seat still in: a treasure gives about 8.3")


def test_one_busted_seat_is_not_said_as_many() -> None:
    from helpers import play

    from ui.kivyfree.presenters import round_log

    session = play(3, "incan-gold", "T5A", [0, 1], "SNAKE1", [], "SNAKE2")
    assert said_in("en", lambda: round_log(session.moves, session.states)[-1]) == (
        "Busted: Cy (lost 1)")
    assert said_in("pl", lambda: round_log(session.moves, session.states)[-1]) == (
        "W panice: Cy (\u2212" "1)")
    assert said_in("es", lambda: round_log(session.moves, session.states)[-1]) == (
        "Pérdidas: Cy (\u2212" "1)")


# --- Japanese lines: broken between phrases (BudouX), never before a closing mark ---------


@functools.cache
def _measure() -> Callable[[str], float]:
    from PIL import ImageFont

    font_files = fonts.ui_font("ja")
    assert font_files is not None, "install fonts-migmix (scripts/setup.sh does)"
    # Pillow's basic layout: FreeType's advances, as Kivy's SDL2 text measures
    # them (the same 552 px for the name-and-kana line of test_a_name_is_never_broken);
    # its complex-script engine (raqm) took 1 to 4 ms a measure, 2.7 s of this file.
    font = ImageFont.truetype(str(font_files.regular), 20,
                              layout_engine=ImageFont.Layout.BASIC)

    # Kept across the tests: wrapping measures the same prefixes again and again.
    @functools.cache
    def width(text: str) -> float:
        return float(font.getlength(text))

    return width


def _wrong_breaks(text: str, lines: str, room: float, width: Callable[[str], float]
                  ) -> list[str]:
    """The breaks of ``lines`` (``text`` wrapped in ``room``) a Japanese reader
    would not make: inside a BudouX phrase (not at a space) that fits a line,
    before a closing mark or a small kana, after an opening bracket."""
    parser = japanese_phrases()
    wrong = []
    for paragraph, wrapped in zip(text.split("\n"), _paragraphs(text, lines), strict=True):
        ends, at = set(), 0
        for phrase in parser.parse(paragraph):
            at += len(phrase)
            ends.add(at)
        wide, at = set(), 0  # inside a phrase (with its closing mark) too wide for a line
        for unit in fonts.phrases(paragraph):
            if width(unit.strip(" ")) > room:
                wide.update(range(at + 1, at + len(unit)))
            at += len(unit)
        pos = 0
        for i, line in enumerate(wrapped):
            while paragraph[pos:pos + 1] == " ":
                pos += 1
            assert paragraph.startswith(line, pos), (paragraph, wrapped)
            if i and not (pos in ends or pos in wide or paragraph[pos - 1] == " "):
                wrong.append(f"inside a phrase: {paragraph[:pos]} / {paragraph[pos:]}")
            if i and (paragraph[pos] in fonts.NO_LINE_START
                      or paragraph[pos - 1] in fonts.NO_LINE_END):
                wrong.append(f"kinsoku: {paragraph[:pos]} / {paragraph[pos:]}")
            pos += len(line)
    return wrong


def _paragraphs(text: str, lines: str) -> list[list[str]]:
    """``lines`` grouped by the paragraph of ``text`` each belongs to."""
    out: list[list[str]] = []
    rest = lines.split("\n")
    for paragraph in text.split("\n"):
        taken, length = [], 0
        while rest and (not taken or length < len(paragraph.replace(" ", ""))):
            taken.append(rest.pop(0))
            length += len(taken[-1].replace(" ", ""))
        out.append(taken)
    return out


def test_japanese_breaks_between_phrases_not_inside_a_word() -> None:
    width = _measure()
    text = "もう一度ボタンを押してください。"  # Kivy made "も/う一度" and "くださ/い。"
    assert fonts.phrases(text) == ("もう", "一度", "ボタンを", "押してください。")
    room = width("押してください。")
    assert fonts.japanese_lines(text, room, width) == "もう一度ボタンを\n押してください。"
    assert fonts.japanese_lines("Ana and Bo", 10, width) == "Ana and Bo"  # no Japanese
    # A phrase wider than the line is broken by characters, never before 。
    assert fonts.japanese_lines("押してください。", width("押してください"), width) == (
        "押してくださ\nい。")


def test_a_name_is_never_broken() -> None:
    width = _measure()
    text = "Bartholomäus、渡辺みなみ子とBoが帰還：道の宝石はなし。"  # noqa: RUF001
    room = width("Bartholomäus、渡辺みな")
    assert "渡辺みな\n" in fonts.japanese_lines(text, room, width)  # BudouX cuts the name
    fonts.keep_whole(["渡辺みなみ子", "Bo"])
    assert fonts.japanese_lines(text, room, width).startswith("Bartholomäus、\n渡辺みなみ子と")


@pytest.mark.parametrize("room", [150, 230, 330, 470])
def test_every_japanese_string_breaks_between_phrases(room: float) -> None:
    """Every string of the Japanese catalogue, set in a line of ``room`` px at
    20 px: each break between BudouX's phrases, none before 。、」 or a small
    kana; every line fits unless one phrase alone is wider."""
    width = _measure()
    wrong, too_wide = [], []
    for m in catalogue("ja"):
        for text in forms(m.string) if m.id else ():
            text = text.replace("{", "").replace("}", "")  # placeholders as words
            if not any(fonts.wide(c) for c in text):
                continue  # Latin only: Kivy breaks it at its spaces
            lines = fonts.japanese_lines(text, room, width)
            wrong += _wrong_breaks(text, lines, room, width)
            too_wide += [line for line in lines.split("\n") if width(line) > room
                         and len(fonts.phrases(line)) > 1]
    assert wrong == []
    assert too_wide == []


#: A count said in the wrong number: "1 gems", "5 klejnoty", "2 klejnotów", "1人0".
NUMBER_SLIPS = {
    "en": r"(?<![\d.,])1 (gems|cards|seats|artifacts|games|wins|rounds)\b"
          r"|(?<![\d.,])([02-9]|\d\d+) (gem|card|seat|artifact)\b(?! (card|each))",
    "pl": r"(?<![\d,])1 (klejnoty|klejnotów|karty|kart|graczy|artefakty|artefaktów)\b"
          r"|(?<![\d,])[2-4] (klejnotów|kart|artefaktów)\b"
          r"|(?<![\d,])[5-9] (klejnoty|karty|artefakty)\b",
    "es": r"(?<![\d,])1 (gemas|cartas|jugadores|artefactos)\b"
          r"|(?<![\d,])([02-9]|\d\d+) (gema|carta|jugador|artefacto)\b",
    "ja": r"1人0|人0個",
}


def _said(obj: object) -> Iterator[str]:
    """Every string of a view model (frozen dataclasses, tuples of them)."""
    import dataclasses

    if isinstance(obj, str):
        yield obj
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            yield from _said(getattr(obj, f.name))
    elif isinstance(obj, tuple | list):
        for item in obj:
            yield from _said(item)


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_random_games_say_every_count_in_its_number(code: str) -> None:
    """Eight random games (with undos and misreads) through every presenter of
    the table, the round's end and the final scores, and the text table."""
    import random

    from companion.engine import Phase
    from companion.simulate import random_events
    from ui.kivyfree import presenters
    from ui.kivyfree.words import table

    slip = re.compile(NUMBER_SLIPS[code])
    i18n.set_language(code)
    rng = random.Random(7)
    found, lines = set(), 0
    for _game in range(8):
        for _event, session in random_events(rng, mistakes=0.05):
            s = session.state
            views: list[object] = [presenters.table_view(s), presenters.odds_text(s), table(s)]
            if s.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
                views.append(presenters.round_end_view(s))
            if s.phase is Phase.GAME_OVER:
                views.append(presenters.game_over_view(s))
            for line in (line for v in views for t in _said(v) for line in t.split("\n")):
                lines += 1
                if slip.search(line):
                    found.add(line)
    assert lines > 20000
    assert sorted(found) == []


def test_english_is_the_source_and_its_catalogue_translates_nothing() -> None:
    """So English is worded without reading its catalogue (i18n.translations)."""
    english = catalogue("en")
    changed = [m.id for m in english if m.id and m.string and m.string != m.id]
    assert len(english) > 300 and changed == []
    assert type(i18n.translations("en")) is gettext.NullTranslations
    assert type(i18n.translations("pl")) is gettext.GNUTranslations


def test_figures_are_written_without_loading_babel() -> None:
    """Babel's locale data held 4 MB for English and 1 MB for each other
    language once the odds or the review were worded."""
    from helpers import run

    script = (
        "import sys\n"
        "from ui.kivyfree import i18n, words\n"
        "from ui.kivyfree.presenters.history import number\n"
        "for code in ('en', 'pl', 'es', 'ja'):\n"
        "    i18n.set_language(code)\n"
        "    print(words.decimal(1.25), words.signed(-2), number(3.5))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'babel'))\n"
    )
    done = run([sys.executable, "-c", script], cwd=ROOT, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "1.2 \u22122.0 3.5", "1,2 \u22122,0 3,5", "1,2 \u22122,0 3,5", "1.2 \u22122.0 3.5", "[]"]


@pytest.mark.parametrize("code", ["en", "pl", "es", "ja"])
def test_figures_are_written_as_babel_writes_them(code: str) -> None:
    """The app words its figures without Babel's locale data (5 MB once loaded):
    each language's decimal mark comes from its catalogue, held here to Babel's,
    and the rounding is Babel's (half to even, of the float as written)."""
    from babel.numbers import format_decimal

    from ui.kivyfree.presenters.history import number
    from ui.kivyfree.words import decimal

    ties = [k / 20 for k in range(1, 200, 4)] + [k / 200 for k in range(1, 200, 4)]
    values = [i / 40 for i in range(-400, 40000, 797)] + ties + [2.675, 999.95, 1e-9]
    i18n.set_language(code)
    for v in values:
        assert decimal(v) == format_decimal(v, format="0.0", locale=code), v
        assert decimal(v, 2) == format_decimal(v, format="0.00", locale=code), v
        if 0 <= round(v, 1) < 1000:  # the statistics' figures: a mean score, gems a round
            assert number(v) == format_decimal(round(v, 1), locale=code), v
