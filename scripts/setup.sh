#!/usr/bin/env bash
# Sourced by the other scripts: creates .venv and installs limitgames (editable)
# with the extras named in $1 (e.g. "test"). Re-runs are quick: pip skips what is there.
set -euo pipefail
extras="${1:-}"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
spec="."
[ -n "$extras" ] && spec=".[${extras}]"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
# Compile the hex engine's Numba kernel once (about a minute on a fresh machine; later starts
# load it from Numba's cache in a fraction of a second)
.venv/bin/python -c "from limitgames.hex.warmup import compile_kernel; t = compile_kernel(); print(f'hex kernel ready ({t:.1f} s)') if t > 5 else None"
# and the research encodings' batch code (the vector environment)
.venv/bin/python -c "from limitgames.hex.vector import compile_all; t = compile_all(); print(f'hex vector env ready ({t:.1f} s)') if t > 5 else None"
