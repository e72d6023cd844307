#!/usr/bin/env bash
# Set everything up, then start the companion (keyboard seats and a simulated
# camera where there is no Pi hardware). Extra arguments go to incan-companion.
set -euo pipefail
cd "$(dirname "$0")"
scripts/setup.sh
exec .venv/bin/incan-companion "$@"
