#!/usr/bin/env bash
# Installs what the scale-out tests (tests/web/test_scaleout.py) need: Debian's
# PostgreSQL server and redis-server. The tests start throwaway ones of their
# own (a cluster in a temporary folder, on free ports); the services the
# packages set up are not used (and not started where there is no systemd).
# Does nothing when both are there; quietly skipped without apt-get, or
# without root or sudo (the tests then skip, naming what is missing).
set -euo pipefail
have_postgres() { command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; }
if have_postgres && command -v redis-server >/dev/null 2>&1; then
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "scale-deps: no apt-get; the scale-out tests will be skipped unless PostgreSQL and redis-server are installed" >&2
  exit 0
fi
run=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    run=(sudo -n)
  else
    echo "scale-deps: PostgreSQL or redis-server is missing and this is not root; the scale-out tests will be skipped" >&2
    exit 0
  fi
fi
echo "scale-deps: installing PostgreSQL and redis-server for the scale-out tests"
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -qq
"${run[@]}" apt-get install -y -qq postgresql redis-server >/dev/null
