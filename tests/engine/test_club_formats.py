"""The clubs' scoring systems (docs/rules.md, "Club formats"), checked with the rules' own numbers
and hand-computed tables. P = objective points (RisiKo! = 100); the winner is the highest P."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from engine import exact
from engine.board import load_board
from engine.club_formats import CLUB_FORMATS, Seat, score_table, tournament_points
from engine.endings import Ending, FinalBoard, FinalPlayer
from engine.objectives import Objective
from engine.replay import adjudicate
from engine.rulesets import get_ruleset
from engine.scoring import SCORING_SYSTEMS, check_board, score_game
from engine.simulate import simulate
from engine.violations import EngineError

ROOT = Path(__file__).resolve().parents[2]
WORLD = load_board("world")
RTU = get_ruleset("RTU")


def dec(x: Any) -> Any:
    """Expected numbers as the exact decimals the engine gives (1.05 → Decimal("1.05"))."""
    if isinstance(x, dict):
        return {k: dec(v) for k, v in x.items()}
    if isinstance(x, list):
        return [dec(v) for v in x]
    return Decimal(repr(x))


# ------------------------------------------------------------------ the rules' worked numbers
def test_master_winner_with_50_scores_1_050_and_a_five_table_loser_with_21_scores_0_027() -> None:
    assert score_table("S-MASTER", [50, 30, 20, 10]) == dec([1.05, 0.03, 0.02, 0.01])
    five = score_table("S-MASTER", [60, 21, 20, 10, 5])
    assert five[1] == dec(0.027)  # 21 × 1.25 = 26.25 → 0.02625, rounded UP to 0.027
    assert five[0] == dec(1.075)  # 60 × 1.25 = 75


def test_master_never_exceeds_1_100() -> None:
    assert score_table("S-MASTER", [100, 30, 20, 10])[0] == dec(1.1)  # RisiKo!
    assert score_table("S-MASTER", [100, 30, 20, 10, 0])[0] == dec(1.1)  # 125 counts as 100
    assert score_table("S-MASTER", [80, 30, 20, 10, 0])[0] == dec(1.1)  # 80+ at a 5-table counts as 100
    assert score_table("S-MASTER", [70, 30, 20, 10, 0])[0] == dec(1.088)  # 87.5 → 1.0875 → up to 1.088


def test_spartac_42_against_33_gives_142_and_91() -> None:
    assert score_table("S-SPARTAC", [42, 33, 20, 10]) == dec([142, 91, 78, 68])
    # RisiKo!: 100 + 100 (the tool's code; its manual says 186); others keep their own P
    assert score_table("S-SPARTAC", [100, 30, 0, 0]) == dec([200, 30, 0, 0])
    # at a 5-table the winner's P counts × 1.25; the others lose the raw difference
    assert score_table("S-SPARTAC", [40, 30, 20, 10, 0]) == dec([150, 90, 80, 70, 60])


def test_bgl_at_five_players_100_65_50_30_15_plus_share_of_the_table() -> None:
    assert score_table("S-BGL", [40, 30, 20, 10, 0]) == dec([100.4, 65.3, 50.2, 30.1, 15])
    assert score_table("S-BGL", [43, 41, 40, 40]) == dec([100.262, 60.25, 40.243, 20.243])


def test_bgl_shared_places_average_and_three_player_phantom() -> None:
    fmt = CLUB_FORMATS["S-BGL"]
    shared = tournament_points(fmt, [Seat(1, 40, 1), Seat(2, 30, 2, 2), Seat(3, 30, 2, 2), Seat(4, 0, 4)])
    assert shared == dec({1: 100.4, 2: 50.3, 3: 50.3, 4: 20})  # places 2 and 3 share (60 + 40) / 2
    # 3 players: a phantom with P 0.9 × 100 ÷ 3 = 30 sits 3rd (the player level with it stays
    # ahead), the table scores as a 4-player one, and the total is 100 + 30 = 130
    assert score_table("S-BGL", [50, 30, 20]) == dec([100.384, 60.23, 20.153])


def test_open_factor_by_table_size_and_sole_or_shared_win() -> None:
    assert score_table("S-OPEN", [40, 30, 20, 10]) == dec([90, 30, 20, 10])
    assert score_table("S-OPEN", [40, 30, 20, 10, 5]) == dec([100, 37.5, 25, 12.5, 6.25])
    assert score_table("S-OPEN", [40, 30, 20]) == dec([80, 22.5, 15])
    fmt = CLUB_FORMATS["S-OPEN"]
    shared = tournament_points(fmt, [Seat(1, 40, 1, 2), Seat(2, 40, 1, 2), Seat(3, 20, 3), Seat(4, 10, 4)])
    assert shared == dec({1: 65, 2: 65, 3: 20, 4: 10})


def test_raduno_has_no_table_size_factor() -> None:
    assert score_table("S-RADUNO", [40, 30, 20, 10]) == dec([90, 30, 20, 10])
    assert score_table("S-RADUNO", [40, 30, 20, 10, 4]) == dec([90, 30, 20, 10, 4])
    assert score_table("S-RADUNO", [100, 30, 0, 0]) == dec([150, 30, 0, 0])


def test_gufo_place_bonus_plus_hundredths_and_eliminated_bonus() -> None:
    assert score_table("S-GUFO", [40, 30, 20, 0], eliminated=[False, False, False, True]) == dec([12.4, 7.3, 5.2, 1])
    assert score_table("S-GUFO", [40, 30, 20, 10, 0]) == dec([12.5, 7.375, 5.25, 3.125, 2])
    assert score_table("S-GUFO", [40, 30, 20]) == dec([12.3, 7.225, 5.15])
    both_out = score_table("S-GUFO", [50, 36, 0, 0], eliminated=[False, False, True, True])
    assert both_out == dec([12.5, 7.36, 2, 1])  # the one eliminated later (listed first) is 3rd


def test_numbers_are_data_a_preset_can_change() -> None:
    assert score_table("S-RADUNO", [40, 30, 20, 10], changes={"win_bonus": 40}) == dec([80, 30, 20, 10])
    assert score_table("S-OPEN", [40, 30, 20, 10, 5], changes={"size_factor": {"5": 1}}) == dec([90, 30, 20, 10, 5])
    with pytest.raises(ValueError, match="no setting"):
        score_table("S-OPEN", [40, 30, 20, 10], changes={"bogus": 1})
    described = CLUB_FORMATS["S-BGL"].as_dict()
    assert described["place_points"]["5"] == dec([100, 65, 50, 30, 15])
    assert exact.loads(exact.dumps(described))["size_factor"] == {}  # shown exactly by a page or an API


def test_gufo_keeps_four_decimals_exactly() -> None:
    # 17 × 1.25 ÷ 100 = 0.2125 (the rules' own example); 23 × 1.25 = 28.75 → 0.2875 + 7 = 7.2875,
    # which a binary float rounds to 7.287 in one place and 7.288 in another
    assert score_table("S-GUFO", [30, 23, 17, 10, 5])[1:3] == [Decimal("7.2875"), Decimal("5.2125")]
    assert score_table("S-GUFO", [40, 11, 10, 5, 1])[1] == Decimal("7.1375")
    assert exact.dumps({"p": score_table("S-GUFO", [30, 23, 17, 10, 5])[1]}) == '{"p": 7.2875}'


def test_bgl_three_player_table_scores_as_four_with_a_phantom() -> None:
    # phantom P = 0.9 × 80 ÷ 3 = 24 (3rd), total 80 + 24 = 104: 40/104, 30/104, 10/104
    assert score_table("S-BGL", [40, 30, 10]) == dec([100.384, 60.288, 20.096])
    # the phantom's P is cut to 1 decimal (0.9 × 71 ÷ 3 = 21.3), only its whole part (21) joins the total
    assert score_table("S-BGL", [40, 21, 10]) == dec([100.434, 40.228, 20.108])  # phantom 2nd


@pytest.mark.parametrize("p", [81, 90, 100])
def test_open_sole_winner_at_five_scores_at_most_150(p: int) -> None:
    assert score_table("S-OPEN", [p, 30, 20, 10, 5])[0] == 150
    assert score_table("S-OPEN", [80, 30, 20, 10, 5])[0] == 150
    assert score_table("S-OPEN", [64, 30, 20, 10, 5])[0] == 130  # 80 + 50: below the cap


# ------------------------------------------------------------------ through the engine's score_game
def _terr(*continents: str) -> list[str]:
    return [t for c in continents for t in WORLD.continents[c].territories]


OWNERS = {t: 1 for t in _terr("Nord America")}
OWNERS |= {t: 2 for t in _terr("Sud America", "Africa")}
OWNERS |= {t: 3 for t in _terr("Europa", "Oceania")}
OWNERS |= {t: 4 for t in _terr("Asia")}
ARMIES = dict.fromkeys(WORLD.names, 1)
CARDS = {
    "C1": Objective("C1", "C1", frozenset(_terr("Nord America", "Europa"))),  # 35
    "C2": Objective("C2", "C2", frozenset(_terr("Sud America", "Africa", "Nord America"))),  # 35
    "C3": Objective("C3", "C3", frozenset([*_terr("Europa"), "Indonesia", "Alaska"])),  # 35, extra 8
    "C4": Objective("C4", "C4", frozenset([*_terr("Asia"), "Alaska"])),  # 51
}
PLAYERS = [FinalPlayer(s, f"C{s}") for s in (1, 2, 3, 4)]


@pytest.mark.parametrize(("system", "expected"), [
    ("S-RADUNO", {4: 101, 3: 35, 2: 35, 1: 35}),
    ("S-OPEN", {4: 101, 3: 35, 2: 35, 1: 35}),
    ("S-MASTER", {4: 1.051, 3: 0.035, 2: 0.035, 1: 0.035}),
    ("S-SPARTAC", {4: 151, 3: 84, 2: 84, 1: 84}),
    ("S-GUFO", {4: 12.51, 3: 7.35, 2: 5.35, 1: 3.35}),
    ("S-BGL", {4: 100.326, 3: 60.224, 2: 40.224, 1: 20.224}),
])
def test_every_club_system_scores_a_final_board(system: str, expected: dict[int, float]) -> None:
    assert check_board(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, ARMIES), CARDS) == []
    scores = {s.seat: s for s in score_game(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, system)}
    # P and places are S-RTU's / S-PLACE's: 51 wins, the three 35s split by extra points, armies
    assert [scores[s].game_score for s in (1, 2, 3, 4)] == [35, 35, 35, 51]
    assert [scores[s].place for s in (4, 3, 2, 1)] == [1, 2, 3, 4]
    assert {s: scores[s].tournament_points for s in expected} == dec(expected)


def test_club_changes_reach_the_engine_and_bad_ones_are_refused() -> None:
    scores = score_game(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-RADUNO",
                        club_changes={"win_bonus": 30})
    assert max(s.tournament_points for s in scores) == 81
    with pytest.raises(EngineError) as err:
        score_game(WORLD, RTU, FinalBoard(Ending("sdadata"), tuple(PLAYERS), OWNERS, ARMIES), CARDS, "S-RADUNO", club_changes={"x": 1})
    assert err.value.rule == "FORMAT"


def test_every_club_format_is_a_registered_scoring_system() -> None:
    assert {"S-OPEN", "S-RADUNO", "S-MASTER", "S-SPARTAC", "S-GUFO", "S-BGL"} <= set(SCORING_SYSTEMS)


def test_cli_scores_with_a_club_system(tmp_path: Path) -> None:
    record = simulate(4, "club-cli")
    verdict = adjudicate(record)
    board = {
        "map": "world", "ruleset": "RTU", "ended_by": verdict["ended_by"],
        "players": [{"seat": p["seat"], "objective": p["objective"], "eliminated": None} for p in record["players"]],
        "objectives": record["objectives"],
        "owners": verdict["final"]["owners"], "armies": verdict["final"]["armies"],
    }
    path = tmp_path / "board.json"
    path.write_text(json.dumps(board), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "engine", "score", str(path), "--scoring", "S-MASTER", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    rows = json.loads(out.stdout)["scores"]
    for r in rows:  # P is S-RTU's score, Punti Torneo the Master formula of it
        capped = min(r["game_score"], 100) / 1000
        assert r["tournament_points"] == pytest.approx(capped + (1 if r["place"] == 1 else 0), abs=0.001)
    assert max(r["tournament_points"] for r in rows) > 1 > sorted(r["tournament_points"] for r in rows)[-2]
