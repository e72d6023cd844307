"""deploy/incan-companion.service and deploy/kivy-config.ini.

The unit is read key by key (systemd allows a key more than once, so this is
not configparser) and checked for what the issue asks: full screen on boot
through KMS/DRM, restart on failure, its own user, hardening, lgpio named.
Where ``systemd-analyze`` exists, it must accept the unit with no warning.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import run

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "incan-companion.service"
FAULT_UNIT = ROOT / "deploy" / "incan-companion-fault.service"
UDEV_RULES = ROOT / "deploy" / "99-incan-companion.rules"
KIVY_INI = ROOT / "deploy" / "kivy-config.ini"
INSTALL = ROOT / "deploy" / "install.sh"
SWITCH_OFF_PATH = ROOT / "deploy" / "incan-companion-switch-off.path"
SWITCH_OFF_UNIT = ROOT / "deploy" / "incan-companion-switch-off.service"


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"key outside a section: {line}"
        assert "=" in line, f"not a key=value line: {line}"
        key, value = line.split("=", 1)
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def unit() -> dict[str, dict[str, list[str]]]:
    return parse_unit(UNIT.read_text(encoding="utf-8"))


def environment(unit: dict[str, dict[str, list[str]]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for value in unit["Service"]["Environment"]:
        for item in value.split():
            key, _, val = item.partition("=")
            env[key] = val
    return env


def one(unit: dict[str, dict[str, list[str]]], section: str, key: str) -> str:
    values = unit[section][key]
    assert len(values) == 1, f"{key} is set {len(values)} times"
    return values[0]


def test_sections(unit: dict[str, dict[str, list[str]]]) -> None:
    assert list(unit) == ["Unit", "Service", "Install"]
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def test_starts_the_app_full_screen_as_its_user(unit: dict[str, dict[str, list[str]]]) -> None:
    assert one(unit, "Service", "ExecStart") == (
        "/opt/incan-companion/venv/bin/incan-companion run --fullscreen"
    )
    assert one(unit, "Service", "User") == "incan"
    assert one(unit, "Service", "Group") == "incan"
    # Not "input": that group reads every keyboard plugged in (the touchscreen
    # is the app's through the udev rule).
    assert one(unit, "Service", "SupplementaryGroups").split() == [
        "gpio",
        "video",
        "render",
        "audio",
    ]
    assert one(unit, "Service", "WorkingDirectory") == "/var/lib/incan-companion"


def test_restarts_on_failure_but_not_for_a_bad_config(
    unit: dict[str, dict[str, list[str]]],
) -> None:
    assert one(unit, "Service", "Restart") == "on-failure"
    assert float(one(unit, "Service", "RestartSec")) > 0
    # Exit status 2 is "bad input" (docs/command-line.md): a bad config file.
    assert one(unit, "Service", "RestartPreventExitStatus") == "2"
    # A start limit, not endless restarts: 5 tries in 5 minutes, then the reason
    # on the console (StartLimitIntervalSec=0 restarted every 2 s for ever).
    assert one(unit, "Unit", "StartLimitIntervalSec") == "300"
    assert one(unit, "Unit", "StartLimitBurst") == "5"
    assert one(unit, "Unit", "OnFailure") == FAULT_UNIT.name


def test_a_hang_is_restarted_by_the_watchdog(unit: dict[str, dict[str, list[str]]]) -> None:
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "main"
    assert 10 <= int(one(unit, "Service", "WatchdogSec")) <= 60


def test_environment(unit: dict[str, dict[str, list[str]]]) -> None:
    env = environment(unit)
    assert env["GPIOZERO_PIN_FACTORY"] == "lgpio"
    assert env["KIVY_WINDOW"] == "sdl2"
    assert env["SDL_VIDEODRIVER"] == "kmsdrm"
    assert env["INCAN_CONFIG"] == "/etc/incan-companion/config.toml"
    assert env["INCAN_DATA"] == "/var/lib/incan-companion/games.sqlite"
    assert env["KIVY_HOME"] == "/var/lib/incan-companion/kivy"
    assert env["KIVY_NO_ARGS"] == "1"
    assert env["HOME"] == "/var/lib/incan-companion"
    # Everything the app writes lies in the one writable directory (or /tmp).
    writable = one(unit, "Service", "ReadWritePaths")
    for key in ("INCAN_DATA", "KIVY_HOME", "HOME"):
        assert env[key].startswith(writable), key
    assert env["LG_WD"] == "/tmp"


def test_hardening(unit: dict[str, dict[str, list[str]]]) -> None:
    service = unit["Service"]
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ReadWritePaths": "/var/lib/incan-companion",
        "PrivateTmp": "yes",
        "ProtectHome": "yes",
        "ProtectKernelTunables": "yes",
        "ProtectKernelModules": "yes",
        "ProtectControlGroups": "yes",
        "RestrictSUIDSGID": "yes",
        "LockPersonality": "yes",
        "DevicePolicy": "closed",
    }.items():
        assert service.get(key) == [value], key
    assert one(unit, "Service", "UMask") == "0077"
    assert one(unit, "Service", "CapabilityBoundingSet") == ""
    assert one(unit, "Service", "IPAddressDeny") == "any"
    assert service["SystemCallFilter"] == ["@system-service", "~@privileged @resources"]
    # /proc/device-tree/model says it is a Pi: /proc must not be cut to pids only.
    assert "ProcSubset" not in service
    # No root, no PrivateDevices (it would hide the display, camera and GPIO).
    assert "PrivateDevices" not in service
    assert one(unit, "Service", "User") != "root"


def test_devices_the_app_needs_are_allowed(unit: dict[str, dict[str, list[str]]]) -> None:
    allowed = {v.split()[0]: v.split()[1] for v in unit["Service"]["DeviceAllow"]}
    for device in ("char-drm", "char-gpiochip", "char-video4linux", "char-media", "char-alsa"):
        assert allowed.get(device) == "rw", device
    assert "char-vchiq" in allowed and "char-dma_heap" in allowed
    # Of the input devices, the touchscreen alone, read only: no keyboard.
    assert "char-input" not in allowed
    assert [d for d in allowed if d.startswith("/dev/input/")] == ["/dev/input/incan-touchscreen"]
    assert allowed["/dev/input/incan-touchscreen"] == "r"


def test_the_udev_rule_names_the_touchscreen_the_unit_allows(
    unit: dict[str, dict[str, list[str]]],
) -> None:
    rules = [
        line for line in UDEV_RULES.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]  # fmt: skip
    assert len(rules) == 1
    keys = dict(re.findall(r'([A-Z_]+(?:\{[A-Z_]+\})?)[=+!]=?"([^"]*)"', rules[0]))
    assert keys["SUBSYSTEM"] == "input" and keys["KERNEL"] == "event*"
    assert keys["ENV{ID_INPUT_TOUCHSCREEN}"] == "1"
    assert keys["SYMLINK"] == "input/incan-touchscreen"
    assert keys["GROUP"] == one(unit, "Service", "Group")
    assert keys["MODE"] == "0640"
    assert keys["TAG"] == "systemd"
    # The unit waits for the device unit that the rule's systemd tag makes.
    assert r"dev-input-incan\x2dtouchscreen.device" in unit["Unit"]["Wants"]
    assert r"dev-input-incan\x2dtouchscreen.device" in unit["Unit"]["After"]


def test_the_fault_screen_unit_shows_the_kiosks_journal_on_the_console() -> None:
    fault = parse_unit(FAULT_UNIT.read_text(encoding="utf-8"))
    service = fault["Service"]
    assert one(fault, "Service", "Type") == "oneshot"
    assert one(fault, "Service", "StandardOutput") == "tty"
    assert one(fault, "Service", "TTYPath") == "/dev/tty1"
    command = one(fault, "Service", "ExecStart")
    assert "journalctl --unit=incan-companion.service" in command
    assert "/opt/incan-companion/venv/bin/incan-companion fault" in command
    assert service["PrivateNetwork"] == ["yes"] and service["ProtectSystem"] == ["strict"]
    assert one(fault, "Unit", "Conflicts") == "getty@tty1.service"
    # The app's code never runs as root: as the kiosk's user, with the
    # journal's readers' group for journalctl.
    assert (one(fault, "Service", "User"), one(fault, "Service", "Group")) == ("incan", "incan")
    assert one(fault, "Service", "SupplementaryGroups") == "systemd-journal"


def test_systemd_analyze_accepts_the_rendered_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    # The unit as install.sh writes it, pointing at a prefix that exists here
    # (verify checks that ExecStart's program is executable).
    prefix = tmp_path / "opt"
    program = prefix / "venv" / "bin" / "incan-companion"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    program.chmod(0o755)
    rendered = subprocess.run(
        ["bash", str(INSTALL), "--print-unit", "--prefix", str(prefix),
         "--data-dir", str(tmp_path / "data")],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    unit_file = tmp_path / "incan-companion.service"
    unit_file.write_text(rendered, encoding="utf-8")
    result = run(
        [analyze, "verify", "--man=no", str(unit_file)],
        seconds=60, text=True,
    )  # fmt: skip
    if result.returncode != 0 and "Failed to " in result.stderr and "bus" in result.stderr.lower():
        pytest.skip(f"systemd-analyze cannot run here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    # verify exits 0 on unknown keys and bad values, but names them: none allowed.
    assert result.stderr.strip() == "", result.stderr
    assert result.stdout.strip() == ""


def test_the_offline_security_score_is_2_or_lower(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here (./test.sh installs it as root)")
    unit_file = tmp_path / "incan-companion.service"
    unit_file.write_text(UNIT.read_text(encoding="utf-8"), encoding="utf-8")
    result = run(
        [analyze, "security", "--offline=true", "--no-pager", str(unit_file)],
        seconds=60, text=True,
    )  # fmt: skip
    found = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert found is not None, result.stdout[-1500:] + result.stderr[-500:]
    assert float(found.group(1)) <= 2.0, result.stdout


def test_systemd_analyze_would_notice_a_typo(tmp_path: Path) -> None:
    """The check above is only worth something if verify speaks up on a mistake."""
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    unit_file = tmp_path / "incan-companion.service"
    text = UNIT.read_text(encoding="utf-8")
    program = "/opt/incan-companion/venv/bin/incan-companion"
    text = text.replace(f"ExecStart={program}", "ExecStart=/bin/true")
    unit_file.write_text(text.replace("ProtectSystem=strict", "ProtectSytem=strict"), "utf-8")
    result = run(
        [analyze, "verify", "--man=no", str(unit_file)],
        seconds=60, text=True,
    )  # fmt: skip
    assert "Unknown key 'ProtectSytem'" in result.stderr


# -- Kivy's config ---------------------------------------------------------------


def kivy_config_in(home: Path) -> dict[str, dict[str, str]]:
    """What Kivy makes of config.ini in KIVY_HOME, in a fresh interpreter."""
    code = (
        "import json\n"
        "from kivy.config import Config\n"
        "print(json.dumps({s: dict(Config.items(s)) for s in Config.sections()}))\n"
    )
    env = {
        **os.environ,
        "KIVY_HOME": str(home),
        "KIVY_NO_ARGS": "1",
        "KIVY_NO_CONSOLELOG": "1",
        "KIVY_NO_FILELOG": "1",
    }
    result = run(
        [sys.executable, "-c", code], seconds=60, text=True, env=env, check=True,
    )  # fmt: skip
    import json

    parsed: dict[str, dict[str, str]] = json.loads(result.stdout.strip().splitlines()[-1])
    return parsed


def test_kivy_reads_one_touch_provider_and_keeps_the_file(tmp_path: Path) -> None:
    home = tmp_path / "kivy"
    home.mkdir()
    shutil.copy(KIVY_INI, home / "config.ini")
    before = (home / "config.ini").read_bytes()
    config = kivy_config_in(home)
    # One provider: SDL2's touches arrive as mouse events; no probesysfs
    # provider reading the same touchscreen a second time.
    assert config["input"] == {"mouse": "mouse,disable_multitouch"}
    assert config["graphics"]["fullscreen"] == "auto"
    assert (config["graphics"]["width"], config["graphics"]["height"]) == ("800", "480")
    assert config["graphics"]["show_cursor"] == "0"
    assert config["kivy"]["exit_on_escape"] == "0"
    assert config["kivy"]["log_enable"] == "0"
    # Kivy found nothing to upgrade: it did not rewrite (or re-add defaults to) the file.
    assert (home / "config.ini").read_bytes() == before


def test_kivy_default_config_would_double_touches_on_a_pi(tmp_path: Path) -> None:
    """Why the file exists: Kivy's own default adds a probesysfs provider."""
    config = kivy_config_in(tmp_path / "fresh")
    assert "%(name)s" in config["input"]
    assert config["input"]["%(name)s"].startswith("probesysfs")
    assert "mouse" in config["input"]


def test_kivy_config_version_is_kivys() -> None:
    from kivy.config import KIVY_CONFIG_VERSION

    text = KIVY_INI.read_text(encoding="utf-8")
    assert f"\nconfig_version = {KIVY_CONFIG_VERSION}\n" in text


def test_systemd_analyze_accepts_the_fault_unit(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    unit_file = tmp_path / FAULT_UNIT.name
    unit_file.write_text(FAULT_UNIT.read_text(encoding="utf-8"), encoding="utf-8")
    result = run([analyze, "verify", "--man=no", str(unit_file)], seconds=60, text=True)
    if result.returncode != 0 and "Failed to " in result.stderr and "bus" in result.stderr.lower():
        pytest.skip(f"systemd-analyze cannot run here: {result.stderr.strip()}")
    assert (result.returncode, result.stderr.strip()) == (0, "")


def test_the_kiosk_waits_20_s_for_a_missing_touchscreen_not_90(
    unit: dict[str, dict[str, list[str]]], tmp_path: Path
) -> None:
    """The drop-in install.sh puts beside the touchscreen's device unit: that unit
    is the one the kiosk waits for, and systemd takes its keys."""
    wait = ROOT / "deploy" / "touchscreen-wait.conf"
    dropin = parse_unit(wait.read_text(encoding="utf-8"))
    assert dropin == {"Unit": {"JobTimeoutSec": ["20s"], "JobRunningTimeoutSec": ["20s"]}}
    device = "dev-input-incan\\x2dtouchscreen.device"
    assert unit["Unit"]["Wants"] == [device] and device in unit["Unit"]["After"]
    escape = shutil.which("systemd-escape")
    if escape is not None:  # the name systemd gives the rule's SYMLINK+="input/incan-touchscreen"
        named = subprocess.run(
            [escape, "--path", "--suffix=device", "/dev/input/incan-touchscreen"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()  # fmt: skip
        assert named == device
    assert 'SYMLINK+="input/incan-touchscreen"' in UDEV_RULES.read_text(encoding="utf-8")
    installed = [line for line in INSTALL.read_text(encoding="utf-8").splitlines()
                 if line.startswith("TOUCH_DROPIN_DIR=")]
    assert installed == [f"TOUCH_DROPIN_DIR='/etc/systemd/system/{device}.d'"]
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    # Its keys in a unit of their own: verify names any key it does not know.
    check = tmp_path / "touchscreen-wait.target"
    check.write_text(wait.read_text(encoding="utf-8").replace(
        "[Unit]", "[Unit]\nDescription=the drop-in's keys"), encoding="utf-8")
    result = run([analyze, "verify", "--man=no", str(check)], seconds=60, text=True)
    if result.returncode != 0 and "Failed to " in result.stderr and "bus" in result.stderr.lower():
        pytest.skip(f"systemd-analyze cannot run here: {result.stderr.strip()}")
    assert result.returncode == 0 and result.stderr.strip() == "", result.stderr


def test_the_menus_switch_is_a_request_file_that_root_acts_on(
    unit: dict[str, dict[str, list[str]]]
) -> None:
    """The kiosk names a file in its own runtime folder (in /run, emptied at
    every boot: a request never outlives its boot); the path unit watches that
    very file, and its service takes the request away and powers off, as root."""
    from hardware.power import SWITCH_OFF_ENV

    request = environment(unit)[SWITCH_OFF_ENV]
    assert request == "/run/incan-companion/switch-off"
    assert one(unit, "Service", "RuntimeDirectory") == "incan-companion"
    assert os.path.dirname(request) == "/run/" + one(unit, "Service", "RuntimeDirectory")
    assert one(unit, "Service", "RuntimeDirectoryMode") == "0700"
    watch = parse_unit(SWITCH_OFF_PATH.read_text(encoding="utf-8"))
    assert one(watch, "Path", "PathExists") == request
    assert one(watch, "Path", "Unit") == SWITCH_OFF_UNIT.name
    assert one(watch, "Install", "WantedBy") == "multi-user.target"
    act = parse_unit(SWITCH_OFF_UNIT.read_text(encoding="utf-8"))
    assert one(act, "Unit", "SuccessAction") == "poweroff"
    assert one(act, "Service", "Type") == "oneshot"
    assert one(act, "Service", "ExecStart") == f"/usr/bin/rm -f {request}"
    assert "User" not in act["Service"]  # root's: the kiosk itself has no privilege
    assert "Install" not in act  # started by the path unit alone


def test_systemd_analyze_accepts_the_switch_units(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here")
    files = []
    for source in (SWITCH_OFF_PATH, SWITCH_OFF_UNIT):
        files.append(tmp_path / source.name)
        files[-1].write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    result = run([analyze, "verify", "--man=no", *map(str, files)], seconds=60, text=True)
    if result.returncode != 0 and "Failed to " in result.stderr and "bus" in result.stderr.lower():
        pytest.skip(f"systemd-analyze cannot run here: {result.stderr.strip()}")
    assert (result.returncode, result.stderr.strip()) == (0, "")
