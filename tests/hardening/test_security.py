"""Security: content security policy, no inline script, login rate limit, check --deploy,
private links long and revocable."""

from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tournaments import demo
from tournaments.models import AccessLink, Tournament

ROOT = Path(settings.BASE_DIR)
INLINE_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.IGNORECASE)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
STYLE_ATTR = re.compile(r"<[^>]*\sstyle\s*=", re.IGNORECASE)


def _templates() -> list[Path]:
    return sorted(p for p in (ROOT / "templates").rglob("*.html"))


def test_no_template_has_inline_script_handlers_or_style_attributes() -> None:
    offenders = []
    for path in _templates():
        text = path.read_text()
        for pattern in (INLINE_HANDLER, INLINE_SCRIPT, STYLE_ATTR):
            for m in pattern.finditer(text):
                offenders.append(f"{path.relative_to(ROOT)}: {m.group(0)[:60]}")
    assert offenders == [], "the CSP blocks these; move them to static/js or app.css"


def _public_pages(t: Tournament) -> list[str]:
    return [
        "/", f"/t/{t.slug}/", f"/t/{t.slug}/standings/", f"/t/{t.slug}/games/1/tables/",
        f"/t/{t.slug}/games/1/tables/1/", f"/t/{t.slug}/games/1/tables/1/sheet/",
        f"/t/{t.slug}/standings/print/", "/accounts/login/",
    ]


def test_every_page_sends_the_csp_and_renders_no_inline_script(
    demo_tournament: Tournament, organizer_client: Client,
) -> None:
    t = demo_tournament
    pages = [*_public_pages(t), f"/t/{t.slug}/manage/", f"/t/{t.slug}/registrations/",
             f"/t/{t.slug}/games/1/organize/", f"/t/{t.slug}/staff/", "/admin/"]
    for url in pages:
        response = organizer_client.get(url, follow=True)
        assert response.status_code == 200, url
        csp = response["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, url
        assert "frame-ancestors 'none'" in csp
        html = response.content.decode()
        assert not INLINE_SCRIPT.search(html), url
        assert not INLINE_HANDLER.search(html), url
        assert response["X-Content-Type-Options"] == "nosniff"
        assert response["X-Frame-Options"] == "DENY"


def test_the_api_docs_get_their_own_policy_and_still_no_remote_host(db: Any, client: Client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    csp = response["Content-Security-Policy"]
    assert "http" not in csp and "default-src 'self'" in csp


def test_htmx_indicator_styles_are_off_so_htmx_injects_no_inline_style(db: Any, client: Client) -> None:
    html = client.get("/").content.decode()
    assert '"includeIndicatorStyles": false' in html


# --- login rate limit --------------------------------------------------------------------------
def _fail_login(client: Client, username: str) -> Any:
    return client.post(reverse("login"), {"username": username, "password": "wrong"})


def test_the_sixth_failed_login_is_refused_with_429_and_a_form_error(
    demo_tournament: Tournament,
) -> None:
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        assert _fail_login(client, demo.ORGANIZER[0]).status_code == 200
    # Even the right password is refused now: the limiter answers before checking it.
    response = client.post(reverse("login"), {"username": demo.ORGANIZER[0],
                                              "password": demo.ORGANIZER[1]})
    assert response.status_code == 429
    assert response["Retry-After"] == str(settings.LOGIN_FAILURE_WINDOW)
    form = response.context["form"]
    assert form.non_field_errors() and form["username"].value() == demo.ORGANIZER[0]
    assert "_auth_user_id" not in client.session
    # Another username from the same address is not affected, nor the same one elsewhere.
    other = client.post(reverse("login"), {"username": demo.REFEREE[0],
                                           "password": demo.REFEREE[1]})
    assert other.status_code == 302
    elsewhere = Client(REMOTE_ADDR="10.1.2.3")
    ok = elsewhere.post(reverse("login"), {"username": demo.ORGANIZER[0],
                                           "password": demo.ORGANIZER[1]})
    assert ok.status_code == 302


def test_the_limit_is_per_window(demo_tournament: Tournament) -> None:
    from django.core.cache import cache

    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        _fail_login(client, "nobody")
    assert _fail_login(client, "nobody").status_code == 429
    cache.clear()  # what the 15-minute expiry does
    assert _fail_login(client, "nobody").status_code == 200


def test_basic_auth_on_the_api_counts_and_is_refused_with_429(demo_tournament: Tournament) -> None:
    client = Client()
    bad = "Basic " + base64.b64encode(f"{demo.ORGANIZER[0]}:nope".encode()).decode()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        assert client.get("/api/tournaments/", HTTP_AUTHORIZATION=bad).status_code in (401, 403)
    response = client.get("/api/tournaments/", HTTP_AUTHORIZATION=bad)
    assert response.status_code == 429 and response.json()["rule"] == "LOGIN-RATE"


def test_the_admin_login_is_limited_too(demo_tournament: Tournament) -> None:
    client = Client()
    url = reverse("admin:login")
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        client.post(url, {"username": "admin", "password": "x"})
    assert client.post(url, {"username": "admin", "password": "x"}).status_code == 429


# --- deployment --------------------------------------------------------------------------------
def test_check_deploy_is_clean_with_production_variables(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "HTTPS")}
    env.update({
        "DATABASE_URL": env.get("DATABASE_URL", "postgres://u:p@127.0.0.1:5432/unused"),
        "SECRET_KEY": "x" * 20 + "-a-long-random-production-secret-" + "y" * 20,
        "ALLOWED_HOSTS": "risiko.example.org",
    })
    run = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    probe = subprocess.run(
        [sys.executable, "-c", (
            "import django,os;os.environ['DJANGO_SETTINGS_MODULE']='config.settings';django.setup();"
            "from django.conf import settings as s;"
            "print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SESSION_COOKIE_HTTPONLY,"
            " s.SECURE_HSTS_SECONDS > 0, s.SECURE_SSL_REDIRECT)")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert probe.stdout.split() == ["True"] * 5, probe.stderr


# --- private links -----------------------------------------------------------------------------
def test_private_links_are_256_bit_and_a_revoked_link_opens_nothing(
    demo_tournament: Tournament, organizer_client: Client,
) -> None:
    link = AccessLink.objects.filter(tournament=demo_tournament).first()
    assert link is not None
    raw = base64.urlsafe_b64decode(link.token + "=" * (-len(link.token) % 4))
    assert len(raw) * 8 >= 256
    response = organizer_client.post(f"/t/{demo_tournament.slug}/staff/links/{link.pk}/revoke/")
    assert response.status_code in (200, 302)
    browser = Client()
    opened = browser.get(f"/l/{link.token}/")
    assert opened.status_code in (403, 404, 410, 400)
    assert "_auth_user_id" not in browser.session


@pytest.mark.parametrize("token", ["", "x", "a" * 43, "../../etc/passwd", "%00"])
def test_guessed_tokens_open_nothing(db: Any, client: Client, token: str) -> None:
    response = client.get(f"/l/{token}/")
    assert response.status_code in (400, 403, 404)
    assert not client.session.get("player_links") and "_auth_user_id" not in client.session


def test_a_nul_byte_in_basic_credentials_is_a_401_not_a_server_error(db: Any, client: Client) -> None:
    """Found by schemathesis on PostgreSQL (NUL cannot go into a query)."""
    header = "Basic " + base64.b64encode(b"orga\x00nizer:pw").decode()
    response = client.get("/api/tournaments/", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401


def test_a_huge_page_offset_is_an_empty_page_not_a_server_error(db: Any, client: Client) -> None:
    """Found by schemathesis on PostgreSQL: OFFSET beyond bigint was a 500."""
    response = client.get("/api/players/?offset=100000000000000000000&limit=100000000000")
    assert response.status_code == 200 and response.json()["results"] == []
