#!/usr/bin/env bash
# Set everything up, then run the linters and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh --test
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/lint-imports --no-cache
exec .venv/bin/python -m pytest -q "$@"
