"""deploy/install.sh: syntax, --dry-run prints every step and changes nothing.

The dry run is run as whoever runs the tests (root or not), with every path
pointed into a temporary folder, so the checks it makes ("does the config
exist?") are about files the test controls.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import run

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "deploy" / "install.sh"
PACKAGES = (
    "python3-picamera2",
    "python3-lgpio",
    "libzbar0",
    "libmtdev1",
    "python3-venv",
    "libgl1",
    "libegl1",
    "libgles2",
    "libgbm1",
    "libdrm2",
)


def paths(tmp: Path) -> dict[str, Path]:
    return {
        "prefix": tmp / "opt" / "incan-companion",
        "data": tmp / "var" / "lib" / "incan-companion",
        "config": tmp / "etc" / "incan-companion" / "config.toml",
    }


def dry_run(tmp: Path, *extra: str, user: str = "incan") -> subprocess.CompletedProcess[str]:
    p = paths(tmp)
    return run(
        [
            "bash",
            str(INSTALL),
            "--dry-run",
            "--user",
            user,
            "--prefix",
            str(p["prefix"]),
            "--data-dir",
            str(p["data"]),
            "--config",
            str(p["config"]),
            *extra,
        ],
        seconds=60,
        text=True,
    )


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*")) if f.is_file()
    }


def test_the_script_parses_and_is_executable() -> None:
    result = subprocess.run(["bash", "-n", str(INSTALL)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert os.access(INSTALL, os.X_OK)
    text = INSTALL.read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n")
    assert "set -euo pipefail" in text


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_shellcheck_is_clean() -> None:
    root = INSTALL.parents[1]
    scripts = sorted({*root.glob("*.sh"), *root.glob("*/*.sh"), root / ".ci" / "run"})
    assert INSTALL in scripts and len(scripts) >= 6
    result = subprocess.run(["shellcheck", *map(str, scripts)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_dry_run_prints_every_step(tmp_path: Path) -> None:
    result = dry_run(tmp_path, user="incan-test-nobody")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    p = paths(tmp_path)
    lines = out.splitlines()
    commands = [line for line in lines if line.startswith("+ ")]

    # Debian packages: either all there already, or one apt-get install naming every one.
    apt = [c for c in commands if "apt-get install" in c]
    if apt:
        assert "+ apt-get update" in commands
        assert len(apt) == 1
        assert "--no-install-recommends" in apt[0]
        for package in PACKAGES:
            assert f" {package}" in apt[0], package
    else:
        assert "    already done: all installed" in lines

    # The user does not exist: it is created as a system user, then put in the groups.
    user_add = [c for c in commands if c.startswith("+ useradd ")]
    assert user_add == [
        "+ useradd --system --user-group --home-dir "
        f"{p['data']} --no-create-home --shell /usr/sbin/nologin "
        "--comment Incan\\ Gold\\ table\\ companion incan-test-nobody"
    ]
    for group in ("gpio", "video", "render", "audio"):
        assert f"+ usermod --append --groups {group} incan-test-nobody" in commands
    # Not "input" (every keyboard): the touchscreen alone, through the udev rule.
    assert not any(c.endswith("--groups input incan-test-nobody") for c in commands)

    venv = p["prefix"] / "venv"
    assert f"+ /usr/bin/python3 -m venv --system-site-packages {venv}" in commands
    pip = [c for c in commands if " -m pip install " in c]
    assert pip[0] == (  # exactly the locked versions, each checked against its hash
        f"+ {venv}/bin/python -m pip install --disable-pip-version-check "
        f"--require-hashes --only-binary :all: -r {ROOT}/deploy/requirements-pi.lock"
    )
    # The app: built by the checkout's owner (nobody for root's own) in a copy,
    # never by root; root installs only the wheel, which runs none of its code.
    owner = ROOT.stat().st_uid or 65534, ROOT.stat().st_gid if ROOT.stat().st_uid else 65534
    build = "/tmp/incan-build.XXXXXX"
    as_builder = (
        f"+ setpriv --reuid={owner[0]} --regid={owner[1]} --clear-groups --no-new-privs "
        f"env -i HOME={build} PATH=/usr/bin:/bin LANG=C.UTF-8 "
    )
    built = [c for c in commands if c.startswith(as_builder)]
    assert [c[len(as_builder):].split()[:2] for c in built] == [
        ["sh", "-c"],
        ["env", f"PYTHON={venv}/bin/python"],
        [f"{venv}/bin/python", "-m"],
    ]
    assert built[1].endswith(f" {build}/src/scripts/build-translations.sh")
    assert built[2].endswith(
        "-m pip wheel --disable-pip-version-check --no-cache-dir --no-deps "
        f"--no-build-isolation --wheel-dir {build}/dist {build}/src"
    )
    assert (
        f"+ /usr/bin/python3 - {build}/dist/incan_companion-*.whl  # nothing in it but the "
        "app's packages: no .pth"
    ) in commands
    assert pip[1:] == [
        f"+ {venv}/bin/python -m pip install --disable-pip-version-check "
        f"--no-deps --no-index --force-reinstall {build}/dist/incan_companion-\\*.whl"
    ]
    # Nothing of the checkout's own is run as root.
    for c in commands:
        if "build-translations" in c or "--no-build-isolation" in c or str(ROOT) + " " in c:
            assert c.startswith(as_builder), c

    assert f"+ install -d -m 0755 {p['config'].parent}" in commands
    assert f"+ install -m 0644 {ROOT}/deploy/config.example.toml {p['config']}" in commands
    check = f"+ runuser -u incan-test-nobody -- {venv}/bin/python -c 'incan_companion.config.load("
    assert any(c.startswith(check) for c in commands)
    assert (
        f"+ install -d -o incan-test-nobody -g incan-test-nobody -m 0750 {p['data']}" in commands
    )
    # Inside the data directory the app's user makes and writes, never root.
    kivy_home = p["data"] / "kivy"
    assert f"+ runuser -u incan-test-nobody -- install -d -m 0750 {kivy_home}" in commands
    assert (
        f"+ runuser -u incan-test-nobody -- tee {kivy_home}/config.ini "
        f"< {ROOT}/deploy/kivy-config.ini > /dev/null"
    ) in commands
    assert f"+ runuser -u incan-test-nobody -- chmod 0644 {kivy_home}/config.ini" in commands
    assert not [c for c in commands if str(kivy_home) in c and not c.startswith("+ runuser ")]
    assert (
        f"+ render {ROOT}/deploy/incan-companion.service > "
        "/etc/systemd/system/incan-companion.service"
    ) in commands or "already done: /etc/systemd/system/incan-companion.service is current" in out
    for source, target in (
        ("incan-companion-fault.service", "/etc/systemd/system/incan-companion-fault.service"),
        ("incan-companion-switch-off.path",
         "/etc/systemd/system/incan-companion-switch-off.path"),
        ("incan-companion-switch-off.service",
         "/etc/systemd/system/incan-companion-switch-off.service"),
        ("99-incan-companion.rules", "/etc/udev/rules.d/99-incan-companion.rules"),
        ("touchscreen-wait.conf", "/etc/systemd/system/dev-input-incan\\x2dtouchscreen"
                                  ".device.d/incan-companion.conf"),
    ):
        assert (
            f"+ render {ROOT}/deploy/{source} > {target}" in commands
            or f"already done: {target} is current" in out
        ), source
    assert (
        "+ systemctl enable incan-companion.service" in commands
        or "already done: incan-companion.service is enabled" in out
    )
    # The menu's switch watches from now on where systemd runs, else from the next boot.
    assert (
        {"+ systemctl enable --now incan-companion-switch-off.path",
         "+ systemctl enable incan-companion-switch-off.path"} & set(commands)
        or "already done: incan-companion-switch-off.path is enabled" in out
    )
    assert lines[-1] == "    (dry run: nothing was changed)"

    # The steps come in this order.
    order = [
        out.index("==> Debian packages"),
        out.index("+ useradd "),
        out.index(" -m venv --system-site-packages "),
        out.index(" -m pip install "),
        out.index("==> config file"),
        out.index("==> data directory"),
        out.index("==> Kivy input config"),
        out.index("==> service incan-companion.service"),
    ]
    assert order == sorted(order)


def test_dry_run_changes_nothing(tmp_path: Path) -> None:
    (tmp_path / "marker").write_text("x", encoding="utf-8")
    before = snapshot(tmp_path)
    result = dry_run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert snapshot(tmp_path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["marker"]


def test_an_existing_config_is_kept(tmp_path: Path) -> None:
    config = paths(tmp_path)["config"]
    config.parent.mkdir(parents=True)
    config.write_text("[game]\nseats = 6\n", encoding="utf-8")
    result = dry_run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"already done: {config} exists: kept as it is" in result.stdout
    assert "config.example.toml" not in result.stdout
    assert config.read_text(encoding="utf-8") == "[game]\nseats = 6\n"


def test_an_existing_user_and_current_kivy_config_are_skipped(tmp_path: Path) -> None:
    kivy_home = paths(tmp_path)["data"] / "kivy"
    kivy_home.mkdir(parents=True)
    shutil.copy(ROOT / "deploy" / "kivy-config.ini", kivy_home / "config.ini")
    # Whoever runs the tests exists, and owns the data directory just made
    # (root's name would meet "already holds files of" the user's).
    me = pwd.getpwuid(os.geteuid()).pw_name
    result = dry_run(tmp_path, user=me)
    assert result.returncode == 0, result.stderr
    assert f"already done: user {me} exists" in result.stdout
    assert "useradd" not in result.stdout
    assert f"already done: {kivy_home}/config.ini is current" in result.stdout


@pytest.fixture
def readable_install() -> Iterator[Path]:
    """install.sh in a checkout anyone may read: the installer's own files and
    what it checks a checkout by. The tests' checkout may be under a home only
    its owner can enter (root's /root is 0700), where the user root drops to
    could not read the script; pytest's temporary folders are 0700 too."""
    top = Path(tempfile.mkdtemp(prefix="incan-install-"))
    try:
        top.chmod(0o755)
        shutil.copytree(ROOT / "deploy", top / "deploy")
        shutil.copy(ROOT / "pyproject.toml", top / "pyproject.toml")
        (top / "companion").mkdir()
        for path in (top, *top.rglob("*")):
            path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
        yield top / "deploy" / "install.sh"
    finally:
        shutil.rmtree(top)


@pytest.fixture
def reachable() -> Iterator[Path]:
    """A folder the app's user can reach (pytest's own are under a 0700 one):
    what a test runs as that user then meets only the rights under test."""
    top = Path(tempfile.mkdtemp(prefix="incan-reach-"))
    try:
        top.chmod(0o755)
        yield top
    finally:
        shutil.rmtree(top)


def test_dry_run_works_without_root(readable_install: Path) -> None:
    if os.geteuid() != 0:
        return  # the other dry-run tests already ran without root
    nobody = shutil.which("setpriv")
    if nobody is None:
        pytest.skip("setpriv is not available to drop root")
    result = run(
        [nobody, "--reuid=65534", "--regid=65534", "--clear-groups",
         "bash", str(readable_install), "--dry-run", "--no-apt"],
        seconds=60, text=True, cwd="/",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "(dry run: nothing was changed)" in result.stdout


def test_a_real_run_needs_root(readable_install: Path) -> None:
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("setpriv is not available to drop root")
        prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
    else:
        prefix = []
    result = run(
        [*prefix, "bash", str(readable_install), "--force"], seconds=60, text=True, cwd="/",
    )  # fmt: skip
    assert result.returncode == 1
    assert "run it as root" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bogus"], "unknown option: --bogus"),
        (["--user"], "--user needs a value"),
        (["--user", "Bad User"], "not a valid user name"),
        (["--prefix", "relative/path"], "paths must be absolute"),
        (["--data-dir", "/var/lib/with space"], "paths must be absolute"),
        (["--data-dir", "/var/lib"], "is a system directory"),
        (["--data-dir", "/var/lib/"], "is a system directory"),
        (["--data-dir", "/etc/incan"], "is a system directory"),
        (["--data-dir", "/var/lib/incan/../../etc"], "must not contain . or .. parts"),
        (["--prefix", "/opt/./x"], "must not contain . or .. parts"),
        (["--source", "/nonexistent"], "is not a checkout of incan-companion"),
    ],
)
def test_bad_options_are_refused(args: list[str], message: str) -> None:
    result = run(
        ["bash", str(INSTALL), "--dry-run", *args], seconds=60, text=True,
    )  # fmt: skip
    assert result.returncode == 1
    assert message in result.stderr
    assert "+ " not in result.stdout


def test_print_unit_uses_the_options(tmp_path: Path) -> None:
    result = run(
        ["bash", str(INSTALL), "--print-unit", "--user", "kiosk", "--prefix", "/srv/ig",
         "--data-dir", "/srv/ig-data", "--config", "/srv/ig.toml"],
        seconds=60, text=True, check=True,
    )  # fmt: skip
    unit = result.stdout
    assert "User=kiosk\n" in unit and "Group=kiosk\n" in unit
    assert "ExecStart=/srv/ig/venv/bin/incan-companion run --fullscreen\n" in unit
    assert "Environment=INCAN_CONFIG=/srv/ig.toml\n" in unit
    assert "Environment=INCAN_DATA=/srv/ig-data/games.sqlite\n" in unit
    assert "Environment=KIVY_HOME=/srv/ig-data/kivy\n" in unit
    assert "ReadWritePaths=/srv/ig-data\n" in unit
    for default in ("/opt/incan-companion", "/var/lib/incan-companion", "/etc/incan-companion"):
        assert default not in unit
    assert "User=incan\n" not in unit


def test_print_unit_with_defaults_is_the_file_in_deploy() -> None:
    result = subprocess.run(
        ["bash", str(INSTALL), "--print-unit"], capture_output=True, text=True, check=True
    )
    assert result.stdout == (ROOT / "deploy" / "incan-companion.service").read_text("utf-8")


def test_a_data_dir_inside_the_prefix_is_not_replaced_twice() -> None:
    result = subprocess.run(
        ["bash", str(INSTALL), "--print-unit", "--prefix", "/var/lib/incan-companion/app",
         "--data-dir", "/opt/incan-companion/data"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    unit = result.stdout
    assert "ExecStart=/var/lib/incan-companion/app/venv/bin/incan-companion run" in unit
    assert "ReadWritePaths=/opt/incan-companion/data\n" in unit


def test_a_data_dir_with_someone_elses_files_is_not_taken_over(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "keep.txt").write_text("not the app's\n")
    result = run(
        ["bash", str(INSTALL), "--dry-run", "--user", "incan-test-nobody",
         "--data-dir", str(theirs)],
        seconds=60, text=True,
    )  # fmt: skip
    assert result.returncode == 1
    assert "already holds files of" in result.stderr
    assert (theirs / "keep.txt").read_text() == "not the app's\n"


def test_a_link_planted_in_the_data_dir_is_refused(tmp_path: Path) -> None:
    """The service's user replaced data/kivy with a link to a folder of root's: the
    next run (an admin updating) neither chowns it nor writes into it."""
    data = paths(tmp_path)["data"]
    data.mkdir(parents=True)
    roots = tmp_path / "roots"
    roots.mkdir(mode=0o755)
    (roots / "keep.conf").write_text("root's\n")
    (data / "kivy").symlink_to(roots)
    before = snapshot(roots), roots.stat().st_uid, roots.stat().st_mode
    result = dry_run(tmp_path, user="root")
    assert result.returncode == 1
    assert f"{data}/kivy is a symbolic link" in result.stderr
    assert "==> Kivy input config" not in result.stdout
    assert (snapshot(roots), roots.stat().st_uid, roots.stat().st_mode) == before
    # The data directory itself as a link is refused too.
    shutil.rmtree(data)
    data.symlink_to(roots)
    result = dry_run(tmp_path, user="root")
    assert result.returncode == 1
    assert f"{data} is a symbolic link" in result.stderr


def nobodys_kivy_home(top: Path) -> Path:
    """The data directory and Kivy's folder in it, as the installer leaves them
    for the app's user (``nobody`` here); skips where a test cannot act as it."""
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        pytest.skip("needs root and runuser to act as another user")
    data = paths(top)["data"]
    kivy_home = data / "kivy"
    kivy_home.mkdir(parents=True)
    for folder in (data, kivy_home):
        os.chown(folder, 65534, 65534)
    return kivy_home


def test_the_app_users_write_does_not_follow_a_link_to_roots_file(reachable: Path) -> None:
    """The command the installer runs for the Kivy config, run for real: a
    config.ini planted as a link to a file of root's leaves that file as it was."""
    kivy_home = nobodys_kivy_home(reachable)
    roots = reachable / "roots.conf"
    roots.write_text("root's\n")
    roots.chmod(0o644)
    (kivy_home / "config.ini").symlink_to(roots)
    result = dry_run(reachable, user="nobody")
    assert result.returncode == 0, result.stderr
    (line,) = [c for c in result.stdout.splitlines() if " tee " in c]
    command, redirected = line[2:].split(" < ")
    source = redirected.removesuffix(" > /dev/null")
    with open(source, "rb") as stdin:
        done = subprocess.run(command.split(), stdin=stdin, capture_output=True, check=False)
    assert done.returncode != 0  # nobody may not write root's file
    assert b"Permission denied" in done.stderr
    assert roots.read_text() == "root's\n" and roots.stat().st_uid == 0


def test_the_kivy_config_is_written_from_a_checkout_closed_to_the_app_user(
    reachable: Path,
) -> None:
    """A checkout in a home folder (0700 on bookworm): the installer's commands
    for the Kivy config, run for real, write it from what root opened."""
    kivy_home = nobodys_kivy_home(reachable)
    closed = reachable / "home"
    closed.mkdir(mode=0o700)
    source = closed / "kivy-config.ini"
    shutil.copy(ROOT / "deploy" / "kivy-config.ini", source)
    source.chmod(0o600)
    result = dry_run(reachable, user="nobody")
    assert result.returncode == 0, result.stderr
    lines = [c[2:] for c in result.stdout.splitlines()
             if c.startswith("+ ") and str(kivy_home / "config.ini") in c]  # fmt: skip
    assert len(lines) == 2, lines
    write, mode = lines
    command = write.split(" < ")[0]
    with open(source, "rb") as stdin:  # root opens it, as the installer's shell does
        done = subprocess.run(command.split(), stdin=stdin, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert subprocess.run(mode.split(), check=False).returncode == 0
    written = kivy_home / "config.ini"
    assert written.read_bytes() == (ROOT / "deploy" / "kivy-config.ini").read_bytes()
    assert (written.stat().st_uid, written.stat().st_mode & 0o777) == (65534, 0o644)
