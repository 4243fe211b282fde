"""At national scale: the leaderboard paginates and finds a player at once, and every public
request costs the same number of queries whatever the number of players and tables."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import scoring as f

pytestmark = pytest.mark.django_db


def _tournament(players: int) -> dict[str, Any]:
    t = f.ScoringTournamentFactory()
    ref1, ref2 = f.role(t), f.role(t)
    ps = f.players(t, players)
    tables = []
    for k in range(0, players, 4):
        table = f.make_table(t, 1, ps[k:k + 4])
        objectives = [s.objective for s in table.seats.order_by("number")]
        f.enter(table, ref1, "board", f.board_data(objectives, winner=1 + k // 4 % 4, armies=[30, 40, 30, 30]),
                ended_by="objective", confirm_by=ref2)
        tables.append(table)
    return {"t": t, "players": ps, "tables": tables}


def _urls(d: dict[str, Any]) -> list[str]:
    t, table, p = d["t"], d["tables"][-1], d["players"][-1]
    return [f"/t/{t.slug}/standings/", f"/t/{t.slug}/standings/?page=2", f"/t/{t.slug}/standings/?q=Nome",
            f"/t/{t.slug}/games/1/tables/", f"/t/{t.slug}/games/1/tables/?player={p.pk}",
            f"/t/{t.slug}/games/1/tables/?q={p.last_name}", f"/t/{t.slug}/games/1/tables/{table.number}/",
            f"/t/{t.slug}/results/table/{table.pk}/", f"/t/{t.slug}/standings/player/{p.pk}/",
            f"/api/scoring/tournaments/{t.slug}/standings/",
            f"/api/tournaments/{t.slug}/games/1/tables/{table.number}/clock/"]


def _queries(client: Any, url: str) -> int:
    cache.clear()  # the worst case: nothing computed or rendered yet
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200, url
    return len(ctx.captured_queries)


def test_queries_per_public_request_do_not_grow_with_players_or_tables(
        client: Any, settings: Any, django_assert_num_queries: Any) -> None:
    settings.LIVE_CACHE = False  # the views themselves, uncached
    small, large = _tournament(8), _tournament(40)
    counts = [_queries(client, url) for url in _urls(small)]
    for url, count in zip(_urls(large), counts, strict=True):
        cache.clear()
        with django_assert_num_queries(count):
            assert client.get(url).status_code == 200, url


def test_the_leaderboard_pages_and_finds_a_player(client: Any) -> None:
    t = f.ScoringTournamentFactory()
    ps = f.players(t, 230)
    url = f"/t/{t.slug}/standings/"
    first = client.get(url).content.decode()
    assert first.count('<tr id="player-') == 100 and "?page=2" in first
    third = client.get(url, {"page": 3}).content.decode()
    assert third.count('<tr id="player-') == 30 and "?page=2" in third
    assert client.get(url, {"page": 99}).content.decode().count('<tr id="player-') == 30  # the last one
    # find me by name: only the matching rows, the poll keeps the search
    me = ps[170]
    found = client.get(url, {"q": me.last_name}).content.decode()
    assert f'id="player-{me.pk}"' in found and found.count('<tr id="player-') == 1
    assert f"?q={me.last_name}" in found
    # from the player's own link: the page that holds them, their row marked
    mine = client.get(url, {"player": me.pk}).content.decode()
    assert re.search(rf'<tr id="player-{me.pk}" class="me" aria-current="true">', mine)
    assert f"?player={me.pk}" in mine  # polling keeps showing them
    player_page = client.get(f"/t/{t.slug}/standings/player/{me.pk}/").content.decode()
    assert f"?player={me.pk}#player-{me.pk}" in player_page


def test_the_standings_api_answers_one_page_when_asked(client: Any) -> None:
    t = f.ScoringTournamentFactory()
    ps = f.players(t, 230)
    url = f"/api/scoring/tournaments/{t.slug}/standings/"
    assert len(client.get(url).json()["rows"]) == 230  # unchanged without paging parameters
    page = client.get(url, {"limit": 50, "offset": 100}).json()
    assert page["count"] == 230 and page["offset"] == 100 and len(page["rows"]) == 50
    me = ps[170]
    mine = client.get(url, {"player": me.pk, "limit": 50}).json()
    assert any(r["player"] == me.pk for r in mine["rows"]) and mine["offset"] % 50 == 0
    found = client.get(url, {"q": me.last_name}).json()
    assert [r["player"] for r in found["rows"]] == [me.pk] and found["count"] == 1
    bad = client.get(url, {"limit": "x"})
    assert bad.status_code == 400 and "limit" in bad.json()


def test_the_workers_incremental_standings_equal_a_full_computation() -> None:
    """After results, corrections, a rename and a new registration, the standings the worker
    keeps up to date (recompute.compute_incremental) are exactly the full computation's."""
    from scoring import recompute, selectors
    from tournaments.models import Registration, Withdrawal

    d = _tournament(16)
    t = d["t"]
    recompute._KEPT.clear()

    def same() -> None:
        strip = ("stamp", "computed_at")
        full = {k: v for k, v in selectors.full_standings(t).items() if k not in strip}
        kept = {k: v for k, v in recompute.compute_incremental(t).items() if k not in strip}
        assert kept == full

    same()
    ref1, ref2 = f.role(t), f.role(t)
    for k, table in enumerate(d["tables"][:3]):  # corrections: new versions, confirmed
        objectives = [s.objective for s in table.seats.order_by("number")]
        f.enter(table, ref1, "board", f.board_data(objectives, winner=4 - k, armies=[35, 30, 40, 30]),
                ended_by="objective", confirm_by=ref2)
        same()
    more = f.players(t, 4)  # registered, no game yet; then they play game 2
    same()
    table = f.make_table(t, 2, more)
    objectives = [s.objective for s in table.seats.order_by("number")]
    f.enter(table, ref1, "board", f.board_data(objectives, winner=1, armies=[30, 30, 30, 30]),
            ended_by="objective", confirm_by=ref2)
    same()
    p = d["players"][0]
    p.nickname = "Zorro"
    p.save()
    Withdrawal.objects.create(registration=Registration.objects.get(player=more[0]))
    same()


def test_the_tables_page_pages_and_finds_a_players_table(client: Any, django_assert_max_num_queries: Any) -> None:
    t = f.ScoringTournamentFactory()
    ps = f.players(t, 4 * 53)
    for k in range(53):
        f.make_table(t, 1, ps[4 * k:4 * k + 4])
    url = f"/t/{t.slug}/games/1/tables/"
    first = client.get(url).content.decode()
    assert first.count('class="table-card"') == 50 and "?page=2" in first
    last = client.get(url, {"page": 9}).content.decode()  # past the end: the last page
    assert last.count('class="table-card"') == 3 and 'id="table-53"' in last
    # from the player's link: the page holding their table, their seat said
    me = ps[4 * 51 + 2]
    mine = client.get(url, {"player": me.pk}).content.decode()
    assert 'id="table-52"' in mine and 'id="table-1"' not in mine
    assert re.search(r'class="mine" aria-current="true">[^<]*\b52\b[^<]*\b3\b', mine)  # table 52, seat 3
    # by name: only the tables of the players found
    found = client.get(url, {"q": me.last_name}).content.decode()
    assert found.count('class="table-card"') == 1 and 'id="table-52"' in found
    # a page costs the same queries wherever it is and whoever asks
    cache.clear()
    with CaptureQueriesContext(connection) as one:
        client.get(url, {"player": ps[0].pk})
    for who in (ps[-1], ps[100]):
        cache.clear()
        with django_assert_max_num_queries(len(one.captured_queries)):
            client.get(url, {"player": who.pk})
