"""The tables REST API: public reads, organizer-only writes, errors with field and rule id."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables import services
from tables.models import Game, Seat
from tests.tables.conftest import add_players, add_role, make_tournament, make_user, player_link
from tournaments.access import SESSION_KEY
from tournaments.models import TournamentRole


def url(t, n=1, action=""):  # type: ignore[no-untyped-def]
    return f"/api/tournaments/{t.slug}/games/{n}/{action}"


def client_for(user=None) -> APIClient:  # type: ignore[no-untyped-def]
    c = APIClient()
    if user is not None:
        c.force_authenticate(user)
    return c


@pytest.mark.django_db
def test_organizer_composes_and_starts_through_the_api_and_anyone_reads(tournament, organizer):
    add_players(tournament, 9)
    org = client_for(organizer)
    r = org.post(url(tournament, action="compose/"), {"prefer": "fives", "seed": "api"},
                 format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["seed"] == "api" and body["status"] == "planned"
    assert sorted(len(t["seats"]) for t in body["tables"]) == [4, 5]
    assert "same_club_pairs" in body["composition_report"]

    r = org.post(url(tournament, action="start/"), {"deal_objectives": True}, format="json")
    assert r.status_code == 200, r.content
    table = r.json()["tables"][0]
    assert table["deal_command"].startswith("python -m engine deal --players ")
    assert len(table["deal"]) == 42 and table["deadline"]
    public = client_for().get(url(tournament, action="tables/1/")).json()
    assert public["deal_seed"] == table["deal_seed"]
    assert all("objective" not in seat for seat in public["seats"])  # cards stay private


@pytest.mark.django_db
def test_bad_input_is_a_400_with_the_field_and_rule(tournament, organizer):
    add_players(tournament, 7)
    org = client_for(organizer)
    r = org.post(url(tournament, action="compose/"), {}, format="json")
    assert r.status_code == 400
    assert r.json()["rule"] == "K-TABLES" and "odd_count" in r.json()
    r = org.post(url(tournament, action="compose/"), {"prefer": "sixes"}, format="json")
    assert r.status_code == 400 and "prefer" in r.json()
    r = org.post(url(tournament, action="compose/"), {"odd_count": "ghost"}, format="json")
    assert r.status_code == 200
    r = org.post(url(tournament, action="move/"), {"player": 1, "table": 99}, format="json")
    assert r.status_code == 400


@pytest.mark.django_db
def test_writes_are_refused_to_anonymous_players_referees_and_other_organizers(
    tournament, organizer
):
    players = add_players(tournament, 8)
    game = services.compose_game(services.ensure_game(tournament, 1, actor=organizer),
                                 actor=organizer, seed="x", effort=0.3)
    before = list(Seat.objects.filter(game=game).values_list("player_id", "table__number"))
    referee, stranger = make_user(), make_user()
    add_role(tournament, referee, TournamentRole.Role.REFEREE)
    make_tournament(stranger)
    as_player = client_for()  # a browser holding a player's private link
    link = player_link(tournament, players[0])
    session = as_player.session
    session[SESSION_KEY] = {str(tournament.pk): link.pk}
    session.save()
    for c in (client_for(), as_player, client_for(referee), client_for(stranger)):
        for action, data in (
            ("compose/", {}), ("start/", {}), ("withdraw/", {"player": players[0].pk}),
            ("swap/", {"player_a": players[0].pk, "player_b": players[1].pk}),
        ):
            r = c.post(url(tournament, action=action), data, format="json")
            assert r.status_code in (401, 403), (action, r.status_code)
    after = list(Seat.objects.filter(game=game).values_list("player_id", "table__number"))
    assert after == before and Game.objects.get(pk=game.pk).status == "planned"


@pytest.mark.django_db
def test_where_do_i_sit_and_own_objective_through_the_private_link(tournament, organizer):
    players = add_players(tournament, 8)
    game = services.compose_game(services.ensure_game(tournament, 1, actor=organizer),
                                 actor=organizer, seed="w", effort=0.3)
    services.set_deal_objectives(game, True, actor=organizer)
    services.start_game(game, actor=organizer)
    me = players[5]
    r = client_for().get(url(tournament, action="where/"), {"q": me.last_name.lower()})
    [hit] = r.json()
    seat = Seat.objects.get(game=game, player=me)
    assert (hit["table"], hit["seat"]) == (seat.table.number, seat.number)

    anonymous = client_for()
    assert anonymous.get(url(tournament, action="objectives/")).json() == []
    link = player_link(tournament, me)
    browser = APIClient()  # a browser that opened the player's private link
    session = browser.session
    session[SESSION_KEY] = {str(tournament.pk): link.pk}
    session.save()
    [mine] = browser.get(url(tournament, action="objectives/")).json()
    assert mine["player"] == me.pk and mine["objective"] == seat.objective
    assert len(mine["territories"]) > 0

    referee = make_user()
    add_role(tournament, referee, TournamentRole.Role.REFEREE)
    assert client_for(referee).get(url(tournament, action="objectives/")).json() == []
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert len(client_for(referee).get(url(tournament, action="objectives/")).json()) == 8


@pytest.mark.django_db
def test_knockout_plan_goes_back_from_the_final(tournament):
    r = client_for().get(f"/api/tournaments/{tournament.slug}/knockout-plan/",
                         {"entrants": 100, "final_size": 5})
    assert r.status_code == 200
    assert [r_["tables"] for r_ in r.json()["rounds"]] == [[5] * 20, [4] * 5, [5]]
    r = client_for().get(f"/api/tournaments/{tournament.slug}/knockout-plan/",
                         {"entrants": 3})
    assert r.status_code == 400


@pytest.mark.django_db
def test_schema_lists_the_tables_endpoints(client):
    r = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = r.json()["paths"]
    assert "/api/tournaments/{slug}/games/{number}/compose/" in paths
    assert "/api/tournaments/{slug}/games/{number}/tables/{table}/" in paths
