"""K-KO-RCU in the app: after two qualifiers the organizer previews and creates the semifinal
game (real tables and seats that start, deal and take results like any game), then the final(s)
from the semifinal results (direct qualifiers, best loser for an empty seat); the final standings
put the finalists first by their final."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from django.urls import reverse

from common.errors import ConflictError, DomainError, PermissionDeniedError
from scoring import selectors, services
from tables import phases
from tables import services as table_services
from tables.knockout import rcu_semifinals
from tables.models import Game, Seat
from tests.factories import scoring as f
from tests.factories.tournaments import ClubFactory
from tournaments.models import AuditEntry, Player

CLUBS = ["RCU Milano", "Eagles Palermo", "Lario Como", "Roma Tre", "Napoli Sud"]


def result(size: int, winner_seat: int) -> dict[str, Any]:
    """A short-form result whose sole winner sits at ``winner_seat``: 50 objective points for
    the winner, 40/30/20/10 for the others in seat order; extra points make 164."""
    points = iter([40, 30, 20, 10])
    objective = [50 if s == winner_seat else next(points) for s in range(1, size + 1)]
    extra = [0] * size
    extra[winner_seat - 1] = 164 - sum(objective)
    return f.short_data([(o, e, 20, None, False) for o, e in zip(objective, extra, strict=True)])


def play(t: Any, game: int, tables: Sequence[Sequence[Player]], ref: Any, org: Any,
         winners: Sequence[Player] = ()) -> None:
    """Tables with results: each table is won by its player in ``winners`` (else by seat 1)."""
    for number, seated in enumerate(tables, start=1):
        table = f.make_table(t, game, seated, number=number)
        win = next((i for i, p in enumerate(seated, start=1) if p in winners), 1)
        f.enter(table, ref, "short", result(len(seated), win), confirm_by=org)


def enter_results(game: Game, ref: Any, org: Any, winner: dict[int, int] | None = None) -> None:
    """Results for the tables the app created: table n won by seat ``winner[n]`` (default 1)."""
    for table in game.tables.order_by("number"):
        size = table.seats.count()
        f.enter(table, ref, "short", result(size, (winner or {}).get(table.number, 1)), confirm_by=org)


def event(n: int) -> tuple[Any, Any, Any, list[Player]]:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    everyone = f.players(t, n)
    for i, p in enumerate(everyone):
        p.club = ClubFactory(name=CLUBS[i % len(CLUBS)]) if i < len(CLUBS) else everyone[i % len(CLUBS)].club
        p.save()
    services.apply_preset(actor=org, tournament=t, preset_id="raduno")
    t.refresh_from_db()
    return t, org, ref, everyone


def qualifiers(t: Any, everyone: list[Player], ref: Any, org: Any) -> None:
    n = len(everyone)
    play(t, 1, [everyone[i:i + 4] for i in range(0, n, 4)], ref, org)
    shifted = everyone[1:] + everyone[:1]
    play(t, 2, [shifted[i:i + 4] for i in range(0, n, 4)], ref, org)


def seated(game: Game) -> list[list[int]]:
    return [sorted(s.player_id for s in tbl.seats.all()) for tbl in game.tables.order_by("number")]


def test_raduno_of_40_semifinals_then_final_then_finalists_first(db: Any) -> None:
    t, org, ref, everyone = event(40)
    with pytest.raises(DomainError) as exc:
        phases.semifinal_plan(t)  # nothing played yet
    assert exc.value.rule == "K-KO-RCU"
    qualifiers(t, everyone, ref, org)

    rows = phases.qualifier_standings(t)
    order = [r["player"] for r in rows]
    plan = phases.semifinal_plan(t)
    assert (plan["semifinals"], plan["finals"], plan["small"]) == (4, 1, False)  # 40 > 36
    expected = rcu_semifinals(order, "raduno", clubs={p.pk: p.club.name for p in everyone})
    assert [sorted(p["player"] for p in tb["players"]) for tb in plan["classes"][0]["tables"]] == \
        [sorted(tb) for tb in expected.tables[0]]
    assert Game.objects.filter(tournament=t, number=3).count() == 0  # a preview writes nothing

    game3 = phases.create_semifinals(t, actor=org, seed="semi")
    assert seated(game3) == [sorted(tb) for tb in expected.tables[0]]
    assert AuditEntry.objects.filter(action="knockout.semifinals", tournament=t).count() == 1
    # the same seed gives the same turn order
    again = [[s.player_id for s in tb.seats.all()] for tb in game3.tables.order_by("number")]
    game3 = phases.create_semifinals(t, actor=org, seed="semi")
    assert [[s.player_id for s in tb.seats.all()] for tb in game3.tables.order_by("number")] == again

    with pytest.raises(DomainError, match="semifinals are not over"):
        phases.final_plan(t)
    table_services.start_game(game3, actor=org, seed="deal")  # the usual flow works on them
    game3.refresh_from_db()
    assert game3.status == Game.Status.RUNNING and all(tb.deal for tb in game3.tables.all())
    enter_results(game3, ref, org, winner={1: 2, 2: 3, 3: 4, 4: 1})

    final = phases.final_plan(t)["finals"]
    winners = [tb.seats.get(number=w).player_id for tb, w in zip(game3.tables.order_by("number"), (2, 3, 4, 1),
                                                                  strict=True)]
    assert [p["player"] for p in final[0]["players"]] == winners
    assert {p["how"] for p in final[0]["players"]} == {"winner"}
    game4 = phases.create_finals(t, actor=org, seed="final")
    assert seated(game4) == [sorted(winners)]
    enter_results(game4, ref, org, winner={1: 3})

    rows = selectors.standings(t)["rows"]
    assert rows[0]["player"] == game4.tables.get().seats.get(number=3).player_id  # the final's winner
    assert {r["player"] for r in rows[:4]} == set(winners) and all(r["finalist"] for r in rows[:4])
    assert not any(r["finalist"] for r in rows[4:])
    with pytest.raises(ConflictError):
        phases.create_semifinals(t, actor=org)  # game 3 has started: no re-creation


def test_a_withdrawn_semifinal_winner_gives_way_to_the_next_of_their_semifinal(db: Any) -> None:
    t, org, ref, everyone = event(40)
    qualifiers(t, everyone, ref, org)
    game3 = phases.create_semifinals(t, actor=org, seed="s")
    enter_results(game3, ref, org)  # seat 1 wins every semifinal, seat 2 is second
    game4 = phases.create_finals(t, actor=org, seed="f")
    semi = game3.tables.get(number=2)
    gone = semi.seats.get(number=1).player_id
    table_services.withdraw_player(game4, gone, actor=org)  # a no-show for the final
    plan = phases.final_plan(t)["finals"][0]["players"]
    assert gone not in [p["player"] for p in plan]
    assert semi.seats.get(number=2).player_id in [p["player"] for p in plan]
    game4 = phases.create_finals(t, actor=org, seed="f")
    assert gone not in seated(game4)[0] and len(seated(game4)[0]) == 4


def small_event() -> tuple[Any, Any, Any, list[Player], list[Player]]:
    """20 players; ``leaders`` win both qualifiers (every other table is won by its seat 1)."""
    t, org, ref, everyone = event(20)
    leaders = [everyone[0], everyone[4]]
    play(t, 1, [everyone[i:i + 4] for i in range(0, 20, 4)], ref, org, winners=leaders)
    shifted = everyone[2:] + everyone[:2]
    play(t, 2, [shifted[i:i + 4] for i in range(0, 20, 4)], ref, org, winners=leaders)
    return t, org, ref, everyone, leaders


def test_small_raduno_leaders_who_won_both_go_straight_to_the_final(db: Any) -> None:
    t, org, ref, everyone, leaders = small_event()
    rows = phases.qualifier_standings(t)
    assert {r["player"] for r in rows[:2]} == {p.pk for p in leaders} and rows[1]["total"] > rows[2]["total"]
    plan = phases.semifinal_plan(t)
    assert plan["small"] and plan["semifinals"] == 2  # 1st and 2nd won both, 2nd ahead of 3rd
    direct = [p["player"] for p in plan["classes"][0]["direct"]]
    assert set(direct) == {p.pk for p in leaders}
    game3 = phases.create_semifinals(t, actor=org, seed="x")
    in_semis = sorted(p for tb in seated(game3) for p in tb)
    assert in_semis == sorted(r["player"] for r in rows[2:10])  # places 3-10 play
    enter_results(game3, ref, org)
    final = phases.final_plan(t)["finals"][0]["players"]
    assert [p["how"] for p in final] == ["direct", "direct", "winner", "winner"]

    # a direct qualifier does not show up: the best semifinal loser takes the empty seat
    game4 = phases.create_finals(t, actor=org, seed="f")
    table_services.withdraw_player(game4, direct[0], actor=org)
    final = phases.final_plan(t)["finals"][0]["players"]
    assert [p["how"] for p in final] == ["direct", "winner", "winner", "best_loser"]
    seconds = [tb.seats.get(number=2).player_id for tb in game3.tables.order_by("number")]
    order = [r["player"] for r in rows]
    assert final[3]["player"] == min(seconds, key=order.index)  # 2nd place, then best standing


def test_only_organizers_and_only_knockout_formats(db: Any) -> None:
    t, org, ref, everyone = event(40)
    qualifiers(t, everyone, ref, org)
    with pytest.raises(PermissionDeniedError):
        phases.create_semifinals(t, actor=ref)
    services.apply_preset(actor=org, tournament=t, preset_id="open")
    with pytest.raises(DomainError, match="no knock-out phase"):
        phases.semifinal_plan(t)
    assert not Seat.objects.filter(game__number=3, game__tournament=t).exists()


def test_page_and_api(client: Any, db: Any) -> None:
    t, org, ref, everyone = event(40)
    client.force_login(org)
    url = reverse("tables:phases", args=[t.slug])
    page = client.get(url)
    assert page.status_code == 200 and "qualifiers are not over" in page.content.decode()
    qualifiers(t, everyone, ref, org)
    page = client.get(url).content.decode()
    assert everyone[0].display_name in page
    response = client.post(url, {"action": "semifinals", "seed": "abc"})
    assert response.status_code == 302
    assert Game.objects.get(tournament=t, number=3).tables.count() == 4
    api = client.get(f"/api/tournaments/{t.slug}/knockout-phases/").json()
    assert api["semifinals"]["created"] and api["final"]["plan"] is None
    bad = client.post(f"/api/tournaments/{t.slug}/knockout-phases/final/", {}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["rule"] == "K-KO-RCU"
    client.force_login(ref)
    assert client.get(url).status_code == 403
    assert client.post(f"/api/tournaments/{t.slug}/knockout-phases/semifinals/", {},
                       content_type="application/json").status_code == 403
