"""Shared test set-up: Kivy runs offscreen and quietly, Hypothesis profiles."""

from __future__ import annotations

import os
import tempfile

# Kivy reads these at import time; tests must never open a real display or
# parse pytest's arguments as its own.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=10_000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def own_files(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """No test reads or writes the user's own data or config file: each runs with
    a data file and a (missing) config file of its own, and so do the processes
    it starts. (A test that ran the app without --data locked the user's
    ~/.local/share data file, and another run of the suite found it in use.)"""
    home = tmp_path_factory.mktemp("incan-files")
    monkeypatch.setenv("INCAN_DATA", str(home / "games.sqlite"))
    monkeypatch.setenv("INCAN_CONFIG", str(home / "config.toml"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
