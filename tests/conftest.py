"""Shared test set-up: Kivy runs offscreen and quietly, Hypothesis profiles, the board."""

from __future__ import annotations

import os
import tempfile

# Kivy reads these at import time; tests must never open a real display or
# parse pytest's arguments as its own.
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

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
