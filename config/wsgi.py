import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

from config.warmup import warm  # noqa: E402  (once Django is set up)

warm()  # before the first request: see config/warmup.py

from common.live import LiveFirst  # noqa: E402  (once Django is set up)

# An unchanged poll, or a page already answered, is answered before Django builds a request
# (common/live.py: LiveFirst).
application = LiveFirst(django_application)
