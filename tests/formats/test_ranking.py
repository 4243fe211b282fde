"""K-RANKING (scoring/ranking.py) with the clubs' tool's worked examples, and player identity."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D

from ranking import formula as rk
from tournaments.identity import Candidate, levenshtein, probable_duplicates


def test_worked_examples_open_and_raduno() -> None:
    # Exact decimals as shown (one decimal, half down): no float rounding anywhere.
    # Open, 3 rounds × 6 tables (T = 18): 1st 283.2, 2nd 213.5, 10th 143.1
    assert [rk.contribution(p, 18, "OPN", 3) for p in (1, 2, 10)] == [D("283.2"), D("213.5"), D("143.1")]
    # Raduno, 80 players (T = 20 + 20 + 8 + 2 = 50): 1st 900, 2nd 678.6, 10th 454.9
    assert [rk.contribution(p, 50, "RDN", 4) for p in (1, 2, 10)] == [D("900.0"), D("678.6"), D("454.9")]
    assert rk.vt_exact(1, 18, "OPN", 3) == D("283.2")  # the winner's VT is exact
    assert str(rk.contribution(2, 18, "OPN", 3)) == "213.5"


def test_classes_and_the_minimum_table_games_by_year() -> None:
    assert [rk.event_class("CPP", r) for r in (2, 3, 4, 5, 6, 9)] == [D(x) for x in ("0.2", "0.5", "0.7", "0.8", "1", "1")]
    assert rk.event_class("CNI", 3) == 0 and rk.event_class("MST", 4) == 4 and rk.event_class("ITC", 3) == D("1.5")
    standings = [rk.Standing(7, 1), rk.Standing(-1, 2), rk.Standing(8, 3)]
    assert rk.event_contributions(standings, table_games=5, event_type="OPN", rounds=3, year=2025) == {}
    assert set(rk.event_contributions(standings, table_games=6, event_type="OPN", rounds=3, year=2025)) == {7, 8}
    assert rk.event_contributions(standings, table_games=1, event_type="OPN", rounds=1, year=2019) != {}
    assert rk.rules_for(2023) is rk.YEAR_RULES[2020] and rk.rules_for(2031) is rk.YEAR_RULES[2024]


def test_yearly_caps_best_events_per_type() -> None:
    # 10 Open events nationally in 2025: a player counts max(3, floor(13.5% × 10)) = 3 of them
    results = [rk.Result(1, f"open{i}", "OPN", D(10 * i)) for i in range(10)]
    assert rk.yearly_ranking(results, 2025) == {1: 90 + 80 + 70}
    # Campionato 2024+: best events until 45 rounds (checked before adding each one)
    cpp = [rk.Result(2, f"cpp{i}", "CPP", D(100 - i), rounds=20) for i in range(4)]
    assert rk.yearly_ranking(cpp, 2025) == {2: 100 + 99 + 98}
    assert rk.yearly_ranking(cpp, 2022) == {2: 100 + 99 + 98 + 97}  # 2020–23: all count


def _open(key: int, standings: list[tuple[int, int]], *, table_games: int = 18, kind: str = "OPN",
          rounds: int = 3, day: dt.date = dt.date(2025, 3, 1)) -> rk.Event:
    return rk.Event(key, kind, table_games, rounds, day, day, standings)


def test_caps_come_from_the_number_of_valid_events_of_each_type() -> None:
    # 30 valid Open events: max(3, floor(13.5% × 30 = 4.05)) = 4 count; events below the minimum
    # of table-games do not raise N (and do not count themselves)
    events = [_open(i, [(1, 1 + i)]) for i in range(30)] + [_open(100 + i, [(1, 1)], table_games=5) for i in range(10)]
    year = rk.year_ranking(2025, events)
    assert year.valid_events == {"OPN": 30} and year.caps["OPN"] == 4
    card = year.players[0]
    reasons = {ln.event.key: ln.reason for ln in card.lines}
    assert [k for k, r in reasons.items() if r == rk.COUNTED] == [0, 1, 2, 3]  # the four best positions
    assert reasons[4] == rk.BEYOND_CAP and reasons[100] == rk.BELOW_MINIMUM
    assert card.points == rk.shown(sum(rk.vt_exact(1 + i, 18, "OPN", 3) for i in range(4)))
    # 37 valid: floor(4.995) = 4 still; 38: floor(5.13) = 5 (exact decimal percent, no float drift)
    assert rk.year_ranking(2025, [_open(i, [(1, 1)]) for i in range(37)]).caps["OPN"] == 4
    assert rk.year_ranking(2025, [_open(i, [(1, 1)]) for i in range(38)]).caps["OPN"] == 5
    # Raduno: max(1, floor(33.3% × 3)) = max(1, 0) = 1; Master 10 events: max(3, 3) = 3
    raduni = rk.year_ranking(2025, [_open(i, [(1, 1)], kind="RDN", table_games=50, rounds=4) for i in range(3)])
    assert raduni.caps["RDN"] == 1 and sum(ln.counted for ln in raduni.players[0].lines) == 1
    # 2019: every event counted, a single table-game suffices
    old = rk.year_ranking(2019, [_open(i, [(1, 1)], table_games=1) for i in range(9)])
    assert all(ln.counted for ln in old.players[0].lines)


def test_periodic_championships_since_2024_count_until_45_rounds() -> None:
    # 6 championships of 10 rounds (class 1): the rounds counted before adding each are 0, 10, 20,
    # 30, 40 → five count (the fifth takes the total to 50), the sixth does not
    champs = [_open(i, [(1, 1 + i)], kind="CPP", rounds=10, table_games=30) for i in range(6)]
    lines = rk.year_ranking(2024, champs).players[0].lines
    assert [ln.reason for ln in lines] == [rk.COUNTED] * 5 + [rk.BEYOND_ROUNDS]
    assert all(ln.counted for ln in rk.year_ranking(2023, champs).players[0].lines)  # 2020–23: all
    # class by declared rounds: a 2-round championship is class 0.2
    assert rk.year_ranking(2024, [_open(1, [(1, 1)], kind="CPP", rounds=2)]).players[0].points == D("28.3")


def test_types_without_a_class_and_blacklist_explained() -> None:
    events = [_open(1, [(1, 1), (2, 2)]), _open(2, [(1, 1)], kind="CNI"),
              _open(3, [(2, 1)], day=dt.date(2025, 9, 1))]
    year = rk.year_ranking(2025, events, blacklisted=lambda player, e: player == 2 and e.start.month == 9)
    cards = {p.player: p for p in year.players}
    assert [ln.reason for ln in cards[1].lines] == [rk.COUNTED, rk.NOT_RANKED_TYPE]
    assert [ln.reason for ln in cards[2].lines] == [rk.COUNTED, rk.BLACKLISTED]
    assert cards[2].lines[1].shown_vt == D("283.2")  # the VT is shown, it just does not count
    assert (cards[1].position, cards[2].position) == (1, 2)


def test_tied_event_positions_are_kept_and_a_tied_first_is_a_winner() -> None:
    # The pipeline reads the standings' positions as written (ties share one, 1, 1, 3) and gives
    # a = 1.2 to every position 1: two tied firsts are both winners, the next is 3rd.
    year = rk.year_ranking(2025, [_open(1, [(1, 1), (2, 1), (3, 3)])])
    lines = {p.player: p.lines[0] for p in year.players}
    assert [lines[p].position for p in (1, 2, 3)] == [1, 1, 3]
    assert lines[1].shown_vt == lines[2].shown_vt == D("283.2")  # 1.2 × 118 × 2 each
    assert lines[3].vt == rk.vt_exact(3, 18, "OPN", 3) and lines[3].shown_vt == D("203.1")


def test_year_rows_are_numbered_one_to_n_and_nothing_counted_is_unranked() -> None:
    # The ranking numbers its rows 1..n, never shared: by the unrounded total, and equal totals in
    # the order the players first appear in the year's events (the earlier event first, then its
    # standings order).
    events = [_open(2, [(5, 1), (6, 1)], day=dt.date(2025, 6, 1)), _open(1, [(9, 1), (7, 2)]),
              _open(3, [(4, 1)], table_games=2)]
    year = rk.year_ranking(2025, events)
    assert [(p.player, p.position) for p in year.players] == [(9, 1), (5, 2), (6, 3), (7, 4), (4, None)]
    # equal as shown but not exactly: the larger unrounded total is ahead, still 1..n
    close = [rk.Event(1, "OPN", 18, 3, dt.date(2025, 3, 1), dt.date(2025, 3, 1), [(1, 1)]),
             rk.Event(2, "OPN", 18, 3, dt.date(2025, 2, 1), dt.date(2025, 2, 1), [(2, 1)])]
    assert [(p.player, p.position) for p in rk.year_ranking(2025, close).players] == [(2, 1), (1, 2)]


def test_blacklist_compares_the_event_end_with_the_period_end() -> None:
    # The pipeline: an event begun within the period is lost only if it also ends by the
    # period's last day (one straddling the end still counts); an event begun before the period is
    # lost once it ends on or after the period's first day (one straddling the start is lost).
    d = dt.date
    period = (d(2025, 4, 1), d(2025, 6, 30))
    assert rk.excluded_by_blacklist(*period, d(2025, 5, 1), d(2025, 5, 2))  # inside
    assert rk.excluded_by_blacklist(*period, d(2025, 6, 30), d(2025, 6, 30))  # the last day itself
    assert not rk.excluded_by_blacklist(*period, d(2025, 6, 29), d(2025, 7, 1))  # straddles the end: counts
    assert rk.excluded_by_blacklist(*period, d(2025, 3, 31), d(2025, 4, 1))  # straddles the start: lost
    assert rk.excluded_by_blacklist(*period, d(2025, 3, 1), d(2025, 8, 1))  # spans the whole period: lost
    assert not rk.excluded_by_blacklist(*period, d(2025, 3, 1), d(2025, 3, 31))  # before
    assert not rk.excluded_by_blacklist(*period, d(2025, 7, 1), d(2025, 7, 2))  # after
    assert rk.excluded_by_blacklist(d(2025, 4, 1), None, d(2026, 1, 1), d(2026, 1, 2))  # open ended


def test_probable_duplicates_by_edit_distance_never_merged() -> None:
    assert levenshtein("rossi", "rosi") == 1 and levenshtein("", "abc") == 3
    known = [Candidate(1, "Mario", "Rossi", dt.date(1990, 1, 1)), Candidate(2, "Maria", "Bianchi", None),
             Candidate(3, "Mario", "Rossi", dt.date(1985, 5, 5))]
    found = probable_duplicates("Mario", "Rosi", dt.date(1990, 1, 1), known)
    assert [(d.player_id, d.distance, d.same) for d in found] == [(1, 1, False)]
    same = probable_duplicates("Mario", "Rossi", dt.date(1985, 5, 5), known)
    assert [(d.player_id, d.same) for d in same] == [(3, True), (1, False)]  # same names, other date: flagged
    assert probable_duplicates("Giuseppe", "Verdi", None, known) == []
