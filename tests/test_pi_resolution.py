"""The README's set-up on a Raspberry Pi resolves to the camera's numpy and one OpenCV.

On the Pi the venv sees the system's site-packages, where the Pi OS numpy
1.x lives (picamera2's compiled parts are built against it). This runs
pip's own resolver, in a ``--system-site-packages`` venv whose site-packages
hold numpy 1.24.2 as the Pi OS has it, with ``--dry-run --report`` and the
constraints file the set-up and the installer use. Only the package index is
reached; nothing is installed.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from helpers import run

ROOT = Path(__file__).resolve().parent.parent
CONSTRAINTS = ROOT / "deploy" / "constraints-pi.txt"
LOCK = ROOT / "deploy" / "requirements-pi.lock"
#: Raspberry Pi OS bookworm's python3-numpy (1:1.24.2): picamera2's compiled
#: parts (python3-simplejpeg) are built against it.
DEBIAN_NUMPY = "1.24.2"


def _pinned(name: str) -> str:
    for line in CONSTRAINTS.read_text(encoding="utf-8").splitlines():
        if line.startswith(f"{name}=="):
            return line.split("==", 1)[1].strip()
    raise AssertionError(f"{name} is not pinned in {CONSTRAINTS.name}")


def _pi_like_venv(tmp: Path) -> Path:
    """A --system-site-packages venv that also sees a numpy 1.24.2, as on a Pi.
    Without a pip of its own (ensurepip was 7 s of the suite): this venv's pip
    resolves for it (``pip --python``), seeing what that venv sees."""
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(tmp / "venv")
    python = tmp / "venv" / "bin" / "python"
    debian = tmp / "dist-packages"
    info = debian / f"numpy-{DEBIAN_NUMPY}.dist-info"  # what Pi OS's python3-numpy installs
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: numpy\nVersion: {DEBIAN_NUMPY}\n")
    (info / "INSTALLER").write_text("debian\n")
    (info / "RECORD").write_text("")
    site = subprocess.run([str(python), "-c", "import site; print(site.getsitepackages()[0])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "pi-os-dist-packages.pth").write_text(f"{debian}\n")
    return python


def _resolve(python: Path, tmp: Path, *constraint: str) -> tuple[dict[str, str], str]:
    report = tmp / "report.json"
    done = run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--dry-run",
         "--report", str(report), "-v", "--disable-pip-version-check", *constraint,
         "-e", str(ROOT)],
        text=True, seconds=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    chosen = json.loads(report.read_text(encoding="utf-8"))["install"]
    return {i["metadata"]["name"].lower(): i["metadata"]["version"] for i in chosen}, done.stdout


@pytest.mark.network
@pytest.mark.slow
def test_the_pi_keeps_its_numpy_and_gets_the_pinned_opencv_alone(tmp_path: Path) -> None:
    python = _pi_like_venv(tmp_path)
    chosen, log = _resolve(python, tmp_path, "--constraint", str(CONSTRAINTS))
    assert "numpy" not in chosen  # the Pi OS numpy 1.24.2 stays: picamera2 imports
    opencv = _pinned("opencv-python-headless")
    assert chosen["opencv-python-headless"] == opencv
    tried = set(re.findall(r"opencv[_-]python[_-]headless-(\d+(?:\.\d+)+)", log))
    assert tried == {opencv}  # no other wheel looked at, none downloaded


@pytest.mark.network
@pytest.mark.slow
def test_without_the_constraints_pip_would_break_the_camera(tmp_path: Path) -> None:
    """What the constraints prevent, so the first test cannot pass by luck."""
    python = _pi_like_venv(tmp_path)
    chosen, _log = _resolve(python, tmp_path)
    assert int(chosen["numpy"].split(".")[0]) >= 2
    assert chosen["opencv-python-headless"] != _pinned("opencv-python-headless")


@pytest.mark.slow
def test_the_service_keeps_the_numpy_picamera2_was_built_against(tmp_path: Path) -> None:
    """The installer's hash-checked install of the lock, where Debian's numpy is
    (the Pi), installs no numpy of its own: the service and ./run.sh both run
    on Debian's, the one picamera2's compiled parts were built against. Offline:
    the lock's numpy alone, no index (what pip would fetch, it could not)."""
    python = _pi_like_venv(tmp_path)
    block = next(b for b in re.split(r"\n(?=[a-z0-9])", LOCK.read_text(encoding="utf-8"))
                 if b.startswith("numpy=="))  # fmt: skip
    numpy_lock = tmp_path / "numpy.lock"
    numpy_lock.write_text(block + "\n", encoding="utf-8")
    report = tmp_path / "report.json"
    done = run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--dry-run",
         "--report", str(report), "--disable-pip-version-check", "--no-index",
         "--find-links", str(tmp_path / "none"),
         "--require-hashes", "--only-binary", ":all:", "-r", str(numpy_lock)],
        text=True, seconds=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert f"Requirement already satisfied: numpy=={DEBIAN_NUMPY}" in done.stdout
    assert json.loads(report.read_text(encoding="utf-8"))["install"] == []


def test_the_set_up_and_the_installer_use_the_same_constraints() -> None:
    setup = (ROOT / "scripts" / "setup.sh").read_text(encoding="utf-8")
    install = (ROOT / "deploy" / "install.sh").read_text(encoding="utf-8")
    lock = (ROOT / "scripts" / "lock-pi.sh").read_text(encoding="utf-8")
    assert "--constraint deploy/constraints-pi.txt" in setup
    assert "--constraint deploy/constraints-pi.txt" in lock  # the lock is made within them
    assert '--require-hashes --only-binary :all: -r "$DEPLOY/requirements-pi.lock"' in install
    # The app is built (by the checkout's owner) from those locked parts only, and
    # installed with nothing else: no index, no dependencies of its own.
    assert "--no-deps --no-build-isolation --wheel-dir" in install
    assert "--no-deps --no-index --force-reinstall" in install
    # On a Pi the set-up installs the archive's camera and GPIO parts as the installer does.
    pi_packages = re.search(r"^PI_PACKAGES=\(([^)]*)\)", setup, re.MULTILINE)
    assert pi_packages is not None
    assert pi_packages.group(1).split() == ["python3-picamera2", "python3-lgpio"]
    for package in pi_packages.group(1).split():
        assert f" {package}" in install


def _locked() -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) of deploy/requirements-pi.lock."""
    text = (ROOT / "deploy" / "requirements-pi.lock").read_text(encoding="utf-8")
    found: dict[str, tuple[str, int]] = {}
    for block in re.split(r"\n(?=[a-z0-9])", text.strip()):
        head = block.split()[0]
        name, version = head.split("==")
        found[name.lower()] = (version, block.count("--hash=sha256:"))
    return found


def test_the_pi_lock_pins_every_dependency_with_hashes() -> None:
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    locked = _locked()
    wanted = [re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0].lower()
              for d in project["project"]["dependencies"]]  # fmt: skip
    missing = [name for name in wanted if name not in locked]
    assert missing == [], f"relock with scripts/lock-pi.sh: {missing}"
    assert all(hashes >= 1 for _version, hashes in locked.values())
    assert int(locked["numpy"][0].split(".")[0]) < 2
    assert locked["numpy"][0] == _pinned("numpy") == DEBIAN_NUMPY  # the set-up's, the camera's
    assert locked["opencv-python-headless"][0] == _pinned("opencv-python-headless")
    build = project["build-system"]["requires"][0]
    assert build.startswith("setuptools>=")
    least = tuple(int(x) for x in build.split(">=")[1].split("."))
    assert tuple(int(x) for x in locked["setuptools"][0].split(".")[: len(least)]) >= least


def test_a_picamera2_that_does_not_import_is_no_camera(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found but broken (numpy 2 under its compiled parts): auto goes on, not to it."""
    from vision import sources

    broken = tmp_path / "picamera2"
    broken.mkdir()
    (broken / "__init__.py").write_text(
        "raise ValueError('numpy.dtype size changed, may indicate binary incompatibility')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        sys.modules.pop("picamera2", None)
        assert sources.picamera_available() is False
        (broken / "__init__.py").write_text("class Picamera2:\n    pass\n")
        sys.modules.pop("picamera2", None)
        assert sources.picamera_available() is True
    finally:  # the stand-in must not look like a real picamera2 to later tests
        sys.modules.pop("picamera2", None)
