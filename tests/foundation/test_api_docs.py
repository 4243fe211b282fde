"""The API's documentation pages (/api/docs/ Swagger UI, /api/redoc/ Redoc) take nothing from
another host: no reference to one in the page (a ``<link rel="preconnect">`` reaches its host
whatever the content security policy says), every asset from this server, and the policy sent
with the page, without inline scripts."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

DOCS = ["/api/docs/", "/api/redoc/"]
# every address the page makes the browser use: src, href, srcset, spec-url, url(...) in styles
ADDRESS = re.compile(r"""(?:\b(?:src|href|srcset|spec-url)\s*=\s*["']([^"']*)["'])|url\(\s*["']?([^"')]+)""",
                     re.IGNORECASE)
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)
REMOTE = re.compile(r"^(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)


def _addresses(html: str) -> list[str]:
    return [a or b for a, b in ADDRESS.findall(html)]


@pytest.mark.parametrize("url", DOCS)
def test_the_docs_page_names_no_other_host(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    addresses = _addresses(html)
    assert addresses, "the page loads its assets"
    remote = [a for a in addresses if REMOTE.match(a)]
    assert remote == [], f"{url} makes the browser reach another host: {remote}"
    assert not re.search(r"https?://", html), f"{url} names another host"
    assert "googleapis" not in html and "gstatic" not in html


@pytest.mark.parametrize("url", DOCS)
def test_the_docs_page_is_sent_with_the_policy_and_runs_no_inline_script(client: Client, url: str) -> None:
    response = client.get(url)
    csp = response["Content-Security-Policy"]
    assert "default-src 'self'" in csp and "http" not in csp
    script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
    assert script_src.split() == ["script-src", "'self'"], csp
    assert not INLINE_SCRIPT.search(response.content.decode()), url


@pytest.mark.parametrize("url", DOCS)
def test_every_asset_of_the_docs_page_is_served_here(client: Client, url: str) -> None:
    html = client.get(url).content.decode()
    for address in _addresses(html):
        if address.startswith("/api/schema/"):
            continue
        asset = client.get(address.replace("&amp;", "&"))
        assert asset.status_code == 200, address
        body = b"".join(asset.streaming_content) if asset.streaming else asset.content
        assert body, address


def test_swaggers_start_up_script_is_served_apart_and_names_no_other_host(client: Client) -> None:
    html = client.get("/api/docs/").content.decode()
    script = next(a for a in _addresses(html) if a.startswith("/api/docs/?"))
    response = client.get(script.replace("&amp;", "&"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert "SwaggerUIBundle" in response.content.decode()
    assert not re.search(r"https?://", response.content.decode())


def test_htmx_request_indicators_are_styled_by_the_stylesheet(settings: Any) -> None:
    """htmx's own indicator rules would be an inline <style> (refused by the policy): they are
    turned off in base.html and shipped in app.css instead."""
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    assert re.search(r"\.htmx-indicator\s*\{[^}]*opacity:\s*0", css)
    assert re.search(r"\.htmx-request \.htmx-indicator,\s*\.htmx-request\.htmx-indicator\s*\{[^}]*opacity:\s*1", css)
    base = (settings.BASE_DIR / "templates" / "base.html").read_text()
    assert '"includeIndicatorStyles": false' in base
