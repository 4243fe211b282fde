"""Access control seen by an attacker: login rate limit look-alikes, revoked links, CSRF on
link sessions, rule settings that are not the engine's."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from scoring.models import Confirmation, ResultSubmission
from tests.factories.tournaments import TournamentRoleFactory, make_user, open_private_link
from tests.tables.conftest import player_link
from tournaments import demo, services
from tournaments.models import AccessLink, Club, Player, Season, Tournament

# --- login rate limit ------------------------------------------------------------------------


def _fail(client: Client, username: str) -> Any:
    return client.post(reverse("login"), {"username": username, "password": "wrong"})


LOOK_ALIKES = [
    "ｏｒｇａｎｉｚｚａｔｏｒｅ",  # full-width letters: NFKC makes them ASCII
    " organizzatore ",  # surrounding spaces: the form strips them
    "ORGANIZZATORE", "OrGanizzatore",  # case
    "organizzatore\u3000",  # ideographic space
    "ＯＲＧＡＮＩＺＺＡＴＯＲＥ",  # full-width capitals
]


def test_look_alike_usernames_share_one_failure_counter(demo_tournament: Tournament) -> None:
    """Five failures spread over look-alikes of one name lock that name: the next attempt, even
    with the right password and in yet another spelling, is refused before it is checked."""
    client = Client()
    for name in LOOK_ALIKES[: settings.LOGIN_FAILURE_LIMIT]:
        assert _fail(client, name).status_code == 200, name
    for name in (demo.ORGANIZER[0], "ｏｒｇａｎｉｚｚａｔｏｒｅ", "  ORGANIZZATORE"):
        response = client.post(reverse("login"), {"username": name, "password": demo.ORGANIZER[1]})
        assert response.status_code == 429, name
    assert "_auth_user_id" not in client.session


def test_a_full_width_name_still_logs_in_as_the_plain_one(demo_tournament: Tournament) -> None:
    """Why the key must be normalised: authentication itself treats them as one user."""
    client = Client()
    response = client.post(reverse("login"), {"username": "ｏｒｇａｎｉｚｚａｔｏｒｅ",
                                              "password": demo.ORGANIZER[1]})
    assert response.status_code == 302 and "_auth_user_id" in client.session


def test_basic_auth_look_alikes_count_with_the_form(demo_tournament: Tournament) -> None:
    client = Client()
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        _fail(client, "ＯＲＧＡＮＩＺＺＡＴＯＲＥ")
    header = "Basic " + base64.b64encode(f" {demo.ORGANIZER[0]}:{demo.ORGANIZER[1]}".encode()).decode()
    assert client.get("/api/tournaments/", HTTP_AUTHORIZATION=header).status_code == 429


def test_one_address_spraying_many_names_is_stopped(demo_tournament: Tournament,
                                                     settings: Any) -> None:
    settings.LOGIN_FAILURE_LIMIT_PER_ADDRESS = 8
    client = Client()
    for i in range(8):
        assert _fail(client, f"someone{i}").status_code == 200
    refused = client.post(reverse("login"), {"username": demo.REFEREE[0],
                                             "password": demo.REFEREE[1]})
    assert refused.status_code == 429
    elsewhere = Client(REMOTE_ADDR="10.9.8.7")
    ok = elsewhere.post(reverse("login"), {"username": demo.REFEREE[0],
                                           "password": demo.REFEREE[1]})
    assert ok.status_code == 302


# --- revoked links end their sessions --------------------------------------------------------


def test_revoking_a_referee_link_logs_its_session_out_at_once(
    demo_tournament: Tournament, organizer_client: Client,
) -> None:
    link = AccessLink.objects.filter(tournament=demo_tournament, kind="referee").first()
    assert link is not None
    referee = Client()
    assert open_private_link(referee, link.token).status_code in (200, 302)
    checkins = f"/api/tournaments/{demo_tournament.slug}/checkins/"
    audit = reverse("tournaments:audit", kwargs={"slug": demo_tournament.slug})
    assert referee.get(audit).status_code in (200, 403)  # signed in
    assert "_auth_user_id" in referee.session
    organizer_client.post(reverse("tournaments:link_revoke",
                                  kwargs={"slug": demo_tournament.slug, "pk": link.pk}))
    assert AccessLink.objects.get(pk=link.pk).revoked_at is not None
    body = {"registration": 1, "game_number": 2, "present": True}
    response = referee.post(checkins, json.dumps(body), content_type="application/json")
    assert response.status_code in (401, 403)
    assert "_auth_user_id" not in referee.session


def test_a_password_login_is_not_ended_by_an_old_link(demo_tournament: Tournament,
                                                      organizer_client: Client) -> None:
    link = AccessLink.objects.filter(tournament=demo_tournament, kind="referee").first()
    assert link is not None
    browser = Client()
    open_private_link(browser, link.token)
    browser.post(reverse("login"), {"username": demo.REFEREE[0], "password": demo.REFEREE[1]})
    services.revoke_link(link, actor=get_user_model().objects.get(username=demo.ORGANIZER[0]))
    browser.get("/")
    assert "_auth_user_id" in browser.session


def test_revoking_a_player_link_ends_it_even_when_a_new_one_was_made(
    demo_tournament: Tournament,
) -> None:
    from tables.models import Game, Seat

    organizer = get_user_model().objects.get(username=demo.ORGANIZER[0])
    game = Game.objects.get(tournament=demo_tournament, number=2)
    seat = Seat.objects.filter(game=game, player__isnull=False).select_related("player").first()
    assert seat is not None
    old = player_link(demo_tournament, seat.player)
    lost = Client()
    open_private_link(lost, old.token)
    url = f"/api/tournaments/{demo_tournament.slug}/games/2/objectives/"
    assert [c["objective"] for c in lost.get(url).json()] == [seat.objective]
    services.revoke_link(old, actor=organizer)
    services.create_link(demo_tournament, actor=organizer, player=seat.player)  # a new one
    assert lost.get(url).json() == []
    page = lost.get(reverse("tables:objective", kwargs={"slug": demo_tournament.slug, "number": 2}))
    assert seat.objective not in page.content.decode()


# --- CSRF on every cookie-borne write ----------------------------------------------------------


def _player_of_result(tournament: Tournament) -> tuple[ResultSubmission, Any]:
    from tests.hardening.urlmap import demo_world

    sub = ResultSubmission.objects.get(pk=demo_world().result)
    seat = sub.table.seats.filter(player__isnull=False).first()
    return sub, seat.player


def test_a_player_link_session_cannot_confirm_from_another_site(demo_tournament: Tournament) -> None:
    sub, player = _player_of_result(demo_tournament)
    link = player_link(demo_tournament, player)
    browser = Client(enforce_csrf_checks=True)
    open_private_link(browser, link.token)
    url = reverse("api-result-confirm", kwargs={"pk": sub.pk})
    forged = browser.post(url, HTTP_ORIGIN="https://evil.example")  # no token
    assert forged.status_code == 403
    assert not Confirmation.objects.filter(submission=sub, player=player).exists()
    # The same browser, from the app's own page (token from the cookie, sent back as a header).
    browser.get(reverse("tournaments:detail", kwargs={"slug": demo_tournament.slug}))
    token = browser.cookies[settings.CSRF_COOKIE_NAME].value
    ok = browser.post(url, HTTP_X_CSRFTOKEN=token)
    assert ok.status_code == 201, ok.content
    assert Confirmation.objects.filter(submission=sub, player=player).exists()


def test_anonymous_cookie_registration_needs_the_token_too(demo_tournament: Tournament) -> None:
    Tournament.objects.filter(pk=demo_tournament.pk).update(status=Tournament.Status.REGISTRATION)
    browser = Client(enforce_csrf_checks=True)
    browser.get(reverse("tournaments:detail", kwargs={"slug": demo_tournament.slug}))
    browser.cookies[settings.SESSION_COOKIE_NAME] = "anything"
    url = f"/api/tournaments/{demo_tournament.slug}/registrations/"
    forged = browser.post(url, {"first_name": "Forged", "last_name": "Entry"})
    assert forged.status_code == 403


def test_basic_authenticated_clients_need_no_csrf_token(demo_tournament: Tournament) -> None:
    sub, _player = _player_of_result(demo_tournament)
    api = Client(enforce_csrf_checks=True)
    header = "Basic " + base64.b64encode(f"{demo.ORGANIZER[0]}:{demo.ORGANIZER[1]}".encode()).decode()
    response = api.post(reverse("api-result-confirm", kwargs={"pk": sub.pk}),
                        HTTP_AUTHORIZATION=header)
    # Past the CSRF check, the service answers (the organizer already confirmed it in the demo).
    assert response.status_code in (201, 400), response.content
    assert "CSRF" not in response.content.decode()


# --- rule settings are the engine's --------------------------------------------------------


@pytest.mark.parametrize("change, field, rule", [
    ({"ruleset_overrides": {"no_such_rule": 3}}, "ruleset_overrides", "FORMAT"),
    ({"ruleset_overrides": {"turn_seconds": "lots"}}, "ruleset_overrides", "FORMAT"),
    ({"ruleset_overrides": {"closure": "coin_toss"}}, "ruleset_overrides", "FORMAT"),
    ({"ruleset_overrides": ["max_players", 6]}, "ruleset_overrides", None),
    ({"scoring_system": "S-NOPE"}, "scoring_system", "FORMAT"),
    ({"scoring_system": ""}, "scoring_system", None),
])
def test_unknown_rules_are_refused_on_write_naming_field_and_rule(
    demo_tournament: Tournament, organizer_client: Client, change: dict[str, Any], field: str,
    rule: str | None,
) -> None:
    before = Tournament.objects.get(pk=demo_tournament.pk)
    url = f"/api/tournaments/{demo_tournament.slug}/"
    response = organizer_client.patch(url, json.dumps(change), content_type="application/json")
    assert response.status_code == 400, response.content
    body = response.json()
    assert field in body
    if rule:
        assert body.get("rule") == rule, body
    after = Tournament.objects.get(pk=demo_tournament.pk)
    assert (after.ruleset_overrides, after.scoring_system) == (before.ruleset_overrides,
                                                               before.scoring_system)
    # Created with them: refused too.
    created = organizer_client.post("/api/tournaments/", json.dumps(
        {"name": "Nuovo", "date": "2026-06-01", **change}), content_type="application/json")
    assert created.status_code == 400 and field in created.json()
    # The referee's page keeps working.
    table = reverse("tables_referee:referee_table",
                    kwargs={"slug": demo_tournament.slug, "number": 2, "table": 1})
    assert organizer_client.get(table).status_code == 200


def test_known_overrides_are_accepted(demo_tournament: Tournament, organizer_client: Client) -> None:
    url = f"/api/tournaments/{demo_tournament.slug}/"
    response = organizer_client.patch(url, json.dumps(
        {"ruleset_overrides": {"max_players": 6}, "scoring_system": "S-M2"}),
        content_type="application/json")
    assert response.status_code == 200, response.content


def test_the_edit_page_keeps_what_was_typed_and_names_the_rule(
    demo_tournament: Tournament, organizer_client: Client,
) -> None:
    url = reverse("tournaments:edit", kwargs={"slug": demo_tournament.slug})
    response = organizer_client.post(url, {
        "name": demo_tournament.name, "date": "2026-06-01", "format": "rtu", "ruleset": "RTU",
        "scoring_system": "S-NOPE", "games_count": 3, "start_times": "10:30",
    })
    assert response.status_code in (200, 400)
    page = response.content.decode()
    # the scoring system is a list of the engine's systems: the unknown value is named and refused
    assert response.status_code == 400 and "S-NOPE" in page and 'id="id_scoring_system_error"' in page
    assert Tournament.objects.get(pk=demo_tournament.pk).scoring_system != "S-NOPE"


def test_the_admin_form_refuses_unknown_rules(demo_tournament: Tournament) -> None:
    from django.core.exceptions import ValidationError

    t = Tournament.objects.get(pk=demo_tournament.pk)
    t.ruleset_overrides = {"no_such_rule": 1}
    with pytest.raises(ValidationError) as err:
        t.full_clean()
    assert "ruleset_overrides" in err.value.message_dict


def test_a_backup_with_unknown_rules_is_refused(demo_tournament: Tournament) -> None:
    from common.errors import DomainError
    from tournaments.backup import export_tournament, import_tournament

    document = export_tournament(demo_tournament)
    for item in document["objects"]:
        if item["model"] == "tournaments.tournament":
            item["fields"]["scoring_system"] = "S-NOPE"
    demo_tournament.delete()  # restored into a database without it
    Tournament.objects.all().delete()  # the demo club's season evenings too
    Season.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    with pytest.raises(DomainError) as err:
        import_tournament(document)
    assert err.value.field == "scoring_system" and err.value.rule == "FORMAT"


# --- a referee's link is that tournament only, as a referee ----------------------------------


def test_a_referee_link_acts_in_its_tournament_only_and_never_as_organizer_or_staff(
    demo_tournament: Tournament,
) -> None:
    """A link made for a user who organizes another tournament (and is staff, and organizes
    this one) opens neither that tournament, nor organizer actions here, nor the admin."""

    organizer = get_user_model().objects.get(username=demo.ORGANIZER[0])
    boss = make_user("boss", password="pw-boss-1234", is_staff=True)
    TournamentRoleFactory(tournament=demo_tournament, user=boss, role="organizer")
    theirs = services.create_tournament(actor=boss, name="Boss cup", slug="boss-cup")
    link = services.create_link(demo_tournament, actor=organizer, user=boss)
    browser = Client()
    open_private_link(browser, link.token)
    assert "_auth_user_id" in browser.session
    # Organizer pages and writes of the link's tournament: refused (a referee at most).
    staff_page = reverse("tournaments:staff", kwargs={"slug": demo_tournament.slug})
    assert browser.get(staff_page).status_code == 403
    assert browser.get(f"/api/tournaments/{demo_tournament.slug}/links/").status_code == 403
    # Referee work there still works.
    table = reverse("tables_referee:referee_table",
                    kwargs={"slug": demo_tournament.slug, "number": 2, "table": 1})
    assert browser.get(table).status_code == 200
    # The user's own tournament and the admin: closed to the link.
    other = reverse("tournaments:manage", kwargs={"slug": theirs.slug})
    assert browser.get(other).status_code == 403
    assert browser.get("/admin/").status_code == 403
    # With the password, the same user keeps everything.
    full = Client()
    full.post(reverse("login"), {"username": "boss", "password": "pw-boss-1234"})
    assert full.get(other).status_code == 200 and full.get(staff_page).status_code == 200


def test_a_players_page_answers_only_under_their_own_tournament(demo_tournament: Tournament) -> None:
    outsider_t = services.create_tournament(
        actor=make_user("carla"), name="Altro", slug="altro")
    outsider = services.register(outsider_t, services.PlayerData("Zeno", "Outsider"),
                                 actor=outsider_t.created_by).player
    ours = demo_tournament.registrations.first().player
    client = Client()
    assert client.get(reverse("scoring:player", kwargs={"slug": demo_tournament.slug,
                                                       "pk": ours.pk})).status_code == 200
    response = client.get(reverse("scoring:player", kwargs={"slug": demo_tournament.slug,
                                                           "pk": outsider.pk}))
    assert response.status_code == 404 and "Outsider" not in response.content.decode()


def test_opening_a_player_link_gives_the_browser_a_new_session_id(demo_tournament: Tournament) -> None:
    """A session id planted in the browser before (session fixation) does not become the
    player's session."""
    player = demo_tournament.registrations.first().player
    link = player_link(demo_tournament, player)
    browser = Client()
    browser.get(reverse("tournaments:detail", kwargs={"slug": demo_tournament.slug}))
    session = browser.session
    session["planted"] = True
    session.save()
    planted = session.session_key
    browser.cookies[settings.SESSION_COOKIE_NAME] = planted
    open_private_link(browser, link.token)
    assert browser.cookies[settings.SESSION_COOKIE_NAME].value != planted
