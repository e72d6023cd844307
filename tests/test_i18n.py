"""Languages: every string a player reads is in every catalogue, translated,
with the right plural forms, in a font that draws it."""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import i18n
from companion.i18n import LANGUAGES, _, ngettext, read_po
from companion.i18n_tools import check, extract, format_po, merge, placeholders, update

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "companion" / "locale"
EXAMPLE = ROOT / "examples" / "game.jsonl"
TRANSLATED = ("pl", "es", "ja")


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    i18n.set_language("en")


def catalogue(code: str) -> list[i18n.Message]:
    return read_po(i18n.po_path(code).read_text(encoding="utf-8"))


# --- the catalogues against the source ----------------------------------------------


def test_every_string_of_the_source_is_in_every_catalogue() -> None:
    """Fails when a `_()`/`ngettext()` string was added or reworded without a
    translation. Fix: `python -m companion.i18n_tools update`, translate the
    new entries of each incan.po, run this again."""
    problems = [str(p) for p in check()]
    assert not problems, "\n".join(problems)


def test_the_template_lists_exactly_the_source_strings() -> None:
    messages, _problems = extract()
    pot = [m for m in read_po((LOCALE / "incan.pot").read_text(encoding="utf-8")) if m.msgid]
    assert {m.key for m in pot} == {m.key for m in messages}, (
        "incan.pot is out of date: run python -m companion.i18n_tools update"
    )


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_catalogue_is_complete_no_fuzzy_no_untranslated(code: str) -> None:
    entries = [m for m in catalogue(code) if m.msgid and not m.obsolete]
    assert entries
    assert [m.msgid for m in entries if m.fuzzy] == []
    assert [m.msgid for m in entries if not m.translated] == []
    header = next(m for m in catalogue(code) if not m.msgid)
    assert f"Plural-Forms: {i18n.PLURAL_FORMS[code]}\n" in header.msgstr[0]


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_translations_keep_the_placeholders(code: str) -> None:
    for m in catalogue(code):
        if not m.msgid or m.obsolete:
            continue
        given = placeholders(m.msgid) | placeholders(m.msgid_plural or "")
        for s in m.msgstr:
            assert placeholders(s) <= given, (code, m.msgid, s)


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext not installed")
@pytest.mark.parametrize("code", list(LANGUAGES))
def test_gnu_msgfmt_accepts_the_catalogue(code: str, tmp_path: Path) -> None:
    done = subprocess.run(
        ["msgfmt", "--check-format", "--check-domain", "-o", str(tmp_path / "x.mo"),
         str(i18n.po_path(code))],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr


# --- the extractor and the update ------------------------------------------------------


def _tree(root: Path, ui_py: str, kv: str = "") -> None:
    (root / "ui").mkdir(parents=True)
    (root / "ui" / "screen.py").write_text(ui_py, encoding="utf-8")
    if kv:
        (root / "ui" / "screen.kv").write_text(kv, encoding="utf-8")


def test_extractor_reads_python_calls_and_kv_rules(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        "from companion.i18n import _, N_, ngettext, pgettext\n"
        "a = _('Torch')\n"
        "# i18n: the seat's choice\n"
        "b = ngettext('{n} gem', '{n} gems', n)\n"
        "c = pgettext('button', 'Camp')\n"
        "d = N_('marked')\n"
        "e = _(name)\n"
        "f = _(f'no {x}')\n",
        "#:import _ companion.i18n._\n"
        "<Screen>:\n"
        "    Label:\n"
        "        text: _('Undo') if root.x else _(\"It's (odd)\")\n"
        "        # text: _('commented out')\n",
    )
    messages, problems = extract(tmp_path)
    keys = {(m.msgctxt, m.msgid, m.msgid_plural) for m in messages}
    assert keys == {
        (None, "Torch", None),
        (None, "{n} gem", "{n} gems"),
        ("button", "Camp", None),
        (None, "marked", None),
        (None, "Undo", None),
        (None, "It's (odd)", None),
    }
    gem = next(m for m in messages if m.msgid == "{n} gem")
    assert gem.comments == ["the seat's choice"]
    assert gem.locations == ["ui/screen.py:4"]
    assert "python-brace-format" in gem.flags
    assert [p.what for p in problems] == ["_() of an f-string cannot be translated"]


def test_a_new_untranslated_string_fails_the_check(tmp_path: Path) -> None:
    """What the first test does for the real tree, shown on a small one."""
    _tree(tmp_path, "from companion.i18n import _\nx = _('Torch')\n")
    locale = tmp_path / "locale"
    assert update(tmp_path, locale) == []
    assert any("untranslated" in str(p) for p in check(tmp_path, locale))
    for code in TRANSLATED:  # a translator fills the catalogues in
        po = i18n.po_path(code, locale)
        po.write_text(
            po.read_text(encoding="utf-8").replace('msgstr ""\n\n', 'msgstr "x"\n\n', 1)
            .replace('msgid "Torch"\nmsgstr ""', 'msgid "Torch"\nmsgstr "x"'),
            encoding="utf-8",
        )
    assert check(tmp_path, locale) == []
    (tmp_path / "ui" / "screen.py").write_text(
        "from companion.i18n import _\nx = _('Torch')\ny = _('Brand new')\n", encoding="utf-8"
    )
    problems = [str(p) for p in check(tmp_path, locale)]
    assert len(problems) == len(LANGUAGES)
    assert all("'Brand new' (ui/screen.py:3) is not in it" in p for p in problems)


def test_update_keeps_translations_and_offers_close_ones_as_fuzzy() -> None:
    old = [
        i18n.Message("Torch or camp?", msgstr=["Pochodnia czy obozowisko?"]),
        i18n.Message("Undo", msgstr=["Cofnij"]),
    ]
    new = [i18n.Message("Torch or camp!"), i18n.Message("Undo"), i18n.Message("Start")]
    merged = {m.msgid: m for m in merge("pl", new, old)}
    assert merged["Undo"].msgstr == ["Cofnij"] and not merged["Undo"].fuzzy
    assert merged["Torch or camp!"].msgstr == ["Pochodnia czy obozowisko?"]
    assert merged["Torch or camp!"].fuzzy
    assert merged["Start"].msgstr == [""]
    assert merged["Torch or camp?"].obsolete
    again = read_po(format_po(list(merged.values())))
    assert [(m.msgid, m.msgstr, m.fuzzy, m.obsolete) for m in again] == [
        (m.msgid, m.msgstr, m.fuzzy, m.obsolete) for m in merged.values()
    ]


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
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        i18n.set_language("fr")
    assert i18n.language() == "es"


def test_configured_language_comes_from_the_config_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    config = tmp_path / "config.toml"
    monkeypatch.setenv("INCAN_CONFIG", str(config))
    assert i18n.set_configured_language() == "es"  # no file: the system's
    config.write_text('[game]\nlanguage = "pl"\n', encoding="utf-8")
    assert i18n.set_configured_language() == "pl"
    config.write_text('[game]\nlanguage = "klingon"\n', encoding="utf-8")
    assert i18n.set_configured_language() == "es"  # a bad file is not ours to report


def test_mo_is_what_gettext_reads_and_a_newer_po_wins(tmp_path: Path) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE, locale, ignore=shutil.ignore_patterns("*.mo"))
    assert i18n.translations("pl", locale).gettext("Undo") == "Cofnij"  # .po, in memory
    written = i18n.compile_catalogues(locale)
    assert sorted(p.parent.parent.name for p in written) == sorted(LANGUAGES)
    with i18n.mo_path("pl", locale).open("rb") as fp:
        mo = gettext.GNUTranslations(fp)
    assert mo.gettext("Undo") == "Cofnij"
    assert mo.ngettext("kept {n} gem", "kept {n} gems", 22) == "zachowuje {n} klejnoty"
    po = i18n.po_path("pl", locale)
    po.write_text(po.read_text(encoding="utf-8").replace('"Cofnij"', '"Wstecz"'),
                  encoding="utf-8")
    later = i18n.mo_path("pl", locale).stat().st_mtime + 10
    os.utime(po, (later, later))
    assert i18n.translations("pl", locale).gettext("Undo") == "Wstecz"
    assert isinstance(i18n.translations("pl", tmp_path / "nowhere"), gettext.NullTranslations)


def test_the_build_script_compiles_every_catalogue(tmp_path: Path) -> None:
    script = ROOT / "scripts" / "build-translations.sh"
    assert os.access(script, os.X_OK)
    done = subprocess.run([str(script)], capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHON": sys.executable}, timeout=60)
    assert done.returncode == 0, done.stderr
    for code in LANGUAGES:
        assert i18n.mo_path(code).is_file()
    ignored = subprocess.run(["git", "check-ignore", "-q", str(i18n.mo_path("pl"))], cwd=ROOT,
                             check=False)
    assert ignored.returncode == 0, ".mo files must not be committed"


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
    from companion.describe import card_name, phase_name, status_name
    from companion.engine import Phase, Status

    i18n.set_language(code)
    said = " ".join(
        [phase_name(Phase.CHOOSE)]
        + [card_name(c) for c in ("SNAKE1", "SPIDER1", "MUMMY1", "FIRE1", "ROCKS1", "T5A", "A1")]
        + [status_name(Status.IN), _("tent"), _("Everyone has left the temple.")]
    ).lower()
    missing = [w for w in VOCABULARY[code] if w not in said]
    assert not missing, said


def test_readable_replay_follows_the_language_json_does_not() -> None:
    from companion import engine
    from companion.cli import replay_log
    from companion.describe import table

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


# --- the font --------------------------------------------------------------------------


def _glyph(font: object, char: str) -> tuple[object, bytes]:
    mask = font.getmask(char)  # type: ignore[attr-defined]
    return mask.size, bytes(mask)


def test_the_font_draws_every_character_of_every_catalogue() -> None:
    from PIL import ImageFont

    font_files = i18n.ui_font()
    assert font_files is not None, (
        "no font for every language: install the Debian package fonts-migmix "
        "(scripts/setup.sh does)"
    )
    chars = set("".join(LANGUAGES.values())) | set("\u2022\u2026\u00d7\u00b7 0123456789")
    for code in LANGUAGES:
        for m in catalogue(code):
            if m.msgid and not m.obsolete:
                chars |= set("".join(m.msgstr))
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
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=60, check=False)


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


def test_font_choice_and_the_japanese_fallback(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.delenv(i18n.FONT_ENV, raising=False)
    font = i18n.ui_font()
    assert font is not None and font.package == "fonts-migmix"
    assert font.bold is not None
    cjk = tmp_path / "cjk.ttc"
    cjk.write_bytes(b"")
    monkeypatch.setattr(i18n, "FONT_CANDIDATES", (
        i18n.FontFiles("gone", tmp_path / "gone.ttf", None, "fonts-gone"),))
    monkeypatch.setattr(i18n, "JAPANESE_FALLBACKS", (
        i18n.FontFiles("CJK", cjk, tmp_path / "no-bold.ttc", "fonts-cjk"),))
    assert i18n.ui_font("pl") is None  # Polish keeps Kivy's Roboto: it has ą, ę, ł
    fallback = i18n.ui_font("ja")
    assert fallback is not None and fallback.regular == cjk and fallback.bold is None
    monkeypatch.setenv(i18n.FONT_ENV, str(cjk))
    chosen = i18n.ui_font("pl")
    assert chosen is not None and chosen.regular == cjk


TRICKY = [
    i18n.Message("", msgstr=["Language: pl\nPlural-Forms: " + i18n.PLURAL_FORMS["pl"] + "\n"
                             "Content-Type: text/plain; charset=UTF-8\n"]),
    i18n.Message('say "hi"\\ \ttab', msgstr=['powiedz „cześć” \\ \ttab']),
    i18n.Message("two\nlines", msgstr=["dwie\nlinie"]),
    i18n.Message("Camp", msgctxt="button", msgstr=["Obóz"]),
    i18n.Message("{n} gem", "{n} gems", msgstr=["{n} klejnot", "{n} klejnoty", "{n} klejnotów"]),
    i18n.Message("maybe", msgstr=["może"], flags=["fuzzy"]),
    i18n.Message("empty", msgstr=[""]),
    i18n.Message("gone", msgstr=["było"], obsolete=True),
]


def test_po_round_trip_and_mo_as_gnu_msgfmt_would(tmp_path: Path) -> None:
    text = format_po(TRICKY)
    again = read_po(text)
    assert [(m.msgctxt, m.msgid, m.msgid_plural, m.msgstr, m.fuzzy, m.obsolete) for m in again] \
        == [(m.msgctxt, m.msgid, m.msgid_plural, m.msgstr, m.fuzzy, m.obsolete) for m in TRICKY]
    import io

    ours = gettext.GNUTranslations(io.BytesIO(i18n.mo_bytes(again)))
    assert ours.gettext('say "hi"\\ \ttab') == 'powiedz „cześć” \\ \ttab'
    assert ours.gettext("two\nlines") == "dwie\nlinie"
    assert ours.pgettext("button", "Camp") == "Obóz" and ours.gettext("Camp") == "Camp"
    assert [ours.ngettext("{n} gem", "{n} gems", n) for n in (1, 3, 5)] == [
        "{n} klejnot", "{n} klejnoty", "{n} klejnotów"]
    assert ours.gettext("maybe") == "maybe"  # fuzzy: not used, as msgfmt does
    assert ours.gettext("empty") == "empty" and ours.gettext("gone") == "gone"
    if shutil.which("msgfmt"):
        po = tmp_path / "x.po"
        po.write_text(text, encoding="utf-8")
        subprocess.run(["msgfmt", "-o", str(tmp_path / "x.mo"), str(po)], check=True)
        with (tmp_path / "x.mo").open("rb") as fp:
            gnu = gettext.GNUTranslations(fp)
        assert gnu._catalog == ours._catalog  # type: ignore[attr-defined]
