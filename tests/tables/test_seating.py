"""Table composition (K-TABLES, T-SIZE, T-ORDER): sizes, reproducibility, quality against the
clubs' current tool, explanations of unmet priorities, Swiss and alla-greca seeding, speed."""

from __future__ import annotations

import json
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rng import SeededRng
from tables.seating import (
    UNCOVERABLE,
    History,
    Options,
    SeatingError,
    SeatingPlayer,
    compose,
    evaluate,
    table_sizes,
)
from tests.tables.club_tool_baseline import greedy_compose

COUNTS = st.integers(min_value=4, max_value=400).filter(lambda n: n not in UNCOVERABLE)


def finish(tables: tuple[tuple[int, ...], ...], seed: str) -> list[list[int]]:
    """A played game: each table's players in a random finishing order, winner first."""
    out = []
    for t, table in enumerate(tables):
        order = list(table)
        SeededRng(f"{seed}-{t}", stream="finish").shuffle(order)
        out.append(order)
    return out


def club_players(count: int, club_size: int, seed: str = "clubs") -> list[SeatingPlayer]:
    """``count`` players in clubs of ``club_size`` (the last one smaller), ids shuffled so a
    club's members are not consecutive."""
    ids = list(range(1, count + 1))
    SeededRng(seed).shuffle(ids)
    return [SeatingPlayer(pid, club=f"club-{k // club_size}") for k, pid in enumerate(ids)]


def tournament(players, games, options, seed="t"):  # type: ignore[no-untyped-def]
    """Compose ``games`` games in a row; returns [(composition, history before it)]."""
    history, out = History(), []
    for g in range(1, games + 1):
        comp = compose(players, history, options, f"{seed}-{g}")
        out.append((comp, history))
        history = history.after_game(finish(comp.tables, f"{seed}-{g}"))
    return out


# ---------------------------------------------------------------------------------- sizes


@given(COUNTS)
@settings(max_examples=120, deadline=None)
def test_sizes_cover_the_count_with_fours_and_fives_as_preferred(count: int) -> None:
    fives_first = table_sizes(count, "fives")
    fours_first = table_sizes(count, "fours")
    for sizes in (fives_first, fours_first):
        assert sum(sizes) == count
        assert set(sizes) <= {4, 5}
    # Preferring fives: no 5 tables of 4 left that could become 4 tables of 5 (fewest tables).
    assert Counter(fives_first)[4] < 5
    # Preferring fours: no 4 tables of 5 left that could become 5 tables of 4.
    assert Counter(fours_first)[5] < 4


def test_preference_only_matters_when_both_mixes_exist() -> None:
    assert table_sizes(40, "fives") == [5] * 8
    assert table_sizes(40, "fours") == [4] * 10
    assert table_sizes(22, "fives") == table_sizes(22, "fours") == [4, 4, 4, 5, 5]


@pytest.mark.parametrize("count", [6, 7, 11])
def test_counts_no_mix_covers_are_refused_with_the_options_spelled_out(count: int) -> None:
    with pytest.raises(SeatingError) as caught:
        table_sizes(count)
    err = caught.value
    assert err.rule == "K-TABLES"
    text = " ".join(err.options)
    assert "late player" in text and "stand-in" in text
    assert "ghost seat" in text
    assert ("table of 6" in text) == (count != 7)  # 7 = 6 + 1 is no answer
    assert str(count) in err.message


def test_odd_counts_need_the_organizer_decision() -> None:
    assert sorted(table_sizes(6, odd_count="ghost")) == [3, 3]
    assert sorted(table_sizes(7, odd_count="ghost")) == [3, 4]
    assert sorted(table_sizes(11, odd_count="ghost")) == [3, 4, 4]
    assert table_sizes(6, odd_count="six") == [6]
    assert sorted(table_sizes(11, odd_count="six")) == [5, 6]
    with pytest.raises(SeatingError):
        table_sizes(7, odd_count="six")
    # The decision is never used silently when tables of 4 and 5 do cover the count.
    assert table_sizes(12, odd_count="ghost") == [4, 4, 4]
    assert table_sizes(3, odd_count="ghost") == [3]
    for count in (0, 1, 2, 3):
        with pytest.raises(SeatingError) as caught:
            table_sizes(count)
        assert caught.value.rule == "T-SIZE"


def test_compose_refuses_seven_players_and_seats_them_with_a_ghost_when_asked() -> None:
    players = [SeatingPlayer(i) for i in range(1, 8)]
    with pytest.raises(SeatingError):
        compose(players, History(), Options(), "s")
    comp = compose(players, History(), Options(odd_count="ghost"), "s")
    assert sorted(len(t) for t in comp.tables) == [3, 4]
    assert comp.report["sizes"] == {"3": 1, "4": 1}


# ---------------------------------------------------------------------------- properties


@given(
    count=st.integers(min_value=4, max_value=45).filter(lambda n: n not in UNCOVERABLE),
    clubs=st.integers(min_value=1, max_value=8),
    prefer=st.sampled_from(["fives", "fours"]),
    seed=st.text(min_size=1, max_size=8),
)
@settings(max_examples=25, deadline=None)
def test_everyone_seated_once_at_tables_of_the_planned_sizes_reproducibly(
    count: int, clubs: int, prefer: str, seed: str
) -> None:
    players = [SeatingPlayer(i * 7 + 3, club=f"c{i % clubs}") for i in range(count)]
    options = Options(prefer=prefer)
    comp = compose(players, History(), options, seed)
    seated = [pid for t in comp.tables for pid in t]
    assert sorted(seated) == sorted(p.id for p in players)
    assert sorted(len(t) for t in comp.tables) == sorted(table_sizes(count, prefer))
    again = compose(list(reversed(players)), History(), options, seed)  # input order is irrelevant
    assert again.tables == comp.tables
    assert comp.seed == seed
    json.dumps(comp.report)


@given(
    count=st.sampled_from([8, 12, 13, 16, 20]),
    earlier=st.lists(st.permutations(list(range(1, 21))), min_size=1, max_size=2),
    clubs=st.integers(min_value=2, max_value=6),
    seed=st.text(min_size=1, max_size=4),
)
@settings(max_examples=10, deadline=None)
def test_report_counts_match_a_direct_count(count, earlier, clubs, seed) -> None:  # type: ignore[no-untyped-def]
    players = [SeatingPlayer(i, club=f"c{i % clubs}") for i in range(1, count + 1)]
    history = History(tables=tuple(tuple(p[k:k + 4]) for p in earlier for k in range(0, 20, 4)),
                      winners=frozenset(p[0] for p in earlier))
    comp = compose(players, history, Options(effort=0.1), seed)
    club = {p.id: p.club for p in players}
    met = Counter(frozenset((a, b)) for t in history.tables for a in t for b in t if a < b)
    pairs = [(a, b) for t in comp.tables for a in t for b in t if a < b]
    assert comp.report["repeated_pairs"] == sum(1 for a, b in pairs if met[frozenset((a, b))])
    assert comp.report["repeated_encounters"] == sum(met[frozenset(p)] for p in pairs)
    assert comp.report["same_club_pairs"] == sum(1 for a, b in pairs if club[a] == club[b])
    assert comp.report["winners_together"] == sum(
        1 for a, b in pairs if a in history.winners and b in history.winners)
    # The Django side re-checks compositions with evaluate(): same numbers.
    again = evaluate(comp.tables, players, history)
    assert again["costs"] == comp.report["costs"]
    assert again["unmet"] == comp.report["unmet"]


def test_different_seeds_give_different_tables_and_seat_orders() -> None:
    players = [SeatingPlayer(i) for i in range(1, 21)]
    comps = [compose(players, History(), Options(), f"seed-{k}") for k in range(10)]
    memberships = {tuple(sorted(tuple(sorted(t)) for t in c.tables)) for c in comps}
    assert len(memberships) >= 9
    # T-ORDER: seat 1 is not simply the lowest id.
    firsts = [t[0] == min(t) for c in comps for t in c.tables]
    assert 0 < sum(firsts) < len(firsts)


# ------------------------------------------------------------------------------ quality


@pytest.mark.parametrize("prefer", ["fives", "fours"])
def test_forty_players_three_games_no_repeats_no_club_mates_winners_apart(prefer: str) -> None:
    players = club_players(40, club_size=6)
    games = tournament(players, 3, Options(prefer=prefer), seed=f"forty-{prefer}")
    tables = len(games[0][0].tables)
    for g, (comp, history) in enumerate(games, start=1):
        report = comp.report
        assert report["repeated_pairs"] == 0, f"game {g}"
        assert report["same_club_pairs"] == 0, f"game {g}"
        winners = len(history.winners)
        # Apart where possible: with more winners than tables, the fewest possible together.
        q, r = divmod(winners, tables)
        least = r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2
        assert report["winners_together"] == least, f"game {g}"
        if winners <= tables:
            assert report["winners_together"] == 0
            assert not report["unmet"]


def _costs(report):  # type: ignore[no-untyped-def]
    return [report["costs"][k] for k in report["priorities"]]


@pytest.mark.parametrize(
    ("count", "club_size", "prefer"),
    [(40, 6, "fives"), (40, 6, "fours"), (42, 7, "fours"), (120, 10, "fours")],
)
def test_the_clubs_greedy_tool_is_beaten_or_matched_on_every_priority(
    count: int, club_size: int, prefer: str
) -> None:
    players = club_players(count, club_size, seed=f"bench-{count}")
    options = Options(prefer=prefer,
                      priorities=("repeat_five", "winners_apart", "club_apart", "repeat_opponents"))
    ours_total, theirs_total = [0, 0, 0, 0], [0, 0, 0, 0]
    for k in range(3):
        history = History()
        for g in (1, 2):  # both composed by us, so both draws face the same game 3
            comp = compose(players, history, options, f"h{k}-{g}")
            history = history.after_game(finish(comp.tables, f"h{k}-{g}"))
        ours = compose(players, history, options, f"g3-{k}").report
        _, theirs = greedy_compose(players, history, options, f"g3-{k}")
        for i, (a, b) in enumerate(zip(_costs(ours), _costs(theirs), strict=True)):
            assert a <= b, f"{options.priorities[i]}: ours {a} > greedy {b}"
            ours_total[i] += a
            theirs_total[i] += b
    assert ours_total <= theirs_total


def test_an_unmet_priority_is_explained() -> None:
    # 12 players, 8 of them from one club: 3 tables of 4 cannot keep them apart.
    players = [SeatingPlayer(i, club="Lario" if i <= 8 else f"other-{i}") for i in range(1, 13)]
    comp = compose(players, History(), Options(), "crowded")
    report = comp.report
    assert report["same_club_pairs"] == 7  # 3 + 3 + 2 members → 3 + 3 + 1 pairs, the least
    (unmet,) = report["unmet"]
    assert unmet["priority"] == "club_apart"
    assert unmet["unavoidable"] is True
    assert "Lario has 8 players for 3 tables" in unmet["explanation"]


def test_small_event_repeats_are_explained_as_unavoidable() -> None:
    # 12 players, 3 tables: each earlier table of 4 must put two of its players together again.
    players = [SeatingPlayer(i) for i in range(1, 13)]
    history = History().after_game([(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12)])
    comp = compose(players, history, Options(), "tiny")
    assert comp.report["repeated_pairs"] == 3
    (unmet,) = comp.report["unmet"]
    assert unmet["priority"] == "repeat_opponents" and unmet["unavoidable"]
    assert "for 3 tables" in unmet["explanation"]


def test_the_organizers_order_decides_which_priority_gives_way() -> None:
    # 9 players → a table of 4 and a table of 5. Players 1–4 already sat at a 5-table; 5–9 are
    # one club. Fresh 5-seats need 5–9 together; keeping the club apart needs 1–4 at the 5 again.
    players = [SeatingPlayer(i, club="Eagles" if i >= 5 else None) for i in range(1, 10)]
    history = History(five_seaters={1: 1, 2: 1, 3: 1, 4: 1})
    five_first = compose(players, history, Options(priorities=("repeat_five", "club_apart")), "o")
    assert five_first.report["repeat_five_seats"] == 0
    assert five_first.report["same_club_pairs"] == 10
    (unmet,) = five_first.report["unmet"]
    assert unmet["priority"] == "club_apart" and not unmet["unavoidable"]
    assert "higher priorities come first" in unmet["explanation"]

    club_first = compose(players, history, Options(priorities=("club_apart", "repeat_five")), "o")
    assert club_first.report["same_club_pairs"] == 4  # 3 + 2 members, the least possible
    assert club_first.report["repeat_five_seats"] > 0
    assert [u["priority"] for u in club_first.report["unmet"]] == ["club_apart", "repeat_five"]


def test_five_seats_rotate_to_players_who_had_none() -> None:
    players = [SeatingPlayer(i) for i in range(1, 22)]  # 4 tables of 4 + 1 of 5
    history = History(five_seaters={1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2})
    comp = compose(players, history, Options(), "rotate")
    (five,) = [t for t in comp.tables if len(t) == 5]
    assert not set(five) & {1, 2, 3, 4, 5, 6}
    assert comp.report["repeat_five_seats"] == 0


def test_region_apart_at_national_events() -> None:
    players = [SeatingPlayer(i, club=f"c{i % 10}", region=f"r{i % 5}") for i in range(1, 41)]
    options = Options(priorities=("winners_apart", "region_apart", "club_apart",
                                  "repeat_opponents"))
    comp = compose(players, History(), options, "national")
    assert comp.report["same_region_pairs"] == 0
    assert comp.report["same_club_pairs"] == 0


def test_evaluate_warns_about_clashes_a_manual_swap_creates() -> None:
    players = club_players(20, club_size=3)
    history = History()
    comp = compose(players, history, Options(prefer="fours"), "g1")
    history = history.after_game(finish(comp.tables, "g1"))
    game2 = compose(players, history, Options(prefer="fours"), "g2")
    assert game2.report["repeated_pairs"] == 0
    # The organizer moves a game-1 table mate of table 1's first player onto table 1.
    first = game2.tables[0][0]
    mate = next(p for t in comp.tables if first in t for p in t if p != first)
    tables = [list(t) for t in game2.tables]
    for t in tables:
        if mate in t:
            t[t.index(mate)] = tables[0][1]
    tables[0][1] = mate
    report = evaluate([tuple(t) for t in tables], players, history)
    assert report["repeated_pairs"] >= 1
    assert any({first, mate} == {a, b} for _, a, b, _n in report["details"]["repeated_pairs"])
    assert any(u["priority"] == "repeat_opponents" for u in report["unmet"])


def test_bad_options_are_refused() -> None:
    players = [SeatingPlayer(i) for i in range(1, 9)]
    with pytest.raises(SeatingError):
        compose(players, History(), Options(priorities=("nonsense",)), "s")
    with pytest.raises(SeatingError):
        compose(players, History(), Options(seeding="dutch"), "s")
    with pytest.raises(SeatingError):
        compose(players + [SeatingPlayer(1)], History(), Options(), "s")


# ------------------------------------------------------------------------------ seeding


def test_swiss_blocks_keep_everyone_within_one_table_of_their_block() -> None:
    players = [SeatingPlayer(i, club=f"c{i % 4}", standing=i) for i in range(1, 25)]
    comp = compose(players, History(), Options(seeding="swiss", prefer="fours"), "swiss")
    assert compose(players, History(), Options(seeding="swiss", prefer="fours"), "swiss") == comp
    assert 1 in comp.tables[0]  # the leader plays at table 1
    for t, table in enumerate(comp.tables):
        for pid in table:
            assert abs((pid - 1) // 4 - t) <= 1
    # Clubs 1..4 repeat every 4 standings: the repair keeps club mates apart.
    assert comp.report["same_club_pairs"] == 0


@given(
    count=st.sampled_from([12, 17, 20, 23, 28]),
    clubs=st.integers(min_value=2, max_value=7),
    order=st.randoms(use_true_random=False),
)
@settings(max_examples=15, deadline=None)
def test_swiss_property_nobody_leaves_their_neighbourhood(count, clubs, order) -> None:  # type: ignore[no-untyped-def]
    standings = list(range(1, count + 1))
    order.shuffle(standings)
    players = [SeatingPlayer(i + 1, club=f"c{i % clubs}", standing=s)
               for i, s in enumerate(standings)]
    comp = compose(players, History(), Options(seeding="swiss", effort=0.3), "swiss")
    sizes = [len(t) for t in comp.tables]
    assert sizes == table_sizes(count)  # Swiss keeps tables in order: table 1 = the leaders
    block_of, start = {}, 0
    for t, size in enumerate(sizes):
        for standing in range(start + 1, start + size + 1):
            block_of[standing] = t
        start += size
    standing_of = {p.id: p.standing for p in players}
    for t, table in enumerate(comp.tables):
        for pid in table:
            assert abs(block_of[standing_of[pid]] - t) <= 1


@given(
    dropped=st.sets(st.integers(min_value=1, max_value=24), max_size=5),
    newcomers=st.integers(min_value=0, max_value=4),
    seed=st.text(min_size=1, max_size=4),
)
@settings(max_examples=15, deadline=None)
def test_alla_greca_seats_everyone_when_players_drop_out_or_join(dropped, newcomers, seed) -> None:  # type: ignore[no-untyped-def]
    everyone = [SeatingPlayer(i) for i in range(1, 25)]
    game1 = compose(everyone, History(), Options(prefer="fours"), "g1")
    history = History().after_game(finish(game1.tables, "g1"))
    players = [p for p in everyone if p.id not in dropped]
    players += [SeatingPlayer(100 + k) for k in range(newcomers)]
    if len(players) in UNCOVERABLE:
        return
    comp = compose(players, history, Options(seeding="greca", effort=0.3), seed)
    assert sorted(p for t in comp.tables for p in t) == sorted(p.id for p in players)
    assert sorted(len(t) for t in comp.tables) == sorted(table_sizes(len(players)))


def test_alla_greca_winner_stays_second_moves_one_table_on() -> None:
    players = [SeatingPlayer(i) for i in range(1, 21)]
    options = Options(prefer="fours", seeding="greca")
    game1 = compose(players, History(), Options(prefer="fours"), "g1")
    finishing = finish(game1.tables, "g1")
    history = History().after_game(finishing)
    game2 = compose(players, history, options, "g2")
    assert compose(players, history, options, "g2") == game2  # reproducible from its seed
    tables = len(game2.tables)
    for t, order in enumerate(finishing):
        for place, pid in enumerate(order):
            assert pid in game2.tables[(t + place) % tables]
    assert game2.report["winners_together"] == 0
    assert game2.report["repeated_pairs"] == 0


# ------------------------------------------------------------------------------- speed


@pytest.mark.slow
def test_game_three_for_a_thousand_players_takes_seconds() -> None:
    players = club_players(1000, club_size=12, seed="big")
    start = time.perf_counter()
    games = tournament(players, 3, Options(prefer="fours"), seed="big")
    elapsed = time.perf_counter() - start
    assert elapsed < 15
    final = games[-1][0].report
    assert final["repeated_pairs"] == 0 and final["same_club_pairs"] == 0
