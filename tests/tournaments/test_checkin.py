from __future__ import annotations

import pytest

from common.errors import DomainError
from tests.factories.tournaments import RegistrationFactory
from tournaments import services
from tournaments.models import AuditEntry, CheckIn


@pytest.mark.django_db
def test_one_tap_toggles_check_in_and_is_audited(referee, tournament, client) -> None:
    reg = RegistrationFactory(tournament=tournament)
    client.force_login(referee)
    url = f"/t/{tournament.slug}/checkin/2/{reg.pk}/"

    response = client.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert 'aria-pressed="true"' in response.content.decode()
    assert CheckIn.objects.filter(registration=reg, game_number=2).count() == 1
    assert not CheckIn.objects.filter(registration=reg, game_number=1).exists()

    response = client.post(url, HTTP_HX_REQUEST="true")
    assert 'aria-pressed="false"' in response.content.decode()
    assert not CheckIn.objects.filter(registration=reg).exists()

    entries = list(AuditEntry.objects.filter(tournament=tournament).order_by("id")
                   .values_list("action", "actor_label"))
    assert entries == [("checkin.create", "ref"), ("checkin.delete", "ref")]


@pytest.mark.django_db
def test_search_box_filters_players(referee, tournament, client) -> None:
    RegistrationFactory(tournament=tournament, player__last_name="Esposito",
                        player__nickname="Sasà")
    RegistrationFactory(tournament=tournament, player__last_name="Colombo")
    client.force_login(referee)
    response = client.get(f"/t/{tournament.slug}/checkin/1/?q=sas", HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert "Esposito" in html and "Colombo" not in html
    assert "<html" not in html  # htmx gets only the rows
    full = client.get(f"/t/{tournament.slug}/checkin/1/").content.decode()
    assert "Esposito" in full and "Colombo" in full and "<html" in full


@pytest.mark.django_db
def test_waitlisted_player_and_unknown_game_are_refused(referee, tournament) -> None:
    waiting = RegistrationFactory(tournament=tournament, status="waitlisted")
    with pytest.raises(DomainError) as err:
        services.toggle_checkin(waiting, 1, actor=referee)
    assert err.value.rule == "STATUS"
    reg = RegistrationFactory(tournament=tournament)
    with pytest.raises(DomainError) as err:
        services.toggle_checkin(reg, tournament.games_count + 1, actor=referee)
    assert err.value.rule == "GAME" and err.value.field == "game_number"
    assert not CheckIn.objects.exists()


@pytest.mark.django_db
def test_api_check_in_sets_presence(referee, tournament, client) -> None:
    reg = RegistrationFactory(tournament=tournament)
    client.force_login(referee)
    url = f"/api/tournaments/{tournament.slug}/checkins/"
    response = client.post(url, {"registration": reg.pk, "game_number": 1, "present": True},
                           content_type="application/json")
    assert response.status_code == 200 and response.json()["present"] is True
    assert [c["player"] for c in client.get(url + "?game=1").json()["results"]] == [reg.player_id]
    bad = client.post(url, {"registration": reg.pk, "game_number": 9, "present": True},
                      content_type="application/json")
    assert bad.status_code == 400 and bad.json()["rule"] == "GAME" and "game_number" in bad.json()


@pytest.mark.django_db
def test_withdrawal_removes_the_players_check_ins(organizer, tournament) -> None:
    reg = RegistrationFactory(tournament=tournament)
    services.toggle_checkin(reg, 1, actor=organizer)
    services.withdraw(reg, actor=organizer)
    assert not CheckIn.objects.exists()
