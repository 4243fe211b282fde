#!/usr/bin/env bash
# Refresh the catalogues from the sources, then compile them (needs GNU gettext).
#   bash scripts/translations.sh          # after adding or changing strings
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
$PY manage.py makemessages -l it -l en --no-obsolete --ignore ".venv/*" --ignore "tests/*"
$PY manage.py compilemessages --ignore ".venv/*"
