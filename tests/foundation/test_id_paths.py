"""An id in a path too large to be a row's key is a 404, never a 500 (found by schemathesis:
2**63 in /api/tournaments/<slug>/players/<id>/data/ overflowed SQLite and PostgreSQL)."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.factories.tournaments import TournamentFactory, TournamentRoleFactory, UserFactory


def _patterns(patterns: list, prefix: str = "") -> list[str]:
    out: list[str] = []
    for p in patterns:
        if isinstance(p, URLResolver):
            out += _patterns(p.url_patterns, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            out.append(prefix + str(p.pattern))
    return out


def test_no_project_route_takes_an_unbounded_integer() -> None:
    ours = [p for p in _patterns(get_resolver().url_patterns) if not p.startswith("admin/")]
    assert [p for p in ours if "<int:" in p] == []
    assert any("<id:" in p for p in ours)


@pytest.mark.django_db
@pytest.mark.parametrize("number", [2**63, 10**18, 10**30])
def test_a_huge_id_is_not_found(client, number: int) -> None:
    tournament = TournamentFactory()
    organizer = UserFactory()
    TournamentRoleFactory(tournament=tournament, user=organizer, role="organizer")
    client.force_login(organizer)
    for url in (f"/api/tournaments/{tournament.slug}/players/{number}/data/",
                f"/api/players/{number}/",
                f"/t/{tournament.slug}/games/{number}/tables/"):
        assert client.get(url).status_code == 404, url


def test_the_schema_bounds_path_ids(client) -> None:
    schema = client.get("/api/schema/", headers={"Accept": "application/json"}).json()
    params = schema["paths"]["/api/tournaments/{slug}/players/{id}/data/"]["get"]["parameters"]
    id_schema = next(p["schema"] for p in params if p["name"] == "id")
    assert id_schema["type"] == "integer" and id_schema["maximum"] == 10**18 - 1
