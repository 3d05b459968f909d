#!/usr/bin/env bash
# Installs what the browser tests (tests/web/test_browser.py) need: Debian's
# chromium, driven by Playwright for Python. Playwright never downloads a
# browser of its own here; the tests point it at /usr/bin/chromium.
# Does nothing when chromium is already there; needs root (or sudo) otherwise.
set -euo pipefail
if [ -x /usr/bin/chromium ]; then
  exit 0
fi
run=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    run=(sudo)
  else
    echo "browser-deps: /usr/bin/chromium is missing and this is not root; the browser tests will be skipped" >&2
    exit 0
  fi
fi
echo "browser-deps: installing Debian's chromium for the browser tests"
export DEBIAN_FRONTEND=noninteractive
"${run[@]}" apt-get update -qq
"${run[@]}" apt-get install -y -qq chromium >/dev/null
