#!/usr/bin/env bash
# Sourced by the other scripts: creates .venv and installs limitgames (editable) with the
# extras named in $1 (e.g. "test"), then compiles the hex engine once. When nothing changed
# since the last run with these extras (same pyproject.toml, same hex engine sources) it does
# nothing: a stamp in .venv keeps one line per (pyproject.toml, engine, extras) installed.
set -euo pipefail
extras="${1:-}"
stamp=".venv/.limitgames-installed"
want="$( { cat pyproject.toml src/limitgames/hex/*.py; echo "extras=${extras}"; } | sha256sum | cut -d' ' -f1)"
if [ -x .venv/bin/python ] && [ -x .venv/bin/limit ] && [ -f "$stamp" ] \
  && grep -qxF "$want" "$stamp" 2>/dev/null; then
  return 0 2>/dev/null || exit 0
fi
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
spec="."
[ -n "$extras" ] && spec=".[${extras}]"
echo "setup: installing limitgames${extras:+ with the extras: $extras} into .venv"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
# Compile the hex engine's Numba code once (the kernel, then the research encodings' vector
# environment), showing what is compiled and the time so far; later starts load it from
# Numba's cache in a fraction of a second, and this prints nothing
.venv/bin/python scripts/compile_hex.py
echo "$want" >> "$stamp"
