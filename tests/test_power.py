"""The menu's switch: a request file that systemd's path unit acts on."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from hardware.power import SWITCH_OFF_ENV, SwitchOffRequest, switch_off_from_environment


def test_the_kiosk_names_its_request_file_and_the_switch_makes_it(tmp_path: Path) -> None:
    request = tmp_path / "switch-off"
    switch = switch_off_from_environment({SWITCH_OFF_ENV: str(request)})
    assert switch == SwitchOffRequest(str(request))
    assert not request.exists()
    switch()
    assert request.read_bytes() == b""
    assert request.stat().st_mode & 0o777 == 0o600
    switch()  # a second tap, while the system is on its way down: the same request
    assert request.read_bytes() == b""


@pytest.mark.parametrize("value", ["", "switch-off", "relative/switch-off", "/no/such/folder/x"])
def test_no_switch_where_nothing_would_act_on_it(
    value: str, caplog: pytest.LogCaptureFixture
) -> None:
    env = {SWITCH_OFF_ENV: value} if value else {}
    with caplog.at_level(logging.WARNING):
        assert switch_off_from_environment(env) is None
    # Unset is a desktop's normal case; a value that cannot work is said.
    said = [r.getMessage() for r in caplog.records]
    assert said == ([] if not value else [
        f"INCAN_SWITCH_OFF={value}: not a file in an existing folder; the menu offers no switch"])


def test_a_request_that_cannot_be_made_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    switch = switch_off_from_environment({SWITCH_OFF_ENV: str(folder / "switch-off")})
    assert switch is not None
    folder.rmdir()  # the service's runtime folder gone
    with pytest.raises(FileNotFoundError):
        switch()
    assert not os.path.exists(folder)
