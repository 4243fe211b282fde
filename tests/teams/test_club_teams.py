"""The club team tournament preset (``squadre``): a team is a club, every registered player of
the club plays, the club's score is its best 9 results; no rosters to enter."""

from __future__ import annotations

from decimal import Decimal as D
from typing import Any

import pytest

from common.errors import DomainError
from scoring import services as scoring_services
from tables import services as table_services
from teams import selectors, services
from tests.factories import scoring as f
from tests.factories.tournaments import CheckInFactory, ClubFactory
from tests.formats.test_phases import result
from tournaments.models import Registration


def test_clubs_are_the_teams_and_everyone_plays(db: Any, client: Any) -> None:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    scoring_services.apply_preset(actor=org, tournament=t, preset_id="squadre")
    t.refresh_from_db()
    clubs = [ClubFactory(name=f"Circolo {n} {t.pk}") for n in ("Alfa", "Beta", "Gamma", "Delta")]
    everyone = f.players(t, 16)
    for i, p in enumerate(everyone):
        p.club = clubs[i % 4]
        p.save()
    loner = f.players(t, 1)[0]  # no club: plays, belongs to no team
    for reg in Registration.objects.filter(tournament=t):
        CheckInFactory(registration=reg, game_number=1)
    assert [v.name for v in selectors.teams(t)] == sorted(c.name for c in clubs)
    with pytest.raises(DomainError) as refused:  # no rosters to enter in this format
        services.create_team(t, actor=org, name="Squadra")
    assert refused.value.field == "preset"

    # 17 players: every one seated (no starters), 3 tables of 4 and one of 5; clubs apart
    game = table_services.compose_game(table_services.ensure_game(t, 1, actor=org), actor=org, seed="club")
    tables = [[s.player for s in tb.seats.all()] for tb in game.tables.order_by("number")]
    assert sorted(len(tb) for tb in tables) == [4, 4, 4, 5]
    assert sum(len(tb) for tb in tables) == 17
    for tb in tables:
        clubs_here = [p.club_id for p in tb if p.club_id]
        assert len(clubs_here) == len(set(clubs_here))
    for table in game.tables.order_by("number"):
        f.enter(table, ref, "short", result(table.seats.count(), 1), confirm_by=org)
    rows = selectors.standings(t)["rows"]
    assert len(rows) == 4 and all(r["team"]["id"] in {c.pk for c in clubs} for r in rows)
    assert loner.pk not in {c["player"] for r in rows for c in r["counted"]}
    # every seated club player's S-GUFO score counts (4 results each, fewer than 9): the clubs'
    # totals are everything the 16 club players scored, whatever the seats
    scored = sum(D(str(s["tournament_points"])) for tb in game.tables.all()
                 for s in tb.results.order_by("number").last().scores if s.get("player") != loner.pk)
    assert sum(r["total"] for r in rows) == scored
    api = client.get(f"/api/scoring/tournaments/{t.slug}/teams/standings/").json()
    assert api["mode"] == "club" and [r["team"]["name"] for r in api["rows"]] == [r["team"]["name"] for r in rows]
