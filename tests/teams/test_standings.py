"""Team standings (K-TEAM), worked by hand: a team's score is its best 9 results; ties by the
best result, then the best 2, … the best 8; teams equal on all of them share the position. The
clubs' desktop tool's "wins" step decides nothing (it compares a team's wins with themselves):
a team with more wins but an equal best-9 and best-k is not put ahead."""

from __future__ import annotations

import itertools
from decimal import Decimal as D

from hypothesis import given, settings
from hypothesis import strategies as st

from teams.standings import TeamResult, rank


def results(*scores: str, wins: int = 0) -> list[TeamResult]:
    """Results in games 1, 2, 3… (one table each); the first ``wins`` of them won their table."""
    return [TeamResult(player=k, game=k, table=1, score=D(s), won=k <= wins)
            for k, s in enumerate(scores, start=1)]


def test_best_nine_of_twelve() -> None:
    # 4 starters × 3 games = 12 results; the 3 worst (2, 2.3, 3.1) are dropped:
    # best 9 = 12.5 + 12.3 + 7.4 + 7.2 + 5.35 + 5.2 + 5.1 + 3.4 + 3.2 = 61.65
    # every result = 61.65 + 3.1 + 2.3 + 2 = 69.05
    team = results("12.5", "7.4", "5.35", "3.1", "12.3", "7.2", "5.2", "2.3", "5.1", "3.4", "3.2", "2", wins=2)
    [row] = rank({"A": team})
    assert row.total == D("61.65") and row.total_all == D("69.05")
    assert [r.score for r in row.counted] == [D(x) for x in ("12.5", "12.3", "7.4", "7.2", "5.35", "5.2", "5.1", "3.4", "3.2")]
    assert row.wins == 2 and row.position == 1


def test_fewer_than_nine_results_all_count() -> None:
    # 5 results: all count, 12 + 7 + 5 + 3 + 2 = 29
    [row] = rank({"A": results("12", "7", "5", "3", "2")})
    assert row.total == row.total_all == D(29)


def test_equal_totals_split_by_best_one_then_best_two() -> None:
    # nine results each, all counting:
    # A = 12 + 7 + 5 + 3 + 2 + 2 = 31; best 1 = 12, best 2 = 19
    # B = 7 + 7 + 7 + 5 + 3 + 2 = 31; best 1 = 7 < 12
    # C = 12 + 5 + 5 + 5 + 2 + 2 = 31; best 1 = 12, best 2 = 17 < A's 19 → A, C, B
    teams = {
        "B": results("7", "7", "7", "5", "3", "2", "0", "0", "0"),
        "A": results("12", "7", "5", "3", "2", "2", "0", "0", "0"),
        "C": results("12", "5", "5", "5", "2", "2", "0", "0", "0"),
    }
    rows = rank(teams)
    assert [(r.team, r.position, r.total) for r in rows] == [("A", 1, D(31)), ("C", 2, D(31)), ("B", 3, D(31))]
    assert [r.tiebreak for r in rows] == [None, 2, 1]  # C below A on best 2 (17 < 19), B below C on best 1 (7 < 12)


def test_the_tools_dead_wins_step_decides_nothing() -> None:
    # X: 2 wins, results 12, 12 → 24; Y: 1 win, results 12, 7, 5 → 24.
    # Best 1: 12 = 12; best 2: X 24 > Y 19 → X first, on best 2, not on wins.
    x = results("12", "12", wins=2)
    y = results("12", "7", "5", wins=1)
    rows = rank({"Y": y, "X": x})
    assert [(r.team, r.position, r.tiebreak) for r in rows] == [("X", 1, None), ("Y", 2, 2)]
    # Equal on every best-k: P 12 + 5 = 17 with 1 win, Q 12 + 5 + 0 = 17 with 2 wins (best 1 12,
    # best 2 17, best 3 … best 8 17 for both): wins do not separate them, they share 1st.
    p = results("12", "5", wins=1)
    q = [TeamResult(1, 1, 1, D(12), False), TeamResult(2, 2, 1, D(5), True), TeamResult(3, 3, 2, D(0), True)]
    shared = rank({"P": p, "Q": q}, order=["Q", "P"])
    assert [(r.team, r.position, r.shared) for r in shared] == [("Q", 1, True), ("P", 1, True)]


def test_standard_competition_positions() -> None:
    # 1, 2, 2, 4: two teams equal on everything share 2nd, the next is 4th
    rows = rank({"A": results("12"), "B": results("7"), "C": results("7"), "D": results("5")})
    assert [(r.team, r.position) for r in rows] == [("A", 1), ("B", 2), ("C", 2), ("D", 4)]


def test_a_team_without_results_is_last_with_nothing() -> None:
    rows = rank({"A": [], "B": results("2")})
    assert [(r.team, r.total, r.position) for r in rows] == [("B", D(2), 1), ("A", D(0), 2)]


SCORES = st.lists(st.decimals(min_value=0, max_value=D("13.25"), places=4), max_size=15)


@given(st.dictionaries(st.sampled_from("ABCDEFG"), SCORES, min_size=1))
@settings(max_examples=150, deadline=None)
def test_every_ranking_is_consistent(teams: dict[str, list[D]]) -> None:
    """Positions never go down the table; total = the 9 largest results; a team above another has
    a larger or equal best-9 and, when equal, a larger or equal best-k at the first difference."""
    rows = rank({t: results(*(str(s) for s in scores)) for t, scores in teams.items()})
    for row in rows:
        own = sorted(teams[row.team], reverse=True)
        assert row.total == sum(own[:9], D(0)) and row.total_all == sum(own, D(0))
    for above, below in itertools.pairwise(rows):
        assert (above.total, *above.bests) >= (below.total, *below.bests)
        assert below.position == (above.position if (above.total, *above.bests) == (below.total, *below.bests)
                                  else rows.index(below) + 1)
