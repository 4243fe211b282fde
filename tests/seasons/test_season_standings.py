"""A season's standings combine its evenings by the club's rule, computed by hand here: sum, best
N evenings, best N games, and the national 2024 rule (best evenings until 45 rounds). Ties are
broken and explained by the same metrics as an event, and the order the evenings arrive in never
changes the standings."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from scoring.standings import GameResult as G
from seasons import standings as ss

THU = dt.date(2026, 1, 8)


def evening(key: int, week: int, rounds: int, *results: G, counted: frozenset | None = None) -> ss.Evening:
    return ss.Evening(key, THU + dt.timedelta(days=7 * week), rounds, tuple(results), counted)


# Anna (1) and Bruno (2), three evenings of two games each.
#            evening 1     evening 2     evening 3
# Anna       100 + 50      60 + 60       30 + 20     → evenings 150, 120, 50
# Bruno       90 + 80      70 + 10       95 + 5      → evenings 170,  80, 100
EVENINGS = [
    evening(11, 0, 2, G(1, 1, 100, place=1), G(2, 1, 90, place=2), G(1, 2, 50, place=2), G(2, 2, 80, place=1)),
    evening(12, 1, 2, G(1, 1, 60, place=1), G(2, 1, 70, place=1), G(1, 2, 60, place=1), G(2, 2, 10, place=3)),
    evening(13, 2, 2, G(1, 1, 30, place=2), G(2, 1, 95, place=1), G(1, 2, 20, place=3), G(2, 2, 5, place=4)),
]


def table(rows: list[ss.SeasonRow]) -> list[tuple[int, int, int]]:
    return [(r.row.player, r.row.rank, int(r.row.total)) for r in rows]


def test_sum_adds_every_evening() -> None:
    rows = ss.compute(EVENINGS, rule=ss.SUM)
    assert table(rows) == [(2, 1, 350), (1, 2, 320)]  # 170 + 80 + 100; 150 + 120 + 50
    assert all(c.counted for r in rows for c in r.evenings)


def test_best_two_evenings_drop_each_players_worst_evening() -> None:
    rows = ss.compute(EVENINGS, rule=ss.BEST_EVENINGS, n=2)
    # Anna 150 + 120, Bruno 170 + 100: level on 270, and on every later metric (no extra
    # points, no armies): the place is shared, as at an event
    assert table(rows) == [(1, 1, 270), (2, 1, 270)]
    assert all(r.row.shared and r.row.tiebreak is None for r in rows)
    anna, bruno = rows
    assert [(c.evening, c.counted) for c in anna.evenings] == [(11, True), (12, True), (13, False)]
    assert [(c.evening, c.counted) for c in bruno.evenings] == [(11, True), (12, False), (13, True)]
    # "best_game" separates them: Bruno's best single game is 95 against Anna's 100
    rows = ss.compute(EVENINGS, rule=ss.BEST_EVENINGS, n=2, chain=["total", "best_game"])
    assert [(r.row.player, r.row.rank, r.row.tiebreak) for r in rows] == [(1, 1, "best_game"), (2, 2, "best_game")]


def test_best_three_games_of_the_season() -> None:
    rows = ss.compute(EVENINGS, rule=ss.BEST_GAMES, n=3)
    # Anna: 100, 60, 60 = 220; Bruno: 95, 90, 80 = 265
    assert table(rows) == [(2, 1, 265), (1, 2, 220)]
    bruno = rows[0]
    assert [(c.evening, int(c.counted_points)) for c in bruno.evenings] == [(11, 170), (12, 0), (13, 95)]


def test_national_2024_rule_counts_best_evenings_until_45_rounds() -> None:
    # Carla: evenings of 20, 20, 10 and 5 rounds scoring 300, 500, 400, 100.
    # Best first: 500 (20 rounds) → 20; 400 (10) → 30; 300 (20) → 50: added, since 30 < 45 was
    # checked before adding it; then 100 is left out (50 ≥ 45).
    carla = [evening(1, 0, 20, G(3, 1, 300)), evening(2, 1, 20, G(3, 1, 500)),
             evening(3, 2, 10, G(3, 1, 400)), evening(4, 3, 5, G(3, 1, 100))]
    [row] = ss.compute(carla, rule=ss.ROUNDS_2024)
    assert int(row.row.total) == 1200
    assert row.rounds_counted == 50
    assert [(c.evening, c.counted) for c in row.evenings] == [(1, True), (2, True), (3, True), (4, False)]
    assert ss.ROUNDS_CAP == 45


def test_an_evenings_own_dropped_game_never_counts_for_the_season() -> None:
    # the evening counted only Anna's game 1 (its own best 1 of 2)
    e = evening(1, 0, 2, G(1, 1, 80), G(1, 2, 30), counted=frozenset({(1, 1)}))
    [row] = ss.compute([e], rule=ss.SUM)
    assert int(row.row.total) == 80
    assert int(row.evenings[0].total) == 80


def test_ties_are_broken_and_explained_like_an_event() -> None:
    # equal totals (150); Dario won 2 games, Elena 1: "wins" separates them and is named
    e1 = evening(1, 0, 2, G(4, 1, 100, place=1), G(5, 1, 100, place=1), G(4, 2, 50, place=1), G(5, 2, 50, place=2))
    rows = ss.compute([e1], rule=ss.SUM, chain=["total", "wins", "raw_points"])
    assert [(r.row.player, r.row.rank, r.row.tiebreak) for r in rows] == [(4, 1, "wins"), (5, 2, "wins")]


def test_a_rule_needing_n_refuses_none() -> None:
    with pytest.raises(ValueError, match="best_evenings"):
        ss.compute(EVENINGS, rule=ss.BEST_EVENINGS)
    with pytest.raises(ValueError, match="unknown season rule"):
        ss.compute(EVENINGS, rule="average")


def test_the_models_rules_are_the_computations_rules() -> None:
    from tournaments.models import Season

    assert set(Season.Rule.values) == set(ss.RULES)


evenings_strategy = hs.lists(
    hs.tuples(hs.integers(0, 6), hs.integers(1, 12),  # week, rounds
              hs.lists(hs.tuples(hs.integers(1, 6), hs.integers(1, 3), hs.sampled_from([0, 20, 45, 70, 100]),
                                 hs.integers(0, 3), hs.integers(1, 4)), max_size=12)),
    min_size=1, max_size=6)


@settings(max_examples=120, deadline=None)
@given(evenings_strategy, hs.sampled_from([(ss.SUM, None), (ss.BEST_EVENINGS, 2), (ss.BEST_GAMES, 3),
                                           (ss.ROUNDS_2024, None)]), hs.randoms())
def test_the_order_of_the_evenings_never_changes_the_standings(data, rule, rnd) -> None:  # type: ignore[no-untyped-def]
    evenings = []
    for key, (week, rounds, results) in enumerate(data, start=1):
        games = {(p, g): G(p, g, pts, extra=extra, place=place) for p, g, pts, extra, place in results}
        evenings.append(evening(key, week, rounds, *games.values()))
    shuffled = list(evenings)
    rnd.shuffle(shuffled)

    def shown(rows: list[ss.SeasonRow]) -> list[tuple]:
        return [(r.row.player, r.row.rank, r.row.total, r.row.tiebreak,
                 [(c.evening, c.total, c.counted) for c in r.evenings]) for r in rows]

    assert shown(ss.compute(evenings, rule=rule[0], n=rule[1])) == shown(ss.compute(shuffled, rule=rule[0], n=rule[1]))
