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
if [ "${1:-}" = "--test" ]; then
    APT_PACKAGES+=(shellcheck gettext systemd chromium chromium-driver)
fi
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import ensurepip' 2>/dev/null; then
    APT_PACKAGES+=(python3-venv)
fi

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
    as_root=()
    if [ "$(id -u)" != 0 ] && command -v sudo >/dev/null; then
        as_root=(sudo)
    fi
    if command -v apt-get >/dev/null && { [ "$(id -u)" = 0 ] || [ ${#as_root[@]} -gt 0 ]; }; then
        echo "setup: installing Debian packages: ${missing[*]}"
        "${as_root[@]}" apt-get update -qq
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            --no-install-recommends "${missing[@]}" >/dev/null
    else
        echo "setup: missing Debian packages: ${missing[*]}" >&2
        echo "setup: run as root, or: apt-get install ${missing[*]}" >&2
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
if grep -qs "Raspberry Pi" /proc/device-tree/model; then
    venv_opts+=(--system-site-packages)
    pip_opts+=(--constraint deploy/constraints-pi.txt)
fi
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv "${venv_opts[@]}" .venv
fi

stamp=".venv/.installed-$(cat pyproject.toml deploy/constraints-pi.txt | sha256sum | cut -c1-16)"
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
