"""Properties of the pure standings computation (scoring/standings.py)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings import GameResult, compute

results = st.lists(
    st.builds(
        GameResult,
        player=st.integers(1, 12), game=st.integers(1, 3), points=st.integers(0, 130).map(float),
        extra=st.integers(0, 60), armies=st.integers(0, 100), place=st.integers(1, 5).map(float),
    ),
    max_size=36,
    unique_by=lambda r: (r.player, r.game),
)


def _view(rows):
    return [(r.player, r.rank, r.total, r.extra, r.armies, [(c.game, c.counted) for c in r.cells]) for r in rows]


@settings(max_examples=150, deadline=None)
@given(results, st.randoms(use_true_random=False), st.sampled_from(["rtu", "italiana", "knockout"]))
def test_standings_do_not_depend_on_the_order_results_arrive(rs, rnd, method) -> None:
    shuffled = list(rs)
    rnd.shuffle(shuffled)
    assert _view(compute(rs, method=method)) == _view(compute(shuffled, method=method))


@settings(max_examples=150, deadline=None)
@given(results, st.integers(1, 12), st.integers(0, 60), st.integers(0, 100))
def test_a_game_lower_than_the_two_best_leaves_the_total_unchanged(rs, player, extra, armies) -> None:
    mine = [r for r in rs if r.player == player]
    games = {r.game for r in mine}
    if len(mine) < 2 or len(games) >= 3:
        return
    new_game = next(g for g in (1, 2, 3) if g not in games)
    lowest = min(r.points for r in mine)
    if lowest < 1:
        return  # a new game of 0 would tie a 0 and could count on its extra points
    before = {r.player: r.total for r in compute(rs)}
    low = GameResult(player=player, game=new_game, points=max(0.0, lowest - 1), extra=extra, armies=armies)
    after_rows = {r.player: r for r in compute([*rs, low])}
    assert after_rows[player].total == before[player]
    assert [c.counted for c in after_rows[player].cells if c.game == new_game] == [False]


def test_all_games_count_under_italiana_and_best_n_is_a_setting() -> None:
    rs = [GameResult(1, g, float(p)) for g, p in ((1, 10), (2, 50), (3, 30))]
    assert compute(rs, method="italiana")[0].total == 90
    assert compute(rs, method="rtu", best_n=2)[0].total == 80
    assert compute(rs, method="rtu", best_n=1)[0].total == 50


def test_knockout_ranks_by_round_reached_then_place() -> None:
    rs = [GameResult(1, 1, 80, place=1), GameResult(2, 1, 60, place=2), GameResult(3, 1, 70, place=1),
          GameResult(1, 2, 40, place=2), GameResult(3, 2, 50, place=1)]
    rows = compute(rs, method="knockout")
    assert [r.player for r in rows] == [3, 1, 2]
    assert rows[0].advanced and not rows[1].advanced
