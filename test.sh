#!/usr/bin/env bash
# Set everything up, then run the linters and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh --test
# pytest keeps each test module it rewrote (its asserts made to explain their
# failures) as bytecode beside it; PYTHONDONTWRITEBYTECODE, set on some
# machines, made both of its workers rewrite all of them at every run: 8 s of
# each worker's start. Rewritten here while the linters below hold one core,
# so the workers read them.
unset PYTHONDONTWRITEBYTECODE
.venv/bin/python -m pytest -q -n 0 -p no:cacheprovider --collect-only >/dev/null 2>&1 &
rewriting=$!
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
wait "$rewriting" || true  # a module that fails to collect is reported by the run itself
exec .venv/bin/python -m pytest -q "$@"
