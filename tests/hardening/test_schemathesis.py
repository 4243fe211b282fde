"""Hostile input on the REST API: schemathesis generates requests for EVERY operation of
the project's OpenAPI schema (``/api/schema/``) and sends them in-process to the WSGI app (no
server), on a database holding the demo tournament, once anonymous and once as its organizer
(HTTP Basic); and the publish endpoint once more with a club's publishing token (``Authorization:
Bearer``), its request bodies generated from the allow-list it documents (publishing/schema.py). Every response must be no server error, of the declared content type and valid
against the schema of its status code.

Path parameters are generated, and half the time set to the demo's real objects (slug ``demo``,
game 1/2, table 1, existing ids) so that requests reach the services instead of stopping at a 404.
``SCHEMATHESIS_EXAMPLES`` (default 8 per operation) scales the run; the documented large run:
``SCHEMATHESIS_EXAMPLES=200 pytest tests/hardening/test_schemathesis.py -s``.
"""

from __future__ import annotations

import base64
import collections
import os
from typing import Any

import pytest
from django.db import DatabaseError, transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments import demo
from tournaments.models import Tournament

schemathesis = pytest.importorskip("schemathesis")

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "8"))
REAL = {"slug": "demo", "number": 2, "table": 1, "pk": 1}
LAPTOP_CLUB = "Circolo del portatile"


def _checks() -> list[Any]:
    from schemathesis.checks import content_type_conformance, not_a_server_error
    from schemathesis.specs.openapi.checks import (
        response_schema_conformance,
        status_code_conformance,
    )

    # status_code_conformance: an answer whose status the schema does not document fails too
    # (every operation lists its error answers, common/schema.py).
    return [not_a_server_error, content_type_conformance, response_schema_conformance,
            status_code_conformance]


@pytest.mark.parametrize("who", ["anonymous", "organizer", "token"])
def test_every_api_operation_survives_generated_requests(
    demo_tournament: Tournament, who: str, capsys: Any,
) -> None:
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from config.wsgi import application

    # As Django's test client does: the WSGI app must not close the test's database connection
    # (inside the test transaction) at the start and end of every request.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        _run_schemathesis(application, who, capsys)
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _run_schemathesis(application: Any, who: str, capsys: Any) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    headers = {"Accept-Encoding": "identity"}  # the WSGI client does not decompress (common/live.py gzips)
    if who == "organizer":
        token = base64.b64encode(f"{demo.ORGANIZER[0]}:{demo.ORGANIZER[1]}".encode()).decode()
        headers["Authorization"] = f"Basic {token}"
    if who == "token":  # a hall laptop of a club: only the publish endpoint takes its token
        from publishing import services as publishing
        from tests.factories.tournaments import ClubFactory

        headers["Authorization"] = f"Bearer {publishing.issue_token(ClubFactory(name=LAPTOP_CLUB))}"
        schema = schema.include(path_regex="^/api/publish/")
    checks = _checks()
    failures: list[str] = []
    statuses: collections.Counter[int] = collections.Counter()
    operations = 0
    for result in schema.get_all_operations():
        operation = result.ok()
        operations += 1

        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy(), real=st.booleans())
        def run(case: Any, real: bool) -> None:
            if real and case.path_parameters:
                case.path_parameters = {k: REAL.get(k, v) for k, v in case.path_parameters.items()}
            if real and who == "token" and isinstance(case.body, dict):
                # past the envelope: a new copy of the token's own club, so the content is what is tried
                case.path_parameters = {"slug": "copia-portatile"}
                case.body.update(slug="copia-portatile", club=LAPTOP_CLUB)
            # Each request in its own savepoint, as each real request is its own transaction:
            # a database error in one must not poison the next (PostgreSQL).
            sid = transaction.savepoint()
            response = case.call(headers=headers)
            try:
                transaction.savepoint_commit(sid)
            except DatabaseError:
                transaction.savepoint_rollback(sid)
            statuses[response.status_code] += 1
            try:
                case.validate_response(response, checks=checks, headers=headers)
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - reported all at once
                lines = [ln.strip() for ln in str(exc).strip().splitlines() if ln.strip()]
                # the check's own title (the first line only says how many failures)
                first = " / ".join(lines[1:3]) if len(lines) > 1 else (lines[0] if lines else type(exc).__name__)
                failures.append(f"{case.operation.label} -> {response.status_code}: {first}")

        run()
    total = sum(statuses.values())
    with capsys.disabled():
        print(f"\nschemathesis {who}: {operations} operations, {total} requests, "
              f"statuses {dict(sorted(statuses.items()))}, failures {len(failures)}")
    assert operations >= (2 if who == "token" else 30)
    assert sorted(set(failures)) == [], "\n".join(sorted(set(failures)))
