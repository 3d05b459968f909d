#!/usr/bin/env bash
# Runs the whole test suite from a fresh clone: makes .venv, installs the package with its test
# extras, then lint and format check (ruff), types (mypy), the fast tests, and the slow tests in
# their own bounded step (20 minutes at most). Every step runs even when an earlier one failed;
# the last line names each step's result, e.g.
#   summary: ruff: passed, ruff format: passed, mypy: passed, fast tests: FAILED (exit 1), slow tests: passed
# and the exit status is 1 when any step failed (0 when all passed). Extra arguments go to both
# pytest runs (e.g. tests/hex). Timeouts of the tests' waits scale with LIMIT_TEST_TIME_FACTOR
# (default 1; e.g. 3 on a slow or crowded machine).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/setup.sh
source scripts/setup.sh test
bash scripts/browser-deps.sh  # Debian's chromium for the Playwright tests (tests/web)
bash scripts/scale-deps.sh  # PostgreSQL and redis-server for the scale-out tests (tests/web)
set +e  # from here on a failing step is noted, and the next one runs

results=()
failed=0

# note NAME STATUS: remember "NAME: passed" or "NAME: FAILED (exit STATUS)"
note() {
  if [ "$2" -eq 0 ]; then
    results+=("$1: passed")
  else
    results+=("$1: FAILED (exit $2)")
    failed=1
  fi
}

echo "== ruff"
.venv/bin/ruff check src tests benchmarks examples scripts
note "ruff" $?
echo "== ruff format"
.venv/bin/ruff format --check src tests benchmarks examples scripts
note "ruff format" $?
echo "== mypy"
.venv/bin/mypy
note "mypy" $?
echo "== fast tests"
.venv/bin/pytest -q -n 2 -m "not slow" "$@"
note "fast tests" $?
echo "== slow tests (20 minutes at most)"
timeout 1200 .venv/bin/pytest -q -n 2 -m slow "$@"
status=$?
case $status in
  5) results+=("slow tests: passed (none selected)") ;;  # pytest's "no tests collected"
  124) results+=("slow tests: FAILED (stopped after 20 minutes)"); failed=1 ;;
  *) note "slow tests" "$status" ;;
esac

summary="${results[0]}"
for result in "${results[@]:1}"; do
  summary+=", $result"
done
echo "summary: $summary"
exit "$failed"
