from __future__ import annotations

import pytest

from tests.factories.tournaments import PlayerLinkFactory, RefereeLinkFactory, RegistrationFactory
from tournaments import services
from tournaments.models import AccessLink, AuditEntry


@pytest.mark.django_db
def test_referee_link_logs_in_and_opens_the_referee_page(client, tournament, referee) -> None:
    link = RefereeLinkFactory(tournament=tournament, user=referee)
    response = client.get(f"/l/{link.token}/")
    assert response.status_code == 302
    assert response["Location"] == f"/t/{tournament.slug}/manage/"
    assert client.get(response["Location"]).status_code == 200
    link.refresh_from_db()
    assert link.last_used_at is not None


@pytest.mark.django_db
def test_player_link_marks_the_browser_and_grants_no_login(client, tournament) -> None:
    reg = RegistrationFactory(tournament=tournament)
    link = PlayerLinkFactory(tournament=tournament, player=reg.player)
    response = client.get(f"/l/{link.token}/")
    assert response["Location"] == f"/t/{tournament.slug}/"
    page = client.get(response["Location"])
    assert page.context["me"] == reg.player
    assert not page.context["user"].is_authenticated


@pytest.mark.django_db
def test_revoked_link_is_refused(client, organizer, tournament, referee) -> None:
    link = services.create_link(tournament, actor=organizer, user=referee)
    services.revoke_link(link, actor=organizer)
    response = client.get(f"/l/{link.token}/")
    assert response.status_code == 403
    assert "revoked" in response.content.decode()
    assert client.get(f"/t/{tournament.slug}/manage/").status_code == 302  # not logged in
    assert AuditEntry.objects.filter(action="link.revoke").count() == 1


@pytest.mark.django_db
def test_revoking_a_player_link_ends_its_session(client, organizer, tournament) -> None:
    reg = RegistrationFactory(tournament=tournament)
    link = services.create_link(tournament, actor=organizer, player=reg.player)
    client.get(f"/l/{link.token}/")
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
    from config.errors import DomainError
    from tests.factories.tournaments import UserFactory

    with pytest.raises(DomainError):
        services.create_link(tournament, actor=organizer, user=UserFactory())
    assert not AccessLink.objects.exists()
