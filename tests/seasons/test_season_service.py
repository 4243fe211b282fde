"""Season standings from real evenings (results entered and confirmed as at an event), what does
not count (unconfirmed results, rehearsal games), and the next evening in one action."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone

from seasons import selectors as season_selectors
from seasons import services as seasons
from tables import services as table_services
from tables.models import Game
from tests.factories.tournaments import CheckInFactory
from tournaments.models import AuditEntry, CheckIn, Registration, Withdrawal

from .conftest import FIRST, evening_of, play

pytestmark = pytest.mark.django_db


def standings(season: Any) -> list[tuple[str, int, int]]:
    return [(r["name"].split()[0], r["rank"], int(r["total"])) for r in season_selectors.standings(season)["rows"]]


def test_the_season_adds_the_evenings_results(club_season: dict[str, Any]) -> None:
    # Anna 80 + 10, Dario 10 + 70, Carla 25 + 50, Bruno 45 + 20
    assert standings(club_season["season"]) == [("Anna", 1, 90), ("Dario", 2, 80), ("Carla", 3, 75),
                                                ("Bruno", 4, 65)]
    data = season_selectors.standings(club_season["season"])
    assert [e["rounds"] for e in data["evenings"]] == [2, 2]  # declared rounds, as the national ranking
    assert data["chain"] == ["total", "wins", "raw_points", "raw_points_all"]  # the campionato preset's


def test_best_one_evening(club_season: dict[str, Any]) -> None:
    season = seasons.update_season(club_season["season"], actor=club_season["admin"], rule="best_evenings",
                                   best_n=1)
    assert standings(season) == [("Anna", 1, 80), ("Dario", 2, 70), ("Carla", 3, 50), ("Bruno", 4, 45)]


def test_unconfirmed_results_and_rehearsal_games_do_not_count(club_season: dict[str, Any]) -> None:
    season, admin, players = club_season["season"], club_season["admin"], club_season["players"]
    before = standings(season)
    three = evening_of(season, timezone.localdate() - dt.timedelta(days=3), players)
    play(three, players, FIRST, admin=admin, confirm=False)  # entered, nobody confirmed it
    assert standings(season) == before
    rehearsal = play(three, players, FIRST, admin=admin, game=2, confirm=False)
    table_services.set_rehearsal(Game.objects.get(tournament=three, number=2), True, actor=admin)
    from scoring import services

    services.confirm_result(actor=admin, submission=rehearsal)  # confirmed, but a rehearsal
    assert standings(season) == before
    data = season_selectors.standings(season)
    assert [e["rounds"] for e in data["evenings"]] == [2, 2, 1]  # a rehearsal game is no round


def test_a_draft_evening_is_not_in_the_standings(club_season: dict[str, Any]) -> None:
    evening = seasons.new_evening(club_season["season"], actor=club_season["admin"])
    assert evening.status == "draft"
    assert [e["id"] for e in season_selectors.standings(club_season["season"])["evenings"]] == [
        t.pk for t in club_season["evenings"]]


def test_new_evening_registers_the_last_evenings_players_without_their_check_ins(
        club_season: dict[str, Any]) -> None:
    season, admin = club_season["season"], club_season["admin"]
    last = club_season["evenings"][1]
    Withdrawal.objects.create(registration=Registration.objects.get(tournament=last, player=club_season["bruno"]))
    CheckInFactory(registration=Registration.objects.get(tournament=last, player=club_season["anna"]))

    evening = seasons.new_evening(season, actor=admin)

    assert evening.season == season and evening.club == season.club
    assert evening.name == "Campionato 2026 – serata 3"
    assert evening.date == last.date + dt.timedelta(days=14)  # the next weekly date not in the past
    assert sorted(r.player.first_name for r in evening.registrations.all()) == ["Anna", "Carla", "Dario"]
    assert not CheckIn.objects.filter(registration__tournament=evening).exists()
    assert evening.scoring_system == "S-SPARTAC"  # the campionato preset applied
    assert AuditEntry.objects.filter(action="season.evening", tournament=evening).count() == 1
    assert AuditEntry.objects.filter(action="registration.carry_over", tournament=evening).count() == 3


def test_the_first_evening_is_today_with_nobody_registered(club_season: dict[str, Any]) -> None:
    season = seasons.create_season(actor=club_season["admin"], club=club_season["club"], name="Autunno",
                                   evening_games=2)
    evening = seasons.new_evening(season, actor=club_season["admin"])
    assert (evening.date, evening.games_count, evening.registrations.count()) == (timezone.localdate(), 2, 0)
    assert evening.name == "Autunno – serata 1"


def test_the_standings_read_a_fixed_number_of_queries_whatever_the_evenings(club_season: dict[str, Any]) -> None:
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        cache.clear()  # every evening's standings computed afresh, not read from the cache
        with CaptureQueriesContext(connection) as ctx:
            season_selectors.standings(club_season["season"])
        return len(ctx.captured_queries)

    two = queries()
    for days in (3, 1):
        evening = evening_of(club_season["season"], timezone.localdate() - dt.timedelta(days=days),
                             club_season["players"])
        play(evening, club_season["players"], FIRST, admin=club_season["admin"])
    assert len(season_selectors.standings(club_season["season"])["evenings"]) == 4
    assert queries() == two


def test_an_evening_is_named_in_the_instances_language_whatever_the_admins(club_season: dict[str, Any]) -> None:
    from django.utils import translation

    with translation.override("en"):
        evening = seasons.new_evening(club_season["season"], actor=club_season["admin"])
    assert evening.name == "Campionato 2026 – serata 3"
