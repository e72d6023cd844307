#!/usr/bin/env bash
# Compiles the translation catalogues companion/locale/*/LC_MESSAGES/incan.po
# into the .mo files gettext reads. Run by scripts/setup.sh; run it again after
# editing a .po (the app also reads a .po that is newer than its .mo, compiled
# in memory, so a stale .mo never shows). Standard library only: any Python 3.11.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${PYTHON:-}" ]; then
    py=$PYTHON
elif [ -x .venv/bin/python ]; then
    py=.venv/bin/python
else
    py=python3
fi
"$py" -m companion.i18n_tools compile
