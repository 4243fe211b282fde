"""The full standings API (every row) assembled from the worker's stored rows (scoring.assembled):
the same bytes as the standings rendered whole, the same rows as the paginated API and the
leaderboard page after every confirmation, correction and withdrawal, with and without the
worker; a new head encodes only the rows it names anew."""

from __future__ import annotations

import re
import time
from contextlib import ExitStack
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation

from common.restjson import ExactJSONRenderer
from scoring import assembled, recompute, selectors, services, stored
from tests.factories import scoring as f
from tests.tables.test_worker import worker  # noqa: F401  (the fixture: a real Celery worker)
from tournaments.models import Registration
from tournaments.services.registration import withdraw

pytestmark = pytest.mark.django_db

ROW = re.compile(r'<tr id="player-(\d+)"[^>]*>\s*<td class="num rank">(\d+)(=?)</td>')


@pytest.fixture(params=["worker", "no worker"])
def mode(request: Any, settings: Any) -> Any:
    """With a worker (writes queue the task; the test runs ``recompute`` as the worker would) or
    without one (tasks in process: the next reader computes the standings)."""
    settings.LIVE_CACHE = True
    cache.clear()
    recompute._KEPT.clear()
    assembled._bodies.clear()
    assembled._rows.clear()
    stored_by_worker = request.param == "worker"
    with ExitStack() as patches:
        if stored_by_worker:
            patches.enter_context(mock.patch("scoring.selectors.tasks_in_process", return_value=False))
            patches.enter_context(mock.patch("scoring.recompute.schedule"))
        yield stored_by_worker


def _event() -> dict[str, Any]:
    t = f.ScoringTournamentFactory()
    ref1, ref2 = f.role(t), f.role(t)
    ps = f.players(t, 18)  # 16 seated, 2 registered who have not played yet
    tables = [f.make_table(t, 1, ps[k:k + 4]) for k in range(0, 16, 4)]
    for k, table in enumerate(tables[:3]):
        _result(table, ref1, ref2, winner=1 + k % 4)
    return {"t": t, "players": ps, "tables": tables, "ref1": ref1, "ref2": ref2}


def _result(table: Any, ref1: Any, ref2: Any | None, winner: int, armies: list[int] | None = None) -> Any:
    objectives = [s.objective for s in table.seats.order_by("number")]
    return f.enter(table, ref1, "board", f.board_data(objectives, winner=winner, armies=armies or [30, 40, 30, 30]),
                   ended_by="objective", confirm_by=ref2)


def _stored(stored_by_worker: bool, t: Any) -> None:
    if stored_by_worker:
        recompute.recompute(t.pk)  # the worker's task after the write
        assert stored.read(t.pk) is not None


def _agree(t: Any, stored_by_worker: bool) -> list[dict[str, Any]]:
    """The full API, the paginated API (pages of 5) and the leaderboard page answer the same rows;
    the full API's bytes are the standings rendered whole, in Italian and in English."""
    phone = Client()
    url = f"/api/scoring/tournaments/{t.slug}/standings/"
    full = phone.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert full.status_code == 200 and full["Content-Type"] == "application/json" and full.has_header("ETag")
    rows = full.json()["rows"]
    paged: list[dict[str, Any]] = []
    while len(paged) < len(rows):
        page = phone.get(url, {"limit": 5, "offset": len(paged)}, HTTP_ACCEPT_LANGUAGE="en").json()
        assert page["count"] == len(rows)
        paged += page["rows"]
    assert paged == rows
    html = phone.get(f"/t/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert [(int(p), int(rank), bool(s)) for p, rank, s in ROW.findall(html)] == [
        (r["player"], r["rank"], r["shared"]) for r in rows]
    assert {k: v for k, v in full.json().items() if k != "rows"} == {
        k: v for k, v in selectors.standings(t).items() if k != "rows"}
    for language in ("it", "en"):
        with translation.override(language):
            whole = ExactJSONRenderer().render(selectors.standings(t))  # what the API answered before
        answer = phone.get(url, HTTP_ACCEPT_LANGUAGE=language).content
        assert answer == whole
    assert (stored.read(t.pk) is not None) == stored_by_worker  # assembled from the stored rows, or read whole
    return rows


def _total(rows: list[dict[str, Any]], player: Any) -> Any:
    return next(r["total"] for r in rows if r["player"] == player.pk)


def test_full_paginated_and_page_agree_after_every_change(mode: bool) -> None:
    stored_by_worker = mode
    d = _event()
    t, ps, tables = d["t"], d["players"], d["tables"]
    _stored(stored_by_worker, t)
    first = _agree(t, stored_by_worker)
    assert len(first) == 18
    # a confirmation: table 4's players get their first game
    _result(tables[3], d["ref1"], d["ref2"], winner=2)
    _stored(stored_by_worker, t)
    rows = _agree(t, stored_by_worker)
    assert _total(rows, ps[13]) > _total(first, ps[13]) == 0  # seat 2 of table 4 won
    # a correction entered, not yet confirmed: the confirmed result counts, the row is marked
    pending = _result(tables[0], d["ref1"], None, winner=3, armies=[35, 30, 40, 30])
    _stored(stored_by_worker, t)
    marked = _agree(t, stored_by_worker)
    assert next(r for r in marked if r["player"] == ps[0].pk)["pending_corrections"] == [1]
    assert next(r for r in marked if r["player"] == ps[0].pk)["pending_correction_note"]
    # withdrawn by its author: the mark goes, the totals stay
    services.withdraw_correction(actor=d["ref1"], submission=pending)
    _stored(stored_by_worker, t)
    assert [(r["player"], r["total"], r["pending_corrections"]) for r in _agree(t, stored_by_worker)] == [
        (r["player"], r["total"], []) for r in rows]
    # a correction confirmed: seat 3 of table 1 wins instead of seat 1
    _result(tables[0], d["ref1"], d["ref2"], winner=3, armies=[35, 30, 40, 30])
    _stored(stored_by_worker, t)
    corrected = _agree(t, stored_by_worker)
    assert _total(corrected, ps[2]) > _total(rows, ps[2]) and _total(corrected, ps[0]) < _total(rows, ps[0])
    # a player who never played withdraws from the tournament: their row goes
    withdraw(Registration.objects.get(tournament=t, player=ps[17]), actor=f.role(t, "organizer"))
    _stored(stored_by_worker, t)
    assert ps[17].pk not in [r["player"] for r in _agree(t, stored_by_worker)]


@pytest.mark.parametrize("mode", ["worker"], indirect=True)
def test_a_new_head_encodes_only_the_rows_it_names_anew(mode: bool) -> None:
    d = _event()
    t = d["t"]
    _stored(True, t)
    with mock.patch.object(stored, "entries", wraps=stored.entries) as entries:
        assert assembled.full_body(t.pk) is not None
        assert len(entries.call_args.args[0]) == 18  # the first answer of this process: every row
        entries.reset_mock()
        _result(d["tables"][3], d["ref1"], d["ref2"], winner=2)
        _stored(True, t)
        body = assembled.full_body(t.pk)
        # only table 4's four players scored again; the others moved, under their old tokens
        assert body is not None and 0 < len(entries.call_args.args[0]) <= 4
        entries.reset_mock()
        assert assembled.full_body(t.pk) is body  # the same head again: the same body, nothing read
        assert not entries.called


@pytest.mark.parametrize("mode", ["worker"], indirect=True)
def test_a_row_gone_from_the_cache_is_answered_whole_never_wrong(mode: bool) -> None:
    d = _event()
    t = d["t"]
    _stored(True, t)
    head = stored.read(t.pk)
    assert head is not None
    cache.delete(stored.row_key(t.pk, head.ids[0], head.tokens[0]))  # evicted before this process read it
    assert assembled.full_body(t.pk) is None
    r = Client().get(f"/api/scoring/tournaments/{t.slug}/standings/")
    assert r.content == ExactJSONRenderer().render(selectors.standings(t))
    assert recompute.schedule.called  # type: ignore[attr-defined]  # the worker stores them again


def test_other_renderers_are_rendered_whole(settings: Any) -> None:
    settings.LIVE_CACHE = False  # the stored answers are named without the Accept header
    d = _event()
    t = d["t"]
    url = f"/api/scoring/tournaments/{t.slug}/standings/"
    with mock.patch.object(assembled, "full_body", wraps=assembled.full_body) as body:
        indented = Client().get(url, HTTP_ACCEPT="application/json; indent=2")
        browsable = Client().get(url, HTTP_ACCEPT="text/html")
    assert not body.called
    assert indented.content.startswith(b"{\n  ") and browsable["Content-Type"].startswith("text/html")


@pytest.mark.celery_worker
@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_with_a_real_worker_every_change_reaches_the_full_api_as_the_page(worker: Any, settings: Any) -> None:  # noqa: F811
    """Through the real task: after each change the full API (assembled from the rows the worker
    stored) shows it, and agrees with the paginated API and the page."""
    settings.LIVE_CACHE = True
    worker.start()
    d = _event()
    t, ps, tables = d["t"], d["players"], d["tables"]
    url = f"/api/scoring/tournaments/{t.slug}/standings/"
    phone = Client()

    def reached(check: Any) -> list[dict[str, Any]]:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            rows = phone.get(url).json()["rows"]
            if check(rows) and stored.read(t.pk) is not None:
                return _agree(t, stored_by_worker=True)
            time.sleep(0.1)
        pytest.fail("the change never reached the full standings API:\n" + worker.log())

    def row(rows: list[dict[str, Any]], p: Any) -> dict[str, Any]:
        return next(r for r in rows if r["player"] == p.pk)

    first = reached(lambda rows: len(rows) == 18 and row(rows, ps[0])["total"] > 0)
    _result(tables[3], d["ref1"], d["ref2"], winner=2)  # a confirmation
    reached(lambda rows: row(rows, ps[13])["total"] > 0)
    pending = _result(tables[0], d["ref1"], None, winner=3, armies=[35, 30, 40, 30])  # a correction waits
    reached(lambda rows: row(rows, ps[0])["pending_corrections"] == [1])
    services.withdraw_correction(actor=d["ref1"], submission=pending)  # and is withdrawn
    reached(lambda rows: row(rows, ps[0])["pending_corrections"] == [])
    _result(tables[0], d["ref1"], d["ref2"], winner=3, armies=[35, 30, 40, 30])  # a correction confirmed
    reached(lambda rows: row(rows, ps[2])["total"] > row(first, ps[2])["total"])
    withdraw(Registration.objects.get(tournament=t, player=ps[17]), actor=f.role(t, "organizer"))
    reached(lambda rows: ps[17].pk not in [r["player"] for r in rows])
