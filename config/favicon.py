"""``/favicon.ico``: browsers ask for it whatever the page says, so it is served (an SVG die from
the app's own static files) instead of a 404 in every log."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

ICON = Path(settings.BASE_DIR) / "static" / "img" / "favicon.svg"


@require_GET
@cache_control(public=True, max_age=86400)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ICON.read_bytes(), content_type="image/svg+xml")
