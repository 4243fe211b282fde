"""Security middleware: a content security policy and a login rate limiter.

Content security policy
    Django 5.2 has no built-in CSP. :class:`ContentSecurityPolicyMiddleware` sends
    ``settings.CONTENT_SECURITY_POLICY`` on every response that has none yet: scripts and styles
    only from this server (no inline ``<script>`` blocks, no ``on*=`` attributes: behaviour lives
    in ``static/js/``), no plugins, no framing, forms post only here. The Swagger UI and Redoc
    pages served by drf-spectacular (``templates/api/``) build their styles in the page and run
    Redoc's search in a blob worker; they get ``settings.CONTENT_SECURITY_POLICY_DOCS`` instead:
    still no remote host and no inline script. A policy cannot stop everything: a
    ``<link rel="preconnect">`` to another host is opened whatever it says, so those pages'
    templates carry no reference to another host at all (drf-spectacular's own Redoc template
    preconnected to Google Fonts).

Login rate limit
    At most ``LOGIN_FAILURE_LIMIT`` failed logins per username + client address within
    ``LOGIN_FAILURE_WINDOW`` seconds (default 5 per 15 minutes), and at most
    ``LOGIN_FAILURE_LIMIT_PER_ADDRESS`` (default 100) from one address whatever the usernames. The
    username is keyed as authentication reads it (:func:`login_name`: Unicode NFKC, surrounding
    spaces dropped) and casefolded on top, so "Ｏｒｇａｎｉｚｅｒ", " organizer " and "ORGANIZER"
    share one counter. Failures are counted from
    Django's ``user_login_failed`` signal, so the login page, the admin login and HTTP Basic
    authentication on the API all count; the cache holds the counters (Redis in production, so
    every gunicorn worker sees the same count). Once the limit is reached, further attempts for
    that username from that address are refused with HTTP 429 *before* the password is checked:
    the login pages show the form with an error, the API answers JSON.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import unicodedata
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _

DEFAULT_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
DOCS_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; worker-src 'self' blob:; font-src 'self' data:; connect-src 'self'; "
    "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            docs = request.path.startswith(("/api/docs/", "/api/redoc/"))
            policy = (
                getattr(settings, "CONTENT_SECURITY_POLICY_DOCS", DOCS_CSP)
                if docs
                else getattr(settings, "CONTENT_SECURITY_POLICY", DEFAULT_CSP)
            )
            if policy:
                response["Content-Security-Policy"] = policy
        response.setdefault("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
        response.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        return response


# --- login rate limit ----------------------------------------------------------------------
def client_ip(request: HttpRequest | None) -> str:
    """The client's address. Behind the compose stack's proxy REMOTE_ADDR is the proxy, so the
    first X-Forwarded-For hop is used only when ``settings.TRUST_X_FORWARDED_FOR`` is on."""
    if request is None:
        return "-"
    if getattr(settings, "TRUST_X_FORWARDED_FOR", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        if forwarded:
            return forwarded.split(",")[0].strip()
    return str(request.META.get("REMOTE_ADDR", "-"))


def login_name(username: str) -> str:
    """The username as the login form hands it to authentication (Django's ``UsernameField``:
    NFKC, then surrounding whitespace stripped), casefolded: the limiter's key. Look-alike forms
    of one name (full-width letters, ligatures, case, spaces) are one key."""
    text = unicodedata.normalize("NFKC", str(username)).strip()
    return unicodedata.normalize("NFKC", text.casefold())


def _key(username: str, ip: str) -> str:
    digest = hashlib.sha256(f"{login_name(username)}|{ip}".encode()).hexdigest()
    return f"login-failures:{digest}"


def _address_key(ip: str) -> str:
    return f"login-failures-address:{hashlib.sha256(ip.encode()).hexdigest()}"


def _limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT", 5))


def _address_limit() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_LIMIT_PER_ADDRESS", 100))


def _window() -> int:
    return int(getattr(settings, "LOGIN_FAILURE_WINDOW", 15 * 60))


def failures(username: str, ip: str) -> int:
    return int(cache.get(_key(username, ip), 0))


def is_locked(username: str, ip: str) -> bool:
    if int(cache.get(_address_key(ip), 0)) >= _address_limit():
        return True
    return bool(login_name(username)) and failures(username, ip) >= _limit()


def _bump(key: str) -> int:
    if cache.add(key, 1, timeout=_window()):
        return 1
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=_window())
        return 1


def note_failure(username: str, ip: str) -> int:
    _bump(_address_key(ip))
    return _bump(_key(username, ip))


@receiver(user_login_failed, dispatch_uid="common.security.count_login_failure")
def _count_failure(sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None,
                   **kwargs: Any) -> None:
    username = str(credentials.get("username") or "")
    if username:
        note_failure(username, client_ip(request))


def _basic_username(request: HttpRequest) -> str:
    header = request.META.get("HTTP_AUTHORIZATION", "")
    if not header.lower().startswith("basic "):
        return ""
    try:
        decoded = base64.b64decode(header[6:].strip()).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return ""
    return decoded.partition(":")[0]


class LoginRateLimitMiddleware:
    """Refuses a login attempt (form POST or HTTP Basic credentials) for a username + address
    that has reached the failure limit: HTTP 429."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self._login_paths: set[str] | None = None

    def login_paths(self) -> set[str]:
        if self._login_paths is None:
            self._login_paths = {reverse("login"), reverse("admin:login")}
        return self._login_paths

    def __call__(self, request: HttpRequest) -> HttpResponse:
        ip = client_ip(request)
        if request.method == "POST" and request.path in self.login_paths():
            username = str(request.POST.get("username", ""))
            if is_locked(username, ip):  # an empty name: only the address's own limit
                return self._refuse_form(request)
        basic = _basic_username(request)
        if "\x00" in basic or "\x00" in request.META.get("HTTP_AUTHORIZATION", ""):
            # PostgreSQL refuses NUL in a query: answer like any bad credentials, never a 500.
            return JsonResponse({"detail": _("Invalid username/password."), "rule": "LOGIN"},
                                status=401)
        if (basic or request.META.get("HTTP_AUTHORIZATION", "").lower().startswith("basic ")) \
                and is_locked(basic, ip):
            return JsonResponse({"detail": self.message(), "rule": "LOGIN-RATE"}, status=429,
                                headers={"Retry-After": str(_window())})
        return self.get_response(request)

    @staticmethod
    def message() -> str:
        return _("Too many failed logins for this username from this address. "
                 "Wait %(minutes)d minutes and try again.") % {"minutes": _window() // 60}

    def _refuse_form(self, request: HttpRequest) -> HttpResponse:
        from django.contrib.auth.forms import AuthenticationForm
        from django.forms.utils import ErrorDict

        # A bound form showing what was typed (never the password) and the refusal as its error.
        form = AuthenticationForm(request, data={"username": request.POST.get("username", "")})
        form._errors = ErrorDict()
        form.cleaned_data = {}
        form.add_error(None, self.message())
        template = "admin/login.html" if request.path == reverse("admin:login") else (
            "registration/login.html")
        context: dict[str, Any] = {"form": form, "next": request.POST.get("next", "")}
        if template == "admin/login.html":
            from django.contrib import admin

            context.update(admin.site.each_context(request))
        response = render(request, template, context, status=429)
        response["Retry-After"] = str(_window())
        return response
