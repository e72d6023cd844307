"""The kiosk tells systemd it is ready and alive (sd_notify on a real socket),
and the fault screen says why it stopped, from the kiosk's journal."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import kivy_env, paced

from incan_companion import cli
from incan_companion.commands.fault import last_reason
from incan_companion.notify import notify, watchdog_interval

ROOT = Path(__file__).resolve().parent.parent

JOURNAL = """\
Started incan-companion.service - Incan Gold table companion (touchscreen kiosk).
incan-companion: /etc/incan-companion/config.toml: [camera] source: must be one of 'auto', 'picamera', 'v4l2', 'virtual', 'none'
incan-companion.service: Main process exited, code=exited, status=2/INVALIDARGUMENT
"""  # noqa: E501


def test_outside_systemd_nothing_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    monkeypatch.delenv("WATCHDOG_USEC", raising=False)
    assert notify("READY=1") is False
    assert watchdog_interval() is None


def test_the_watchdog_interval_is_half_of_systemds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid()))
    assert watchdog_interval() == 15.0
    monkeypatch.setenv("WATCHDOG_PID", str(os.getpid() + 1))  # another process's
    assert watchdog_interval() is None


def test_the_app_says_ready_after_its_first_screen_then_keeps_the_watchdog_fed(
    tmp_path: Path,
) -> None:
    address = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(address)
        sock.settimeout(paced(60))
        env = {
            **kivy_env(tmp_path / "kivy"),
            "NOTIFY_SOCKET": address,
            "WATCHDOG_USEC": "200000",  # a tick every 0.1 s
            "INCAN_DATA": str(tmp_path / "games.sqlite"),
            "INCAN_CONFIG": str(tmp_path / "none.toml"),
        }
        app = subprocess.Popen(
            [sys.executable, "-m", "incan_companion", "run", "--camera", "none",
             "--buttons", "keyboard", "--quit-after", str(paced(120))],
            env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            said = [sock.recv(256).decode() for _ in range(3)]
        finally:
            app.terminate()
            app.communicate(timeout=paced(60))
    # READY first: systemd's start job ends when the screen is there.
    assert said == ["READY=1", "WATCHDOG=1", "WATCHDOG=1"]


def test_the_fault_screen_names_the_last_message(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(JOURNAL))
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setenv("INCAN_CONFIG", "/nonexistent/config.toml")
    assert cli.main(["fault"]) == 0
    out = capsys.readouterr().out
    assert "The Incan Gold companion has stopped." in out
    assert "  /etc/incan-companion/config.toml: [camera] source: must be one of" in out
    # Forget the failed starts first: the start limit refuses a start by hand too.
    assert (
        "  sudo systemctl reset-failed incan-companion.service\n"
        "  sudo systemctl restart incan-companion.service\n"
    ) in out


def test_the_last_reason_is_the_apps_own_line_else_the_last() -> None:
    assert last_reason(JOURNAL) is not None
    assert last_reason(JOURNAL).startswith("/etc/incan-companion/config.toml: [camera]")  # type: ignore[union-attr]
    assert last_reason("Segmentation fault\n") == "Segmentation fault"
    assert last_reason("\x1b[31mred\n") == "\\x1b[31mred"
    assert last_reason("") is None


def test_the_fault_screen_shows_a_long_last_line_cut_and_an_odd_unit_escaped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("x" * 100_000 + "\n"))
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.setenv("INCAN_CONFIG", "/nonexistent/config.toml")
    assert cli.main(["fault", "--unit", "kiosk\x1b[2J.service"]) == 0
    out = capsys.readouterr().out
    assert f"  {'x' * 500}… (99500 more characters)\n" in out
    assert "\x1b" not in out and "  sudo systemctl restart kiosk\\x1b[2J.service\n" in out
