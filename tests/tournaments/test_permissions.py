"""Anonymous users, players (private link) and referees of ANOTHER tournament cannot change a
tournament or its registrations, through the pages or the API; nothing changes in the DB."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.factories.tournaments import (
    RefereeLinkFactory,
    RegistrationFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import (
    AccessLink,
    AuditEntry,
    CheckIn,
    Registration,
    Tournament,
    TournamentRole,
)


def snapshot(tournament: Tournament) -> tuple:
    tournament.refresh_from_db()
    return (
        tournament.name, tournament.status, tournament.capacity,
        sorted(Registration.objects.values_list("id", "status")),
        CheckIn.objects.count(), TournamentRole.objects.count(),
        sorted(AccessLink.objects.values_list("id", "revoked_at")),
        AuditEntry.objects.count(),
    )


@pytest.fixture
def setup(tournament, referee):  # type: ignore[no-untyped-def]
    owner = UserFactory(username="owner")
    TournamentRoleFactory(tournament=tournament, user=owner)
    reg = RegistrationFactory(tournament=tournament)
    link = RefereeLinkFactory(tournament=tournament, user=referee)
    role = TournamentRole.objects.get(tournament=tournament, user=referee)
    return {"t": tournament, "reg": reg, "link": link, "role": role}


def page_writes(s: dict) -> list[tuple[str, dict]]:
    slug, reg = s["t"].slug, s["reg"]
    return [
        (f"/t/{slug}/edit/", {"name": "Hacked", "date": "2025-01-01", "format": "rtu",
                              "ruleset": "RTU", "scoring_system": "S-RTU", "games_count": 3}),
        (f"/t/{slug}/status/", {"status": "draft"}),
        (f"/t/{slug}/registrations/{reg.pk}/withdraw/", {}),
        (f"/t/{slug}/checkin/1/{reg.pk}/", {}),
        (f"/t/{slug}/staff/", {"username": "other-ref", "role": "organizer"}),
        (f"/t/{slug}/staff/roles/{s['role'].pk}/remove/", {}),
        (f"/t/{slug}/staff/links/{s['link'].pk}/revoke/", {}),
        (f"/t/{slug}/staff/links/", {"kind": "player", "registration": reg.pk}),
    ]


def api_writes(s: dict) -> list[tuple[str, str, dict]]:
    slug, reg = s["t"].slug, s["reg"]
    return [
        ("patch", f"/api/tournaments/{slug}/", {"name": "Hacked"}),
        ("post", f"/api/tournaments/{slug}/status/", {"status": "draft"}),
        ("post", f"/api/tournaments/{slug}/registrations/{reg.pk}/withdraw/", {}),
        ("post", f"/api/tournaments/{slug}/checkins/",
         {"registration": reg.pk, "game_number": 1, "present": True}),
        ("post", f"/api/tournaments/{slug}/roles/", {"username": "other-ref", "role": "organizer"}),
        ("delete", f"/api/tournaments/{slug}/roles/{s['role'].pk}/", {}),
        ("post", f"/api/tournaments/{slug}/links/{s['link'].pk}/revoke/", {}),
        ("post", f"/api/tournaments/{slug}/links/", {"player": reg.player_id}),
        ("post", f"/api/tournaments/{slug}/registrations/import/",
         {"text": "first_name,last_name\nA,B\n"}),
    ]


@pytest.mark.django_db
def test_anonymous_is_sent_to_login_and_changes_nothing(client, setup) -> None:
    before = snapshot(setup["t"])
    for url, form in page_writes(setup):
        response = client.post(url, form)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    for method, url, body in api_writes(setup):
        response = getattr(client, method)(url, json.dumps(body), content_type="application/json")
        assert response.status_code in (401, 403), (url, response.status_code)
    assert client.get(f"/t/{setup['t'].slug}/registrations/export.csv").status_code == 302
    assert snapshot(setup["t"]) == before


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["player_client", "other_referee_client"])
def test_player_and_referee_of_another_tournament_are_refused(request, setup, who) -> None:
    client: Client = request.getfixturevalue(who)
    before = snapshot(setup["t"])
    for url, form in page_writes(setup):
        response = client.post(url, form)
        if who == "player_client":  # a player's link is not a login
            assert response.status_code == 302 and "/accounts/login/" in response["Location"]
        else:
            assert response.status_code == 403, url
    for method, url, body in api_writes(setup):
        response = getattr(client, method)(url, json.dumps(body), content_type="application/json")
        assert response.status_code in (401, 403), (url, response.status_code)
    for url in (f"/t/{setup['t'].slug}/registrations/", f"/t/{setup['t'].slug}/audit/",
                f"/api/tournaments/{setup['t'].slug}/links/"):
        assert client.get(url).status_code in (302, 403)
    assert snapshot(setup["t"]) == before


@pytest.mark.django_db
def test_referee_may_check_in_but_not_organize(client, setup, referee) -> None:
    client.force_login(referee)
    reg = setup["reg"]
    assert client.post(f"/t/{setup['t'].slug}/checkin/1/{reg.pk}/").status_code == 302
    assert CheckIn.objects.filter(registration=reg, game_number=1).exists()
    assert client.post(f"/t/{setup['t'].slug}/registrations/{reg.pk}/withdraw/").status_code == 403
    reg.refresh_from_db()
    assert reg.is_active and not reg.withdrawals.exists()
