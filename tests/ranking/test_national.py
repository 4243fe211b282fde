"""The national ranking (K-RANKING) live on this instance: which events count, the task that
recomputes a year when a tournament finishes, reopens or has a result corrected, ghosts and
anonymous players, the blacklist and its dates, the API, the pages and the exports."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Sequence
from decimal import Decimal as D
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from ranking import formula as rk
from ranking import national
from ranking.models import (
    NationalRanking,
    NationalRankingEvent,
    NationalRankingRow,
    RankingBlacklist,
)
from scoring import services
from scoring.models import Confirmation
from tables.models import Game
from tests.factories import scoring as f
from tests.factories.scoring import RankingBlacklistFactory
from tests.factories.tournaments import ClubFactory, PlayerFactory, RegistrationFactory, UserFactory
from tests.formats.test_phases import play, result
from tournaments import services as tournament_services
from tournaments.models import Player, Tournament

DAY = dt.date(2025, 3, 1)


def event(players: Sequence[Player | None], *, day: dt.date = DAY, event_type: str = "OPN", games: int = 3,
          finish: bool = True) -> tuple[Tournament, Any, Any]:
    """Tables of 4 for ``games`` games (the player list rotated each game); players[0] wins
    every table it sits at, so it finishes first. Finished through the service (as organizers do)."""
    t = f.ScoringTournamentFactory(date=day, event_type=event_type, games_count=games)
    org, ref = f.role(t, "organizer"), f.role(t)
    for p in players:
        if p is not None:
            RegistrationFactory(tournament=t, player=p)
    for g in range(1, games + 1):
        order = list(players[g - 1:]) + list(players[:g - 1])
        first = players[0]
        tables = [order[i:i + 4] for i in range(0, len(order), 4)]
        for table in tables:  # the leader sits first so seat 1 wins by default
            if first in table:
                table.remove(first)
                table.insert(0, first)
        play(t, g, tables, ref, org)  # type: ignore[arg-type]
    if finish:
        tournament_services.change_status(t, Tournament.Status.FINISHED, actor=org)
    return t, org, ref


def people(n: int, club: str = "Lario Como") -> list[Player]:
    c = ClubFactory(name=club)
    out = f.ScoringPlayerFactory.create_batch(n)
    for p in out:
        p.club, p.email, p.birth_date = c, f"{p.first_name}@example.org".lower(), dt.date(1977, 4, 23)
        p.save()
    return out


def stored(year: int = 2025) -> NationalRanking:
    return NationalRanking.objects.get(year=year)


def card(player: Player, year: int = 2025) -> list[tuple[str, str]]:
    """(event slug, reason) of every event on the player's card, in date order."""
    row = NationalRankingRow.objects.get(player=player, ranking__year=year)
    slugs = dict(Tournament.objects.values_list("pk", "slug"))
    return [(slugs[e["tournament"]], e["reason"]) for e in row.events]


@pytest.fixture
def eight(db: Any) -> list[Player]:
    return people(8)


def test_finishing_an_event_computes_its_year_and_reopening_takes_it_out(
        eight: list[Player], django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        t, org, _ref = event(eight)
    ranking = stored()
    assert ranking.version == 1 and ranking.computed_at is not None and ranking.events == 1
    rows = list(NationalRankingRow.objects.filter(ranking=ranking).order_by("position"))
    assert len(rows) == 8 and rows[0].player == eight[0] and rows[0].position == 1
    # one Open event, 6 table-games: the winner's VT is 1.2 × 106 × 2 = 254.4
    assert rows[0].points == D("254.4")
    for r in rows:  # each VT from the player's position in the event (ties there share it)
        assert r.points == rk.contribution(r.events[0]["position"], 6, "OPN", 3)
    assert [r.position for r in rows] == list(range(1, 9))  # the year's rows: 1..n, never shared
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.change_status(t, Tournament.Status.RUNNING, actor=org)
    ranking.refresh_from_db()
    assert ranking.version == 2 and ranking.events == 0
    assert not NationalRankingRow.objects.filter(ranking=ranking).exists()


def test_a_corrected_result_of_a_finished_event_recomputes(
        eight: list[Player], django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        t, org, ref = event(eight)
    before = stored().version
    snapshot = set(NationalRankingRow.objects.values_list("player_id", "position", "points"))
    # game 3, table 1 corrected: now seat 2 wins it
    from scoring.selectors import table_state
    from tables.models import Table

    table = Table.objects.get(game__tournament=t, game__number=3, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        sub = services.submit_result(actor=ref, table=table, kind="short", data=result(4, 2), ended_by="sdadata",
                                     expected_version=table_state(table).version)
        services.confirm_result(actor=org, submission=sub)
    ranking = stored()
    assert ranking.version > before
    assert set(NationalRankingRow.objects.values_list("player_id", "position", "points")) != snapshot


def test_a_running_event_and_a_friendly_never_count(db: Any, django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        event(people(8, "A"), finish=False)
        event(people(8, "B"), event_type="")  # no type, no format: a friendly
        event(people(8, "C"), event_type="AMC")
    assert not NationalRankingRow.objects.exists()
    assert national.years_with_events() == []


def test_the_format_preset_gives_the_type_when_the_tournament_has_none(
        eight: list[Player], django_capture_on_commit_callbacks: Any) -> None:
    t, org, _ref = event(eight, event_type="", finish=False)
    services.apply_preset(actor=org, tournament=t, preset_id="open")
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.change_status(t, Tournament.Status.FINISHED, actor=org)
    assert set(NationalRankingEvent.objects.values_list("event_type", flat=True)) == {"OPN"}


def test_ghosts_and_anonymous_players_are_left_out(db: Any, django_capture_on_commit_callbacks: Any) -> None:
    players = people(6)
    anon = PlayerFactory(bare=True, first_name="Anonimo", last_name="Anonimo")
    with django_capture_on_commit_callbacks(execute=True):
        # 6 players + the anonymous one + a ghost seat: two tables of 4 per game
        event([*players, anon, None])
    ranked = set(NationalRankingRow.objects.values_list("player_id", flat=True))
    assert ranked == {p.pk for p in players}
    # the ghost's table still counts as a table-game: T = 6
    assert NationalRankingRow.objects.get(player=players[0]).points == D("254.4")


def test_blacklisted_player_is_excluded_only_within_the_dates(
        db: Any, django_capture_on_commit_callbacks: Any) -> None:
    players = people(8)
    RankingBlacklistFactory(player=players[0], starts_on=dt.date(2025, 4, 1), ends_on=dt.date(2025, 6, 30),
                                    reason="Comportamento antisportivo")
    with django_capture_on_commit_callbacks(execute=True):
        march, *_ = event(players, day=dt.date(2025, 3, 1))
        may, *_ = event(players, day=dt.date(2025, 5, 10))
        july, *_ = event(players, day=dt.date(2025, 7, 5))
    assert card(players[0]) == [(march.slug, "counted"), (may.slug, "blacklisted"), (july.slug, "counted")]
    row = NationalRankingRow.objects.get(player=players[0])
    assert row.points == rk.shown(2 * rk.vt_exact(1, 6, "OPN", 3))  # March and July only
    # everyone else counts all three (3 Open events: cap max(3, 0) = 3)
    assert {r for _s, r in card(players[1])} == {"counted"}
    # The event's last day is compared with the period's: an event straddling the end of the
    # period counts, one straddling its start does not.
    with django_capture_on_commit_callbacks(execute=True):
        end = _two_days(players, dt.date(2025, 6, 30))
        start = _two_days(players, dt.date(2025, 3, 31))
    assert (end.slug, "counted") in card(players[0]) and (start.slug, "blacklisted") in card(players[0])


def _two_days(players: list[Player], day: dt.date) -> Tournament:
    """An event whose last game ends the day after ``day``."""
    t, org, _ref = event(players, day=day, finish=False)
    Game.objects.filter(tournament=t, number=3).update(finished_at=timezone.make_aware(
        dt.datetime.combine(day + dt.timedelta(days=1), dt.time(18))))
    tournament_services.change_status(t, Tournament.Status.FINISHED, actor=org)
    return t


def test_t_counts_every_non_empty_table_even_without_a_counted_result(
        eight: list[Player], django_capture_on_commit_callbacks: Any) -> None:
    # T is the event's non-empty tables over all rounds (the pipeline's TAVOLI), not its tables
    # with a counted result: a table whose result was never confirmed still counts.
    t, org, _ref = event(eight, finish=False)
    Confirmation.objects.filter(submission__table__game__tournament=t, submission__table__game__number=3,
                                submission__table__number=2).delete()
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    assert national.table_games([t.pk]) == {t.pk: 6}
    national.compute(2025)
    assert NationalRankingRow.objects.get(player=eight[0]).points == D("254.4")  # 1.2 × (100 + 6) × 2


def test_caps_per_type_follow_the_number_of_valid_events(db: Any, django_capture_on_commit_callbacks: Any) -> None:
    players = people(8)
    with django_capture_on_commit_callbacks(execute=True):
        first, *_ = event(players, event_type="RDN", day=dt.date(2025, 2, 1))
        second, *_ = event(players, event_type="RDN", day=dt.date(2025, 9, 1))
        small, *_ = event(players[:4], event_type="RDN", day=dt.date(2025, 10, 1), games=2)  # 2 table-games
    ranking = stored()
    # two valid Raduni: cap max(1, floor(33.3% × 2)) = 1; the small one is below the minimum of 6
    assert ranking.rules["valid_events"] == {"RDN": 2} and ranking.rules["caps_applied"]["RDN"] == 1
    reasons = dict(card(players[0]))
    assert reasons[small.slug] == "below_minimum"
    assert sorted([reasons[first.slug], reasons[second.slug]]) == ["beyond_cap", "counted"]
    assert NationalRankingRow.objects.get(player=players[0]).points == rk.contribution(1, 6, "RDN", 3)


def test_request_update_queues_a_year_once_per_transaction(db: Any, django_capture_on_commit_callbacks: Any,
                                                           monkeypatch: Any) -> None:
    years: list[int] = []
    monkeypatch.setattr("ranking.tasks.recompute_ranking.delay", years.append)
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            national.request_update(2025)
            national.request_update(2025)
            national.request_update(2024)
        assert years == []  # nothing before the commit
    assert years == [2025, 2024]


# ------------------------------------------------------------------ API, pages, exports
@pytest.fixture
def year2025(db: Any, django_capture_on_commit_callbacks: Any) -> list[Player]:
    players = people(8)
    players[0].first_name, players[0].last_name, players[0].nickname = "Giuseppe", "Verdì", "Peppe"
    players[0].save()
    players[1].first_name, players[1].last_name = "=HYPERLINK(\"http://x\")", "Rossi"
    players[1].save()
    with django_capture_on_commit_callbacks(execute=True):
        event(players)
        event(players, event_type="CNI", day=dt.date(2025, 6, 1))
    return players


def test_api_lists_years_and_explains_every_row(client: Any, year2025: list[Player]) -> None:
    years = client.get("/api/ranking/").json()
    assert [y["year"] for y in years["years"]] == [2025] and years["years"][0]["events"] == 2
    data = client.get("/api/ranking/2025/").json()
    assert set(data) >= {"year", "computed_at", "rows"} and data["year"] == 2025 and data["count"] == 8
    first = data["rows"][0]
    assert set(first) == {"position", "player", "points", "events"}
    assert set(first["player"]) == {"id", "name", "club"} and first["player"]["name"] == "Giuseppe Verdì (Peppe)"
    assert first["position"] == 1 and first["points"] == 254.4 and first["player"]["club"] == "Lario Como"
    assert [(e["type"], e["vt"], e["counted"], e["reason"]) for e in first["events"]] == [
        ("OPN", 254.4, True, "counted"), ("CNI", 0.0, False, "not_ranked_type")]
    text = json.dumps(data)
    assert "example.org" not in text and "1977" not in text  # name and club only
    assert [r["player"]["id"] for r in client.get("/api/ranking/2025/?q=verdi").json()["rows"]] == [year2025[0].pk]
    page = client.get("/api/ranking/2025/?limit=3&offset=3").json()
    assert [r["position"] for r in page["rows"]] == [r["position"] for r in data["rows"][3:6]]
    assert client.get("/api/ranking/2025/?limit=abc").status_code == 200
    assert client.get("/api/ranking/2019/").json()["rows"] == []  # nothing counted: empty, not missing
    assert client.get("/api/ranking/1999/").status_code == 404  # before any year the instance holds
    assert client.get("/api/ranking/999999999999/").status_code == 404
    schema = client.get("/api/schema/").content.decode()
    assert "/api/ranking/{year}/" in schema and "RankingRow" in schema


def test_a_client_polling_the_current_year_gets_an_empty_ranking_until_an_event_counts(
        client: Any, eight: list[Player], django_capture_on_commit_callbacks: Any) -> None:
    this_year = timezone.localdate().year
    empty = client.get(f"/api/ranking/{this_year}/")
    assert empty.status_code == 200
    assert empty.json() == {"year": this_year, "computed_at": None, "version": 0, "count": 0, "limit": 100,
                            "offset": 0, "rows": []}
    assert client.get(f"/api/ranking/{this_year + 1}/").json()["rows"] == []  # already New Year somewhere
    for outside in (1999, this_year + 2):
        answer = client.get(f"/api/ranking/{outside}/")
        assert answer.status_code == 404 and answer.json()["detail"] == "No national ranking for this year."

    with django_capture_on_commit_callbacks(execute=True):
        t, org, _ref = event(eight, day=dt.date(this_year, 1, 1))
    counted = client.get(f"/api/ranking/{this_year}/").json()
    assert counted["count"] == 8 and counted["rows"][0]["position"] == 1 and counted["version"] >= 1

    with django_capture_on_commit_callbacks(execute=True):  # reopened: nothing counts any more
        tournament_services.change_status(t, Tournament.Status.RUNNING, actor=org)
    again = client.get(f"/api/ranking/{this_year}/").json()
    assert (again["rows"], again["count"]) == ([], 0) and again["computed_at"] is not None


def test_nobody_writes_through_the_api(client: Any, year2025: list[Player]) -> None:
    user = UserFactory(is_staff=True)
    client.force_login(user)
    assert client.post("/api/ranking/2025/", {}).status_code == 405
    assert client.delete("/api/ranking/2025/").status_code == 405


def test_year_page_search_and_player_card(client: Any, year2025: list[Player]) -> None:
    home = client.get(reverse("tournaments:list")).content.decode()
    assert reverse("ranking:national") in home
    years = client.get(reverse("ranking:national")).content.decode()
    assert reverse("ranking:national-year", args=[2025]) in years
    page = client.get(reverse("ranking:national-year", args=[2025]))
    text = page.content.decode()
    assert page.status_code == 200 and "Computed" in text and 'class="scroll"' in text
    assert "Giuseppe Verdì (Peppe)" in text and "example.org" not in text
    found = client.get(reverse("ranking:national-year", args=[2025]), {"q": "peppe"}).content.decode()
    assert "Verdì" in found and "Rossi" not in found
    none = client.get(reverse("ranking:national-year", args=[2025]), {"q": "nessuno"}).content.decode()
    assert "No player matches the search." in none
    url = reverse("ranking:national-player", args=[2025, year2025[0].pk])
    assert url in text
    card_text = client.get(url).content.decode()
    assert "254.4" in card_text and "this type of event does not count in the ranking" in card_text
    assert "Position 1" in card_text
    assert client.get(reverse("ranking:national-player", args=[2025, 10**9])).status_code == 404
    assert client.get(reverse("ranking:national-year", args=[1990])).status_code == 404


def test_card_says_why_an_event_did_not_count_in_italian(client: Any, year2025: list[Player], settings: Any) -> None:
    settings.LANGUAGE_CODE = "it"
    text = client.get(reverse("ranking:national-player", args=[2025, year2025[0].pk]),
                      HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Ranking nazionale 2025" in text and "non conta per il ranking" in text and "254,4" in text


def test_exports_csv_xlsx_json(client: Any, year2025: list[Player]) -> None:
    url = reverse("ranking:national-export", args=[2025, "csv"])
    excel = client.get(url).content.decode("utf-8")  # Excel's form: byte-order mark, semicolons, 254,4
    assert excel.startswith("\ufeffPosition;Player;") and ";254,4;" in excel
    lines = list(csv.reader(io.StringIO(client.get(url + "?plain=1").content.decode())))
    assert lines[0] == ["Position", "Player", "Club", "Points", "Events counted", "Events"]
    assert lines[1][:4] == ["1", "Giuseppe Verdì (Peppe)", "Lario Como", "254.4"]
    rossi = next(r for r in lines if "Rossi" in r[1])
    assert rossi[1].startswith("'=HYPERLINK")  # never a formula
    resp = client.get(reverse("ranking:national-export", args=[2025, "xlsx"]))
    wb = load_workbook(io.BytesIO(resp.content))
    ws = wb.worksheets[0]
    cells = [c for row in ws.iter_rows() for c in row]
    assert all(c.data_type != "f" for c in cells)
    assert any(isinstance(c.value, str) and c.value.startswith("'=HYPERLINK") for c in cells)
    assert ws.cell(2, 4).value == 254.4 and len(wb.worksheets) == 2
    data = client.get(reverse("ranking:national-export", args=[2025, "json"])).json()
    assert data["year"] == 2025 and len(data["rows"]) == 8
    assert data["rows"] == client.get("/api/ranking/2025/").json()["rows"]
    assert client.get(reverse("ranking:national-export", args=[2025, "pdf"])).status_code == 404


def test_only_staff_edit_the_blacklist(client: Any, year2025: list[Player],
                                       django_capture_on_commit_callbacks: Any) -> None:
    add = "/admin/scoring/rankingblacklist/add/"
    assert client.get(add).status_code == 302  # anonymous: to the login page
    client.force_login(UserFactory(username="organizer-only"))
    assert client.get(add).status_code == 302
    staff = UserFactory(username="federation", is_staff=True)
    client.force_login(staff)
    assert client.get(add).status_code == 200
    version = stored().version
    with django_capture_on_commit_callbacks(execute=True):
        resp = client.post(add, {"player": year2025[0].pk, "starts_on": "2025-01-01", "ends_on": "2025-12-31",
                                 "reason": "Squalifica"})
    assert resp.status_code == 302, resp.content.decode()[:2000]
    assert stored().version == version + 1
    assert {r for _s, r in card(year2025[0])} == {"blacklisted", "not_ranked_type"}
    assert NationalRankingRow.objects.get(player=year2025[0]).position is None
    bad = client.post(add, {"player": year2025[1].pk, "starts_on": "2025-05-01", "ends_on": "2025-01-01",
                            "reason": "x"})
    assert bad.status_code == 200 and RankingBlacklist.objects.count() == 1  # the form says why


def test_standings_of_many_events_at_once_match_each_events_standings(
        db: Any, django_capture_on_commit_callbacks: Any) -> None:
    from django.core.cache import cache

    from scoring import selectors
    from tables.models import Table

    players = people(8)
    a, org, ref = event(players, finish=False)
    b, *_ = event(players[:4] + people(4, "B"), event_type="RDN", finish=False)
    empty = f.ScoringTournamentFactory()
    # a's game 2 table 1: a correction entered but not confirmed (does not count), then b publishes
    # unconfirmed results
    table = Table.objects.get(game__tournament=a, game__number=2, number=1)
    from scoring.selectors import table_state

    services.submit_result(actor=ref, table=table, kind="short", data=result(4, 3), ended_by="sdadata",
                           expected_version=table_state(table).version)
    services.update_settings(actor=f.role(b, "organizer"), tournament=b, publish_unconfirmed=True)
    b_table = Table.objects.get(game__tournament=b, game__number=3, number=1)
    services.submit_result(actor=f.role(b), table=b_table, kind="short", data=result(4, 4), ended_by="sdadata",
                           expected_version=table_state(b_table).version)
    expected = {}
    for t in (a, b, empty):
        cache.clear()
        expected[t.pk] = selectors.standings(t)["rows"]
    cache.clear()
    many = selectors.standings_many([a, b, empty])
    assert {pk: d["rows"] for pk, d in many.items()} == expected
    assert selectors.standings(a)["stamp"] == many[a.pk]["stamp"]  # cached for the pages too


def test_an_erased_player_leaves_the_public_ranking(year2025: list[Player], client: Any,
                                                    django_capture_on_commit_callbacks: Any) -> None:
    from tournaments import privacy

    staff = UserFactory(username="dpo", is_staff=True, is_superuser=True)
    with django_capture_on_commit_callbacks(execute=True):
        privacy.erase_player(year2025[0], actor=staff)
    text = client.get(reverse("ranking:national-year", args=[2025])).content.decode()
    assert "Verdì" not in text and "Peppe" not in text
    assert not NationalRankingRow.objects.filter(player=year2025[0]).exists()  # anonymous now: left out


def test_recompute_command(year2025: list[Player]) -> None:
    from django.core.management import call_command

    out = io.StringIO()
    version = stored().version
    call_command("recompute_ranking", stdout=out)
    assert out.getvalue().startswith("2025: 2 events, 8 players")
    assert stored().version == version + 1
    from django.core.management.base import CommandError

    with pytest.raises(CommandError):
        call_command("recompute_ranking", "12", stdout=out)


def test_a_deleted_event_leaves_the_ranking(eight: list[Player], django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        t, *_ = event(eight)
    assert stored().events == 1
    with django_capture_on_commit_callbacks(execute=True):
        t.delete()
    assert stored().events == 0 and not NationalRankingRow.objects.exists()
