"""The worker's standings in the shared cache (scoring.stored): a small head and one entry per row.
A confirmation writes only the rows that changed, what pages read equals a full computation, the
tournament's pages get a new validator, and a row gone from the cache is never a wrong page."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client

from scoring import recompute, selectors, stored
from tests.factories import scoring as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(settings: Any) -> Any:
    """16 players with results, as a worker keeps them: writes queue the task (not run: the test
    runs ``recompute`` itself, as the worker would)."""
    settings.LIVE_CACHE = True
    cache.clear()
    recompute._KEPT.clear()
    with mock.patch("scoring.selectors.tasks_in_process", return_value=False), mock.patch("scoring.recompute.schedule"):
        yield _event()


def _event() -> dict[str, Any]:
    t = f.ScoringTournamentFactory()
    ref1, ref2 = f.role(t), f.role(t)
    ps = f.players(t, 16)
    tables = [f.make_table(t, 1, ps[k:k + 4]) for k in range(0, 16, 4)]
    for k, table in enumerate(tables):
        objectives = [s.objective for s in table.seats.order_by("number")]
        f.enter(table, ref1, "board", f.board_data(objectives, winner=1 + k % 4, armies=[30, 40, 30, 30]),
                ended_by="objective", confirm_by=ref2)
    assert recompute.recompute(t.pk)  # the worker's first run: every row
    return {"t": t, "players": ps, "tables": tables, "ref1": ref1, "ref2": ref2}


def _plain(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("stamp", "computed_at", "generation")}


def _correct(d: dict[str, Any], winner: int) -> None:
    table = d["tables"][0]
    objectives = [s.objective for s in table.seats.order_by("number")]
    f.enter(table, d["ref1"], "board", f.board_data(objectives, winner=winner, armies=[35, 30, 40, 30]),
            ended_by="objective", confirm_by=d["ref2"])


def test_a_confirmation_rewrites_only_the_rows_that_changed(event: dict[str, Any]) -> None:
    t = event["t"]
    assert stored.read(t.pk) is not None
    client = Client()
    url = f"/t/{t.slug}/standings/"
    etag = client.get(url)["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    _correct(event, winner=3)
    with mock.patch.object(stored, "write", wraps=stored.write) as write:
        assert recompute.recompute(t.pk)
    rows = write.call_args.args[2]
    assert 0 < len(rows) <= 4 and {p for p, _token in rows} <= {p.pk for p in event["players"][:4]}
    assert _plain(selectors._standings(t)) == _plain(selectors.full_standings(t))  # read from the head and rows
    r = client.get(url, headers={"If-None-Match": etag})
    assert r.status_code == 200 and r["ETag"] != etag  # the worker's store is a new validator
    leader = selectors.full_standings(t)["rows"][0]
    assert f'id="player-{leader["player"]}"' in r.content.decode()
    # nothing changed since: the task stores nothing and the pages keep their validator
    assert not recompute.recompute(t.pk)
    assert client.get(url, headers={"If-None-Match": r["ETag"]}).status_code == 304


def test_pages_read_only_their_rows_and_find_a_player(event: dict[str, Any]) -> None:
    t, ps = event["t"], event["players"]
    full = selectors.full_standings(t)["rows"]
    with mock.patch.object(stored.Head, "rows", autospec=True, side_effect=stored.Head.rows) as rows:
        page = selectors.standings_slice(t, offset=5, limit=5)
    assert [list(c.args[1]) for c in rows.call_args_list] == [[5, 6, 7, 8, 9]]
    assert [r["player"] for r in page["rows"]] == [r["player"] for r in full[5:10]] and page["count"] == 16
    me = ps[9]
    mine = selectors.standings_slice(t, player=me.pk, limit=5)
    at = next(i for i, r in enumerate(full) if r["player"] == me.pk)
    assert mine["offset"] == at // 5 * 5 and mine["rows"][at % 5]["player"] == me.pk
    found = selectors.standings_slice(t, q=me.last_name)
    assert [r["player"] for r in found["rows"]] == [me.pk]
    assert selectors.standings_row(t, me.pk)["total"] == full[at]["total"]


def test_a_row_gone_from_the_cache_is_read_whole_never_wrong(event: dict[str, Any]) -> None:
    t = event["t"]
    head = stored.read(t.pk)
    assert head is not None
    cache.delete(stored.row_key(t.pk, head.ids[0], head.tokens[0]))  # evicted
    expected = _plain(selectors.full_standings(t))
    assert _plain(selectors._standings(t)) == expected
    page = selectors.standings_slice(t, limit=3)
    assert [r["player"] for r in page["rows"]] == [r["player"] for r in expected["rows"][:3]]
    assert stored.read(t.pk) is None and recompute.schedule.called  # type: ignore[attr-defined]  # the worker stores them again, whole
    recompute.recompute(t.pk)
    assert _plain(selectors._standings(t)) == expected
