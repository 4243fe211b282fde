"""Hand-computed cases of the rules (docs/rules.md: S-RTU, S-PLACE, S-TOURNAMENT, K-BEST2), through the
services, so what is checked is what a referee's entry produces."""

from __future__ import annotations

import pytest

from common.errors import DomainError
from engine.objectives import default_deck
from scoring import selectors
from tests.factories import scoring as f

pytestmark = pytest.mark.django_db


def _points(sub) -> list[float]:
    return [r["tournament_points"] for r in sorted(sub.scores, key=lambda r: r["seat"])]


def test_risiko_scores_100_plus_30_against_the_others_objective_points(setup) -> None:
    # S-RTU: RisiKo! = 100 whatever the card's 86; the others score their objective points held;
    # S-TOURNAMENT: +30/+15/+5.
    data = f.board_data(setup["objectives"], winner=3, armies=[30, 30, 30, 30])
    sub = f.enter(setup["table"], setup["ref1"], "board", data, "objective")
    deck = default_deck("rtu")
    from engine.board import load_board

    board = load_board("world")
    held = {s: sum(board.territories[t].value for t in deck[setup["objectives"][s - 1]].territories
                   if data["owners"][t] == s) for s in (1, 2, 4)}
    by_seat = {r["seat"]: r for r in sub.scores}
    assert by_seat[3]["game_score"] == 100 and by_seat[3]["place"] == 1
    assert by_seat[3]["tournament_points"] == 130
    for s in (1, 2, 4):
        assert by_seat[s]["game_score"] == held[s]
    others = sorted((1, 2, 4), key=lambda s: -by_seat[s]["game_score"])
    assert [by_seat[s]["tournament_points"] - by_seat[s]["game_score"] for s in others] == [15, 5, 0]


def test_five_player_table_bonuses_and_an_eliminated_player_last(db) -> None:
    t = f.ScoringTournamentFactory()
    ref = f.role(t)
    table = f.make_table(t, 1, f.players(t, 5))
    # short form: objective points, extra, armies, eliminated order, RisiKo!
    sub = f.enter(table, ref, "short", f.short_data([
        (50, 20, 40, None, False), (60, 4, 30, None, False), (0, 0, 0, 1, False),
        (20, 5, 20, None, False), (5, 0, 10, None, False)]), "sdadata")
    assert _points(sub) == [65, 90, 0, 25, 5]  # 60+30, 50+15, 20+5, 5+0, eliminated 0
    assert [r["place"] for r in sorted(sub.scores, key=lambda r: r["seat"])] == [2, 1, 5, 3, 4]


def test_equal_scores_are_broken_by_extra_objective_points_then_armies(setup) -> None:
    sub = f.enter(setup["table"], setup["ref1"], "short", f.short_data([
        (40, 10, 30, None, False), (40, 14, 20, None, False),   # extra decides: seat 2 first
        (20, 10, 25, None, False), (20, 10, 26, None, False),   # extra equal, armies decide: seat 4
    ]), "sdadata")
    by = {r["seat"]: r for r in sub.scores}
    assert [by[s]["place"] for s in (1, 2, 3, 4)] == [2, 1, 4, 3]
    assert by[2]["tiebreak"] == "extra_objective" and by[4]["tiebreak"] == "armies"
    assert _points(sub) == [55, 70, 20, 25]


def test_best_two_of_three_and_a_player_with_only_two_games(db) -> None:
    t = f.ScoringTournamentFactory()
    ref, ref2 = f.role(t), f.role(t)
    ps = f.players(t, 5)
    a, b, c, d, e = ps
    rows = {  # per game: the table's players and their short forms (RisiKo! never)
        1: ([a, b, c, d], [(50, 20, 40, None, False), (40, 14, 20, None, False), (30, 5, 25, None, False), (5, 0, 10, None, False)]),
        2: ([a, b, c, e], [(10, 40, 40, None, False), (60, 4, 30, None, False), (40, 5, 25, None, False), (5, 0, 10, None, False)]),
        3: ([a, c, d, e], [(70, 10, 40, None, False), (20, 14, 20, None, False), (30, 5, 25, None, False), (10, 5, 10, None, False)]),
    }
    for game, (seated, short) in rows.items():
        f.enter(f.make_table(t, game, seated), ref, "short", f.short_data(short), "sdadata", confirm_by=ref2)
    data = selectors.standings(t)
    by = {r["player"]: r for r in data["rows"]}
    # a: 80 (1st), 10 (4th), 100 (1st) → best two 100 + 80; the 10 does not count
    assert by[a.pk]["total"] == 180
    assert {g["game"]: g["counted"] for g in by[a.pk]["games"]} == {1: True, 2: False, 3: True}
    # b played only two games: both count (40+15, 60+30)
    assert by[b.pk]["total"] == 55 + 90 and by[b.pk]["played"] == 2
    assert data["rows"][0]["player"] == a.pk


def test_shared_places_when_total_extra_and_armies_are_equal(db) -> None:
    t = f.ScoringTournamentFactory()
    ref, ref2 = f.role(t), f.role(t)
    a, b, c, d, e, g, h, i = f.players(t, 8)
    same = [(40, 10, 30, None, False), (30, 20, 20, None, False), (20, 20, 25, None, False), (10, 14, 10, None, False)]
    f.enter(f.make_table(t, 1, [a, b, c, d]), ref, "short", f.short_data(same), "sdadata", confirm_by=ref2)
    f.enter(f.make_table(t, 1, [e, g, h, i]), ref, "short", f.short_data(same), "sdadata", confirm_by=ref2)
    rows = selectors.standings(t)["rows"]
    assert [r["rank"] for r in rows] == [1, 1, 3, 3, 5, 5, 7, 7]
    assert all(r["shared"] for r in rows)


def test_impossible_entries_are_refused_with_the_rule_and_the_culprit(setup) -> None:
    data = f.board_data(setup["objectives"], armies=[30, 30, 30, 30])
    data["armies"]["Brasile"] = 0
    with pytest.raises(DomainError) as err:
        f.enter(setup["table"], setup["ref1"], "board", data)
    assert err.value.rule == "A-OCCUPY" and "Brasile" in err.value.message
    data = f.board_data(setup["objectives"], armies=[30, 101, 30, 30])
    with pytest.raises(DomainError) as err:
        f.enter(setup["table"], setup["ref1"], "board", data)
    assert err.value.rule == "D-CAP" and setup["players"][1].display_name in err.value.message
    data = f.board_data(setup["objectives"], armies=[30] * 4)
    del data["owners"]["Siam"], data["armies"]["Siam"]
    with pytest.raises(DomainError) as err:
        f.enter(setup["table"], setup["ref1"], "board", data)
    assert err.value.rule == "B-MAP" and "Siam" in err.value.message
    data = f.board_data(setup["objectives"], armies=[30] * 4)
    data["players"][0]["objective"] = "RTU-99"
    with pytest.raises(DomainError) as err:
        f.enter(setup["table"], setup["ref1"], "board", data)
    assert err.value.rule == "O-RTU" and "RTU-99" in err.value.message
    # a claimed RisiKo! that the board does not show
    with pytest.raises(DomainError) as err:
        f.enter(setup["table"], setup["ref1"], "board", f.board_data(setup["objectives"], armies=[30] * 4), "objective")
    assert err.value.rule == "O-RTU"
    with pytest.raises(DomainError) as err:  # short form: 164 in all (S-PLACE)
        f.enter(setup["table"], setup["ref1"], "short", f.short_data(
            [(40, 10, 30, None, False), (30, 20, 20, None, False), (20, 20, 25, None, False), (10, 10, 10, None, False)]))
    assert err.value.rule == "S-PLACE" and "160" in err.value.message


def test_eliminated_players_are_recorded_with_their_order(setup) -> None:
    data = f.board_data(setup["objectives"], armies=[30, 30, 30, 30], eliminated={4: 1, 2: 2})
    sub = f.enter(setup["table"], setup["ref1"], "board", data, "sdadata")
    by = {r["seat"]: r for r in sub.scores}
    assert by[2]["eliminated"] == 2 and by[4]["eliminated"] == 1
    assert by[2]["place"] == 3 and by[4]["place"] == 4  # eliminated later ranks ahead
