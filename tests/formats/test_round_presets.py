"""Composition follows the format preset's round: when the organizer composes game N without
choosing, the preset's priorities and seeding for round N are used (e.g. CNI round 1 regions
apart, round 2 alla greca); what the organizer does choose wins."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from scoring import services
from tables import services as table_services
from tables.models import Game
from tests.factories import scoring as f
from tests.factories.tournaments import CheckInFactory, ClubFactory
from tournaments import formats
from tournaments.models import Registration

from .test_phases import enter_results


def cni_event(n: int = 16) -> tuple[Any, Any, Any]:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    clubs = [ClubFactory(name=f"Club {t.pk}-{c}", city="", region=f"Regione {c % 3}") for c in range(5)]
    for i, p in enumerate(f.players(t, n)):
        p.club = clubs[i % 5]
        p.save()
    for reg in Registration.objects.filter(tournament=t):
        for g in (1, 2, 3):
            CheckInFactory(registration=reg, game_number=g)
    services.apply_preset(actor=org, tournament=t, preset_id="cni")
    t.refresh_from_db()
    return t, org, ref


def tables(game: Game) -> list[list[int]]:
    return [[s.player_id for s in tb.seats.order_by("number")] for tb in game.tables.order_by("number")]


def test_each_round_defaults_to_the_presets_tables(db: Any, client: Any) -> None:
    t, org, ref = cni_event()
    cni = formats.PRESETS["cni"]
    game1 = table_services.compose_game(table_services.ensure_game(t, 1, actor=org), actor=org, seed="r1")
    opts = game1.composition_options
    assert opts["priorities"] == list(cni.rounds[1].priorities) and opts["by_region"] is True
    assert opts["seeding"] == "random"
    enter_results(game1, ref, org)  # seat 1 wins each table

    # round 2 through the API with no choices: alla greca, winners apart first
    client.force_login(org)
    response = client.post(f"/api/tournaments/{t.slug}/games/2/compose/", {"seed": "r2"},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    game2 = Game.objects.get(tournament=t, number=2)
    assert game2.composition_options["seeding"] == "greca"
    assert game2.composition_options["priorities"] == list(cni.rounds[2].priorities)
    winners = [tb[0] for tb in tables(game1)]
    at = {pid: n for n, tb in enumerate(tables(game2)) for pid in tb}
    assert sorted(at[w] for w in winners) == list(range(len(winners)))  # one winner per table
    # the same as choosing the preset's options by hand
    explicit = table_services.compose_game(game2, actor=org, seed="r2", seeding="greca",
                                           priorities=list(cni.rounds[2].priorities))
    greca = tables(explicit)
    table_services.compose_game(game2, actor=org, seed="r2")
    assert tables(game2) == greca

    # what the organizer chooses wins over the preset
    chosen = table_services.compose_game(game2, actor=org, seed="r2", seeding="random")
    assert chosen.composition_options["seeding"] == "random"

    # the organizer's page offers round 3's options before anything was composed
    page = client.get(reverse("tables:organize", args=[t.slug, 3])).content.decode()
    assert '<option value="repeat_opponents" selected>' in page.split('name="priority_1"')[1].split("</select>")[0]
    assert '<option value="random" selected>' in page


def test_no_preset_keeps_the_defaults(db: Any) -> None:
    t, org, _ref = cni_event()
    from tournaments.models import ScoringSettings

    ScoringSettings.objects.filter(tournament=t).update(preset="")
    t.refresh_from_db()  # an update() is no save: the instance reads its format again when told
    game = table_services.compose_game(table_services.ensure_game(t, 1, actor=org), actor=org, seed="x")
    assert game.composition_options["priorities"] == list(table_services.DEFAULT_PRIORITIES)
    assert table_services.preset_options(t, 1) == {}
