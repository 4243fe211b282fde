"""A read-only database (a failover's standby, maintenance): the result form keeps what was typed
and says to try again; nothing is saved. (The API's JSON 503 with Retry-After, on the real stack:
tests/hardening/test_faults.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from engine.board import load_board
from scoring.models import ResultSubmission
from tests.factories import scoring as f
from tests.scoring.test_pages import _board_post

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_the_result_form_on_a_read_only_database_keeps_what_was_typed(client: Any, setup: dict[str, Any]) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): its read-only transactions")
    t, table = setup["t"], setup["table"]
    data = f.board_data(setup["objectives"], winner=2, armies=[30, 40, 30, 30])
    client.force_login(setup["ref1"])
    with connection.cursor() as cursor:  # from here on this session's transactions may only read
        cursor.execute("SET default_transaction_read_only = on")
        try:
            response = client.post(f"/t/{t.slug}/results/table/{table.pk}/enter/",
                                   _board_post(setup, data), HTTP_ACCEPT_LANGUAGE="en")
        finally:
            cursor.execute("RESET default_transaction_read_only")
    html = response.content.decode()
    assert response.status_code == 503
    assert "try again in a minute" in html
    alaska = load_board("world").names.index("Alaska")
    assert f'name="armies_t{alaska}" value="{data["armies"]["Alaska"]}"' in html
    assert not ResultSubmission.objects.exists()
