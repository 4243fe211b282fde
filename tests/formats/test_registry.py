"""Every format of the registry (tournaments.formats.PRESETS) works end to end: its numbers name
only what the registries know, an organizer can choose it, each qualifying round's tables are
composed with the preset's priorities and seeding, and the results give standings ordered by the
preset's chain. Adding a format is one entry in the registry: these tests then run it too."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from common.errors import DomainError
from scoring import selectors, services
from tables import services as table_services
from tables.models import Game
from tests.factories import scoring as f
from tests.factories.tournaments import CheckInFactory, ClubFactory
from tournaments import formats
from tournaments.models import Registration, Tournament

from .test_phases import enter_results

PLAYERS = 12  # three tables of four


@pytest.mark.parametrize("preset", formats.PRESETS.values(), ids=lambda p: p.id)
def test_each_preset_names_only_known_words(preset: formats.Preset) -> None:
    assert formats.problems(preset) == []
    choice = formats.check_choice(preset.id)
    assert (choice.games_count, choice.best_n, choice.chain) == (preset.games_count, preset.best_n, preset.chain)


def test_a_preset_naming_unknown_words_is_reported() -> None:
    broken = dataclasses.replace(
        formats.PRESETS["open"], scoring_system="S-NOPE", chain=("total", "luck"), knockout="lampo",
        rounds={1: formats.RoundTables(("club_apart", "friends_together"), seeding="coin")},
        editable=("chain", "colour"),
    )
    found = " | ".join(formats.problems(broken))
    for word in ("S-NOPE", "'luck'", "'friends_together'", "'coin'", "'lampo'", "'colour'"):
        assert word in found


def test_an_unknown_preset_is_refused_naming_the_field_and_rule() -> None:
    with pytest.raises(DomainError) as refused:
        formats.check_choice("lampo")
    assert (refused.value.field, refused.value.rule) == ("preset", "FORMAT")


def _event(preset_id: str) -> tuple[Tournament, Any, Any]:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    clubs = [ClubFactory(name=f"Club {t.pk}-{c}", city="", region=f"Regione {c % 2}") for c in range(4)]
    for i, p in enumerate(f.players(t, PLAYERS)):
        p.club = clubs[i % len(clubs)]
        p.save()
    choose_preset(t, org, preset_id)
    return t, org, ref


def choose_preset(t: Tournament, org: Any, preset_id: str) -> None:
    """The organizer chooses the format; every registered player is checked in for every game."""
    services.apply_preset(actor=org, tournament=t, preset_id=preset_id)
    t.refresh_from_db()
    for reg in Registration.objects.filter(tournament=t):
        for g in range(1, t.games_count + 1):
            CheckInFactory(registration=reg, game_number=g)


def qualifying_rounds(preset: formats.Preset) -> range:
    """The rounds tables are composed for: all of them, or before the K-KO-RCU semifinals
    (composed from the standings by tables.phases, tested in test_phases.py)."""
    return range(1, (2 if preset.knockout else min(preset.games_count, 3)) + 1)


@pytest.mark.parametrize("preset", formats.PRESETS.values(), ids=lambda p: p.id)
def test_each_preset_composes_its_rounds_and_produces_standings(db: Any, preset: formats.Preset) -> None:
    t, org, ref = _event(preset.id)
    assert (t.scoring_system, t.games_count) == (preset.scoring_system, preset.games_count)
    for number in qualifying_rounds(preset):
        game = table_services.compose_game(table_services.ensure_game(t, number, actor=org), actor=org,
                                           seed=f"{preset.id}-{number}")
        wanted = preset.tables_for(number)
        options = game.composition_options
        assert (options["priorities"], options["seeding"], options["by_region"]) == (
            list(wanted.priorities), wanted.seeding, wanted.by_region)
        assert sorted(s.player_id for tb in game.tables.all() for s in tb.seats.all()) == sorted(
            r.player_id for r in Registration.objects.filter(tournament=t))
        enter_results(Game.objects.get(pk=game.pk), ref, org)

    data = selectors.standings(t)
    rows = data["rows"]
    assert len(rows) == PLAYERS and data["preset"] == preset.id
    assert data["chain"] == list(preset.chain)
    played = len(qualifying_rounds(preset))
    assert all(row["played"] == played for row in rows)
    ranks = [row["rank"] for row in rows]
    assert ranks == sorted(ranks) and ranks[0] == 1
    # each table's winner (seat 1 wins every table) is ahead of everyone who never won
    winners = {row["player"] for row in rows if row.get("wins")}
    assert winners and all(row["player"] in winners for row in rows[:1])


def test_the_scoring_system_is_one_of_the_engines(db: Any, client: Any) -> None:
    """The page, the API and the admin offer the engine's scoring systems and nothing else; a
    system typed by hand is refused naming the field and the rule."""
    from django.core.exceptions import ValidationError

    from engine.scoring import SCORING_SYSTEMS
    from tests.factories.tournaments import UserFactory

    client.force_login(UserFactory())
    page = client.get("/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    offered = page[page.index('name="scoring_system"'):].split("</select>")[0]
    assert offered.count("<option") == len(SCORING_SYSTEMS)
    assert all(f'value="{code}"' in offered for code in SCORING_SYSTEMS)

    typed = client.post("/api/tournaments/", {"name": "Coppa", "date": "2026-06-01", "scoring_system": "RTU 2"},
                        content_type="application/json")
    assert typed.status_code == 400 and typed.json()["rule"] == "FORMAT" and "scoring_system" in typed.json()
    created = client.post("/api/tournaments/", {"name": "Coppa", "date": "2026-06-01", "scoring_system": "S-GUFO"},
                          content_type="application/json")
    assert created.status_code == 201 and created.json()["scoring_system"] == "S-GUFO"

    tournament = Tournament.objects.get(slug=created.json()["slug"])
    tournament.scoring_system = "RTU 2"
    with pytest.raises(ValidationError) as refused:
        tournament.full_clean()
    assert "scoring_system" in refused.value.message_dict
