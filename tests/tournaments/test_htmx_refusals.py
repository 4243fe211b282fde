"""One way for htmx refusals (common/htmx.py): whatever refuses an htmx action, the page stays
whole (the answer goes to the page's refusal area, or to the form that keeps what was typed) and
says why in the user's language; nothing of it needs an inline script or style."""

from __future__ import annotations

import pytest

from tables import clocks
from tests.factories.tournaments import RegistrationFactory
from tests.tables.test_sdadata import expire_now, make_referee, make_table

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def _is_refusal(response, status: int) -> str:
    assert response.status_code == 200  # swapped by htmx, no failed request in the console
    assert response["HX-Retarget"] == "#refusal" and response["HX-Reswap"] == "innerHTML"
    assert response["X-Refusal-Status"] == str(status)
    html = response.content.decode()
    assert "<html" not in html and "<script" not in html and "style=" not in html
    return html


def test_every_page_has_the_refusal_area_and_no_debug_helper_that_replaces_the_page(client):
    html = client.get("/").content.decode()
    assert 'id="refusal"' in html and 'role="alert"' in html
    assert "django-htmx.js" not in html  # in DEBUG it replaced the page with a 400's fragment
    assert "htmx-2.min.js" in html


def test_a_refused_check_in_says_why_in_the_users_language(referee, tournament, client):
    reg = RegistrationFactory(tournament=tournament, withdrawn=True)
    client.force_login(referee)
    url = f"/t/{tournament.slug}/checkin/1/{reg.pk}/"
    html = _is_refusal(client.post(url, headers={**HTMX, "Accept-Language": "en"}), 400)
    assert "Only registered players can be checked in" in html and 'data-rule="STATUS"' in html
    client.cookies["django_language"] = "it"
    html = _is_refusal(client.post(url, headers=HTMX), 400)
    assert "Si può segnare presente solo chi è iscritto" in html


def test_no_permission_not_found_and_csrf_are_refusals_too(tournament, client, other_referee_client):
    reg = RegistrationFactory(tournament=tournament)
    url = f"/t/{tournament.slug}/checkin/1/{reg.pk}/"
    html = _is_refusal(other_referee_client.post(url, headers={**HTMX, "Accept-Language": "en"}),
                       403)
    assert "Only a referee or an organizer" in html
    _is_refusal(other_referee_client.post("/t/no-such-tournament/checkin/1/1/",
                                          headers=HTMX), 404)
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(_user(other_referee_client))
    html = _is_refusal(strict.post(url, headers={**HTMX, "Accept-Language": "en"}), 403)
    assert "security token" in html
    # without htmx, the ordinary pages are unchanged
    assert other_referee_client.post(url).status_code == 403


def _user(client):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_the_referee_panel_keeps_what_was_typed_and_is_swapped_in_place(client):
    table = make_table(players=5)
    client.force_login(make_referee(table.game.tournament))
    clocks.start_clock(table, actor=None)
    g = table.game
    url = f"/t/{g.tournament.slug}/games/{g.number}/tables/{table.number}/referee/"
    expire_now(table)
    stale = table.version
    ok = client.post(url, {"action": "end_turn", "seat": 1, "conquered": 0, "version": stale},
                     headers=HTMX)
    assert ok.status_code == 200 and "X-Refusal-Status" not in ok
    refused = client.post(url, {"action": "end_turn", "seat": 2, "conquered": 3,
                                "version": stale}, headers={**HTMX, "Accept-Language": "en"})
    assert refused.status_code == 200 and refused["X-Refusal-Status"] == "409"
    assert "HX-Retarget" not in refused  # the panel itself, with the error and what was typed
    html = refused.content.decode()
    assert 'id="referee-panel"' in html and 'role="alert"' in html and 'value="3"' in html


def test_a_tap_after_signing_out_takes_the_whole_page_to_the_login(tournament, client):
    reg = RegistrationFactory(tournament=tournament)
    page = f"/t/{tournament.slug}/checkin/1/"
    r = client.post(f"/t/{tournament.slug}/checkin/1/{reg.pk}/",
                    headers={**HTMX, "HX-Current-URL": f"http://testserver{page}?q=ro"})
    assert r.status_code == 200 and r.content == b""
    assert r["HX-Redirect"] == f"/accounts/login/?next={page.replace('/', '%2F')}"
