#!/usr/bin/env bash
# Compiles the translation catalogues ui/locale/*/LC_MESSAGES/incan.po into
# the .mo files the app reads, with Babel (pybabel compile). Run by
# scripts/setup.sh and deploy/install.sh; run it again after editing a .po:
# the app shows English, with a warning naming this script, while a .mo is
# missing or older than its .po. Does nothing when every .mo is newer.
# The Python used ($PYTHON, else .venv/bin/python, else python3) needs Babel.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${PYTHON:-}" ]; then
    py=$PYTHON
elif [ -x .venv/bin/python ]; then
    py=.venv/bin/python
else
    py=python3
fi

stale=()
for po in ui/locale/*/LC_MESSAGES/incan.po; do
    mo=${po%.po}.mo
    if [ ! -f "$mo" ] || [ "$po" -nt "$mo" ]; then
        stale+=("$po")
    fi
done
if [ ${#stale[@]} -eq 0 ]; then
    echo "translations: every .mo is up to date"
    exit 0
fi
if ! "$py" -c 'import babel' 2>/dev/null; then
    echo "build-translations: $py has no Babel: run scripts/setup.sh (or pip install babel)" >&2
    exit 1
fi
echo "translations: compiling the catalogues (${#stale[@]} out of date)"
"$py" -m ui.i18n_tools compile
