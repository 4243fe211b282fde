from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories.tournaments import (
    PlayerLinkFactory,
    RefereeLinkFactory,
    RegistrationFactory,
    UserFactory,
    open_private_link,
)
from tournaments import services
from tournaments.models import AccessLink, AuditEntry, Invitation


@pytest.mark.django_db
def test_referee_link_logs_in_and_opens_the_referee_page(client, tournament, referee) -> None:
    link = RefereeLinkFactory(tournament=tournament, user=referee)
    response = open_private_link(client, link.token)
    assert response.status_code == 302
    assert response["Location"] == f"/t/{tournament.slug}/manage/"
    assert client.get(response["Location"]).status_code == 200
    link.refresh_from_db()
    assert link.last_used_at is not None


@pytest.mark.django_db
def test_player_link_marks_the_browser_and_grants_no_login(client, tournament) -> None:
    reg = RegistrationFactory(tournament=tournament)
    link = PlayerLinkFactory(tournament=tournament, player=reg.player)
    response = open_private_link(client, link.token)
    # the player's own page, even before the first tables: their check-in, standing, next game
    assert response["Location"] == f"/t/{tournament.slug}/me/"
    page = client.get(response["Location"])
    assert page.context["me"] == reg.player
    assert not page.context["user"].is_authenticated


@pytest.mark.django_db
def test_revoked_link_is_refused(client, organizer, tournament, referee) -> None:
    link = services.create_link(tournament, actor=organizer, user=referee)
    services.revoke_link(link, actor=organizer)
    response = client.get(f"/l/{link.token}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert "revoked" in response.content.decode()
    assert client.post(f"/l/{link.token}/", {"replacing": ""}).status_code == 403
    assert client.get(f"/t/{tournament.slug}/manage/").status_code == 302  # not logged in
    assert AuditEntry.objects.filter(action="link.revoke").count() == 1


@pytest.mark.django_db
def test_revoking_a_player_link_ends_its_session(client, organizer, tournament) -> None:
    reg = RegistrationFactory(tournament=tournament)
    link = services.create_link(tournament, actor=organizer, player=reg.player)
    open_private_link(client, link.token)
    assert client.get(f"/t/{tournament.slug}/").context["me"] == reg.player
    services.revoke_link(link, actor=organizer)
    assert client.get(f"/t/{tournament.slug}/").context["me"] is None


@pytest.mark.django_db
def test_organizer_creates_and_revokes_links_on_the_page(organizer_client, tournament,
                                                         referee) -> None:
    role = tournament.roles.get(user=referee)
    response = organizer_client.post(f"/t/{tournament.slug}/staff/links/",
                                     {"kind": "referee", "role": role.pk})
    assert response.status_code == 302
    link = AccessLink.objects.get(user=referee)
    page = organizer_client.get(f"/t/{tournament.slug}/staff/").content.decode()
    assert f"/l/{link.token}/" in page
    organizer_client.post(f"/t/{tournament.slug}/staff/links/{link.pk}/revoke/")
    link.refresh_from_db()
    assert not link.is_active


@pytest.mark.django_db
def test_link_only_for_users_with_a_role(organizer, tournament) -> None:
    from common.errors import DomainError
    from tests.factories.tournaments import UserFactory

    with pytest.raises(DomainError):
        services.create_link(tournament, actor=organizer, user=UserFactory())
    assert not AccessLink.objects.exists()


# --- the landing page: a private link signs in only from its own button ------------------------
def _csrf(page) -> str:  # type: ignore[no-untyped-def]
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)


@pytest.mark.django_db
def test_opening_a_link_only_shows_who_the_browser_would_be(tournament, referee) -> None:
    """A hostile page that loads the link (an image, a redirect) signs nobody in."""
    link = RefereeLinkFactory(tournament=tournament, user=referee)
    browser = Client()
    page = browser.get(f"/l/{link.token}/", HTTP_ACCEPT_LANGUAGE="it")
    text = page.content.decode()
    assert page.status_code == 200 and referee.username in text and tournament.name in text
    assert ">Entra<" in text and "no-store" in page["Cache-Control"] and "private" in page["Cache-Control"]
    assert "_auth_user_id" not in browser.session
    link.refresh_from_db()
    assert link.last_used_at is None
    reg = RegistrationFactory(tournament=tournament)
    player = PlayerLinkFactory(tournament=tournament, player=reg.player)
    assert browser.get(f"/l/{player.token}/").status_code == 200
    assert not browser.session.get("player_links")


@pytest.mark.django_db
def test_a_cross_site_post_signs_nobody_in_the_button_does(tournament, referee) -> None:
    link = RefereeLinkFactory(tournament=tournament, user=referee)
    browser = Client(enforce_csrf_checks=True)
    assert browser.post(f"/l/{link.token}/", {"replacing": ""}).status_code == 403  # no CSRF token
    assert "_auth_user_id" not in browser.session
    landing = browser.get(f"/l/{link.token}/")
    r = browser.post(f"/l/{link.token}/", {"replacing": "", "csrfmiddlewaretoken": _csrf(landing)})
    assert r.status_code == 302 and r["Location"] == f"/t/{tournament.slug}/manage/"
    assert browser.session["_auth_user_id"] == str(referee.pk)
    # opened again (the QR code scanned twice): straight on, nothing asked
    assert browser.get(f"/l/{link.token}/")["Location"] == f"/t/{tournament.slug}/manage/"


@pytest.mark.django_db
def test_a_link_never_replaces_who_is_signed_in_without_asking(tournament, referee) -> None:
    link = RefereeLinkFactory(tournament=tournament, user=referee)
    someone = UserFactory(username="mario")
    browser = Client()
    browser.force_login(someone)
    landing = browser.get(f"/l/{link.token}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "accesso come <strong>mario</strong>" in landing and ">Continua<" in landing
    # a button from a page that did not say so (opened before mario signed in): asked again
    stale = browser.post(f"/l/{link.token}/", {"replacing": ""})
    assert stale.status_code == 409 and browser.session["_auth_user_id"] == str(someone.pk)
    r = browser.post(f"/l/{link.token}/", {"replacing": "mario"})
    assert r.status_code == 302 and browser.session["_auth_user_id"] == str(referee.pk)


@pytest.mark.django_db
def test_a_players_link_asks_before_replacing_another_players(tournament) -> None:
    first, second = RegistrationFactory(tournament=tournament), RegistrationFactory(tournament=tournament)
    phone = Client()
    open_private_link(phone, PlayerLinkFactory(tournament=tournament, player=first.player).token)
    other = PlayerLinkFactory(tournament=tournament, player=second.player)
    landing = phone.get(f"/l/{other.token}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert first.player.full_name in landing and "viene sostituito" in landing
    assert phone.post(f"/l/{other.token}/", {"replacing": ""}).status_code == 409
    assert phone.get(f"/t/{tournament.slug}/").context["me"] == first.player
    assert open_private_link(phone, other.token).status_code == 302
    assert phone.get(f"/t/{tournament.slug}/").context["me"] == second.player


@pytest.mark.django_db
def test_a_session_a_link_signed_in_cannot_accept_an_invitation(tournament, referee, organizer) -> None:
    from common.errors import PermissionDeniedError
    from tournaments import invitations

    inv = invitations.create_invitation(tournament, "organizer", actor=organizer)
    browser = Client()
    open_private_link(browser, RefereeLinkFactory(tournament=tournament, user=referee).token)
    page = browser.get(f"/invite/{inv.token}/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "non può accettare inviti" in page and "Accetta l" not in page
    r = browser.post(f"/invite/{inv.token}/", HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 403 and "accedi con nome utente e password" in r.content.decode()
    inv.refresh_from_db()
    assert inv.accepted_at is None and tournament.roles.get(user=referee).role == "referee"
    # the same account, signed in with its password, accepts
    browser.force_login(referee)
    assert browser.post(f"/invite/{inv.token}/").status_code == 302
    assert tournament.roles.get(user=referee).role == "organizer"
    again = invitations.create_invitation(tournament, "organizer", actor=organizer)
    referee.link_tournament_id = tournament.pk  # as RevokedLinkMiddleware marks a link's session
    with pytest.raises(PermissionDeniedError):  # the service refuses too, whatever the front end
        invitations.accept_invitation(again.token, user=referee)
    assert Invitation.objects.get(pk=again.pk).accepted_at is None
