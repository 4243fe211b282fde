"""Standings tie-breaks as a chain of named metrics (scoring/standings.py), ordered by a preset."""

from __future__ import annotations

import pytest

from scoring.standings import DEFAULT_CHAIN, METRICS, GameResult, compute


def g(player: int, game: int, points: float, place: float = 2, extra: int = 0, armies: int = 0,
      p: float = 0) -> GameResult:
    return GameResult(player=player, game=game, points=points, place=place, extra=extra, armies=armies,
                      game_score=p)


def order(rows):  # type: ignore[no-untyped-def]
    return [(r.player, r.rank, r.tiebreak) for r in rows]


def test_open_chain_total_then_wins_then_best_game() -> None:
    results = [
        g(1, 1, 90, place=1), g(1, 2, 30),  # 120, one win, best 90
        g(2, 1, 60, place=1), g(2, 2, 60, place=1),  # 120, two wins
        g(3, 1, 100, place=1), g(3, 2, 20),  # 120, one win, best 100
        g(4, 1, 50), g(4, 2, 40),  # 90
    ]
    rows = compute(results, method="italiana", chain=("total", "wins", "best_game"))
    assert order(rows) == [(2, 1, "wins"), (3, 2, "best_game"), (1, 3, "best_game"), (4, 4, None)]


def test_master_chain_best_then_second_then_rounds_in_order() -> None:
    results = [
        g(1, 1, 1.05, place=1), g(1, 2, 0.03), g(1, 3, 0.02),
        g(2, 1, 0.02), g(2, 2, 0.03), g(2, 3, 1.05, place=1),
        g(3, 1, 1.04, place=1), g(3, 2, 0.04), g(3, 3, 0.02),
    ]
    chain = ("total", "best_game", "second_best", "third_best", "rounds_in_order")
    rows = compute(results, method="italiana", chain=chain)
    # all total 1.10; 1 and 2 beat 3 on best game; 1 beats 2 only on round order (R1 first)
    assert [r.player for r in rows] == [1, 2, 3]
    assert [r.tiebreak for r in rows] == ["rounds_in_order", "rounds_in_order", "best_game"]
    assert len({r.rank for r in rows}) == 3


def test_cni_chain_previous_round_standing() -> None:
    results = [g(1, 1, 40), g(1, 2, 50), g(1, 3, 60), g(2, 1, 60), g(2, 2, 50), g(2, 3, 40)]
    rows = compute(results, method="italiana", chain=("total", "previous_round"))
    assert order(rows) == [(2, 1, "previous_round"), (1, 2, "previous_round")]  # 110 vs 90 after round 2


def test_default_chain_is_k_best2_and_a_full_tie_is_shared() -> None:
    assert DEFAULT_CHAIN == ("total", "extra", "armies")
    results = [g(1, 1, 80, extra=5), g(1, 2, 50), g(2, 1, 80), g(2, 2, 50, extra=5), g(3, 1, 130, extra=5)]
    rows = compute(results)
    assert [(r.player, r.rank, r.shared) for r in rows] == [(1, 1, True), (2, 1, True), (3, 1, True)]
    assert all(r.tiebreak is None for r in rows)
    rows = compute(results + [g(3, 2, 0, armies=1)])
    assert order(rows) == [(3, 1, "armies"), (1, 2, "armies"), (2, 2, "armies")]


def test_finalists_first_by_their_final_then_the_chain() -> None:
    results = [
        g(1, 1, 150, place=1), g(1, 2, 130, place=1), g(1, 3, 40), g(1, 4, 20, place=3),
        g(2, 1, 30), g(2, 2, 90, place=1), g(2, 3, 80, place=1), g(2, 4, 90, place=1),
        g(3, 1, 60), g(3, 2, 60), g(3, 3, 90, place=1), g(3, 4, 50, place=2),
        g(4, 1, 200), g(4, 2, 100), g(4, 3, 10),  # lost the semifinal, best total of all
        g(5, 1, 10), g(5, 2, 10),
    ]
    rows = compute(results, method="italiana", chain=("total", "best_game"), final_games={4})
    assert [r.player for r in rows] == [2, 3, 1, 4, 5]
    assert [r.finalist for r in rows] == [True, True, True, False, False]


def test_unknown_metric_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown tie-break"):
        compute([], chain=("total", "luck"))
    assert all(desc for _, desc in METRICS.values())
