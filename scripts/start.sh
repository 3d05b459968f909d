#!/usr/bin/env bash
# The main job: the web app (lobby, hex and cards in the browser) on an embedded
# SQLite database in your user data directory. Makes .venv and installs what it
# needs on the first run, and again only when pyproject.toml or the hex engine
# changed; otherwise it starts at once. Extra arguments go to `limit serve`
# (e.g. --port 8080, --db postgresql+psycopg://...).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh web  # the web extra (and not this script's own arguments)
exec .venv/bin/limit serve "$@"
