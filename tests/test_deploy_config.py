"""The device's config file: every bad key is named, a missing file means defaults.

Also checks that deploy/config.example.toml (the file install.sh puts in
/etc) parses to exactly the defaults, pin map included.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run

from hardware.pins import DEFAULT_PINS, SeatPins
from incan_companion.config import (
    CONFIG_ENV,
    DATA_ENV,
    CameraConfig,
    Config,
    ConfigError,
    default_config_path,
    default_data_file,
    load,
    parse,
)

EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "config.example.toml"


# (TOML text, the key the message must name, a phrase of the reason)
BAD: list[tuple[str, str, str]] = [
    ("[game]\nseats = 2", "[game] seats", "whole number from 3 to 8"),
    ("[game]\nseats = 9", "[game] seats", "whole number from 3 to 8"),
    ('[game]\nseats = "4"', "[game] seats", "whole number from 3 to 8"),
    ("[game]\nseats = true", "[game] seats", "whole number from 3 to 8"),
    ("[game]\nseats = 4.0", "[game] seats", "whole number from 3 to 8"),
    ('[game]\nrules = "monopoly"', "[game] rules", "must be one of"),
    ('[game]\nrules = "Incan-Gold"', "[game] rules", "must be one of"),
    ('[game]\nlanguage = "fr"', "[game] language", "must be one of"),
    ('[game]\nhidden_tents = "yes"', "[game] hidden_tents", "true or false"),
    ("[game]\nhidden_tents = 1", "[game] hidden_tents", "true or false"),
    ("[game]\ncountdown = -1", "[game] countdown", "number from 0 to 30"),
    ("[game]\ncountdown = 30.5", "[game] countdown", "number from 0 to 30"),
    ('[game]\ncountdown = "2"', "[game] countdown", "number from 0 to 30"),
    ("[game]\ncountdown = false", "[game] countdown", "number from 0 to 30"),
    ("[game]\nplayers = 4", "[game] players", "unknown key"),
    ("[buttons]\ndebounce_ms = 0", "[buttons] debounce_ms", "whole number from 1 to 500"),
    ("[buttons]\ndebounce_ms = 501", "[buttons] debounce_ms", "whole number from 1 to 500"),
    ("[buttons]\nhold_ms = 5", "[buttons] hold_ms", "unknown key"),
    ('[camera]\nsource = "webcam"', "[camera] source", "must be one of"),
    ("[camera]\ndevice = -1", "[camera] device", "whole number from 0 to 63"),
    ('[camera]\ndevice = "/dev/video0"', "[camera] device", "whole number from 0 to 63"),
    ("[camera]\nwidth = 100", "[camera] width", "whole number from 160 to 4096"),
    ("[camera]\nwidth = 5000", "[camera] width", "whole number from 160 to 4096"),
    ("[camera]\nheight = 100", "[camera] height", "whole number from 120 to 3072"),
    ("[camera]\nfps = 30", "[camera] fps", "unknown key"),
    ("[camera]\nabove_table_cm = 14.9", "[camera] above_table_cm", "number from 15 to 60"),
    ("[camera]\nabove_table_cm = 350", "[camera] above_table_cm", "number from 15 to 60"),
    ("[camera]\nabove_table_cm = nan", "[camera] above_table_cm", "number from 15 to 60"),
    ('[camera]\nabove_table_cm = "35 cm"', "[camera] above_table_cm", "number from 15 to 60"),
    ("[pins]\nseat1 = [2, 3]", "[pins] seat1", "[torch, camp, led]"),
    ("[pins]\nseat1 = [2, 3, 4, 5]", "[pins] seat1", "[torch, camp, led]"),
    ('[pins]\nseat1 = [2, 3, "4"]', "[pins] seat1", "[torch, camp, led]"),
    ("[pins]\nseat1 = [2, 3, true]", "[pins] seat1", "[torch, camp, led]"),
    ("[pins]\nseat1 = 2", "[pins] seat1", "[torch, camp, led]"),
    ("[pins]\nseat3 = [0, 9, 11]", "[pins] seat3", "GPIO 0 is not on the header"),
    ("[pins]\nseat3 = [10, 9, 28]", "[pins] seat3", "GPIO 28 is not on the header"),
    ("[pins]\nseat9 = [14, 15, 1]", "[pins] seat9", "unknown key"),
    # seat2's torch pin is seat1's LED: the later seat is named, with the owner.
    ("[pins]\nseat1 = [2, 3, 4]\nseat2 = [4, 27, 22]", "[pins] seat2",
     "GPIO 4 (torch) is already used by seat1 led"),
    # A clash with a seat the file left at its default pins names the seat it gave.
    ("[pins]\nseat2 = [4, 27, 22]", "[pins] seat2",
     "GPIO 4 (torch) is seat1's default led pin: give seat1 pins of its own too"),
    ("[pins]\nseat1 = [17, 27, 22]", "[pins] seat1",
     "GPIO 17 (torch) is seat2's default torch pin: give seat2 pins of its own too"),
    ('[data]\nfile = ""', "[data] file", "must be a file path"),
    ("[data]\nfile = 5", "[data] file", "must be a file path"),
    # a folder: the data file was made beside it, as /var/lib/incan/nd
    ('[data]\nfile = "/var/lib/incan/nd/"', "[data] file", "not a folder"),
    ('[data]\nfile = "~"', "[data] file", "not a folder"),
    ('[data]\npath = "/tmp/x"', "[data] path", "unknown key"),
]


@pytest.mark.parametrize(("text", "key", "reason"), BAD, ids=[b[0] for b in BAD])
def test_every_bad_key_is_named(tmp_path: Path, text: str, key: str, reason: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: {key}: "), message
    assert reason in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[screen]\nrotation = 180", "unknown section [screen]"),
        ("game = 4", "game must be a [game] table"),
        ("[game]\nseats = ", "not valid TOML"),
        ("[game]\nseats = 4\nseats = 5", "not valid TOML"),
    ],
)
def test_bad_sections_and_syntax_are_named(tmp_path: Path, text: str, expected: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert expected in str(caught.value)


def test_a_missing_file_gives_the_defaults(tmp_path: Path) -> None:
    config = load(tmp_path / "nowhere" / "config.toml")
    assert config == Config(data_file=config.data_file)
    assert config.path is None
    assert config.pins == DEFAULT_PINS
    assert (config.seats, config.rules, config.language, config.countdown) == (
        4,
        "incan-gold",
        "",
        2.0,
    )
    assert config.camera == CameraConfig("auto", 0, 640, 480)


def test_an_empty_file_gives_the_defaults_and_remembers_its_path(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text("", encoding="utf-8")
    config = load(path)
    assert config.path == path
    assert config.pins == DEFAULT_PINS and config.seats == 4


def test_a_file_saved_with_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    from incan_companion.paths import configured_language

    # Notepad's mark first and CRLF ends: tomllib refused the mark at line 1, column 1.
    path = tmp_path / "config.toml"
    path.write_bytes(b"\xef\xbb\xbf[game]\r\nlanguage = \"pl\"\r\nseats = 5\r\n")
    config = load(path)
    assert (config.language, config.seats) == ("pl", 5)
    assert configured_language(path, ("en", "pl")) == "pl"  # the commands' quick reader


def test_an_unreadable_file_is_an_error_not_the_defaults(tmp_path: Path) -> None:
    folder = tmp_path / "config.toml"
    folder.mkdir()  # a directory where the file should be: cannot be read
    with pytest.raises(ConfigError, match="cannot read"):
        load(folder)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00seats")
    with pytest.raises(ConfigError, match=r"binary\.toml: cannot read"):
        load(binary)


def test_a_bad_file_is_never_replaced_by_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    text = "[game]\nseats = 12\n"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError):
        load(path)
    assert path.read_text(encoding="utf-8") == text


def test_the_example_config_is_the_defaults() -> None:
    config = load(EXAMPLE)
    assert config.path == EXAMPLE
    assert config.pins == DEFAULT_PINS
    assert len(config.pins) == 8
    assert config.pins[0] == SeatPins(torch=2, camp=3, led=4)
    assert config == Config(data_file=config.data_file, path=EXAMPLE)


def test_the_example_config_leaves_the_data_file_to_the_service(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The unit sets INCAN_DATA; a [data] file key in /etc would send writes
    # outside the one writable directory, so the example has none.
    data = tmp_path / "var" / "games.sqlite"
    monkeypatch.setenv(DATA_ENV, str(data))
    assert load(EXAMPLE).data_file == data


def test_the_example_config_sets_every_key_the_app_reads() -> None:
    import tomllib

    table = tomllib.loads(EXAMPLE.read_text(encoding="utf-8"))
    assert set(table) == {"game", "buttons", "sound", "camera", "pins", "web"}
    assert set(table["game"]) == {"seats", "rules", "language", "hidden_tents", "countdown"}
    assert set(table["buttons"]) == {"debounce_ms"}
    assert set(table["sound"]) == {"volume", "muted"}
    assert set(table["camera"]) == {"source", "device", "width", "height", "above_table_cm"}
    assert set(table["pins"]) == {f"seat{n}" for n in range(1, 9)}
    assert table["web"] == {"addresses": ["lan"], "port": 8080}


def test_the_camera_height_is_read_in_centimetres(tmp_path: Path) -> None:
    from vision.sources import CAMERA_HEIGHT_MM

    path = tmp_path / "config.toml"
    path.write_text("[camera]\nabove_table_cm = 27.5\n", encoding="utf-8")
    assert load(path).camera.above_table_cm == 27.5
    assert load(tmp_path / "none.toml").camera.above_table_cm * 10 == CAMERA_HEIGHT_MM


def test_a_changed_pin_map_is_used(tmp_path: Path) -> None:
    text = EXAMPLE.read_text(encoding="utf-8").replace(
        "seat8 = [20, 21, 18]", "seat8 = [20, 21, 14]"
    )
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    assert load(path).pins[7] == SeatPins(20, 21, 14)
    assert load(path).pins[:7] == DEFAULT_PINS[:7]


def test_environment_chooses_the_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CONFIG_ENV, str(tmp_path / "etc" / "config.toml"))
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "var" / "games.sqlite"))
    assert default_config_path() == tmp_path / "etc" / "config.toml"
    assert default_data_file() == tmp_path / "var" / "games.sqlite"
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "config.toml").write_text("[game]\nseats = 5\n", encoding="utf-8")
    config = load()
    assert config.seats == 5
    assert config.data_file == tmp_path / "var" / "games.sqlite"


def test_the_environment_wins_over_a_data_file_in_the_config(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[data]\nfile = "~/elsewhere.sqlite"\n', encoding="utf-8")
    monkeypatch.delenv(DATA_ENV, raising=False)
    assert load(path).data_file == Path("~/elsewhere.sqlite").expanduser()
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "var" / "games.sqlite"))
    assert load(path).data_file == tmp_path / "var" / "games.sqlite"


def test_xdg_paths_without_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(CONFIG_ENV, raising=False)
    monkeypatch.delenv(DATA_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_config_path() == tmp_path / "cfg" / "incan-companion" / "config.toml"
    assert default_data_file() == tmp_path / "data" / "incan-companion" / "games.sqlite"


def test_parse_names_the_source_it_was_given() -> None:
    with pytest.raises(ConfigError, match=r"^/etc/x\.toml: \[game\] seats: "):
        parse("[game]\nseats = 1\n", "/etc/x.toml")


def test_the_app_refuses_a_bad_config_with_one_line_naming_the_key(tmp_path: Path) -> None:
    """Exit 2 (the unit's RestartPreventExitStatus), no traceback, the data file untouched."""
    import os
    import sys

    config = tmp_path / "config.toml"
    config.write_text('[camera]\nsource = "webcam"\n', encoding="utf-8")
    data = tmp_path / "games.sqlite"
    env = {
        **os.environ,
        CONFIG_ENV: str(config),
        DATA_ENV: str(data),
        "KIVY_HOME": str(tmp_path / "kivy"),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
    }
    env.pop("INCAN_DEBUG", None)
    result = run(
        [sys.executable, "-m", "incan_companion", "run", "--fullscreen", "--quit-after", "0.1"],
        env=env, text=True, seconds=120,
        cwd=Path(__file__).resolve().parent.parent,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == (
        f"incan-companion: {config}: [camera] source: must be one of "
        "'auto', 'picamera', 'v4l2', 'virtual', 'none'\n"
    )
    assert not data.exists()


def test_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    """A FIFO at the config's path held every start for ever (nothing writes to it):
    the app refuses it in one line; replay, for which the config only picks the
    language, goes on in the system's."""
    import os
    import sys

    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    with pytest.raises(ConfigError, match=r"config\.toml: cannot read: not a regular file"):
        load(fifo)
    root = Path(__file__).resolve().parent.parent
    env = {
        **os.environ, CONFIG_ENV: str(fifo), DATA_ENV: str(tmp_path / "games.sqlite"),
        "KIVY_HOME": str(tmp_path / "kivy"), "KIVY_NO_ARGS": "1", "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1", "LANGUAGE": "en",
    }  # fmt: skip
    env.pop("INCAN_DEBUG", None)
    for command, code, err in (
        (["run", "--quit-after", "0.1"], 2,
         f"incan-companion: {fifo}: cannot read: not a regular file\n"),
        (["replay", str(root / "examples" / "game.jsonl")], 0, ""),
    ):  # fmt: skip
        result = run(
            [sys.executable, "-m", "incan_companion", *command],
            env=env, text=True, seconds=60, cwd=root,
        )  # fmt: skip
        assert (result.returncode, result.stderr) == (code, err), command
    assert not (tmp_path / "games.sqlite").exists()
