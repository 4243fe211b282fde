"""Concurrency: 8 parallel clients entering and confirming results, checking players in
and swapping seats at once, on PostgreSQL (real row locks; skipped without ``DATABASE_URL``).
No lost update, no duplicate, every conflict reported to the loser. The figures for N = 2, 8, 32
come from ``benchmarks/concurrency.py`` (same scenarios)."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection

from tests.hardening import concurrency_scenarios as sc
from tournaments.models import Tournament

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]
N = 8


@pytest.fixture
def demo_committed(transactional_db: Any) -> Tournament:
    if not os.environ.get("DATABASE_URL") or connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): threads need committed rows and row locks")
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    return Tournament.objects.get(slug="demo")


@pytest.mark.parametrize("scenario", sc.SCENARIOS, ids=lambda f: f.__name__)
def test_parallel_clients_lose_nothing_and_losers_hear_of_it(
    demo_committed: Tournament, scenario: Any,
) -> None:
    outcome = scenario(demo_committed, N)
    assert outcome["ok"], outcome
