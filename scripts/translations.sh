#!/usr/bin/env bash
# Refresh the catalogues from the sources, then compile them (needs GNU gettext).
# --no-location: entries carry no file:line, so a change elsewhere in a file does not touch the catalogue
#   bash scripts/translations.sh          # after adding or changing strings
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
$PY manage.py makemessages -l it -l en --no-obsolete --no-location --ignore ".venv/*" --ignore "tests/*"
$PY manage.py compilemessages --ignore ".venv/*"
