"""One history per player: the public page across events (positions, games, opponents, national
ranking), head-to-head, its API, no personal data, and a fixed number of queries."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ranking.models import NationalRanking, NationalRankingRow
from scoring.models import WorkbookEvent
from tests.factories import scoring as f
from tests.factories.tournaments import ClubFactory
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def _event(me: Player, other: Player, *, winner: int = 1, date: dt.date | None = None,
           status: str = Tournament.Status.FINISHED) -> Tournament:
    """A tournament where ``me`` (seat 1) and ``other`` (seat 2) share table 1 of game 1; seat
    ``winner`` meets its objective (the others in seat order)."""
    t = f.ScoringTournamentFactory(date=date or dt.date(2026, 3, 1))
    ref1, ref2 = f.role(t), f.role(t)
    rest = f.players(t, 2)
    for p in (me, other):
        t.registrations.create(player=p)
    table = f.make_table(t, 1, [me, other, *rest])
    objectives = [s.objective for s in table.seats.order_by("number")]
    f.enter(table, ref1, "board", f.board_data(objectives, winner=winner, armies=[30, 30, 30, 30]),
            ended_by="objective", confirm_by=ref2)
    Tournament.objects.filter(pk=t.pk).update(status=status)
    t.refresh_from_db()
    return t


@pytest.fixture
def pair() -> tuple[Player, Player]:
    club = ClubFactory(name="Circolo dei Tiri")
    me = f.ScoringPlayerFactory(first_name="Mario", last_name="Rossi", nickname="Tank", club=club,
                                email="mario.rossi@example.org", birth_date=dt.date(1984, 2, 29),
                                national_id="NAZ-123")
    other = f.ScoringPlayerFactory(first_name="Luigi", last_name="Verdi")
    return me, other


def test_the_page_lists_every_event_with_position_games_and_opponents(client: Any, pair: Any) -> None:
    me, other = pair
    won = _event(me, other, winner=1, date=dt.date(2026, 3, 1))
    lost = _event(me, other, winner=2, date=dt.date(2026, 4, 1))
    draft = _event(me, other, status=Tournament.Status.DRAFT)
    html = client.get(f"/players/{me.pk}/").content.decode()
    assert "Mario Rossi (Tank)" in html and "Circolo dei Tiri" in html
    assert won.name in html and lost.name in html and draft.name not in html  # drafts are not public
    assert html.index(lost.name) < html.index(won.name)  # newest first
    assert re.search(r"Posizione finale 1\b", html) or re.search(r"Final position 1\b", html)
    table = won.games.get().tables.get()
    assert f"/t/{won.slug}/results/table/{table.pk}/" in html
    assert f'href="/players/{other.pk}/"' in html and "Luigi Verdi" in html
    assert f"/t/{won.slug}/standings/player/{me.pk}/" in html  # the event's own player page
    for personal in ("mario.rossi@example.org", "1984-02-29", "29/02/1984", "NAZ-123"):
        assert personal not in html


def test_an_imported_event_shows_the_workbook_position(client: Any, pair: Any) -> None:
    me, other = pair
    t = _event(me, other, winner=2)
    WorkbookEvent.objects.create(tournament=t, imported_at=timezone.now(), standings=[
        {"player": me.pk, "position": 7, "points": "55"}, {"player": other.pk, "position": 1, "points": "90"}])
    cache.clear()
    html = client.get(f"/players/{me.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Final position 7 · 55 points" in html


def test_national_ranking_points_per_year_link_the_card(client: Any, pair: Any) -> None:
    me, other = pair
    _event(me, other)
    for year, position, points in ((2025, 3, "120.5"), (2026, None, "0")):
        ranking = NationalRanking.objects.create(year=year, events=4)
        NationalRankingRow.objects.create(ranking=ranking, player=me, position=position, points=points,
                                          name=me.display_name, search="mario rossi")
    html = client.get(f"/players/{me.pk}/").content.decode()
    assert f"/ranking/2025/player/{me.pk}/" in html and "120,5" in html  # Italian by default
    assert html.index("/ranking/2026/") < html.index("/ranking/2025/")
    card = client.get(f"/ranking/2025/player/{me.pk}/").content.decode()
    assert f'href="/players/{me.pk}/"' in card


def test_head_to_head_counts_who_placed_ahead(client: Any, pair: Any) -> None:
    me, other = pair
    _event(me, other, winner=1)
    _event(me, other, winner=2)
    _event(me, other, winner=1)
    stranger = f.ScoringPlayerFactory(first_name="Anna", last_name="Bianchi")
    found = client.get(f"/players/{me.pk}/opponents/", {"q": "verdi"}, HTTP_HX_REQUEST="true").content.decode()
    assert f"/players/{me.pk}/versus/{other.pk}/" in found and "<html" not in found
    assert "Anna" not in client.get(f"/players/{me.pk}/opponents/", {"q": "anna"}).content.decode().split("versus-results")[1]
    html = client.get(f"/players/{me.pk}/versus/{other.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "3 games at the same table" in html
    assert "Mario Rossi (Tank) ahead 2" in html and "Luigi Verdi ahead 1" in html
    data = client.get(f"/api/players/{me.pk}/versus/{other.pk}/").json()
    assert data["totals"]["games"] == 3 and data["totals"]["me"] == 2 and data["totals"]["other"] == 1
    assert [m["ahead"] for m in data["meetings"]].count("me") == 2
    never = client.get(f"/api/players/{me.pk}/versus/{stranger.pk}/").json()
    assert never["meetings"] == [] and never["totals"]["games"] == 0


def test_the_api_gives_the_same_history_without_personal_data(client: Any, pair: Any) -> None:
    me, other = pair
    t = _event(me, other, winner=1)
    response = client.get(f"/api/players/{me.pk}/history/")
    assert response.status_code == 200
    data = response.json()
    assert data["player"] == {"id": me.pk, "name": "Mario Rossi (Tank)", "club": "Circolo dei Tiri"}
    (event,) = data["events"]
    assert event["event"] == t.slug and event["position"] == 1 and event["finished"] is True
    (game,) = event["games"]
    assert game["place"] == 1 and {o["player"]["id"] for o in game["opponents"]} >= {other.pk}
    for personal in ("mario.rossi@example.org", "1984-02-29", "NAZ-123"):
        assert personal not in response.content.decode()
    assert client.get("/api/players/999999/history/").status_code == 404
    assert client.get("/players/999999/").status_code == 404


def _queries(client: Any, url: str) -> int:
    cache.clear()  # nothing computed yet: the standings of every event are read too
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200, url
    return len(ctx.captured_queries)


def test_queries_do_not_grow_with_the_number_of_events(client: Any, settings: Any) -> None:
    settings.LIVE_CACHE = False
    few, many = f.ScoringPlayerFactory(), f.ScoringPlayerFactory()
    rival_few, rival_many = f.ScoringPlayerFactory(), f.ScoringPlayerFactory()
    for _ in range(2):
        _event(few, rival_few)
    for _ in range(6):
        _event(many, rival_many)
    for url in ("/players/{}/", "/api/players/{}/history/", "/players/{}/versus/{}/", "/api/players/{}/versus/{}/"):
        small = _queries(client, url.format(few.pk, rival_few.pk))
        large = _queries(client, url.format(many.pk, rival_many.pk))
        assert large == small, url
