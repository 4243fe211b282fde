"""How a page says a refused action: the one mapping of a ``DomainError`` for pages.

- an htmx action: the refusal fragment in the page's refusal area (``common.htmx.refusal``);
- forbidden (rule ``ROLE``…): the 403 page, with the reason; not found: the 404 page;
- anything else (invalid, a conflict, too large): a message on the page the action came from.

A view that shows a form calls :func:`add_to_form` instead, so the form keeps what was
typed. A view that wants to go somewhere after the refusal calls :func:`refuse` and redirects;
a ``DomainError`` a view lets through is answered by :class:`RefusalMiddleware` with the same
mapping (never a 500), back to the page the action came from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme

from common.errors import DomainError, Refusal, read_only_refusal
from common.htmx import is_htmx, refusal, refusal_from, signed_out, to_login

PAGE_STATUS = {Refusal.FORBIDDEN: PermissionDenied, Refusal.UNAUTHORISED: PermissionDenied, Refusal.NOT_FOUND: Http404}


def shown(exc: DomainError, *, explained_here: bool = False) -> DomainError:
    """``exc`` if a page may show it itself; forbidden and not found raise the 403 / 404 page
    instead (the page would hide that nothing happened for a reason of rights), unless the page
    itself explains it (``explained_here``: its own answer carries the 403 and says why)."""
    page_error = None if explained_here else PAGE_STATUS.get(exc.kind)
    if page_error is not None:
        raise page_error(exc.message)
    return exc


def refuse(request: HttpRequest, exc: DomainError) -> None:
    """Say ``exc`` on the next page as a message (or the 403 / 404 page, see :func:`shown`)."""
    messages.error(request, shown(exc).text)


def said_here(request: HttpRequest, exc: DomainError) -> None:
    """Say ``exc`` as a message on the page the view renders itself, forbidden ones included: for a
    page whose own answer (with its 403) shows what may not be done and why."""
    messages.error(request, shown(exc, explained_here=True).text)


def add_to_form(form: Any, exc: DomainError) -> None:
    """A refusal on a form page: next to its field when the form has it (else above the form);
    the bound form keeps what was typed (or the 403 / 404 page, see :func:`shown`)."""
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, shown(exc).text)


def back(request: HttpRequest) -> HttpResponse:
    """The page the action came from (same site only, never the refused page itself: a refused
    read would loop), else the home page."""
    referer = request.headers.get("Referer", "")
    if (referer and url_has_allowed_host_and_scheme(referer, {request.get_host()}, request.is_secure())
            and not (request.method == "GET" and urlsplit(referer).path == request.path)):
        return HttpResponseRedirect(referer)
    return HttpResponseRedirect("/")


class RefusalMiddleware:
    """Every refused htmx request answers through ``common.htmx.refusal``; a ``DomainError`` a
    page view lets through answers through :func:`refuse`."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_htmx(request) and response.status_code == 302 and to_login(response):
            # signed out meanwhile: the whole page goes to the login page (and comes back to
            # where it was), instead of a login form inside a table row
            return signed_out(request)
        if (
            is_htmx(request)
            and 400 <= response.status_code < 500
            and "X-Refusal-Status" not in response
        ):
            message = getattr(response, "refusal_message", "")
            return refusal(request, message, status=response.status_code)
        return response

    def process_exception(self, request: HttpRequest, exc: Exception) -> HttpResponse | None:
        if isinstance(exc, DatabaseError):  # a read-only database: said like any refusal
            exc = read_only_refusal(exc) or exc
        if is_htmx(request):
            if isinstance(exc, DomainError):
                return refusal_from(request, exc)
            if isinstance(exc, PermissionDenied):
                return refusal(request, str(exc) if exc.args else "", status=403)
            if isinstance(exc, Http404):
                return refusal(request, status=404)
            return None
        if isinstance(exc, DomainError) and not request.path_info.startswith("/api/"):  # the API: common.api
            refuse(request, exc)  # raises the 403 / 404 page for those kinds
            return back(request)
        return None
