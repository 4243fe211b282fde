"""K-KO-RCU: semifinals and finals by entrants (thresholds as data), banded semifinal tables with
club separation, the small-event 2/3/4-semifinal rule, and the final's empty seat."""

from __future__ import annotations

import pytest

from tables.knockout import band_tables, rcu_finalists, rcu_plan, rcu_semifinals
from tables.seating import SeatingError
from tournaments.formats import RCU_THRESHOLDS


@pytest.mark.parametrize(("entrants", "raduno", "master"), [
    (30, (True, 0, 1), (True, 0, 1)),
    (36, (True, 0, 1), (True, 0, 1)),
    (37, (False, 4, 1), (True, 0, 1)),
    (80, (False, 8, 2), (False, 4, 1)),
    (120, (False, 12, 3), (False, 8, 2)),
    (200, (False, 20, 5), (False, 16, 4)),
])
def test_plans_match_the_threshold_tables(entrants: int, raduno: tuple, master: tuple) -> None:  # type: ignore[type-arg]
    for kind, (small, semis, finals) in (("raduno", raduno), ("master", master)):
        plan = rcu_plan(entrants, kind)
        assert (plan.small, plan.semifinals, plan.finals) == (small, semis, finals), (kind, entrants)
        semis_phase = rcu_semifinals(list(range(1, entrants + 1)), kind,
                                     wins={1: 2, 2: 1}, points={1: 300, 2: 200, 3: 150})
        tables = [t for c in semis_phase.tables for t in c]
        assert all(len(t) == 4 for t in tables)
        if not small:
            assert len(tables) == semis and len(semis_phase.tables) == finals
            assert sorted(p for t in tables for p in t) == list(range(1, 16 * finals + 1))
    assert RCU_THRESHOLDS == {"raduno": (36, 76, 116, 156, 196), "master": (49, 99, 149, 199)}


def test_parallel_classes_and_one_player_of_each_band_per_semifinal() -> None:
    phase = rcu_semifinals(list(range(1, 81)), "raduno")  # 2 finals: odd positions / even positions
    first, second = phase.tables
    assert sorted(p for t in first for p in t) == list(range(1, 32, 2))
    assert sorted(p for t in second for p in t) == list(range(2, 33, 2))
    class_order = list(range(1, 32, 2))
    bands = [class_order[i:i + 4] for i in range(0, 16, 4)]
    for table in first:
        assert sorted(next(b for b, band in enumerate(bands) if p in band) for p in table) == [0, 1, 2, 3]


def test_same_club_kept_apart_first_when_possible() -> None:
    players = list(range(1, 17))
    clubs = {1: "A", 2: "B", 3: "C", 4: "D", 5: "A", 9: "A", 13: "A", 6: "B", 10: "B"}
    tables = band_tables(players, 4, clubs)
    assert all(len({clubs.get(p) for p in t if clubs.get(p)}) == sum(1 for p in t if clubs.get(p)) for t in tables)
    assert rcu_semifinals(players + list(range(17, 41)), "raduno", clubs=clubs).club_clashes == 0
    # impossible to separate: five players of one club at four tables leave exactly one pair
    crowded = dict.fromkeys((1, 2, 3, 4, 5), "A")
    assert sum(len(t) - len({crowded.get(p, p) for p in t}) for t in band_tables(players, 4, crowded)) == 1


def test_small_event_two_three_or_four_semifinals() -> None:
    standings = list(range(1, 31))
    two = rcu_semifinals(standings, wins={1: 2, 2: 2, 3: 2}, points={1: 190, 2: 180, 3: 150})
    assert two.semifinals == 2 and two.direct == ((1, 2),)
    assert sorted(p for t in two.tables[0] for p in t) == list(range(3, 11))
    three = rcu_semifinals(standings, wins={1: 2, 2: 1}, points={1: 190, 2: 150, 3: 140})
    assert three.semifinals == 3 and three.direct == ((1,),)
    assert sorted(p for t in three.tables[0] for p in t) == list(range(2, 14))
    tied = rcu_semifinals(standings, wins={1: 2, 2: 2, 3: 2}, points={1: 190, 2: 180, 3: 180})
    assert tied.semifinals == 3  # 2nd and 3rd tied: only the 1st goes straight
    four = rcu_semifinals(standings, wins={1: 1}, points={1: 190, 2: 180, 3: 170})
    assert four.semifinals == 4 and four.direct == ((),)
    assert sorted(p for t in four.tables[0] for p in t) == list(range(1, 17))
    gone = rcu_semifinals(standings, wins={1: 2, 2: 2}, points={1: 190, 2: 180, 3: 150}, withdrawn={2})
    assert gone.semifinals == 4 and 2 not in {p for t in gone.tables[0] for p in t}
    with pytest.raises(SeatingError):
        rcu_semifinals(list(range(1, 10)))  # fewer than 10 players


def test_final_takes_semifinal_winners_and_fills_an_empty_seat_with_the_best_loser() -> None:
    semis = [[5, 9, 12, 16], [6, 10, 11, 15], [7, 3, 14, 18]]
    assert rcu_finalists(semis, direct=[1]) == [1, 5, 6, 7]
    # the direct qualifier withdrew: best loser by table place (2nd), then standings (3 before 9, 10)
    assert rcu_finalists(semis, direct=[1], withdrawn={1}, standings=list(range(1, 20))) == [5, 6, 7, 3]
    # a semifinal winner withdrew: the next of that table is its best-placed player
    assert rcu_finalists(semis, direct=[1], withdrawn={5}) == [1, 9, 6, 7]
