"""Hostile publishes: hypothesis takes a valid published tournament (as a hall laptop sends it)
and changes, deletes or adds values anywhere in it, then sends it with the club's real token.
Never a server error: the instance stores it (201/200), or refuses it with a 4xx that names a field
(400 ``PUBLISH``: the field's path; ``FORMAT`` for a NUL character, as every API body), and a
refusal stores nothing.

``HARDENING_EXAMPLES`` (default 150) scales it, as in test_fuzz.py; a third of it here, as each
accepted example makes a whole tournament (about 0.6 s).
"""

from __future__ import annotations

import copy
import os
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import exact
from publishing import services as publishing
from publishing.models import PublishedTournament
from tests.hardening.test_fuzz import _paths
from tests.publishing.helpers import laptop_event
from tournaments.models import Club, Player

EXAMPLES = int(os.environ.get("HARDENING_EXAMPLES", "150")) // 3
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                       HealthCheck.data_too_large])

values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**40, 10**40) | st.sampled_from([0, 1, -1, 2**63, 10**30])
    | st.decimals(allow_nan=False, allow_infinity=False)  # NaN and Infinity: test_publish_trust.py
    | st.text(max_size=30) | st.sampled_from(["", "x" * 5000, "99999-01-01", "2026-02-30", "short", "finished"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10,
)


@pytest.fixture
def sent(db: Any) -> dict[str, Any]:
    e = laptop_event()
    document = {**publishing.prepare(e["t"]), "slug": "copia"}
    # the format's settings, checked by their own rule (publish_schema.Settings): fuzzed too
    document["content"]["scoring"] = {"preset": "gufo", "tiebreaks": ["extra"], "club_changes": {
        "win_bonus": 40, "place_points": {"4": [10, 6, 3, 0]}}}
    document["content"]["tournament"]["ruleset_overrides"] = {"extra": {"time_limit_seconds": 90}}
    return {"token": publishing.issue_token(e["club"]), "doc": document, "paths": [p for p in _paths(document, width=3) if p]}


def _edit(doc: Any, path: tuple[Any, ...], value: Any, how: str) -> None:
    *head, last = path
    for key in head:
        doc = doc[key]
    if how == "delete":
        del doc[last]
    elif how == "add" and isinstance(doc[last], dict):
        doc[last]["extra_" + str(value)[:10]] = value
    elif how == "add" and isinstance(doc[last], list):
        doc[last].append(value)
    else:
        doc[last] = value


@FUZZ
@given(data=st.data())
def test_changed_published_tournaments_are_stored_or_refused_naming_a_field(sent: dict[str, Any], data: Any) -> None:
    doc = copy.deepcopy(sent["doc"])
    edits = data.draw(st.lists(st.tuples(st.sampled_from(sent["paths"]), values,
                                         st.sampled_from(["set", "delete", "add"])), min_size=1, max_size=4))
    for path, value, how in edits:
        try:
            _edit(doc, path, value, how)
        except (KeyError, IndexError, TypeError):
            pass  # an earlier edit removed or replaced that part
    with transaction.atomic():
        clubs, players = Club.objects.count(), Player.objects.count()
        r = Client().put("/api/publish/tournaments/copia/", exact.dumps(doc), content_type="application/json",
                         HTTP_AUTHORIZATION=f"Bearer {sent['token']}")
        assert r.status_code in (200, 201, 400, 403, 409, 413), (r.status_code, edits, r.content[:500])
        if r.status_code >= 400:
            body = r.json()
            # FORMAT: a NUL character, refused for every API body (common/edge.py)
            assert (body["rule"].startswith("PUBLISH") or body["rule"] == "FORMAT") and [k for k in body if k not in ("rule", "detail")], body
            assert not PublishedTournament.objects.exists() and Player.objects.count() == players
        assert Club.objects.count() == clubs  # a publish never creates a club
        transaction.set_rollback(True)
