"""Swiss pairing by standings (K-SWISS, tables/swiss.py): the standings blocks kept (everyone at
most one table from the table straight fill gives them), rematches and club-mates avoided
wherever the blocks allow, byes and tables of 3 at the bottom, and the same input always giving
the same tables. The clubs' desktop tool fills the tables in standings order and never repairs:
the examples below are the cases where it pairs club-mates or a rematch."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.seating import History, Options, SeatingError, SeatingPlayer, compose, table_sizes
from tables.swiss import blocks, swiss_tables

SWISS_PAIRS = Options(seeding="swiss", shape="pairs_bye", priorities=("repeat_five", "repeat_opponents", "club_apart"))
SWISS_BGL = Options(seeding="swiss", shape="threes", priorities=("repeat_opponents", "club_apart"))


def ranked(n: int, clubs: dict[int, str] | None = None) -> list[SeatingPlayer]:
    """Players 1..n, player k standing k-th."""
    clubs = clubs or {}
    return [SeatingPlayer(k, club=clubs.get(k), standing=k) for k in range(1, n + 1)]


def tables_of(comp: object) -> list[set[int]]:
    return [set(t) for t in comp.tables]  # type: ignore[attr-defined]


# ------------------------------------------------------------------------------ worked examples


def test_a_rematch_of_the_two_leaders_is_avoided() -> None:
    # GT: 1 and 2 met in round 1 and straight fill pairs them again (1–2, 3–4).
    # Here: 1–3 and 2–4; each moved at most one table (1 and 4 stay, 2 and 3 swap blocks).
    history = History(tables=((1, 2), (3, 4)))
    comp = compose(ranked(4), history, SWISS_PAIRS, "r2")
    assert tables_of(comp) == [{1, 3}, {2, 4}]
    assert comp.report["repeated_pairs"] == 0
    # who left their block, and where to: [player, block, table]
    assert comp.report["swiss_moves"] == [[3, 2, 1], [2, 1, 2]]


def test_club_mates_are_kept_apart_within_the_blocks() -> None:
    # 8 players, 1 and 2 of club A, 5 and 6 of club B. GT: 1–2, 3–4, 5–6, 7–8 (two club pairs).
    # Here: 1–3, 2–4, 5–7, 6–8: no club pair, nobody more than one table from their block.
    comp = compose(ranked(8, {1: "A", 2: "A", 5: "B", 6: "B"}), History(), SWISS_PAIRS, "clubs")
    assert tables_of(comp) == [{1, 3}, {2, 4}, {5, 7}, {6, 8}]
    assert comp.report["same_club_pairs"] == 0


def test_when_the_blocks_do_not_allow_it_the_higher_priority_wins() -> None:
    # 4 players; 1 already met 2 and 3, and 4 is from 1's club. Every opponent of 1 is a rematch
    # or a club-mate: the rematch is avoided first (priority order), 1 plays 4, and the report
    # says why the club pair is left.
    history = History(tables=((1, 2), (1, 3)))
    comp = compose(ranked(4, {1: "A", 4: "A"}), history, SWISS_PAIRS, "tight")
    assert tables_of(comp) == [{1, 4}, {2, 3}]
    assert comp.report["repeated_pairs"] == 0 and comp.report["same_club_pairs"] == 1
    assert [u["priority"] for u in comp.report["unmet"]] == ["club_apart"]


def test_bgl_swiss_seats_the_lowest_ranked_at_the_tables_of_three() -> None:
    # 10 players: 10 mod 4 = 2 → 4 − 2 = 2 tables of 3, last (GT: 4, 3, 3).
    assert table_sizes(10, shape="threes") == [4, 3, 3]
    comp = compose(ranked(10), History(), SWISS_BGL, "bgl")
    assert tables_of(comp) == [{1, 2, 3, 4}, {5, 6, 7}, {8, 9, 10}]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    # 5 players: two pairs and a bye (a table of 1, which meets a ghost seat).
    assert table_sizes(5, shape="pairs_bye") == [2, 2, 1]
    first = compose(ranked(5), History(), SWISS_PAIRS, "bye")
    assert first.tables[-1] == (5,)
    # 5 had the bye already (a seat at the odd table): 4 takes it; 1–2 and 3–4 met, so 1 plays
    # 3 and 2 plays 5 (GT would give 5 the bye again and re-pair 1–2 and 3–4).
    history = History(tables=((1, 2), (3, 4), (5,)), five_seaters={5: 1})
    again = compose(ranked(5), history, SWISS_PAIRS, "bye2")
    assert tables_of(again) == [{1, 3}, {2, 5}, {4}]
    assert again.report["repeated_pairs"] == 0 and again.report["repeat_five_seats"] == 0


def test_table_shapes_refuse_counts_they_cannot_seat() -> None:
    assert table_sizes(7, shape="pairs") == [2, 2, 3]
    assert table_sizes(3, shape="threes") == [3] and table_sizes(6, shape="threes") == [3, 3]
    for count, shape in ((5, "threes"), (2, "threes"), (1, "pairs"), (1, "pairs_bye")):
        with pytest.raises(SeatingError) as refused:
            table_sizes(count, shape=shape)
        assert refused.value.rule == "T-SIZE"


def test_the_same_standings_give_the_same_tables() -> None:
    players = ranked(21, {k: f"c{k % 5}" for k in range(1, 22)})
    history = History(tables=tuple(tuple(range(k, k + 3)) for k in range(1, 21, 3)))
    options = Options(seeding="swiss", shape="threes", priorities=("repeat_opponents", "club_apart"))
    assert compose(players, history, options, "a").tables == compose(players, history, options, "a").tables


# ------------------------------------------------------------------------------ property


def _cross_caps(sizes: Sequence[int]) -> list[int]:
    return [max(1, (min(sizes[t], sizes[t + 1]) + 1) // 2) for t in range(len(sizes) - 1)]


def brute_force(order: Sequence[int], sizes: Sequence[int], cost: object) -> tuple[int, ...] | None:
    """The least cost over EVERY seating with each player at most one table from their block and
    at most half a table crossing each boundary (tried one by one: small events only)."""
    home = blocks(order, sizes)
    caps = _cross_caps(sizes)
    best: tuple[int, ...] | None = None

    def walk(t: int, left: frozenset[int], so_far: tuple[int, ...], seated: dict[int, int]) -> None:
        nonlocal best
        if t == len(sizes):
            for b, cap in enumerate(caps):
                down = sum(1 for x, at in seated.items() if home[x] <= b < at)
                if down > cap:
                    return
            if best is None or so_far < best:
                best = so_far
            return
        fit = sorted(x for x in left if abs(home[x] - t) <= 1)
        for members in combinations(fit, sizes[t]):
            here = (*cost(t, members), sum(abs(home[x] - t) for x in members))  # type: ignore[operator]
            total = tuple(a + b for a, b in zip(so_far, here, strict=True)) if so_far else here
            walk(t + 1, left - set(members), total, {**seated, **{x: t for x in members}})

    walk(0, frozenset(order), (), {})
    return best


@given(
    shape=st.sampled_from([(2, 2), (2, 1), (4, 3)]),
    blocks_count=st.integers(min_value=2, max_value=4),  # tables of 4: at most 3 (brute force)
    clubs=st.integers(min_value=1, max_value=5),
    met=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=12),
    seed=st.randoms(use_true_random=False),
)
@settings(max_examples=50, deadline=None)
def test_swiss_is_the_best_pairing_the_blocks_allow(shape, blocks_count, clubs, met, seed) -> None:  # type: ignore[no-untyped-def]
    """Over random events: every player stays within one table of their block, and no seating
    within those moves has fewer rematches, then fewer club pairs, then fewer moves (a brute
    force over all of them). So a rematch or a club pair is left only when no allowed seating
    avoids it."""
    size, last = shape
    blocks_count = min(blocks_count, 3) if size == 4 else blocks_count
    sizes = [size] * (blocks_count - 1) + [last]
    n = sum(sizes)
    order = list(range(n))
    seed.shuffle(order)  # the standings
    club = {x: seed.randrange(clubs) for x in range(n)}
    pairs = {frozenset((a % n, b % n)) for a, b in met if a % n != b % n}

    def cost(t: int, members: tuple[int, ...]) -> tuple[int, int]:
        twice = [frozenset(p) for p in combinations(members, 2)]
        return (sum(p in pairs for p in twice), sum(club[a] == club[b] for a, b in combinations(members, 2)))

    found = swiss_tables(order, sizes, cost)
    home = blocks(order, sizes)
    assert sorted(x for t in found.tables for x in t) == sorted(order)
    assert [len(t) for t in found.tables] == sizes
    assert all(abs(home[x] - t) <= 1 for t, members in enumerate(found.tables) for x in members)
    assert found.cost == brute_force(order, sizes, cost)


@given(
    count=st.integers(min_value=4, max_value=40).filter(lambda n: n != 5),
    clubs=st.integers(min_value=2, max_value=8),
    seed=st.text(min_size=1, max_size=4),
)
@settings(max_examples=20, deadline=None)
def test_swiss_after_a_played_round_keeps_groups_and_reports_moves(count, clubs, seed) -> None:  # type: ignore[no-untyped-def]
    players = [SeatingPlayer(k, club=f"c{k % clubs}", standing=k) for k in range(1, count + 1)]
    round1 = compose(players, History(), Options(shape="threes", priorities=("club_apart",)), seed)
    history = History().after_game([list(t) for t in round1.tables])
    comp = compose(players, history, SWISS_BGL, seed)
    sizes = table_sizes(count, shape="threes")
    home = blocks(list(range(1, count + 1)), sizes)
    assert [len(t) for t in comp.tables] == sizes
    for t, members in enumerate(comp.tables):
        assert all(abs(home[p] - t) <= 1 for p in members)
    moved = {p for p, _block, _table in comp.report["swiss_moves"]}
    assert moved == {p for t, members in enumerate(comp.tables) for p in members if home[p] != t}
