"""One way for pages to refuse an htmx action: the page stays whole and says why.

An htmx request (a tap on a check-in toggle, a referee's end of turn...) that is refused must not
replace part of the page with an error page, nor be silently dropped. Every refusal of an htmx
request therefore becomes the same small answer:

- the text says why, in the user's language, with the rule id when there is one;
- ``HX-Retarget: #refusal`` and ``HX-Reswap: innerHTML`` put it in the page's refusal area
  (``templates/_refusal.html``, a ``role="alert"`` region that ``base.html`` has on every page);
- the status is 200 so that htmx swaps it and the browser logs no failed request; the refused
  status travels in ``X-Refusal-Status`` (and ``data-status`` of the message).

Views may build it themselves with :func:`refusal`; ``common.refusals.RefusalMiddleware`` turns
every other refused htmx request (a ``DomainError``, ``PermissionDenied``, a 404, a CSRF failure,
any 4xx answer) into one, and sends an htmx request whose session has ended to the login page
(``HX-Redirect``: the whole page, never a login form inside a row). A view that answers an htmx refusal with its own fragment for the request's
target (the referee panel keeps what was typed) marks it with :func:`keep_target`. Nothing here
uses inline scripts or styles: the content security policy allows neither.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode, urlsplit

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from common.errors import DomainError

REFUSAL_TARGET = "#refusal"


def is_htmx(request: HttpRequest) -> bool:
    return request.headers.get("HX-Request") == "true" and not request.headers.get(
        "HX-History-Restore-Request")


def _generic(status: int) -> str:
    if status == 403:
        return _("You may not do this here: sign in again, or ask an organizer of this "
                 "tournament.")
    if status == 404:
        return _("What you acted on no longer exists: reload the page.")
    if status == 409:
        return _("Someone else changed this meanwhile: reload the page and try again.")
    if status == 429:
        return _("Too many attempts: wait a few minutes and try again.")
    return _("This action was refused: check what you entered and try again.")


def refusal(
    request: HttpRequest, message: str = "", *, rule: str | None = None, status: int = 400
) -> HttpResponse:
    """The answer to a refused htmx request (see the module docstring)."""
    html = render_to_string("_refusal.html", {
        "message": message or _generic(status), "rule": rule or "", "status": status,
    }, request=request)
    response = HttpResponse(html)
    response["HX-Retarget"] = REFUSAL_TARGET
    response["HX-Reswap"] = "innerHTML"
    response["X-Refusal-Status"] = str(status)
    return response


def refusal_from(request: HttpRequest, exc: DomainError) -> HttpResponse:
    return refusal(request, exc.message, rule=exc.rule, status=exc.status_code)


def keep_target(response: HttpResponse, *, status: int) -> HttpResponse:
    """An htmx refusal answered with the view's own fragment for the request's target (it shows
    the error itself and keeps what was typed): swapped in place, status in the header."""
    response.status_code = 200
    response["X-Refusal-Status"] = str(status)
    return response


def to_login(response: HttpResponse) -> bool:
    from django.conf import settings
    from django.shortcuts import resolve_url

    login = str(resolve_url(settings.LOGIN_URL))
    return urlsplit(response.get("Location", "")).path == login


def signed_out(request: HttpRequest) -> HttpResponse:
    """``HX-Redirect`` to the login page, back to the page the action came from afterwards."""
    from django.conf import settings
    from django.shortcuts import resolve_url

    current = urlsplit(request.headers.get("HX-Current-URL", ""))
    back = current.path if current.path.startswith("/") and not current.path.startswith("//") \
        else request.path
    response = HttpResponse("")
    response["HX-Redirect"] = f"{resolve_url(settings.LOGIN_URL)}?{urlencode({'next': back})}"
    return response


def csrf_failure(request: HttpRequest, reason: str = "", **kwargs: Any) -> HttpResponse:
    """CSRF_FAILURE_VIEW: an htmx action refused for its CSRF token says so in the page;
    anything else gets Django's own page."""
    if is_htmx(request):
        return refusal(request, _("This page is out of date (security token): reload it and "
                                  "try again."), status=403)
    from django.views.csrf import csrf_failure as default

    return default(request, reason=reason, **kwargs)
