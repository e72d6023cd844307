"""The command line as a user meets it: exit codes, one-line errors, no traceback."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import paced

from companion import engine
from companion.events import Draw, Reveal, Start, Undo
from incan_companion import cli
from incan_companion.commands.game import replay_log
from storage import Store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "game.jsonl"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "incan_companion", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=paced(60),
    )


def test_replay_json_of_the_example_game() -> None:
    done = run("replay", str(EXAMPLE), "--json")
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert state["round"] == 2 and state["phase"] == "round_over"
    assert [s["banked"] for s in state["seats"]] == [8, 12, 5, 15]
    assert [s["artifacts"] for s in state["seats"]] == [[5], [], [], []]
    assert state["scores"] == [13, 12, 5, 15]
    assert state["removed"] == ["SPIDER2"]
    assert [p["card"] for p in state["path"]] == ["T14", "MUMMY1", "T9", "T4"]


def test_a_log_saved_by_notepad_replays_as_it_is(tmp_path: Path) -> None:
    """A byte-order mark first and CRLF line ends: the same game. The mark was
    refused with Python's own words ("decode using utf-8-sig")."""
    saved = tmp_path / "notepad.jsonl"
    saved.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    assert engine.to_json(replay_log(saved).state) == engine.to_json(replay_log(EXAMPLE).state)
    # A mark anywhere else is no part of the JSON: refused, with its line.
    inside = tmp_path / "inside.jsonl"
    lines = EXAMPLE.read_bytes().split(b"\n")
    inside.write_bytes(b"\n".join([lines[0], b"\xef\xbb\xbf" + lines[1], *lines[2:]]))
    done = run("replay", str(inside))
    assert done.returncode == 2 and done.stderr.startswith("incan-companion: line 2: bad JSON")


def test_replay_readable_table() -> None:
    done = run("replay", str(EXAMPLE))
    assert done.returncode == 0
    assert "round 2 of 5" in done.stdout
    assert "Dee" in done.stdout and "15" in done.stdout
    assert "Shuffle A3 into the deck for round 3." in done.stdout


def test_invalid_log_exits_2_with_line_and_reason(tmp_path: Path) -> None:
    log = tmp_path / "bad.jsonl"
    lines = EXAMPLE.read_text().splitlines()
    lines[4] = '{"event": "reveal", "camp": [7]}'
    log.write_text("\n".join(lines) + "\n")
    done = run("replay", str(log))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == (
        "incan-companion: line 5: seat 7 is out of range (seats 0 to 3)"
    )
    assert "Traceback" not in done.stderr


#: A file name longer than a Linux file system takes (255 bytes).
TOO_LONG = f"{tempfile.gettempdir()}/{'a' * 300}"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["replay", "/nonexistent/game.jsonl"], "no such file"),
        (["replay"], "the following arguments are required: LOG"),
        (["export", str(EXAMPLE)], "not an incan-companion data file"),
        (["frobnicate"], "invalid choice"),
        # options with no command are the app's: `./run.sh --fullscreen`
        (["--quit-after"], "incan-companion: run: argument --quit-after: expected one argument"),
        (["replay", str(EXAMPLE), "--game", "1"], "--game is for data files"),
        # a folder has no file to lock or set aside (was exit 1, "has an empty name")
        (["demo", "--autoplay", "--data", "/"], "incan-companion: /: a folder, not a data file"),
        (["run", "--data", "/", "--quit-after", "0.1"], "/: a folder, not a data file"),
        # a path that cannot be used is the user's input too (was exit 1, "error: [Errno 36]")
        (["run", "--data", f"{TOO_LONG}.sqlite", "--quit-after", "0.1"], "File name too long"),
        (["demo", "--autoplay", "--data", f"{TOO_LONG}.sqlite"], "File name too long"),
        (["recover", f"{TOO_LONG}.sqlite"], "File name too long"),
        (["recover", str(EXAMPLE), "--out", f"{TOO_LONG}.sqlite"], "File name too long"),
        (["stickers", "--out", f"{EXAMPLE}/stickers.pdf"], "stickers.pdf: Not a directory"),
        (["run", "--config", "/nonexistent/confg.toml", "--quit-after", "0.1"],
         "incan-companion: /nonexistent/confg.toml: no such config file"),
        # refused before a session is played, not after it (was exit 1, or a JPEG of PNG bytes)
        (["run", "--screenshot", f"{tempfile.gettempdir()}/screen.jpg"], "name it .png"),
        (["demo", "--autoplay", "--screenshot", "/nonexistent/screen.png"],
         "/nonexistent is not a folder"),
        # nan and -5 quit before the first screen, without its report, exit 0
        (["run", "--quit-after", "nan"], "--quit-after: the seconds are a number above 0"),
        (["run", "--quit-after", "-5"], "--quit-after: the seconds are a number above 0"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr


def test_run_with_a_game_log_for_its_data_file_leaves_the_log_be(tmp_path: Path) -> None:
    """Named by hand, a file that is not SQLite is a mistake, not a data file gone
    bad: it was renamed aside and a new data file made under its name."""
    log = tmp_path / "game.jsonl"
    log.write_bytes(EXAMPLE.read_bytes())
    for command in (["run", "--quit-after", "0.1"], ["demo", "--autoplay"]):
        done = run(*command, "--data", str(log))
        assert done.returncode == 2, command
        assert done.stderr == (f"incan-companion: {log} is not an incan-companion data file "
                               f"(not SQLite); a game log is read with: incan-companion replay "
                               f"{log}\n")  # fmt: skip
        assert [p.name for p in tmp_path.iterdir()] == ["game.jsonl"]
        assert log.read_bytes() == EXAMPLE.read_bytes()


def test_binary_garbage_log_exits_2(tmp_path: Path) -> None:
    log = tmp_path / "garbage.jsonl"
    log.write_bytes(bytes(range(256)) * 4)
    done = run("replay", str(log))
    assert done.returncode == 2 and "Traceback" not in done.stderr


def make_data_file(path: Path) -> None:
    with Store(path) as store:
        old = store.new_game(Start(("X", "Y", "Z")))
        store.append(old, Draw("T1"))
        game = store.new_game(Start(("Ana", "Bo", "Cy"), "incan-gold-2020"))
        for event in (Draw("A1"), Reveal((2,)), Draw("T5A"), Undo(), Draw("T5B")):
            store.append(game, event)


def test_export_prints_the_latest_game_without_undone_events(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    make_data_file(data)
    done = run("export", str(data))
    assert done.returncode == 0, done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"event": "start", "seats": ["Ana", "Bo", "Cy"], "rules": "incan-gold-2020"},
        {"event": "draw", "card": "A1"},
        {"event": "reveal", "camp": [2]},
        {"event": "draw", "card": "T5B"},
    ]
    older = run("export", str(data), "--game", "1")
    assert older.stdout.splitlines()[1] == '{"event": "draw", "card": "T1"}'
    missing = run("export", str(data), "--game", "7")
    assert missing.returncode == 2 and "there is no game 7" in missing.stderr


def test_replay_reads_the_data_file_and_export_round_trips(tmp_path: Path) -> None:
    data = tmp_path / "games.sqlite"
    make_data_file(data)
    from_data = run("replay", str(data), "--json")
    assert from_data.returncode == 0, from_data.stderr
    log = tmp_path / "exported.jsonl"
    log.write_text(run("export", str(data)).stdout)
    from_log = run("replay", str(log), "--json")
    assert json.loads(from_log.stdout) == json.loads(from_data.stdout)
    state = json.loads(from_data.stdout)
    assert state["seats"][2]["artifacts"] == [5]
    assert [s["hand"] for s in state["seats"]] == [2, 2, 0]


def test_foreign_sqlite_is_refused_for_replay_and_export(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "other.sqlite"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE t (x)")
    db.commit()
    db.close()
    for command in ("replay", "export"):
        done = run(command, str(path))
        assert done.returncode == 2
        assert "another program" in done.stderr


def test_in_process_main_matches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(EXAMPLE), "--json"]) == 0
    state = replay_log(EXAMPLE).state
    assert json.loads(capsys.readouterr().out) == engine.to_json(state)


def test_the_command_line_loads_no_heavy_library() -> None:
    code = (
        "import sys, incan_companion.cli as c; c.build_parser();"
        "heavy = [m for m in ('kivy', 'cv2', 'gpiozero', 'numpy', 'zxingcpp', 'pyzbar')"
        " if m in sys.modules]; print(heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=paced(60)
    )
    assert done.stdout.strip() == "[]", done.stderr


def test_importing_the_engine_loads_no_adapter_library() -> None:
    code = (
        "import sys; import companion.engine, companion.session, storage,"
        " ui.kivyfree.words, companion.simulate;"
        "print([m for m in ('kivy', 'cv2', 'gpiozero') if m in sys.modules])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=paced(60)
    )
    assert done.stdout.strip() == "[]", done.stderr


def test_every_command_is_listed_by_the_module_that_registers_it() -> None:
    def commands(parser: argparse.ArgumentParser) -> set[str]:
        # The parser's own refusal lists the commands it knows.
        with pytest.raises(cli.BadInput) as refused:
            parser.parse_args(["no-such-command"])
        return set(re.findall(r"'([a-z-]+)'", str(refused.value).split("choose from", 1)[1]))

    assert commands(cli.build_parser()) == set(cli.COMMANDS)
    for name, module in cli.COMMANDS.items():
        assert commands(cli.build_parser(name)) == {
            n for n, m in cli.COMMANDS.items() if m == module
        }


def _modules_after(
    args: list[str],
    prefixes: tuple[str, ...],
    *,
    site: bool = True,
    env: dict[str, str] | None = None,
) -> list[str]:
    """The modules (by name prefix) that ``incan-companion ARGS`` has imported once done.

    ``site=False``: with no ``site`` module, so none of what this venv's
    editable install loads at every start (pathlib among it), as on a
    device's install; our packages are found from the checkout."""
    code = (
        "import contextlib, io, sys; from incan_companion import cli\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try: cli.main(sys.argv[1:])\n"
        "    except SystemExit: pass\n"
        f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    )
    python = [sys.executable] if site else [sys.executable, "-S"]
    done = subprocess.run([*python, "-c", code, *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=paced(60), check=True)  # fmt: skip
    return list(json.loads(done.stdout.replace("'", '"')))


def test_help_lists_every_command_without_importing_one() -> None:
    assert _modules_after(["--help"], ("incan_companion.commands", "companion")) == []
    done = run("--help")
    assert done.returncode == 0
    listed = re.findall(r"^    (\w+) +(\S.*)$", done.stdout, flags=re.M)
    assert [name for name, _summary in listed] == list(cli.COMMANDS)


def test_help_lists_the_commands_as_their_modules_register_them() -> None:
    assert cli.build_parser(listing=True).format_help() == cli.build_parser().format_help()
    assert cli.build_parser("--help", listing=True).format_help() == (
        cli.build_parser().format_help()
    )


def test_a_name_that_is_no_command_imports_no_command() -> None:
    assert _modules_after(["bogus"], ("incan_companion.commands",)) == []
    done = run("bogus")
    assert done.returncode == 2
    assert done.stderr == (
        "incan-companion: argument COMMAND: invalid choice: 'bogus' (choose from 'replay',"
        " 'export', 'review', 'stats', 'recover', 'run', 'demo', 'scan', 'stickers', 'buttons',"
        " 'fault')\n"
    )


@pytest.mark.parametrize("columns", ["50", "200", "0", "wide"])
def test_help_is_as_wide_as_argparse_makes_it(
    columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def with_commands(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return [parser, *sub.choices.values()]

    monkeypatch.setenv("COLUMNS", columns)
    ours, theirs = with_commands(cli.build_parser()), with_commands(cli.build_parser())
    for parser in theirs:
        parser.formatter_class = argparse.HelpFormatter  # argparse's own, measuring by shutil
    assert [p.format_help() for p in ours] == [p.format_help() for p in theirs]


def test_replay_json_imports_no_words_and_no_shutil() -> None:
    loaded = _modules_after(["replay", str(EXAMPLE), "--json"], ("shutil", "ui", "babel"))
    assert loaded == []


@pytest.mark.parametrize("json_output", [True, False], ids=["json", "words"])
@pytest.mark.parametrize("configured", [False, True], ids=["no-config", "config"])
def test_replay_never_loads_pathlib(tmp_path: Path, json_output: bool, configured: bool) -> None:
    config = tmp_path / "config.toml"
    if configured:
        config.write_text('[game]\nlanguage = "es"\n')
    env = {**os.environ, "INCAN_CONFIG": str(config), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    args = ["replay", str(EXAMPLE), *(["--json"] if json_output else [])]
    loaded = _modules_after(args, ("pathlib", "fnmatch", "urllib"), site=False, env=env)
    assert loaded == []
    # ...and the same command, with pathlib's import refused, still answers.
    done = subprocess.run(
        [sys.executable, "-S", "-c", "import sys; sys.modules['pathlib'] = None\n"
         "from incan_companion import cli; sys.exit(cli.main(sys.argv[1:]))", *args],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=paced(60),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    if json_output:
        assert json.loads(done.stdout) == engine.to_json(replay_log(EXAMPLE).state)
    else:
        said = "ronda 2 de 5" if configured else "round 2 of 5"
        assert said in done.stdout, done.stdout


def test_the_commands_that_speak_the_tables_language_are_the_ones_the_docs_name() -> None:
    """Each command that prints words asks for the configured language (its
    ``words`` default), and docs/command-line.md names exactly those."""
    speaking = set()
    for name in cli.COMMANDS:
        parser = cli.build_parser(name)
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        if sub.choices[name].get_default("words"):
            speaking.add(name)
    assert speaking == {"replay", "review", "stats", "demo", "scan", "stickers", "fault"}
    text = " ".join((ROOT / "docs" / "command-line.md").read_text(encoding="utf-8").split())
    said = text.split("The readable output (not JSON) of ", 1)[1]
    said = said.split(" is in the table's language", 1)[0]
    assert set(re.findall(r"`([a-z]+)`", said)) == speaking
