"""The Swiss and one-versus-one formats end to end (tournaments/formats/presets.py): 1vs1,
1vs1 Svizzera with its bye against a ghost seat (S-BYE), BGL Svizzera with the lowest-ranked at
the tables of 3, 2vs2, Victory (Master's 1.xxx scale ranked like an Open) and Sant'Eufemia (the top
16 still playing to 4 semifinals, their winners to the final: K-KO-SE). Every score is worked out
by hand in the comments."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from common.errors import DomainError
from engine.club_formats import score_table
from scoring import selectors, services
from tables import phases
from tables import services as table_services
from tables.models import Game
from tests.factories import scoring as f
from tests.factories.tournaments import CheckInFactory, ClubFactory
from tournaments import formats
from tournaments.models import Registration
from tournaments.services import withdraw

from .test_phases import enter_results, play, result


def _event(n: int, preset: str, clubs: int = 4) -> tuple[Any, Any, Any, list[Any]]:
    t = f.ScoringTournamentFactory()
    org, ref = f.role(t, "organizer"), f.role(t)
    everyone = f.players(t, n)
    made = [ClubFactory(name=f"Circolo {t.pk}-{c}", city="") for c in range(clubs)]
    for i, p in enumerate(everyone):
        p.club = made[i % clubs]
        p.save()
    services.apply_preset(actor=org, tournament=t, preset_id=preset)
    t.refresh_from_db()
    for reg in Registration.objects.filter(tournament=t):
        for g in range(1, t.games_count + 1):
            CheckInFactory(registration=reg, game_number=g)
    return t, org, ref, everyone


def _compose(t: Any, org: Any, number: int) -> Game:
    game = table_services.compose_game(table_services.ensure_game(t, number, actor=org), actor=org, seed=f"s{number}")
    return Game.objects.get(pk=game.pk)


def _seats(game: Game) -> list[list[int | None]]:
    return [[s.player_id for s in tb.seats.order_by("number")] for tb in game.tables.order_by("number")]


# ------------------------------------------------------------------------------ scoring by hand


def test_one_versus_one_scores_100_and_55_plus_the_share() -> None:
    # S-BGL at a table of 2: P 40 against 30, total 70.
    # winner 100 + 40/70 = 100 + 0.5714… → cut to 3 decimals 100.571
    # loser   55 + 30/70 =  55 + 0.4285… → 55.428
    assert score_table("S-BGL", [40, 30]) == [Decimal("100.571"), Decimal("55.428")]


def test_the_bye_against_a_ghost_is_scored_as_the_clubs_do() -> None:
    # S-BYE: the ghost's P is typed by the referee (20); the player made 50. Total 70.
    # player 100 + 50/70 = 100 + 0.7142… → 100.714 (the clubs' tool gives 100.714 too)
    assert score_table("S-BGL", [50, 20])[0] == Decimal("100.714")


def test_a_table_of_three_in_bgl_scores_as_four_with_a_phantom() -> None:
    # P 50/40/30, total 120; phantom = 0.9 × 120 ÷ 3 = 36.0, so it places 3rd (40 > 36 > 30).
    # Total with the phantom's whole part: 120 + 36 = 156.
    # 50: 100 + 50/156 (0.3205…) = 100.320; 40: 60 + 40/156 (0.2564…) = 60.256;
    # 30: 4th place 20 + 30/156 (0.1923…) = 20.192
    assert score_table("S-BGL", [50, 40, 30]) == [Decimal("100.320"), Decimal("60.256"), Decimal("20.192")]


def test_victory_scores_on_the_master_scale() -> None:
    # S-MASTER: P ÷ 1000 (+1 to the winner), rounded up to 3 decimals; × 1.25 at a table of 5.
    # table of 4, P 50/40/30/20: 1.050, 0.040, 0.030, 0.020
    assert score_table("S-MASTER", [50, 40, 30, 20]) == [Decimal(x) for x in ("1.05", "0.04", "0.03", "0.02")]
    # table of 5, P 50/40/30/20/10: 62.5 → 1.0625 → 1.063; 50 → 0.050; 37.5 → 0.0375 → 0.038;
    # 25 → 0.025; 12.5 → 0.0125 → 0.013
    assert score_table("S-MASTER", [50, 40, 30, 20, 10]) == [
        Decimal(x) for x in ("1.063", "0.05", "0.038", "0.025", "0.013")]


# ------------------------------------------------------------------------------ the formats in the app


def test_one_versus_one_swiss_pairs_by_standings_and_gives_the_bye_to_a_ghost(db: Any) -> None:
    t, org, ref, everyone = _event(5, "1vs1-swiss")
    # T-SIZE: tables of 2; D-50 cannot hold with 2 players (Nord America: 4 + 4 < 9)
    assert t.ruleset_overrides == {"min_players": 2, "max_players": 2, "deal_max_continent_share": None}
    game1 = _compose(t, org, 1)
    seats = _seats(game1)
    assert [len(s) for s in seats] == [2, 2, 2] and seats[2].count(None) == 1  # the bye: a ghost seat
    assert game1.composition_report["sizes_ok"]
    bye_player = next(p for p in seats[2] if p is not None)
    for table in game1.tables.order_by("number"):
        ghost_seat = next((s.number for s in table.seats.all() if s.player_id is None), None)
        if ghost_seat is None:  # P 50 / 40, extra 74 / 0 (164 in all)
            f.enter(table, ref, "short", result(2, 1), confirm_by=org)
        else:  # the player 50, the ghost 20 (typed by the referee), extra 94 / 0
            rows = [(20, 0, 20, None, False), (50, 94, 20, None, False)]
            f.enter(table, ref, "short", f.short_data(rows if ghost_seat == 1 else rows[::-1]), confirm_by=org)
    rows = selectors.standings(t)["rows"]
    assert len(rows) == 5  # the ghost is in no standings
    # bye 100 + 50/70 = 100.714; winners 100 + 50/90 = 100.555; losers 55 + 40/90 = 55.444
    assert [r["total"] for r in rows] == [Decimal(x) for x in ("100.714", "100.555", "100.555", "55.444", "55.444")]
    assert rows[0]["player"] == bye_player

    game2 = _compose(t, org, 2)
    seats2 = _seats(game2)
    assert game2.composition_options["seeding"] == "swiss"
    assert game2.composition_report["repeated_pairs"] == 0 and game2.composition_report["repeat_five_seats"] == 0
    assert bye_player in seats2[0]  # the leader plays at table 1
    assert bye_player not in seats2[2]  # nobody gets a second bye while another can take it


def test_bgl_swiss_plays_tables_of_four_and_three(db: Any) -> None:
    t, org, ref, _everyone = _event(10, "bgl-swiss", clubs=5)
    assert t.ruleset_overrides == {"min_players": 3, "max_players": 4}
    game1 = _compose(t, org, 1)
    assert [len(s) for s in _seats(game1)] == [4, 3, 3]  # 10 = 4 + 3 + 3 (4 − 10 mod 4 = 2 tables of 3)
    enter_results(game1, ref, org)
    rows = selectors.standings(t)["rows"]
    order = [r["player"] for r in rows]
    game2 = _compose(t, org, 2)
    seats2 = _seats(game2)
    assert [len(s) for s in seats2] == [4, 3, 3]
    block = {p: (0 if i < 4 else 1 if i < 7 else 2) for i, p in enumerate(order)}
    assert all(abs(block[p] - t_) <= 1 for t_, s in enumerate(seats2) for p in s)  # K-SWISS blocks kept
    # 4 players from 3 earlier tables: one rematch at table 1 cannot be avoided (pigeonhole);
    # the plan leaves no more than that
    assert game2.composition_report["repeated_pairs"] == 1


def _pair(t: Any, number: int, a: Any, b: Any, p_a: int, p_b: int, ref: Any, org: Any) -> None:
    """A one-versus-one table of game 1: ``a`` makes ``p_a``, ``b`` makes ``p_b`` (extra points to 164)."""
    table = f.make_table(t, 1, [a, b], number=number)
    rows = [(p_a, 164 - p_a - p_b, 20, None, False), (p_b, 0, 20, None, False)]
    f.enter(table, ref, "short", f.short_data(rows), confirm_by=org)


def test_one_versus_one_swiss_avoids_the_rematch_gt_would_pair(db: Any, client: Any) -> None:
    t, org, ref, (p1, p2, p3, p4, p5, p6) = _event(6, "1vs1-swiss", clubs=6)
    _pair(t, 1, p1, p2, 50, 10, ref, org)  # p1 100 + 50/60 = 100.833, p2 55 + 10/60 = 55.166
    _pair(t, 2, p3, p4, 50, 40, ref, org)  # p3 100 + 50/90 = 100.555, p4 55 + 40/90 = 55.444
    _pair(t, 3, p5, p6, 45, 44, ref, org)  # p5 100 + 45/89 = 100.505, p6 55 + 44/89 = 55.494
    rows = selectors.standings(t)["rows"]
    assert [r["player"] for r in rows] == [p.pk for p in (p1, p3, p5, p6, p4, p2)]
    # GT pairs in standings order: p1–p3, p5–p6 (a rematch), p4–p2. Here p4 moves up one table
    # and p6 down one: p1–p3, p5–p4, p6–p2, no rematch.
    game2 = _compose(t, org, 2)
    assert [set(s) for s in _seats(game2)] == [{p1.pk, p3.pk}, {p5.pk, p4.pk}, {p6.pk, p2.pk}]
    assert game2.composition_report["repeated_pairs"] == 0
    assert game2.composition_report["swiss_moves"] == [[p4.pk, 3, 2], [p6.pk, 2, 3]]
    # the organizer's page says who moved and where, in Italian
    client.force_login(org)
    page = client.get(f"/t/{t.slug}/games/2/organize/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Svizzera: per classifica (K-SWISS)" in page
    assert f"{p4.display_name}: blocco 3 → tavolo 2" in page
    # moved by hand, the plan's explanation no longer holds and is not shown
    table_services.swap_players(game2, p1.pk, p2.pk, actor=org)
    assert "swiss_moves" not in Game.objects.get(pk=game2.pk).composition_report


def test_one_versus_one_plays_an_odd_count_at_one_table_of_three(db: Any) -> None:
    t, org, ref, _everyone = _event(7, "1vs1")
    game1 = _compose(t, org, 1)
    assert [len(s) for s in _seats(game1)] == [2, 2, 3] and all(None not in s for s in _seats(game1))
    enter_results(game1, ref, org)
    assert len(selectors.standings(t)["rows"]) == 7


def test_two_versus_two_is_a_pair_per_entrant_paired_by_standings(db: Any) -> None:
    preset = formats.PRESETS["2vs2"]
    assert (preset.shape, preset.scoring_system, preset.tables_for(2).seeding) == ("pairs_bye", "S-BGL", "swiss")
    assert preset.ranking_class == "2V2"  # the clubs' "Torneo 2VS2": not in the national ranking


@pytest.mark.parametrize(("preset", "players"), [("1vs1-swiss", 5), ("bgl-swiss", 10), ("1vs1", 7)])
def test_the_tables_of_two_and_three_start_and_are_dealt(db: Any, preset: str, players: int) -> None:
    t, org, _ref, _everyone = _event(players, preset)
    game = _compose(t, org, 1)
    table_services.start_game(game, actor=org, seed="deal")
    game = Game.objects.get(pk=game.pk)
    assert game.status == Game.Status.RUNNING and all(tb.deal for tb in game.tables.all())


def test_choosing_another_format_takes_the_table_sizes_back(db: Any) -> None:
    t, org, _ref, _everyone = _event(4, "1vs1")
    t.ruleset_overrides = {**t.ruleset_overrides, "time_limit_minutes": 60}  # the organizer's own
    t.save()
    services.apply_preset(actor=org, tournament=t, preset_id="open")
    t.refresh_from_db()
    assert t.ruleset_overrides == {"time_limit_minutes": 60}


def test_victory_any_number_of_games_ranked_like_an_open(db: Any) -> None:
    preset = formats.PRESETS["victory"]
    assert preset.scoring_system == "S-MASTER" and preset.chain == ("total", "wins", "best_game")
    assert formats.check_choice("victory", {"games_count": 7}).games_count == 7


# ------------------------------------------------------------------------------ Sant'Eufemia


def test_santeufemia_skips_a_withdrawn_player_for_the_semifinals(db: Any, client: Any) -> None:
    t, org, ref, everyone = _event(20, "santeufemia", clubs=5)
    assert (t.scoring_system, t.games_count) == ("S-OPEN", 4)
    play(t, 1, [everyone[i:i + 4] for i in range(0, 20, 4)], ref, org)
    shifted = everyone[2:] + everyone[:2]
    play(t, 2, [shifted[i:i + 4] for i in range(0, 20, 4)], ref, org)
    order = [r["player"] for r in phases.qualifier_standings(t)]
    gone = order[3]  # 4th after the qualifiers, then withdraws
    withdraw(Registration.objects.get(tournament=t, player_id=gone), actor=org)

    plan = phases.semifinal_plan(t)
    assert (plan["kind"], plan["semifinals"], plan["finals"]) == ("santeufemia", 4, 1)
    playing = {p["player"] for tb in plan["classes"][0]["tables"] for p in tb["players"]}
    # GT takes the top 16 of everyone registered, the withdrawn 4th included; here the 17th plays
    assert gone not in playing and playing == set([p for p in order if p != gone][:16])
    # one player of each band of four per semifinal
    by_player = {p: i // 4 for i, p in enumerate([p for p in order if p != gone][:16])}
    for tb in plan["classes"][0]["tables"]:
        assert sorted(by_player[p["player"]] for p in tb["players"]) == [0, 1, 2, 3]

    client.force_login(org)
    page = client.get(f"/t/{t.slug}/knockout/phases/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert "Semifinali e finali (K-KO-SE)" in page and "4 semifinali" in page

    game3 = phases.create_semifinals(t, actor=org, seed="semi")
    enter_results(game3, ref, org)  # seat 1 wins each semifinal
    final = phases.final_plan(t)["finals"][0]
    winners = [tb.seats.get(number=1).player_id for tb in game3.tables.order_by("number")]
    assert [p["player"] for p in final["players"]] == winners
    game4 = phases.create_finals(t, actor=org, seed="final")
    enter_results(game4, ref, org, winner={1: 2})
    rows = selectors.standings(t)["rows"]
    assert rows[0]["player"] == game4.tables.get().seats.get(number=2).player_id  # the final decides
    assert all(r["finalist"] for r in rows[:4])


def test_santeufemia_needs_16_players_still_playing(db: Any) -> None:
    t, org, ref, everyone = _event(16, "santeufemia")
    play(t, 1, [everyone[i:i + 4] for i in range(0, 16, 4)], ref, org)
    play(t, 2, [everyone[i::4] for i in range(4)], ref, org)
    withdraw(Registration.objects.get(tournament=t, player=everyone[0]), actor=org)
    with pytest.raises(DomainError) as refused:
        phases.semifinal_plan(t)
    assert refused.value.rule == "K-KO-SE"


def test_the_new_formats_are_offered_on_the_page_and_through_the_api(db: Any, client: Any) -> None:
    t, org, _ref, _everyone = _event(4, "open")
    client.force_login(org)
    page = client.get(f"/t/{t.slug}/results/format/", HTTP_ACCEPT_LANGUAGE="it").content.decode()
    for preset in ("bgl-swiss", "1vs1", "1vs1-swiss", "2vs2", "victory", "santeufemia"):
        assert f'value="{preset}"' in page
    assert "BGL Svizzera" in page and "1vs1 Svizzera" in page
    api = f"/api/scoring/tournaments/{t.slug}/format/"
    offered = {p["id"]: p for p in client.get(api).json()["presets"]}
    assert offered["1vs1-swiss"]["shape"] == "pairs_bye" and offered["santeufemia"]["knockout_semifinals"] == 4
    done = client.post(api, {"preset": "bgl-swiss"}, content_type="application/json")
    assert done.status_code == 200 and done.json()["current"] == "bgl-swiss"
    refused = client.post(api, {"preset": "santeufemia", "changes": {"games_count": 6}},
                          content_type="application/json")
    assert refused.status_code == 400 and refused.json()["rule"] == "FORMAT" and "games_count" in refused.json()
