"""The published copy is a real tournament of the instance: its pages, standings and the national
ranking show it; publishing again replaces it (one tournament), an edit made on the instance
is refused by the next publish. The same database plays laptop and instance here, so the copy
goes under another slug and its players are the laptop's own (matched by public name and club)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from django.test import Client

from engine import exact
from publishing import services as publishing
from publishing.models import PublishedTournament
from ranking.models import NationalRankingRow
from scoring import selectors
from scoring.models import Confirmation, ResultSubmission
from tables.models import Game, Seat, Table
from tournaments.models import Club, Player, Registration, Tournament

from .helpers import add_second_game, laptop_event

pytestmark = pytest.mark.django_db


def put(document: dict[str, Any], token: str, slug: str = "copia") -> Any:
    body = exact.dumps({**copy.deepcopy(document), "slug": slug})
    return Client().put(f"/api/publish/tournaments/{slug}/", body, content_type="application/json",
                        HTTP_AUTHORIZATION=f"Bearer {token}")


def board(t: Tournament) -> list[tuple[Any, ...]]:
    return [(r["rank"], r["name"], r["club"], r["total"], r["played"]) for r in selectors.standings(t)["rows"]]


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    e = laptop_event()
    e["token"] = publishing.issue_token(e["club"])
    return e


def test_the_copy_is_a_tournament_with_the_laptops_games_results_and_standings(
        event: dict[str, Any], django_capture_on_commit_callbacks: Any) -> None:
    t, players_before = event["t"], Player.objects.count()
    assert put(publishing.prepare(t), event["token"]).status_code == 201
    copy_ = Tournament.objects.get(slug="copia")
    assert PublishedTournament.objects.get(slug="copia").tournament == copy_
    assert copy_.club == event["club"] and copy_.name == t.name and copy_.status == t.status
    # the players are matched by public name and club, never duplicated
    assert Player.objects.count() == players_before
    assert set(Registration.objects.filter(tournament=copy_).values_list("player", flat=True)) == \
        {p.pk for p in event["players"]}
    assert Table.objects.filter(game__tournament=copy_).count() == 1 and Seat.objects.filter(game__tournament=copy_).count() == 4
    result = ResultSubmission.objects.get(tournament=copy_)
    assert Confirmation.objects.filter(submission=result).exists()  # a confirmed result
    assert board(copy_) == board(t)
    # the instance's own public pages show it
    client = Client()
    page = client.get("/t/copia/standings/")
    assert page.status_code == 200 and event["players"][0].display_name in page.content.decode()
    assert client.get(f"/t/copia/standings/player/{event['players'][0].pk}/").status_code == 200

    # publishing again after a second game: the same tournament, replaced whole
    add_second_game(event)
    assert put(publishing.prepare(t), event["token"]).json()["status"] == "updated"
    assert Tournament.objects.filter(slug="copia").count() == 1
    assert Tournament.objects.get(slug="copia").pk == copy_.pk
    assert list(Game.objects.filter(tournament=copy_).values_list("number", flat=True).order_by("number")) == [1, 2]
    assert board(copy_) == board(t)
    assert put(publishing.prepare(t), event["token"]).json()["status"] == "unchanged"


def test_an_edit_of_the_copy_on_the_instance_is_refused_by_the_next_publish(event: dict[str, Any]) -> None:
    t = event["t"]
    put(publishing.prepare(t), event["token"])
    copy_ = Tournament.objects.get(slug="copia")
    result = ResultSubmission.objects.get(tournament=copy_)
    result.scores = [{**r, "tournament_points": 0} for r in result.scores]  # corrected here
    result.save()
    add_second_game(event)
    refused = put(publishing.prepare(t), event["token"])
    assert refused.status_code == 409 and refused.json()["rule"] == "PUBLISH-CONFLICT"
    assert Game.objects.filter(tournament=copy_).count() == 1  # the edit is kept
    # deleting the copy (the admin) deletes its tournament: the laptop can publish afresh
    PublishedTournament.objects.filter(slug="copia").delete()
    assert not Tournament.objects.filter(slug="copia").exists()
    assert put(publishing.prepare(t), event["token"]).status_code == 201


def test_a_finished_published_event_enters_the_national_ranking(
        event: dict[str, Any], django_capture_on_commit_callbacks: Any) -> None:
    t = event["t"]
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED, event_type="OPN")
    t.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        assert put(publishing.prepare(t), event["token"]).status_code == 201
    copy_ = Tournament.objects.get(slug="copia")
    assert copy_.status == Tournament.Status.FINISHED and copy_.event_type == "OPN"
    # one table: below the minimum of 6 table-games, so on the cards without counting
    rows = NationalRankingRow.objects.filter(ranking__year=copy_.date.year)
    assert {e["tournament"] for r in rows for e in r.events} >= {copy_.pk}
    assert Club.objects.filter(name=event["club"].name).count() == 1
