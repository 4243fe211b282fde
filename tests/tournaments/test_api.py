from __future__ import annotations

import pytest

from tests.factories.tournaments import RegistrationFactory, UserFactory
from tournaments.models import AuditEntry, Registration, Tournament, TournamentRole


@pytest.mark.django_db
def test_creator_becomes_organizer_and_can_run_the_tournament(client) -> None:
    user = UserFactory(username="creator")
    client.force_login(user)
    response = client.post("/api/tournaments/", {
        "name": "Torneo di Primavera", "date": "2025-04-12", "capacity": 40,
        "start_times": ["10:30", "14:00", "16:30"]}, content_type="application/json")
    assert response.status_code == 201, response.content
    slug = response.json()["slug"]
    assert slug == "torneo-di-primavera" and response.json()["status"] == "draft"
    assert TournamentRole.objects.get(tournament__slug=slug).user == user

    bad = client.post(f"/api/tournaments/{slug}/status/", {"status": "finished"},
                      content_type="application/json")
    assert bad.status_code == 400 and bad.json()["rule"] == "STATUS" and "status" in bad.json()
    ok = client.post(f"/api/tournaments/{slug}/status/", {"status": "registration"},
                     content_type="application/json")
    assert ok.status_code == 200 and ok.json()["status"] == "registration"
    patch = client.patch(f"/api/tournaments/{slug}/", {"start_times": ["10:30", "25:00"]},
                         content_type="application/json")
    assert patch.status_code == 400 and "start_times" in patch.json()
    assert Tournament.objects.get(slug=slug).start_times == ["10:30", "14:00", "16:30"]


@pytest.mark.django_db
def test_api_registration_full_duplicate_and_withdraw(client, organizer, tournament) -> None:
    tournament.capacity = 1
    tournament.save()
    url = f"/api/tournaments/{tournament.slug}/registrations/"
    first = client.post(url, {"first_name": "Anna", "last_name": "Verdi", "club": "C"},
                        content_type="application/json")
    assert first.status_code == 201 and first.json()["status"] == "registered"
    second = client.post(url, {"first_name": "Bruno", "last_name": "Neri"},
                         content_type="application/json")
    assert second.json()["status"] == "waitlisted"
    dup = client.post(url, {"first_name": "anna", "last_name": "VERDI", "club": "c"},
                      content_type="application/json")
    assert dup.status_code == 400
    assert dup.json()["rule"] == "DUPLICATE" and "last_name" in dup.json()

    client.force_login(organizer)
    withdraw = client.post(f"{url}{first.json()['id']}/withdraw/")
    assert withdraw.status_code == 200 and withdraw.json()["status"] == "withdrawn"
    assert Registration.objects.get(pk=second.json()["id"]).status == "registered"


@pytest.mark.django_db
def test_api_roles_and_links(client, organizer, tournament) -> None:
    UserFactory(username="marta")
    client.force_login(organizer)
    role = client.post(f"/api/tournaments/{tournament.slug}/roles/",
                       {"username": "marta", "role": "referee"}, content_type="application/json")
    assert role.status_code == 201
    unknown = client.post(f"/api/tournaments/{tournament.slug}/roles/",
                          {"username": "nobody", "role": "referee"},
                          content_type="application/json")
    assert unknown.status_code == 400 and "username" in unknown.json()
    link = client.post(f"/api/tournaments/{tournament.slug}/links/", {"username": "marta"},
                       content_type="application/json")
    assert link.status_code == 201 and link.json()["url"].startswith("/l/")
    revoke = client.post(f"/api/tournaments/{tournament.slug}/links/{link.json()['id']}/revoke/")
    assert revoke.json()["revoked_at"] is not None
    last = client.delete(f"/api/tournaments/{tournament.slug}/roles/"
                         f"{TournamentRole.objects.get(user=organizer).pk}/")
    assert last.status_code == 400  # a tournament keeps one organizer
    assert AuditEntry.objects.filter(action="role.set").count() == 1


@pytest.mark.django_db
def test_public_player_api_hides_private_data(client) -> None:
    reg = RegistrationFactory(player__email="hidden@example.org")
    data = client.get(f"/api/players/{reg.player_id}/").json()
    assert set(data) == {"id", "first_name", "last_name", "nickname", "club"}


@pytest.mark.django_db
def test_drafts_are_hidden_from_the_public(client, tournament) -> None:
    tournament.status = "draft"
    tournament.save()
    assert client.get(f"/t/{tournament.slug}/").status_code == 404
    assert tournament.slug not in client.get("/").content.decode()
    assert client.get(f"/api/tournaments/{tournament.slug}/").status_code == 404
