#!/usr/bin/env bash
# Writes deploy/requirements-pi.lock: the exact versions, with their hashes,
# that deploy/install.sh installs on a Raspberry Pi (aarch64, Python 3.11),
# within deploy/constraints-pi.txt. Run it after changing a dependency in
# pyproject.toml or a constraint, and commit the lock with that change:
#
#     scripts/lock-pi.sh
#
# It resolves for the Pi from any machine (uv resolves for another platform),
# and needs only the package index. setuptools is locked too: the installer
# builds the app without build isolation, from locked parts only.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${PYTHON:-.venv/bin/python}
"$py" -m pip install -q --disable-pip-version-check uv
build=$(mktemp)
trap 'rm -f "$build"' EXIT
sed -n 's/^requires = \["\(setuptools[^"]*\)".*/\1/p' pyproject.toml > "$build"
"$py" -m uv pip compile pyproject.toml "$build" \
    --constraint deploy/constraints-pi.txt \
    --python-version 3.11 --python-platform aarch64-manylinux_2_36 \
    --generate-hashes --no-header --quiet \
    --output-file deploy/requirements-pi.lock
sed -i "s#$build#the build's setuptools (pyproject.toml)#" deploy/requirements-pi.lock
echo "wrote deploy/requirements-pi.lock"
