"""Two workers recomputing the same year at once (PostgreSQL row locks; skipped without
``DATABASE_URL``): the year's row lock queues them, both succeed, the version counts both and the
stored rows are one consistent set (no duplicate, no mix of the two runs)."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest
from django.db import connection, connections

from ranking import national
from ranking.models import NationalRanking, NationalRankingRow

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_concurrent_recomputations_of_a_year_queue_up(transactional_db: Any) -> None:
    if not os.environ.get("DATABASE_URL") or connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): threads need committed rows and row locks")
    from tests.ranking.test_national import event, people

    players = people(8)
    event(players)
    event(players, event_type="MST")
    errors: list[BaseException] = []
    start = threading.Barrier(4)

    def run() -> None:
        try:
            start.wait()
            national.compute(2025)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    ranking = NationalRanking.objects.get(year=2025)
    assert ranking.version == 2 + 4  # one run per finished event (eager), then the four: none lost
    rows = list(NationalRankingRow.objects.filter(ranking=ranking))
    assert len(rows) == 8 and len({r.player_id for r in rows}) == 8
    assert all(len(r.events) == 2 for r in rows)
