#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: makes .venv, installs the package
# with its test extras, then lint and format check (ruff), types (mypy), the fast tests, and the
# slow tests in their own bounded step.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh test
bash scripts/browser-deps.sh  # Debian's chromium for the Playwright tests (tests/web)
bash scripts/scale-deps.sh  # PostgreSQL and redis-server for the scale-out tests (tests/web)

echo "== ruff"; .venv/bin/ruff check src tests benchmarks examples scripts
.venv/bin/ruff format --check src tests benchmarks examples scripts
echo "== mypy"; .venv/bin/mypy
echo "== tests"; .venv/bin/pytest -q -n 2 -m "not slow" "$@"
# the slow tests, if any are marked, in their own bounded step (20 minutes at most)
# (grep reads the whole list: with -q it would stop early, and pipefail would see pytest's SIGPIPE)
if .venv/bin/pytest -q --collect-only -m slow "$@" 2>/dev/null | grep "::" > /dev/null; then
  echo "== slow tests"; timeout 1200 .venv/bin/pytest -q -n 2 -m slow "$@"
fi
