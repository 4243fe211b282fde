"""The season's pages and API: the public standings with explained tie-breaks, the club page's
seasons, the next evening in two clicks (the button, then the confirmation), bad input refused
naming the field and the rule, and everyone but the club's admins and federation admins refused
with nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse

from tests.factories.tournaments import (
    ClubFactory,
    TournamentFactory,
    TournamentRoleFactory,
    UserFactory,
)
from tournaments.models import AuditEntry, ClubRole, Registration, Season, Tournament

pytestmark = pytest.mark.django_db


def client_for(user: Any = None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def season_url(cs: dict[str, Any], name: str = "seasons:season") -> str:
    return reverse(name, kwargs={"club": cs["club"].pk, "pk": cs["season"].pk})


def state() -> tuple[int, int, int, list[Any]]:
    return (Season.objects.count(), Tournament.objects.count(), Registration.objects.count(),
            list(Season.objects.values_list("name", "rule", "best_n").order_by("pk")))


def test_the_public_season_page_in_italian(club_season: dict[str, Any]) -> None:
    html = client_for().get(season_url(club_season)).content.decode()
    assert "Classifica della stagione" in html and "Serate" in html
    assert "Anna Lario" in html and "Contano tutte le serate." in html
    assert 'id="new-evening"' not in html and "Modifica la stagione" not in html  # not for the public
    for evening in club_season["evenings"]:
        assert evening.name in html


def test_a_tie_on_the_season_page_names_its_tie_break(club_season: dict[str, Any]) -> None:
    # Games won first: Anna and Dario won one game each (Carla and Bruno none); the total then
    # separates them (90 against 80), and the page says so
    from seasons import services as seasons

    seasons.update_season(club_season["season"], actor=club_season["admin"], rule="sum",
                          tiebreaks=["wins", "total"])
    data = client_for().get(reverse("api-season-standings", kwargs={"pk": club_season["season"].pk})).json()
    top = [(r["name"].split()[0], r["rank"], r["tiebreak"], r["tiebreak_label"]) for r in data["rows"][:2]]
    assert top == [("Anna", 1, "total", "totale delle partite valide"),
                   ("Dario", 2, "total", "totale delle partite valide")]
    html = client_for().get(season_url(club_season)).content.decode()
    assert "spareggio usato" in html


def test_the_club_page_lists_its_seasons_and_loads_the_standings(club_season: dict[str, Any]) -> None:
    html = client_for().get(reverse("clubs:detail", kwargs={"pk": club_season["club"].pk})).content.decode()
    assert "Campionato 2026" in html and season_url(club_season, "seasons:standings") in html
    fragment = client_for().get(season_url(club_season, "seasons:standings")).content.decode()
    assert "Anna Lario" in fragment and "<html" not in fragment


def test_the_next_evening_in_two_clicks(club_season: dict[str, Any]) -> None:
    admin = client_for(club_season["admin"])
    page = admin.get(season_url(club_season)).content.decode()
    assert 'id="new-evening"' in page  # first click: the button…
    confirm = admin.get(season_url(club_season, "seasons:evening"))
    text = confirm.content.decode()
    assert confirm.status_code == 200 and "Campionato 2026 – serata 3" in text and "4 giocatori" in text
    response = admin.post(season_url(club_season, "seasons:evening"), {"date": "26/11/2026"})  # …second
    evening = Tournament.objects.get(name="Campionato 2026 – serata 3")
    assert response.status_code == 302 and response["Location"] == reverse("tournaments:manage", args=[evening.slug])
    assert evening.season == club_season["season"] and str(evening.date) == "2026-11-26"
    assert evening.registrations.filter(status="registered").count() == 4


def test_a_bad_date_keeps_what_was_typed(club_season: dict[str, Any]) -> None:
    before = state()
    response = client_for(club_season["admin"]).post(season_url(club_season, "seasons:evening"),
                                                     {"date": "31/02/2026"})
    assert response.status_code == 400 and "31/02/2026" in response.content.decode()
    assert state() == before


def test_a_season_form_refusal_names_the_rule_and_keeps_the_input(club_admin: dict[str, Any]) -> None:
    before = state()
    url = reverse("seasons:create", kwargs={"club": club_admin["club"].pk})
    response = client_for(club_admin["admin"]).post(url, {
        "name": "Primavera", "year": "2026", "rule": "best_evenings", "preset": "campionato", "best_n": "",
        "tiebreaks": "wins"})
    text = response.content.decode()
    assert response.status_code == 400 and "K-BESTN" in text and "Primavera" in text
    assert state() == before


@pytest.fixture
def outsiders(club_season: dict[str, Any]) -> dict[str, Any]:
    other_club_admin = UserFactory(username="altro-presidente")
    ClubRole.objects.create(club=ClubFactory(), user=other_club_admin)
    organizer = UserFactory(username="organizzatore-altrove")
    TournamentRoleFactory(tournament=TournamentFactory(), user=organizer)
    evening_organizer = UserFactory(username="organizzatore-serata")
    TournamentRoleFactory(tournament=club_season["evenings"][1], user=evening_organizer)
    return {"other club's admin": other_club_admin, "organizer of another tournament": organizer,
            "organizer of an evening": evening_organizer}


@pytest.mark.parametrize("who", ["other club's admin", "organizer of another tournament", "organizer of an evening"])
def test_others_are_refused_and_nothing_changes(club_season: dict[str, Any], outsiders: dict[str, Any],
                                                who: str) -> None:
    before, audit = state(), AuditEntry.objects.count()
    c = client_for(outsiders[who])
    pk = club_season["season"].pk
    assert c.get(season_url(club_season, "seasons:evening")).status_code == 403
    assert c.post(season_url(club_season, "seasons:evening"), {"date": "26/11/2026"}).status_code == 403
    assert c.post(season_url(club_season, "seasons:edit"), {"name": "X", "year": 2026, "rule": "sum",
                                                                    "preset": "campionato"}).status_code == 403
    assert c.post(reverse("seasons:create", kwargs={"club": club_season["club"].pk}),
                  {"name": "X", "year": 2026, "rule": "sum", "preset": "campionato"}).status_code == 403
    api = [c.post(reverse("api-season-evenings", kwargs={"pk": pk}), {}, content_type="application/json"),
           c.patch(reverse("api-season", kwargs={"pk": pk}), {"rule": "best_games", "best_n": 3},
                   content_type="application/json"),
           c.post(reverse("api-club-seasons", kwargs={"club": club_season["club"].pk}), {"name": "X"},
                  content_type="application/json")]
    assert [r.status_code for r in api] == [403, 403, 403]
    assert all(r.json()["rule"] == "ROLE" for r in api)
    assert 'id="new-evening"' not in c.get(season_url(club_season)).content.decode()
    assert (state(), AuditEntry.objects.count()) == (before, audit)


def test_anonymous_is_sent_to_log_in_and_refused_by_the_api(club_season: dict[str, Any]) -> None:
    before = state()
    c = client_for()
    response = c.post(season_url(club_season, "seasons:evening"), {"date": "26/11/2026"})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    api = c.post(reverse("api-season-evenings", kwargs={"pk": club_season["season"].pk}), {},
                 content_type="application/json")
    assert api.status_code in (401, 403)
    assert state() == before


def test_a_federation_admin_runs_any_clubs_season(club_season: dict[str, Any]) -> None:
    federation = UserFactory(username="federazione")
    federation.groups.add(Group.objects.get_or_create(name="federation")[0])
    c = client_for(federation)
    response = c.post(reverse("api-season-evenings", kwargs={"pk": club_season["season"].pk}),
                      {"date": "2026-12-03"}, content_type="application/json")
    assert response.status_code == 201 and response.json()["registered"] == 4
    assert AuditEntry.objects.filter(action="season.evening", actor=federation).count() == 1


def test_the_api_creates_and_changes_a_season(club_admin: dict[str, Any]) -> None:
    c = client_for(club_admin["admin"])
    url = reverse("api-club-seasons", kwargs={"club": club_admin["club"].pk})
    created = c.post(url, {"name": "Autunno", "year": 2026, "rule": "rounds_2024", "preset": "campionato"},
                     content_type="application/json")
    assert created.status_code == 201 and created.json()["chain"] == ["total", "wins", "raw_points", "raw_points_all"]
    pk = created.json()["id"]
    changed = c.patch(reverse("api-season", kwargs={"pk": pk}), {"rule": "best_games", "best_n": 50,
                                                                  "tiebreaks": ["total", "best_game"]},
                      content_type="application/json")
    assert changed.status_code == 200 and changed.json()["chain"] == ["total", "best_game"]
    assert [s["name"] for s in c.get(url).json()] == ["Campionato 2026", "Autunno"] or \
        {s["name"] for s in c.get(url).json()} == {"Campionato 2026", "Autunno"}
    assert AuditEntry.objects.filter(action__in=("season.create", "season.update")).count() == 2


@pytest.mark.parametrize(("body", "field", "rule"), [
    ({"name": "A", "rule": "best_evenings"}, "best_n", "K-BESTN"),
    ({"name": "A", "rule": "best_games", "best_n": 0}, "best_n", "K-BESTN"),
    ({"name": "A", "tiebreaks": ["total", "nope"]}, "tiebreaks", "K-BESTN"),
    ({"name": "A", "tiebreaks": ["total", "total"]}, "tiebreaks", "K-BESTN"),
    ({"name": "A", "preset": "poker"}, "preset", "FORMAT"),
    ({"name": "A", "rule": "average"}, "rule", "FORMAT"),
    ({"name": "A", "year": "duemila"}, "year", "FORMAT"),
    ({"name": "A", "starts_on": "2026-10-01", "ends_on": "2026-09-01"}, "ends_on", "FORMAT"),
    ({"name": "Campionato 2026"}, "name", "DUPLICATE"),
    ({"name": ""}, "name", "REQUIRED"),
    ({"name": "A", "preset": "master", "evening_games": 2}, "evening_games", "FORMAT"),
])
def test_bad_input_is_a_400_naming_the_field_and_rule(club_admin: dict[str, Any], body: dict[str, Any],
                                                      field: str, rule: str) -> None:
    before = state()
    response = client_for(club_admin["admin"]).post(
        reverse("api-club-seasons", kwargs={"club": club_admin["club"].pk}), json.dumps(body),
        content_type="application/json")
    assert response.status_code == 400, response.content
    assert field in response.json() and response.json()["rule"] == rule
    assert state() == before


def test_the_schema_documents_the_season_api(db: Any) -> None:
    schema = client_for().get("/api/schema/?format=json").json()
    assert {"/api/clubs/{club}/seasons/", "/api/seasons/{id}/", "/api/seasons/{id}/standings/",
            "/api/seasons/{id}/evenings/"} <= set(schema["paths"])


def test_tapping_the_confirmation_twice_makes_one_evening(club_season: dict[str, Any]) -> None:
    admin = client_for(club_season["admin"])
    url = season_url(club_season, "seasons:evening")
    first = admin.post(url, {"date": "26/11/2026", "number": "3"})
    second = admin.post(url, {"date": "26/11/2026", "number": "3"})
    assert first.status_code == 302 and second.status_code == 302 and second["Location"] == season_url(club_season)
    assert club_season["season"].evenings.count() == 3
    api = admin.post(reverse("api-season-evenings", kwargs={"pk": club_season["season"].pk}), {"number": 3},
                     content_type="application/json")
    assert api.status_code == 409 and api.json()["rule"] == "DUPLICATE"
    assert club_season["season"].evenings.count() == 3


def test_an_evening_links_its_season_and_its_backup_carries_it(club_season: dict[str, Any]) -> None:
    from tournaments.backup import export_tournament

    evening = club_season["evenings"][0]
    html = client_for().get(reverse("tournaments:detail", args=[evening.slug])).content.decode()
    assert season_url(club_season) in html
    rows = export_tournament(evening)["objects"]
    assert [r["fields"]["name"] for r in rows if r["model"] == "tournaments.season"] == ["Campionato 2026"]
