"""The organizer's registrations page: a search like the check-in's, an add-player button that
says what it does, and a refused player's form shown where the organizer is looking (the form
keeps what was typed). What the browser shows of the latter: tests/e2e/test_phone_controls.py."""

from __future__ import annotations

import pytest

from tests.factories.tournaments import RegistrationFactory
from tournaments import services


@pytest.mark.django_db
def test_the_registrations_page_searches_like_the_check_in(organizer_client, tournament) -> None:
    RegistrationFactory(tournament=tournament, player__first_name="Niccolò", player__last_name="D'Amico")
    RegistrationFactory(tournament=tournament, player__first_name="Anna", player__last_name="Verdi")
    url = f"/t/{tournament.slug}/registrations/"
    page = organizer_client.get(url).content.decode()
    assert 'role="search"' in page and "Cerca un giocatore" in page
    found = organizer_client.get(url, {"q": "niccolo"}).content.decode()  # accents do not matter
    assert "D&#x27;Amico" in found and "Verdi" not in found
    rows = organizer_client.get(url, {"q": "verdi"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Verdi" in rows and "<html" not in rows  # htmx: only the rows
    none = organizer_client.get(url, {"q": "zzz"}).content.decode()
    assert "Nessun iscritto corrisponde." in none


@pytest.mark.django_db
def test_the_organizers_button_adds_a_player_instead_of_saying_register(organizer_client, client,
                                                                         tournament) -> None:
    page = organizer_client.get(f"/t/{tournament.slug}/registrations/").content.decode()
    assert ">Aggiungi il giocatore</button>" in page and ">Iscriviti</button>" not in page
    form = organizer_client.get(f"/t/{tournament.slug}/register/").content.decode()
    assert ">Aggiungi il giocatore</button>" in form
    public = client.get(f"/t/{tournament.slug}/register/").content.decode()  # a player registers
    assert ">Iscriviti</button>" in public


@pytest.mark.django_db
def test_a_refused_player_comes_back_at_the_form_with_what_was_typed(organizer_client, organizer,
                                                                     tournament) -> None:
    services.register(tournament, services.PlayerData(first_name="Anna", last_name="Verdi", club="C"),
                      actor=organizer)
    response = organizer_client.post(f"/t/{tournament.slug}/register/", {
        "first_name": "Anna", "last_name": "Verdi", "club": "C", "email": "anna@example.org",
        "next": "registrations"})
    assert response.status_code == 400
    html = response.content.decode()
    # the browser lands on the form (the fragment of the form's action) and the top says so
    assert f'action="/t/{tournament.slug}/register/#add-player"' in html
    assert 'id="add-player"' in html
    assert 'Il giocatore non è stato aggiunto. <a href="#add-player">Vedi cosa correggere</a>' in html
    assert 'value="anna@example.org"' in html
