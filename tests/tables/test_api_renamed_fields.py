"""A client written against the tables API before its fields were renamed keeps working: seats,
"where do I sit" and objective cards still carry ``player_id`` (now ``player``) and seats
``club`` (now ``club_name``), with the same values, marked deprecated in the OpenAPI schema."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables import services
from tables.models import Game
from tests.tables.conftest import add_players

pytestmark = pytest.mark.django_db


def _started_game(tournament, organizer):  # type: ignore[no-untyped-def]
    players = add_players(tournament, 9)
    game = services.compose_game(services.ensure_game(tournament, 1, actor=organizer),
                                 actor=organizer, seed="renamed", effort=0.3)
    services.set_deal_objectives(game, True, actor=organizer)
    return services.start_game(game, actor=organizer), players


def test_seats_keep_their_old_field_names_with_the_same_values(tournament, organizer):
    _started_game(tournament, organizer)
    base = f"/api/tournaments/{tournament.slug}/games/1/"
    for seats in ([s for t in APIClient().get(base).json()["tables"] for s in t["seats"]],
                  APIClient().get(base + "tables/1/").json()["seats"]):
        assert seats
        for seat in seats:
            assert seat["player_id"] == seat["player"] is not None
            assert seat["club"] == seat["club_name"]
            assert isinstance(seat["player_name"], str)


def test_where_do_i_sit_and_objective_cards_keep_player_id(tournament, organizer):
    game, players = _started_game(tournament, organizer)
    base = f"/api/tournaments/{tournament.slug}/games/1/"
    [hit] = APIClient().get(base + "where/", {"q": players[2].last_name}).json()
    assert hit["player_id"] == hit["player"] == players[2].pk
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    cards = APIClient().get(base + "objectives/").json()
    assert len(cards) == 9
    assert all(card["player_id"] == card["player"] for card in cards)


def test_the_old_names_are_marked_deprecated_in_the_schema(client):
    schemas = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()[
        "components"]["schemas"]
    deprecated = {(name, field) for name, schema in schemas.items()
                  for field, prop in schema.get("properties", {}).items() if prop.get("deprecated")}
    assert {("Seat", "player_id"), ("Seat", "club"), ("Where", "player_id"),
            ("Objective", "player_id")} <= deprecated
    # the new names are not deprecated
    assert not {("Seat", "player"), ("Seat", "club_name"), ("Where", "player")} & deprecated
