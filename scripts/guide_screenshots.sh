#!/usr/bin/env bash
# Refresh the screenshots of the organizer's and referee's guides (docs/img) from the browser
# journeys (tests/e2e, GUIDE_IMAGES in its conftest.py). Needs what those tests need: PostgreSQL
# and Redis, Debian's chromium and tesseract, `npm ci`.
#   DATABASE_URL=postgres://... REDIS_URL=redis://... SECRET_KEY=... bash scripts/guide_screenshots.sh
set -euo pipefail
cd "$(dirname "$0")/.."
GUIDE_SCREENSHOTS=1 .venv/bin/pytest -q -p no:cacheprovider "$@" \
  tests/e2e/test_event_day.py tests/e2e/test_event_day_people.py tests/e2e/test_event_day_print.py
