"""With a REAL worker: a confirmed result reaches the public standings through the worker's task
(scoring.tasks.recompute_standings), which gives the tournament's pages a new validator."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.test import Client

from tests.factories import scoring as f
from tests.tables.test_worker import worker  # noqa: F401  (the fixture: a real Celery worker)

pytestmark = [
    pytest.mark.celery_worker,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def test_a_confirmation_reaches_the_polled_standings_through_the_worker(worker: Any, settings: Any) -> None:  # noqa: F811
    settings.LIVE_CACHE = True
    worker.start()
    t = f.ScoringTournamentFactory()
    ref1, ref2 = f.role(t), f.role(t)
    ps = f.players(t, 4)
    table = f.make_table(t, 1, ps)
    phone = Client()
    url = f"/api/scoring/tournaments/{t.slug}/standings/"
    first = phone.get(url)
    assert {r["total"] for r in first.json()["rows"]} == {0}
    etag = first["ETag"]
    assert phone.get(url, headers={"If-None-Match": etag}).status_code == 304
    objectives = [s.objective for s in table.seats.order_by("number")]
    f.enter(table, ref1, "board", f.board_data(objectives, winner=2, armies=[30, 40, 30, 30]),
            ended_by="objective", confirm_by=ref2)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        r = phone.get(url, headers={"If-None-Match": etag})
        if r.status_code == 200:
            etag = r["ETag"]
            if r.json()["rows"][0]["player"] == ps[1].pk:
                assert r.json()["rows"][0]["total"] == 130
                # the worker stores, then bumps: a poll between the two saw the new standings under
                # the old validator, so one more new validator may follow, never older standings
                again = phone.get(url, headers={"If-None-Match": etag})
                if again.status_code == 200:
                    assert again.json()["rows"] == r.json()["rows"]
                    etag = again["ETag"]
                assert phone.get(url, headers={"If-None-Match": etag}).status_code == 304
                return
        else:
            assert r.status_code == 304
        time.sleep(0.1)
    pytest.fail("the confirmed result never reached the polled standings:\n" + worker.log())
