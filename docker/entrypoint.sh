#!/bin/sh
# One image, three roles: web (migrates first), worker, beat. scripts/prod_smoke.sh runs this
# same file outside the image (BIND and BEAT_SCHEDULE_FILE let it pick a free port and file).
set -e
case "$1" in
  web)
    python manage.py migrate --noinput
    # Threaded workers with keep-alive: a phone's open connection between two polls (every 1.5 s)
    # holds no worker process, as it would with sync workers. Few threads: more only contend for
    # the interpreter lock, and each poll then costs more CPU (benchmarks/live.py: THREADS).
    exec gunicorn config.wsgi:application --bind "${BIND:-0.0.0.0:8000}" \
      --workers "${WEB_CONCURRENCY:-3}" --worker-class gthread --threads "${WEB_THREADS:-2}" \
      --keep-alive 5 --access-logfile - --timeout 60
    ;;
  worker)
    exec celery -A config worker --loglevel "${LOG_LEVEL:-INFO}" --concurrency "${CELERY_CONCURRENCY:-2}"
    ;;
  beat)
    exec celery -A config beat --loglevel "${LOG_LEVEL:-INFO}" --schedule "${BEAT_SCHEDULE_FILE:-/tmp/celerybeat-schedule}"
    ;;
  *)
    exec "$@"
    ;;
esac
