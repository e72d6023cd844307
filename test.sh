#!/usr/bin/env bash
# Set everything up, then run the linters and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh --test
.venv/bin/ruff check .
.venv/bin/mypy
# The typing again against the Pi's versions (deploy/constraints-pi.txt), which
# the desktop's do not stand for: OpenCV 4.11's stubs refuse what 5 accepts.
# setup.sh keeps them in .venv/pi; on a Pi, .venv has them and was checked above.
if [ -x .venv/pi/bin/mypy ]; then
    echo "mypy with the Pi's versions (.venv/pi):"
    .venv/pi/bin/mypy --cache-dir .mypy_cache/pi
fi
.venv/bin/lint-imports --no-cache
exec .venv/bin/python -m pytest -q "$@"
