from __future__ import annotations

import pytest

from tests.factories.tournaments import RegistrationFactory, UserFactory
from tournaments.models import AuditEntry, Tournament


@pytest.mark.django_db
def test_organizer_creates_edits_and_opens_a_tournament_on_the_pages(client) -> None:
    client.force_login(UserFactory(username="anna"))
    response = client.post("/new/", {
        "name": "Coppa Tricolore", "date": "2025-09-20", "format": "rtu", "ruleset": "RTU",
        "scoring_system": "S-RTU", "games_count": 3, "start_times": "10:30, 14:00, 16:30",
        "capacity": 30})
    assert response.status_code == 302 and response["Location"] == "/t/coppa-tricolore/manage/"

    bad = client.post("/t/coppa-tricolore/edit/", {
        "name": "Coppa Tricolore 2025", "date": "2025-09-20", "format": "rtu", "ruleset": "RTU",
        "scoring_system": "S-RTU", "games_count": 2, "start_times": "10:30, 14:00, 16:30"})
    assert bad.status_code == 400
    html = bad.content.decode()
    assert "K-BEST2" in html and 'value="Coppa Tricolore 2025"' in html
    assert Tournament.objects.get().name == "Coppa Tricolore"

    client.post("/t/coppa-tricolore/status/", {"status": "registration"})
    t = Tournament.objects.get()
    assert t.status == "registration"
    assert client.get("/t/coppa-tricolore/register/").status_code == 200
    assert AuditEntry.objects.filter(tournament=t, action="tournament.status").exists()


@pytest.mark.django_db
def test_organizer_withdraws_on_the_page_and_sees_the_audit_log(organizer_client,
                                                                tournament) -> None:
    reg = RegistrationFactory(tournament=tournament, player__last_name="Gallo")
    response = organizer_client.post(
        f"/t/{tournament.slug}/registrations/{reg.pk}/withdraw/", follow=True)
    assert response.status_code == 200
    reg.refresh_from_db()
    assert reg.is_withdrawn and reg.state == "withdrawn"
    audit = organizer_client.get(f"/t/{tournament.slug}/audit/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"withdrew the registration of {reg.player.display_name}" in audit
    assert "registration.withdraw" not in audit  # the sentence, never the action's code


@pytest.mark.django_db
def test_nav_shows_manage_only_to_staff(client, organizer_client, tournament) -> None:
    manage = f"/t/{tournament.slug}/manage/"
    assert manage not in client.get(f"/t/{tournament.slug}/").content.decode()
    assert manage in organizer_client.get(f"/t/{tournament.slug}/").content.decode()


@pytest.mark.django_db
def test_admin_lists_every_tournaments_model(client, tournament) -> None:
    from django.apps import apps

    RegistrationFactory(tournament=tournament)
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    for model in apps.get_app_config("tournaments").get_models():
        url = f"/admin/tournaments/{model._meta.model_name}/"
        assert client.get(url).status_code == 200, url
