#!/usr/bin/env bash
# Refresh the screenshots of the organizer's and referee's guides (docs/img) from the browser
# journeys (tests/e2e, GUIDE_IMAGES in its conftest.py), then make them small (shrink_png.py,
# with Pillow: PYTHON=/path/to/a/python/with/pillow to use another interpreter for that step).
# Needs what those tests need: PostgreSQL and Redis, Debian's chromium and tesseract, `npm ci`.
#   DATABASE_URL=postgres://... REDIS_URL=redis://... SECRET_KEY=... bash scripts/guide_screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
GUIDE_SCREENSHOTS=1 .venv/bin/python -m pytest -q -p no:cacheprovider "$@" \
  tests/e2e/test_event_day.py tests/e2e/test_event_day_people.py tests/e2e/test_event_day_print.py \
  tests/e2e/test_at_the_tables.py tests/e2e/test_registrations_page.py
"${PYTHON:-.venv/bin/python}" scripts/shrink_png.py docs/img/*.png
