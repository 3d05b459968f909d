#!/usr/bin/env bash
# The main job: play Browne's Limit in the terminal against the computer.
# Extra arguments go to `limit play hex` (e.g. --size 6 --players 3).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
exec .venv/bin/limit play hex --seat human --seat random "$@"
