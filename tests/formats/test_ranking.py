"""K-RANKING (scoring/ranking.py) with the clubs' tool's worked examples, and player identity."""

from __future__ import annotations

import datetime as dt

import pytest

from scoring import ranking as rk
from tournaments.identity import Candidate, levenshtein, probable_duplicates


def test_worked_examples_open_and_raduno() -> None:
    # Open, 3 rounds × 6 tables (T = 18): 1st 283.2, 2nd 213.5, 10th 143.1
    assert rk.contribution(1, 18, "OPN", 3) == pytest.approx(283.2)
    assert round(rk.contribution(2, 18, "OPN", 3), 1) == 213.5
    assert round(rk.contribution(10, 18, "OPN", 3), 1) == 143.1
    # Raduno, 80 players (T = 20 + 20 + 8 + 2 = 50): 1st 900, 2nd 678.6, 10th 454.9
    assert rk.contribution(1, 50, "RDN", 4) == pytest.approx(900)
    assert round(rk.contribution(2, 50, "RDN", 4), 1) == 678.6
    assert round(rk.contribution(10, 50, "RDN", 4), 1) == 454.9


def test_classes_and_the_minimum_table_games_by_year() -> None:
    assert [rk.event_class("CPP", r) for r in (2, 3, 4, 5, 6, 9)] == [0.2, 0.5, 0.7, 0.8, 1.0, 1.0]
    assert rk.event_class("CNI", 3) == 0 and rk.event_class("MST", 4) == 4
    standings = [rk.Standing(7, 1), rk.Standing(-1, 2), rk.Standing(8, 3)]
    assert rk.event_contributions(standings, table_games=5, event_type="OPN", rounds=3, year=2025) == {}
    assert set(rk.event_contributions(standings, table_games=6, event_type="OPN", rounds=3, year=2025)) == {7, 8}
    assert rk.event_contributions(standings, table_games=1, event_type="OPN", rounds=1, year=2019) != {}
    assert rk.rules_for(2023) is rk.YEAR_RULES[2020] and rk.rules_for(2031) is rk.YEAR_RULES[2024]


def test_yearly_caps_best_events_per_type() -> None:
    # 10 Open events nationally in 2025: a player counts max(3, floor(13.5% × 10)) = 3 of them
    results = [rk.Result(1, f"open{i}", "OPN", float(10 * i)) for i in range(10)]
    assert rk.yearly_ranking(results, 2025) == {1: 90 + 80 + 70}
    # Campionato 2024+: best events until 45 rounds (checked before adding each one)
    cpp = [rk.Result(2, f"cpp{i}", "CPP", 100.0 - i, rounds=20) for i in range(4)]
    assert rk.yearly_ranking(cpp, 2025) == {2: 100 + 99 + 98}
    assert rk.yearly_ranking(cpp, 2022) == {2: 100 + 99 + 98 + 97}  # 2020–23: all count


def test_probable_duplicates_by_edit_distance_never_merged() -> None:
    assert levenshtein("rossi", "rosi") == 1 and levenshtein("", "abc") == 3
    known = [Candidate(1, "Mario", "Rossi", dt.date(1990, 1, 1)), Candidate(2, "Maria", "Bianchi", None),
             Candidate(3, "Mario", "Rossi", dt.date(1985, 5, 5))]
    found = probable_duplicates("Mario", "Rosi", dt.date(1990, 1, 1), known)
    assert [(d.player_id, d.distance, d.same) for d in found] == [(1, 1, False)]
    same = probable_duplicates("Mario", "Rossi", dt.date(1985, 5, 5), known)
    assert [(d.player_id, d.same) for d in same] == [(3, True), (1, False)]  # same names, other date: flagged
    assert probable_duplicates("Giuseppe", "Verdi", None, known) == []
