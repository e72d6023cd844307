"""Shared test set-up: Kivy runs offscreen and quietly, Hypothesis profiles, the board,
the slow and network tiers."""

from __future__ import annotations

import os
import tempfile

# Kivy reads these at import time; tests must never open a real display or
# parse pytest's arguments as its own.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
# Mesa's software renderer (offscreen, no GPU) draws on the drawing thread
# alone: its helper threads, one a core, only fought the other tests' workers
# (a game of tests/test_screens.py alone: 4.6 s instead of 6.6, the same CPU).
os.environ.setdefault("LP_NUM_THREADS", "0")

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=10_000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def a_desktop_board(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every test runs on a desktop board, whatever board runs the suite: on a
    Pi, the real /proc/device-tree/model would turn "no GPIO" into "cannot
    load the lgpio pin factory". A test that wants a Pi points
    ``hardware.gpio._MODEL_FILE`` at a model file of its own."""
    import hardware.gpio

    monkeypatch.setattr(hardware.gpio, "_MODEL_FILE", tmp_path_factory.getbasetemp() / "no-model")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)


#: Tests of a second or more (measured with --durations on 2 cores) in files
#: that do not mark themselves: ``./test.sh -m "not slow"`` leaves them out.
#: A new slow test is marked ``@pytest.mark.slow`` where it is written, or
#: listed here (a path, or a path and a test name).
SLOW = (
    "tests/test_screens.py",  # every state in 4 languages, 3 to 8 seats: 10 games
    "tests/test_end_screens.py::test_nothing_is_cut_and_every_size_holds",
    "tests/test_properties.py::test_random_games_keep_the_invariants",
    "tests/test_properties.py::test_the_correction_picker_lists_exactly_what_a_correction",
    "tests/test_vision_photo.py::test_never_a_wrong_card_nor_a_non_card",
    "tests/test_faults_kill.py::test_kill_9_of_demo_autoplay_then_resume",
    "tests/test_ui_menu.py::test_the_menu_changes_the_language_of_everything_on_screen",
    "tests/test_ui_app.py::test_the_language_buttons_translate_every_screen_and_are_remembered",
)


#: The files that take longest, longest first (seconds of --durations on two
#: cores, 29 November): they are handed to the workers first, and the run ends
#: on short files. xdist's own order, turned off by ``--no-loadscope-reorder``
#: in pyproject.toml, puts a file with more tests first and can leave one with
#: a few long tests (test_faults_kill, test_properties, test_demo) for the end,
#: while the other worker has nothing left; in this order the two workers end
#: within a second of each other.
LONGEST_FIRST = (
    "tests/test_screens.py",  # 54 s, and two processes of its own
    "tests/test_faults_kill.py",  # 29
    "tests/test_properties.py",  # 21
    "tests/test_keyboard.py",  # 21
    "tests/test_web_browser.py",  # 19
    "tests/test_vision_photo.py",  # 16
    "tests/test_demo.py",  # 14
    "tests/test_i18n.py",  # 12
    "tests/test_datafile_safety.py",  # 11
    "tests/test_cli.py",  # 9
    "tests/test_web.py",  # 8
    "tests/test_round_flow.py",  # 8
    "tests/test_vision_scanner.py",  # 8
    "tests/test_ui_app.py",  # 7.5
    "tests/test_end_screens.py",  # 7
    "tests/test_vision_roi.py",  # 6
)


@pytest.hookimpl(tryfirst=True)  # before -m picks by the marks
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    wanted = "network" in (config.getoption("markexpr", "") or "")
    network = wanted or os.environ.get("INCAN_TEST_NETWORK") == "1"
    offline = pytest.mark.skip(reason="reaches the package index: INCAN_TEST_NETWORK=1 runs it")
    for item in items:
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
        if not network and item.get_closest_marker("network") is not None:
            item.add_marker(offline)
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))


@pytest.fixture(autouse=True)
def own_files(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads or writes the user's own data, config or cache files: each runs with
    a data file and a (missing) config file of its own, and so do the processes
    it starts. (A test that ran the app without --data locked the user's
    ~/.local/share data file, and another run of the suite found it in use.)"""
    home = tmp_path_factory.mktemp("incan-files")
    monkeypatch.setenv("INCAN_DATA", str(home / "games.sqlite"))
    monkeypatch.setenv("INCAN_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "cache"))
