"""S-RTU, S-PLACE, S-TOURNAMENT and the other per-game scoring systems, computed by hand.

The boards give whole continents to seats so the sums are easy to check by hand:
Nord America 35 points, Sud America 12, Europa 32, Africa 23, Asia 51, Oceania 11 (= 164).
"""

from dataclasses import replace
from decimal import Decimal

import pytest

from engine.board import load_board
from engine.endings import Ending, FinalBoard, FinalPlayer
from engine.objectives import Objective, default_deck
from engine.rulesets import get_ruleset
from engine.scoring import SCORING_SYSTEMS, check_board, score_game

WORLD = load_board("world")
RTU = get_ruleset("RTU")


def terr(*continents):
    return [t for c in continents for t in WORLD.continents[c].territories]


def card(card_id, names):
    return Objective(card_id, card_id, frozenset(names))


# seat 1: Nord America (35); seat 2: Sud America + Africa (35);
# seat 3: Europa + Oceania (43); seat 4: Asia (51)
OWNERS = {t: 1 for t in terr("Nord America")}
OWNERS |= {t: 2 for t in terr("Sud America", "Africa")}
OWNERS |= {t: 3 for t in terr("Europa", "Oceania")}
OWNERS |= {t: 4 for t in terr("Asia")}
ARMIES = dict.fromkeys(WORLD.names, 1)  # armies per seat = territories: 9, 10, 11, 12
CARDS = {
    "C1": card("C1", terr("Nord America", "Europa")),  # seat 1 holds 35 of it, extra 0
    "C2": card("C2", terr("Sud America", "Africa", "Nord America")),  # 35, extra 0
    "C3": card("C3", [*terr("Europa"), "Indonesia", "Alaska"]),  # 32 + 3 = 35, extra 8
    "C4": card("C4", terr("Asia")),  # 51: the whole card
}
PLAYERS = [FinalPlayer(s, f"C{s}") for s in (1, 2, 3, 4)]


def by_seat(scores):
    return {s.seat: s for s in scores}


def test_the_board_is_consistent():
    assert sum(WORLD.territories[t].value for t in terr("Asia")) == 51
    # seat 4 holds its whole card: a sdadata ending is impossible, an objective ending is fine
    assert [v.rule for v in check_board(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, ARMIES), CARDS)] == ["O-RTU"]
    assert check_board(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), OWNERS, ARMIES), CARDS) == []


def test_ties_broken_by_extra_objective_then_armies_then_later_seat():
    cards = CARDS | {"C4": card("C4", [*terr("Asia"), "Alaska"])}  # seat 4: 51 of 54, not whole
    s = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, ARMIES), cards))
    assert [s[i].game_score for i in (1, 2, 3, 4)] == [35, 35, 35, 51]
    assert [s[i].extra_objective for i in (1, 2, 3, 4)] == [0, 0, 8, 0]
    assert [s[i].place for i in (1, 2, 3, 4)] == [4, 3, 2, 1]
    assert [s[i].tournament_points for i in (1, 2, 3, 4)] == [35, 40, 50, 81]
    assert (s[3].tiebreak, s[2].tiebreak, s[1].tiebreak, s[4].tiebreak) == ("extra_objective", "armies", "armies", None)

    armies = ARMIES | {"Alaska": 2}  # seat 1 now has 10 armies like seat 2
    s = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, armies), cards))
    assert (s[2].place, s[1].place) == (3, 4)  # the later seat goes ahead
    assert s[2].tiebreak == s[1].tiebreak == "later_seat"

    armies = ARMIES | {"Alaska": 3}  # seat 1 has 11 armies
    s = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, armies), cards))
    assert (s[1].place, s[2].place) == (3, 4)


def test_shared_places_average_the_bonuses():
    cards = CARDS | {"C4": card("C4", [*terr("Asia"), "Alaska"])}
    shared = replace(RTU, shared_places=True)
    s = by_seat(score_game(WORLD, shared, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, ARMIES), cards))
    assert s[4].place == 1 and s[4].tournament_points == 81
    for seat in (1, 2, 3):
        assert s[seat].place == 2
        assert s[seat].tiebreak == "shared"
        assert s[seat].tournament_points == Decimal("41.6667")  # 35 + 20 ÷ 3, given to 4 decimals


def test_risiko_scores_100_and_is_first():
    letto = default_deck("rtu")["RTU-01"]
    owners = dict.fromkeys(letto.territories, 2)
    owners |= {t: 1 for t in terr("Europa")}  # 32
    rest = [t for t in WORLD.names if t not in owners]
    asia_rest = [t for t in rest if WORLD.territories[t].continent == "Asia"]  # 39
    owners |= {t: 3 for t in asia_rest}
    owners |= {t: 4 for t in rest if t not in asia_rest}  # Africa del Sud, Madagascar, Australia Orientale
    cards = {
        "RTU-01": letto,
        "E": card("E", terr("Europa", "Nord America")),
        "A": card("A", terr("Asia")),
        "F": card("F", terr("Africa")),
    }
    players = [FinalPlayer(1, "E"), FinalPlayer(2, "RTU-01"), FinalPlayer(3, "A"), FinalPlayer(4, "F")]
    armies = dict.fromkeys(WORLD.names, 2)
    assert check_board(WORLD, RTU, FinalBoard(Ending("objective"), tuple(players), owners, armies), cards) == []
    s = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("objective"), tuple(players), owners, armies), cards))
    assert s[2].game_score == 100 and s[2].place == 1 and s[2].tournament_points == 130
    assert (s[3].game_score, s[3].place, s[3].tournament_points) == (39, 2, 54)
    assert (s[1].game_score, s[1].place, s[1].tournament_points) == (32, 3, 37)
    assert (s[4].game_score, s[4].extra_objective, s[4].place, s[4].tournament_points) == (5, 2, 4, 5)


def test_eliminated_players_rank_below_survivors_later_eliminated_ahead():
    owners = {t: 2 for t in terr("Nord America", "Sud America")}
    owners |= {t: 3 for t in terr("Europa", "Africa", "Oceania")}
    owners |= {t: 4 for t in terr("Asia")}
    cards = CARDS | {"C5": card("C5", terr("Oceania"))}
    players = [
        FinalPlayer(1, "C1", eliminated=2),
        FinalPlayer(2, "C2"),
        FinalPlayer(3, "C3"),
        FinalPlayer(4, "C4"),
        FinalPlayer(5, "C5", eliminated=1),
    ]
    cards["C4"] = card("C4", [*terr("Asia"), "Alaska"])
    assert check_board(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(players), owners, ARMIES), cards) == []
    s = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(players), owners, ARMIES), cards))
    # seat 2: NA 35 + SA 12 on its card = 47; seat 3: Europa 32 + Indonesia 3 = 35; seat 4: 51
    assert [s[i].game_score for i in (2, 3, 4)] == [47, 35, 51]
    assert [s[i].place for i in (4, 2, 3, 1, 5)] == [1, 2, 3, 4, 5]
    assert (s[1].game_score, s[5].game_score) == (0, 0)
    assert s[1].tiebreak == "elimination_order"


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        (lambda o, a: o.pop("Cina"), "S-PLACE"),
        (lambda o, a: o.update({"Atlantide": 1}), "FORMAT"),
        (lambda o, a: a.update({"Cina": 0}), "A-OCCUPY"),
        (lambda o, a: a.update({t: 20 for t in terr("Asia")}), "D-CAP"),
        (lambda o, a: o.update({"Cita": 1}), "O-RTU"),  # seat 4 no longer holds its whole card
    ],
)
def test_impossible_boards_are_reported_with_rule_ids(change, rule):
    owners, armies = dict(OWNERS), dict(ARMIES)
    change(owners, armies)
    rules = {v.rule for v in check_board(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), owners, armies), CARDS)}
    assert rule in rules


def test_missing_territory_fails_the_164_check_with_the_total():
    owners = dict(OWNERS)
    del owners["Cina"]
    messages = [v.message for v in check_board(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), owners, ARMIES), CARDS) if v.rule == "S-PLACE"]
    assert messages and "157" in messages[0] and "164" in messages[0]


def test_an_eliminated_player_may_not_own_territories():
    players = [replace(PLAYERS[0], eliminated=1), *PLAYERS[1:]]
    assert "A-ELIM" in {v.rule for v in check_board(WORLD, RTU, FinalBoard(Ending("objective"), tuple(players), OWNERS, ARMIES), CARDS)}


def test_method_1_2_3_of_seed_000():
    m1 = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-M1"))
    assert [m1[i].game_score for i in (1, 2, 3, 4)] == [35, 35, 43, 51 + 50]
    m2 = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-M2"))
    assert [m2[i].game_score for i in (1, 2, 3, 4)] == [35, 35, 35, 51]
    m3 = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-M3"))
    assert [m3[i].game_score for i in (1, 2, 3, 4)] == [35 + 9, 35 + 10, 43 + 11, 101 + 12]
    m3b = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-M3-M2"))
    # seat 3's card has Europa (7 armies) and Indonesia (1)
    assert m3b[3].game_score == 35 + 8
    assert [m1[i].place for i in (4, 3, 2, 1)] == [1, 2, 3, 4]
    assert m1[4].tournament_points == m1[4].game_score  # no RTU place bonus


def test_time_attack_victory_points_then_armies_then_extra_round():
    ta = get_ruleset("TIME_ATTACK")
    s = by_seat(score_game(WORLD, ta, FinalBoard(Ending("time"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-TA"))
    assert [s[i].game_score for i in (1, 2, 3, 4)] == [35, 35, 43, 51]
    assert (s[2].place, s[1].place, s[2].tiebreak) == (3, 4, "armies")
    armies = ARMIES | {"Alaska": 2}
    s = by_seat(score_game(WORLD, ta, FinalBoard(Ending("time"), tuple(PLAYERS), OWNERS, armies), CARDS, "S-TA"))
    assert s[1].place == s[2].place == 3
    assert s[1].tiebreak == s[2].tiebreak == "extra_round"


def test_medio_victory_and_loss_factors():
    s = by_seat(score_game(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-MEDIO"))
    # winner: floor(51 × 4 / 2); losers: floor(points × 4 / 10)
    assert [s[i].game_score for i in (1, 2, 3, 4)] == [14, 14, 17, 102]
    s = by_seat(
        score_game(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-MEDIO", total_supremacy=True)
    )
    assert [s[i].game_score for i in (1, 2, 3, 4)] == [7, 7, 8, 204]


def test_every_system_is_registered():
    assert {"S-RTU", "S-M1", "S-M2", "S-M3", "S-TA", "S-MEDIO"} <= set(SCORING_SYSTEMS)


def test_unknown_scoring_system_is_a_format_error():
    from engine.violations import EngineError

    with pytest.raises(EngineError) as err:
        score_game(WORLD, RTU, FinalBoard(Ending("objective"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-NOPE")
    assert err.value.rule == "FORMAT"


def test_a_player_without_a_card_is_reported_unless_eliminated():
    players = [FinalPlayer(1, ""), *PLAYERS[1:]]
    rules = [v.rule for v in check_board(WORLD, RTU, FinalBoard(Ending("objective"), tuple(players), OWNERS, ARMIES), CARDS)]
    assert rules == ["O-RTU"]
