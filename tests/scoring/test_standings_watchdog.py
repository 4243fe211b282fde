"""The watchdog of the standings (scoring.tasks.heal_standings, sent by beat): a tournament whose
stored standings miss a change — its recomputation lost with a killed worker, or never queued
while Redis was away — is queued again, without waiting for another write; /healthz names it once
the change is older than STANDINGS_STALE_SECONDS. (The same on the real stack, a pool process
killed mid-recompute: tests/hardening/test_faults.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from config.celery import app
from scoring import recompute, selectors, stored, tasks
from tests.factories import scoring as f

pytestmark = pytest.mark.django_db


def test_a_write_no_recomputation_took_in_is_behind_until_one_finishes(setup: dict[str, Any], monkeypatch: Any) -> None:
    t, table = setup["t"], setup["table"]
    f.enter(table, setup["ref1"], "board", f.board_data(setup["objectives"], winner=1), "objective")
    assert selectors.behind() == [t.pk]  # audited, and no recomputation finished since
    queued: list[int] = []
    monkeypatch.setattr(recompute, "schedule", queued.append)
    assert tasks.heal_standings() == [t.pk] and queued == [t.pk]
    recompute.recompute(t.pk)  # what the queued task does
    assert selectors.behind() == []
    assert selectors.behind(older_than=3600) == []


def test_a_generation_asked_for_and_lost_is_behind(setup: dict[str, Any]) -> None:
    t, table = setup["t"], setup["table"]
    f.enter(table, setup["ref1"], "board", f.board_data(setup["objectives"], winner=1), "objective")
    recompute.recompute(t.pk)
    recompute.next_generation(t.pk)  # a change queued its recomputation, which was lost
    assert selectors.behind() == [t.pk]
    cache.set(stored.queued_key(t.pk), 2, 60)  # still queued: not behind yet
    assert selectors.behind() == []


def test_healthz_names_stale_standings(client: Any, setup: dict[str, Any], monkeypatch: Any, settings: Any) -> None:
    t, table = setup["t"], setup["table"]
    f.enter(table, setup["ref1"], "board", f.board_data(setup["objectives"], winner=1), "objective")
    monkeypatch.setattr(app.control, "ping", lambda **kw: [])
    previous, app.conf.task_always_eager = app.conf.task_always_eager, False  # as in production
    try:
        settings.STANDINGS_STALE_SECONDS = 3600
        assert client.get("/healthz").json()["standings"] == "ok"  # a change this recent is under way
        settings.STANDINGS_STALE_SECONDS = 0
        assert client.get("/healthz").json()["standings"] == f"stale: tournament {t.pk}"
    finally:
        app.conf.task_always_eager = previous
