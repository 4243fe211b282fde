"""An existing tournament of the club attached to a season as an evening, or detached from it,
through the season's page and the API: the season's standings follow, each change is audited,
and only the club's admins, an organizer of that tournament and federation admins may, with
nothing changed for anyone else."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import scoring as f
from tests.factories.tournaments import ClubFactory, SeasonFactory, TournamentFactory, UserFactory
from tournaments.models import AuditEntry, ClubRole, Registration, Tournament

from .conftest import FIRST, play

pytestmark = pytest.mark.django_db


def client_for(user: Any = None) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


@pytest.fixture
def cup(club_season: dict[str, Any]) -> dict[str, Any]:
    """A tournament the club held before the season was set up: Anna 80, Bruno 45, Carla 25, Dario 10."""
    t = f.ScoringTournamentFactory(club=club_season["club"], date=timezone.localdate() - dt.timedelta(days=24),
                                   name="Coppa d'autunno", games_count=2)
    for p in club_season["players"]:
        Registration.objects.create(tournament=t, player=p)
    play(t, club_season["players"], FIRST, admin=club_season["admin"])
    return {**club_season, "cup": t}


def totals(cs: dict[str, Any], c: Client | None = None) -> dict[str, int]:
    data = (c or client_for()).get(reverse("api-season-standings", kwargs={"pk": cs["season"].pk})).json()
    return {r["name"].split()[0]: int(r["total"]) for r in data["rows"]}


def attach(c: Client, cs: dict[str, Any], tournament: Any) -> Any:
    return c.post(reverse("api-season-evenings-attach", kwargs={"pk": cs["season"].pk}),
                  {"tournament": tournament if isinstance(tournament, (int, str)) else tournament.pk},
                  content_type="application/json")


def detach(c: Client, cs: dict[str, Any], tournament: Any) -> Any:
    return c.post(reverse("api-season-evenings-detach", kwargs={"pk": cs["season"].pk}),
                  {"tournament": tournament.pk}, content_type="application/json")


def test_the_club_admin_attaches_and_detaches_an_evening_on_the_season_page(cup: dict[str, Any]) -> None:
    before = totals(cup)
    assert before == {"Anna": 90, "Dario": 80, "Carla": 75, "Bruno": 65}
    admin = client_for(cup["admin"])
    url = reverse("seasons:season", kwargs={"club": cup["club"].pk, "pk": cup["season"].pk})
    page = admin.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="attach-evening"' in page and "Coppa d&#x27;autunno" in page
    response = admin.post(reverse("seasons:attach", kwargs={"club": cup["club"].pk, "pk": cup["season"].pk}),
                          {"tournament": cup["cup"].pk}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "is now an evening of the season" in response.content.decode()
    assert totals(cup) == {"Anna": 170, "Bruno": 110, "Carla": 100, "Dario": 90}
    page = admin.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count("Remove from the season") == 3
    entry = AuditEntry.objects.get(action="season.attach")
    assert entry.actor == cup["admin"] and entry.tournament == cup["cup"]
    response = admin.post(reverse("seasons:detach", kwargs={"club": cup["club"].pk, "pk": cup["season"].pk}),
                          {"tournament": cup["cup"].pk}, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert "is no longer an evening of the season" in response.content.decode()
    assert totals(cup) == before
    assert Tournament.objects.get(pk=cup["cup"].pk).season is None  # still the club's, with its results
    assert AuditEntry.objects.filter(action="season.detach", actor=cup["admin"]).count() == 1


def test_an_organizer_of_that_tournament_attaches_it_through_the_api(cup: dict[str, Any]) -> None:
    organizer = f.role(cup["cup"], "organizer")
    response = attach(client_for(organizer), cup, cup["cup"])
    assert response.status_code == 200 and response.json()["slug"] == cup["cup"].slug
    assert response.json()["registered"] == 4
    assert totals(cup)["Anna"] == 170
    assert attach(client_for(organizer), cup, cup["cup"]).status_code == 200  # again: nothing new
    assert AuditEntry.objects.filter(action="season.attach").count() == 1
    assert detach(client_for(organizer), cup, cup["cup"]).status_code == 204
    assert totals(cup)["Anna"] == 90


def state() -> tuple[Any, ...]:
    return (list(Tournament.objects.values_list("pk", "season_id").order_by("pk")),
            AuditEntry.objects.count())


@pytest.mark.parametrize("who", ["referee", "organizer_elsewhere", "other_club_admin", "player"])
def test_others_are_refused_and_nothing_changes(cup: dict[str, Any], who: str) -> None:
    other = ClubFactory(name="Circolo Altro")
    user = UserFactory()
    if who == "referee":
        f.role(cup["cup"], "referee", user=user)
    elif who == "organizer_elsewhere":  # an organizer of another of the club's tournaments
        f.role(TournamentFactory(club=cup["club"]), "organizer", user=user)
    elif who == "other_club_admin":
        ClubRole.objects.create(club=other, user=user)
    before = state()
    c = client_for(user)
    evening = cup["evenings"][0]
    responses = [attach(c, cup, cup["cup"]), detach(c, cup, evening)]
    assert [r.status_code for r in responses] == [403, 403]
    assert all(r.json()["rule"] == "ROLE" for r in responses)
    page = reverse("seasons:attach", kwargs={"club": cup["club"].pk, "pk": cup["season"].pk})
    assert c.post(page, {"tournament": cup["cup"].pk}).status_code == 403
    season_page = c.get(reverse("seasons:season", kwargs={"club": cup["club"].pk, "pk": cup["season"].pk}))
    assert "Coppa d&#x27;autunno" not in season_page.content.decode()  # not offered to attach
    assert "Remove from the season" not in season_page.content.decode()
    assert state() == before


def test_anonymous_is_sent_to_log_in_and_refused_by_the_api(cup: dict[str, Any]) -> None:
    before = state()
    c = client_for()
    page = c.post(reverse("seasons:attach", kwargs={"club": cup["club"].pk, "pk": cup["season"].pk}),
                  {"tournament": cup["cup"].pk})
    assert page.status_code == 302 and reverse("login") in page["Location"]
    assert attach(c, cup, cup["cup"]).status_code in (401, 403)
    assert state() == before


def test_refusals_name_the_field_and_the_rule(cup: dict[str, Any]) -> None:
    federation = UserFactory(username="federazione")
    federation.groups.add(Group.objects.get_or_create(name="federation")[0])
    c = client_for(federation)
    before = state()
    elsewhere = TournamentFactory(club=ClubFactory(name="Circolo Altro"))
    r = attach(c, cup, elsewhere)
    assert r.status_code == 400 and r.json()["rule"] == "CLUB" and "tournament" in r.json()
    other_season = SeasonFactory(club=cup["club"], name="Campionato estivo")
    Tournament.objects.filter(pk=cup["cup"].pk).update(season=other_season)
    r = attach(c, cup, cup["cup"])
    assert r.status_code == 409 and r.json()["rule"] == "DUPLICATE" and "Campionato estivo" in r.json()["detail"]
    r = detach(c, cup, cup["cup"])
    assert r.status_code == 400 and r.json()["rule"] == "REQUIRED" and "tournament" in r.json()
    for body in ({}, {"tournament": "x"}):
        r = c.post(reverse("api-season-evenings-attach", kwargs={"pk": cup["season"].pk}), body,
                   content_type="application/json")
        assert r.status_code == 400 and "tournament" in r.json()
    assert attach(c, cup, 10**9).status_code == 404
    # the page keeps the refusal as a message, in Italian by default
    page = c.post(reverse("seasons:attach", kwargs={"club": cup["club"].pk, "pk": cup["season"].pk}),
                  {"tournament": elsewhere.pk}, follow=True)
    assert page.status_code == 200 and "Circolo Lario" in page.content.decode()
    Tournament.objects.filter(pk=cup["cup"].pk).update(season=None)
    assert state()[1] == before[1]  # nothing audited
