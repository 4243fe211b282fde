from __future__ import annotations

import pytest

from common.errors import DomainError
from tests.factories.tournaments import ClubFactory, RegistrationFactory, TournamentFactory
from tournaments import services
from tournaments.models import AuditEntry, Player, Registration


def data(first: str, last: str, club: str = "Circolo Roma", **extra: object) -> services.PlayerData:
    return services.PlayerData(first_name=first, last_name=last, club=club, **extra)  # type: ignore[arg-type]


@pytest.mark.django_db
def test_capacity_waitlists_then_withdrawal_promotes_the_first_waitlisted(organizer) -> None:
    tournament = TournamentFactory(capacity=2)
    from tests.factories.tournaments import TournamentRoleFactory

    TournamentRoleFactory(tournament=tournament, user=organizer)
    a = services.register(tournament, data("Anna", "Verdi"))
    services.register(tournament, data("Bruno", "Neri"))
    c = services.register(tournament, data("Carla", "Blu"))
    d = services.register(tournament, data("Dario", "Gialli"))
    assert [r.status for r in (a, c, d)] == ["registered", "waitlisted", "waitlisted"]
    assert services.waitlist_position(c) == 1 and services.waitlist_position(d) == 2

    promoted = services.withdraw(a, actor=organizer)

    assert promoted is not None and promoted.pk == c.pk
    statuses = {r.player.first_name: r.state for r in Registration.objects.select_related("player")}
    assert statuses == {"Anna": "withdrawn", "Bruno": "registered", "Carla": "registered",
                        "Dario": "waitlisted"}
    actions = list(AuditEntry.objects.filter(tournament=tournament)
                   .values_list("action", flat=True))
    assert "registration.withdraw" in actions and "registration.promote" in actions


@pytest.mark.django_db
def test_withdrawing_a_waitlisted_player_promotes_nobody(organizer, tournament) -> None:
    tournament.capacity = 1
    tournament.save()
    services.register(tournament, data("Anna", "Verdi"))
    b = services.register(tournament, data("Bruno", "Neri"))
    c = services.register(tournament, data("Carla", "Blu"))
    assert services.withdraw(b, actor=organizer) is None
    c.refresh_from_db()
    assert c.status == "waitlisted"


@pytest.mark.django_db
def test_duplicate_registration_is_refused_with_a_clear_message(tournament) -> None:
    services.register(tournament, data("Mario", "Rossi", club="Circolo Roma"))
    with pytest.raises(DomainError) as err:
        # same person: case, accents and spaces do not matter (normalised name + club)
        services.register(tournament, data("  MARIO ", "rossi", club="circolo roma"))
    assert err.value.rule == "DUPLICATE" and err.value.field == "last_name"
    assert "Mario Rossi" in err.value.message
    assert Registration.objects.count() == 1 and Player.objects.count() == 1


@pytest.mark.django_db
def test_same_name_in_another_club_is_another_player(tournament) -> None:
    services.register(tournament, data("Mario", "Rossi", club="Circolo Roma"))
    services.register(tournament, data("Mario", "Rossi", club="Circolo Napoli"))
    assert Player.objects.count() == 2


@pytest.mark.django_db
def test_registration_closed_refuses_the_public_but_not_the_organizer(organizer, tournament) -> None:
    tournament.status = "running"
    tournament.save()
    with pytest.raises(DomainError) as err:
        services.register(tournament, data("Anna", "Verdi"))
    assert err.value.rule == "STATUS"
    reg = services.register(tournament, data("Anna", "Verdi"), actor=organizer)
    assert reg.status == "registered"


@pytest.mark.django_db
def test_page_duplicate_keeps_what_was_typed_and_names_the_problem(client, tournament) -> None:
    club = ClubFactory(name="Dadi Rossi Bologna")
    RegistrationFactory(tournament=tournament, player__first_name="Luca",
                        player__last_name="Ferrari", player__club=club)
    response = client.post(f"/t/{tournament.slug}/register/", {
        "first_name": "Luca", "last_name": "Ferrari", "nickname": "Kamchatka",
        "club": "Dadi Rossi Bologna", "email": "luca@example.org",
    })
    assert response.status_code == 400
    html = response.content.decode()
    # the sentence names the problem; the internal code DUPLICATE is not shown to a person
    assert "Luca Ferrari" in html and "DUPLICATE" not in html
    assert 'value="Kamchatka"' in html and 'value="luca@example.org"' in html
    assert Registration.objects.filter(tournament=tournament).count() == 1


@pytest.mark.django_db
def test_page_full_tournament_says_waitlist(client, tournament) -> None:
    tournament.capacity = 1
    tournament.save()
    RegistrationFactory(tournament=tournament)
    response = client.post(f"/t/{tournament.slug}/register/", {
        "first_name": "Sara", "last_name": "Ricci", "club": ""}, follow=True)
    assert response.status_code == 200
    reg = Registration.objects.get(player__last_name="Ricci")
    assert reg.status == "waitlisted"
    assert "Sara Ricci" in response.content.decode()
    assert response.context["messages"]._loaded_messages[0].level_tag == "warning"


@pytest.mark.django_db
def test_page_bad_email_keeps_the_form(client, tournament) -> None:
    response = client.post(f"/t/{tournament.slug}/register/", {
        "first_name": "Sara", "last_name": "Ricci", "email": "not-an-email"})
    assert response.status_code == 400
    assert 'value="Ricci"' in response.content.decode()
    assert not Registration.objects.exists()


@pytest.mark.django_db
def test_public_page_never_shows_email_or_birth_date(client, tournament) -> None:
    reg = RegistrationFactory(tournament=tournament, player__nickname="Il Barone",
                              player__email="secret@example.org")
    html = client.get(f"/t/{tournament.slug}/").content.decode()
    assert reg.player.last_name in html and "Il Barone" in html and reg.player.club.name in html
    assert "secret@example.org" not in html and "1990" not in html
    api = client.get(f"/api/tournaments/{tournament.slug}/registrations/").content.decode()
    assert reg.player.last_name in api
    assert "secret@example.org" not in api and "1990" not in api


@pytest.mark.django_db
def test_raising_the_capacity_moves_waitlisted_players_up_in_order(organizer, tournament) -> None:
    tournament.capacity = 1
    tournament.save()
    for first, last in [("Anna", "Verdi"), ("Bruno", "Neri"), ("Carla", "Blu"), ("Dario", "Re")]:
        services.register(tournament, data(first, last))
    services.update_tournament(tournament, actor=organizer, capacity=3)
    statuses = dict(Registration.objects.values_list("player__first_name", "status"))
    assert statuses == {"Anna": "registered", "Bruno": "registered", "Carla": "registered",
                        "Dario": "waitlisted"}
    services.update_tournament(tournament, actor=organizer, capacity=1)  # nobody is removed
    assert Registration.objects.filter(status="registered").count() == 3
