"""Authentication classes of the REST API (kept apart from common/api.py: DRF imports them while
it is still loading its own views)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.authentication import SessionAuthentication


class CookieCsrfSessionAuthentication(SessionAuthentication):
    """DRF's session authentication checks CSRF only for a logged-in user; a browser whose session
    holds a player's private link (not a login) could then be made to write from another site
    (confirming a result, registering). Here every unsafe request that comes with the session
    cookie and no ``Authorization`` header must pass Django's CSRF check, whoever it is. API
    clients that authenticate with a header (HTTP Basic, a token) send no cookie and are not
    affected; a cross-site form cannot set that header."""

    def authenticate(self, request: Any) -> Any:
        raw = request._request
        if (
            raw.method not in ("GET", "HEAD", "OPTIONS", "TRACE")
            and settings.SESSION_COOKIE_NAME in raw.COOKIES
            and not raw.META.get("HTTP_AUTHORIZATION")
        ):
            self.enforce_csrf(request)
        return super().authenticate(request)


try:  # the schema names it like DRF's own session authentication (cookie + CSRF)
    from drf_spectacular.authentication import SessionScheme

    class CookieCsrfSessionScheme(SessionScheme):
        target_class = "common.authentication.CookieCsrfSessionAuthentication"
except ImportError:  # pragma: no cover - drf-spectacular is a dependency
    pass
