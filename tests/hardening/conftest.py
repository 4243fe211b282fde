"""Fixtures of the hardening tests: the demo tournament (``load_demo``) and a browser per role."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from tournaments import demo
from tournaments.models import Tournament


@pytest.fixture
def demo_tournament(demo_module: Tournament, db: Any) -> Tournament:
    """The module's demo (loaded once), seen from this test's own savepoint: what a test
    writes is rolled back before the next one."""
    return Tournament.objects.get(pk=demo_module.pk)


@pytest.fixture
def organizer_client(demo_tournament: Tournament) -> Client:
    client = Client()
    client.force_login(get_user_model().objects.get(username=demo.ORGANIZER[0]))
    return client


@pytest.fixture(scope="module")
def demo_module(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """The demo loaded ONCE per module inside a transaction rolled back at the end; each test
    still runs in its own savepoint (the ``db`` fixture), so tests do not see each other's
    writes and other modules never see the demo."""
    from django.db import transaction

    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
            yield Tournament.objects.get(slug=demo.SLUG)
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
