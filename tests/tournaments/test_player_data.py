"""An organizer exports or erases a registered player's personal data from the registrations page
(or the API): only when they organize every tournament the player took part in, erasure only
after an explicit confirmation, both audited; results stay under an anonymised name."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.factories.tournaments import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    TournamentRoleFactory,
)
from tournaments import privacy
from tournaments.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def reg(tournament):  # type: ignore[no-untyped-def]
    return RegistrationFactory(tournament=tournament, player=PlayerFactory(
        first_name="Gianna", last_name="Segreti", email="gianna@example.org", national_id="RCU-55"))


def _page(tournament, player) -> str:  # type: ignore[no-untyped-def]
    return f"/t/{tournament.slug}/players/{player.pk}/data/"


def test_the_registrations_page_links_to_the_data_page_and_export_downloads_everything(
    organizer_client, tournament, reg
) -> None:
    listing = organizer_client.get(f"/t/{tournament.slug}/registrations/").content.decode()
    assert _page(tournament, reg.player) in listing
    page = organizer_client.get(_page(tournament, reg.player))
    assert page.status_code == 200 and "gianna@example.org" in page.content.decode()
    response = organizer_client.post(_page(tournament, reg.player), {"action": "export"})
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    doc = json.loads(response.content)
    assert doc["player"]["email"] == "gianna@example.org" and doc["player"]["national_id"] == "RCU-55"
    assert doc["registrations"][0]["tournament"] == tournament.slug
    assert AuditEntry.objects.filter(action="player.export", object_id=str(reg.player.pk)).exists()


def test_erasure_needs_the_confirmation_then_anonymises_and_keeps_the_registration(
    organizer_client, tournament, reg
) -> None:
    url = _page(tournament, reg.player)
    refused = organizer_client.post(url, {"action": "erase"})
    assert refused.status_code == 400 and "PRIVACY" in refused.content.decode()
    reg.player.refresh_from_db()
    assert reg.player.email == "gianna@example.org"
    assert not AuditEntry.objects.filter(action="player.erase").exists()

    done = organizer_client.post(url, {"action": "erase", "confirm": "yes"}, follow=True)
    assert done.redirect_chain[-1][0] == f"/t/{tournament.slug}/registrations/"
    reg.player.refresh_from_db()
    assert (reg.player.email, reg.player.national_id, reg.player.last_name) == ("", "", f"#{reg.player.pk}")
    assert "Segreti" not in done.content.decode()
    assert Registration.objects.filter(pk=reg.pk).exists()  # their place in the event stays
    assert AuditEntry.objects.filter(action="player.erase", object_id=str(reg.player.pk)).exists()


def test_an_organizer_of_only_one_of_their_tournaments_may_neither_export_nor_erase(
    organizer_client, tournament, reg
) -> None:
    elsewhere = TournamentFactory(name="Torneo di altri")
    RegistrationFactory(tournament=elsewhere, player=reg.player)
    url = _page(tournament, reg.player)
    page = organizer_client.get(url).content.decode()
    assert "Torneo di altri" in page and 'value="erase"' not in page
    assert organizer_client.post(url, {"action": "erase", "confirm": "yes"}).status_code == 403
    assert organizer_client.post(url, {"action": "export"}).status_code == 403
    api = f"/api/tournaments/{tournament.slug}/players/{reg.player.pk}/"
    assert organizer_client.get(api + "data/").status_code == 403
    assert organizer_client.post(api + "erase/", {"confirm": True},
                                 content_type="application/json").status_code == 403
    reg.player.refresh_from_db()
    assert reg.player.email == "gianna@example.org"
    # Organizing the other one too makes it possible.
    user = reg.tournament.roles.get(role="organizer").user
    TournamentRoleFactory(tournament=elsewhere, user=user, role="organizer")
    assert organizer_client.post(url, {"action": "export"}).status_code == 200


def test_referees_strangers_and_other_tournaments_are_refused(
    tournament, reg, referee, other_referee_client, organizer_client
) -> None:
    url = _page(tournament, reg.player)
    assert Client().get(url).status_code == 302  # to the login page
    ref = Client()
    ref.force_login(referee)
    for client in (ref, other_referee_client):
        assert client.get(url).status_code == 403
        assert client.post(url, {"action": "erase", "confirm": "yes"}).status_code == 403
    stranger = PlayerFactory()  # not registered in this tournament
    assert organizer_client.get(_page(tournament, stranger)).status_code == 404
    reg.player.refresh_from_db()
    assert reg.player.email == "gianna@example.org"


def test_api_export_and_erase(organizer_client, tournament, reg, referee) -> None:
    api = f"/api/tournaments/{tournament.slug}/players/{reg.player.pk}/"
    assert Client().get(api + "data/").status_code in (401, 403)
    ref = Client()
    ref.force_login(referee)
    assert ref.get(api + "data/").status_code == 403
    assert ref.post(api + "erase/", {"confirm": True}, content_type="application/json").status_code == 403
    data = organizer_client.get(api + "data/")
    assert data.status_code == 200 and data.json()["player"]["email"] == "gianna@example.org"
    no = organizer_client.post(api + "erase/", {"confirm": False}, content_type="application/json")
    assert no.status_code == 400 and no.json()["rule"] == "PRIVACY" and "confirm" in no.json()
    yes = organizer_client.post(api + "erase/", {"confirm": True}, content_type="application/json")
    reg.player.refresh_from_db()
    assert yes.status_code == 200 and yes.json() == {"player": reg.player.pk, "name": reg.player.full_name}
    assert (reg.player.first_name, reg.player.last_name) == privacy.anonymised_name(reg.player)
    assert reg.player.email == "" and reg.player.last_name == f"#{reg.player.pk}"
