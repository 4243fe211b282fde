"""Dates are dd/mm/yyyy in forms and CSV; the player form has the region; the scoring system is
chosen from a list; a player typed again without a club gets a question, not a bare code."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest

from tests.factories.tournaments import UserFactory
from tournaments.models import Club, Player, Registration, Tournament


@pytest.mark.django_db
def test_the_edit_form_shows_the_tournament_date_as_dd_mm_yyyy(client) -> None:
    client.force_login(UserFactory(username="anna"))
    created = client.post("/new/", {
        "name": "Coppa Gufo", "date": "20/09/2025", "format": "rtu", "ruleset": "RTU",
        "scoring_system": "S-GUFO", "games_count": 3, "start_times": "10:30, 14:00, 16:30"})
    assert created.status_code == 302
    assert Tournament.objects.get().date == dt.date(2025, 9, 20)
    page = client.get("/t/coppa-gufo/edit/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'value="20/09/2025"' in page  # never an empty box
    assert '<option value="S-GUFO" selected' in page and "<select" in page  # chosen from a list
    typo = client.post("/t/coppa-gufo/edit/", {
        "name": "Coppa Gufo", "date": "20/09/2025", "format": "rtu", "ruleset": "RTU",
        "scoring_system": "S-GUFFO", "games_count": 3, "start_times": "10:30, 14:00, 16:30"})
    assert typo.status_code == 400 and Tournament.objects.get().scoring_system == "S-GUFO"


@pytest.mark.django_db
def test_registration_takes_a_dd_mm_yyyy_birth_date_and_the_region(organizer_client, tournament) -> None:
    form = organizer_client.get(f"/t/{tournament.slug}/register/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert 'name="region"' in form and "Regione" in form and "gg/mm/aaaa" in form
    response = organizer_client.post(f"/t/{tournament.slug}/register/", {
        "first_name": "Mario", "last_name": "Rossi", "club": "Dadi Rossi", "region": "Lazio",
        "birth_date": "03/04/1980"})
    assert response.status_code == 302
    player = Player.objects.get(last_name="Rossi")
    assert player.birth_date == dt.date(1980, 4, 3)
    assert Club.objects.get(name="Dadi Rossi").region == "Lazio"
    rows = list(csv.reader(io.StringIO(organizer_client.get(
        f"/t/{tournament.slug}/registrations/export.csv?plain=1").content.decode())))
    assert "03/04/1980" in rows[1]
    bad = organizer_client.post(f"/t/{tournament.slug}/register/", {
        "first_name": "Anna", "last_name": "Neri", "birth_date": "31/02/1990"}, HTTP_ACCEPT_LANGUAGE="it")
    assert bad.status_code == 400 and 'value="31/02/1990"' in bad.content.decode()


@pytest.mark.django_db
def test_a_player_typed_again_without_a_club_gets_a_question(organizer_client, tournament) -> None:
    url = f"/t/{tournament.slug}/register/"
    organizer_client.post(url, {"first_name": "Mario", "last_name": "Rossi", "club": "Dadi Rossi"})
    again = organizer_client.post(url, {"first_name": "mario", "last_name": "ROSSI"}, HTTP_ACCEPT_LANGUAGE="it")
    assert again.status_code == 400
    html = again.content.decode()
    assert "DUPLICATE" not in html
    assert "Mario Rossi (Dadi Rossi) è già iscritto" in html and "la stessa persona?" in html
    assert Registration.objects.filter(tournament=tournament).count() == 1
    # a namesake told apart by a nickname registers
    other = organizer_client.post(url, {"first_name": "Mario", "last_name": "Rossi", "nickname": "Il Lupo"})
    assert other.status_code == 302
