#!/usr/bin/env bash
# Sets up everything the app and its tests need, on Debian or Raspberry Pi OS:
# Debian packages (when run as root), a virtual environment in .venv with the
# app installed into it, and the compiled translations. Safe to run again:
# each step is skipped when it is already done.
set -euo pipefail
cd "$(dirname "$0")/.."

# libzbar0: pyzbar's decoder. libmtdev1: Kivy's touch input. libgl1/libegl1:
# Kivy's window (offscreen under tests). poppler-utils: the sticker-sheet test
# renders the PDF back to an image. fonts-migmix: one font with Polish,
# Spanish and Japanese letters, for the screens and the sticker sheet.
APT_PACKAGES=(libzbar0 libmtdev1 libgl1 libegl1 libgles2 poppler-utils fonts-migmix)
# --test adds what only the tests use: shellcheck (the shell scripts) and GNU
# gettext (msgfmt checks the catalogues as translators' tools will), systemd
# (systemd-analyze checks the unit and scores its hardening offline),
# chromium and chromium-driver (the phones' pages in a real headless browser).
testing=0
if [ "${1:-}" = "--test" ]; then
    testing=1
    APT_PACKAGES+=(shellcheck gettext systemd chromium chromium-driver)
fi
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import ensurepip' 2>/dev/null; then
    APT_PACKAGES+=(python3-venv)
fi
on_pi=0
if grep -qs "Raspberry Pi" /proc/device-tree/model; then
    on_pi=1
fi
# On a Pi, the camera and the seat buttons need picamera2 and lgpio from the
# Raspberry Pi OS archive, as deploy/install.sh installs them (Raspberry Pi OS
# Lite has no picamera2). Installed on their own: where the archive lacks
# them the app still runs, and the end of the set-up says what is missing.
PI_PACKAGES=(python3-picamera2 python3-lgpio)

as_root=()
if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then
    as_root=(sudo)
fi
can_install=0
if command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || [ ${#as_root[@]} -gt 0 ]; }; then
    can_install=1
fi
apt_updated=0

# Prints the packages of "$@" that are not installed, one a line.
not_installed() {
    local pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || echo "$pkg"
    done
}

# Installs packages "$@" through apt-get (as root, or through sudo).
apt_install() {
    if [ "$apt_updated" = 0 ]; then
        "${as_root[@]}" apt-get update -qq
        apt_updated=1
    fi
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        --no-install-recommends "$@" >/dev/null
}

mapfile -t missing < <(not_installed "${APT_PACKAGES[@]}")
if [ ${#missing[@]} -gt 0 ]; then
    if [ "$can_install" = 1 ]; then
        echo "setup: installing Debian packages: ${missing[*]}"
        apt_install "${missing[@]}"
    else
        echo "setup: missing Debian packages: ${missing[*]}" >&2
        echo "setup: run as root, or: apt-get install ${missing[*]}" >&2
    fi
fi
if [ "$on_pi" = 1 ]; then
    mapfile -t missing < <(not_installed "${PI_PACKAGES[@]}")
    if [ ${#missing[@]} -gt 0 ] && [ "$can_install" = 1 ]; then
        echo "setup: installing from the Raspberry Pi OS archive: ${missing[*]}"
        apt_install "${missing[@]}" || echo "setup: could not install ${missing[*]}" >&2
    fi
fi

if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "setup: Python 3.11 or newer is needed ($PYTHON is $("$PYTHON" --version))" >&2
    exit 1
fi

venv_opts=()
pip_opts=()
# On a Pi, picamera2 and lgpio come from the Raspberry Pi OS archive
# (python3-picamera2, python3-lgpio): the venv must see them, and keep the
# numpy they were built against. The installer uses the same constraints.
if [ "$on_pi" = 1 ]; then
    venv_opts+=(--system-site-packages)
    pip_opts+=(--constraint deploy/constraints-pi.txt)
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv "${venv_opts[@]}" .venv
fi

wanted=$(cat pyproject.toml deploy/constraints-pi.txt | sha256sum | cut -c1-16)
stamp=".venv/.installed-$wanted"
if [ ! -f "$stamp" ]; then
    echo "setup: installing Python packages into .venv"
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q "${pip_opts[@]}" -e ".[test]"
    rm -f .venv/.installed-*
    touch "$stamp"
fi

if [ -x scripts/build-translations.sh ]; then
    scripts/build-translations.sh
fi

# Bytecode for our own packages, as pip writes it on the device's install:
# an editable install leaves it to the first run, which never comes where
# PYTHONDONTWRITEBYTECODE is set, and every command would compile its modules.
.venv/bin/python -m compileall -q companion hardware incan_companion storage ui vision web >/dev/null

# --test, off the Pi: a second environment, .venv/pi, with the Pi's versions of
# what the typing is checked against (deploy/constraints-pi.txt: OpenCV 4.11,
# whose stubs want a colour as a sequence; numpy 1.x), where ./test.sh runs
# mypy again. Made once, and again only when the constraints or pyproject.toml
# change; inside .venv, so whatever leaves .venv alone (git, the linters, the
# tests' own walks through the checkout) leaves it alone too. On a Pi, .venv
# has those versions already.
if [ "$testing" = 1 ] && [ "$on_pi" = 0 ] && [ ! -f ".venv/pi/.installed-$wanted" ]; then
    echo "setup: installing the Pi's versions into .venv/pi (for the typing check)"
    rm -rf .venv/pi
    "$PYTHON" -m venv .venv/pi
    .venv/pi/bin/python -m pip install -q --upgrade pip
    .venv/pi/bin/python -m pip install -q --constraint deploy/constraints-pi.txt -e ".[test]"
    touch ".venv/pi/.installed-$wanted"
fi

# On a Pi, say plainly what the device cannot do without the archive's parts.
if [ "$on_pi" = 1 ]; then
    sees() {
        .venv/bin/python -c 'import importlib.util, sys; sys.exit(importlib.util.find_spec(sys.argv[1]) is None)' "$1"
    }
    if ! sees picamera2; then
        echo "setup: no picamera2 (python3-picamera2, Raspberry Pi OS archive): the Pi's" \
            "camera cannot be used; a USB camera still can, else cards are entered by tapping" >&2
    fi
    if ! sees lgpio; then
        echo "setup: no lgpio (python3-lgpio, Raspberry Pi OS archive): the seat buttons" \
            "cannot be read; the keyboard stands in for them" >&2
    fi
fi
