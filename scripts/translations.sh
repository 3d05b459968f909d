#!/usr/bin/env bash
# Re-extracts the messages of the browser app and the terminal app (Babel, babel.cfg), merges them
# into the German, French and Spanish catalogues (src/limitgames/locale/*/LC_MESSAGES/messages.po),
# compiles the .mo files the package ships, and lists every message still untranslated.
#   scripts/translations.sh          extract + update + compile + check (exit 1 if anything is missing)
#   scripts/translations.sh check    only the list of what is missing
# Needs Babel (pip install 'limitgames[test]' or pip install babel).
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python}"
if [ -x .venv/bin/python ] && [ -z "${PYTHON:-}" ]; then
  python=.venv/bin/python
fi
exec "$python" scripts/translations.py "$@"
