"""K-KO (rounds planned back from the final) and K-KO-RCU (semifinals by entrants)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.knockout import (
    advance,
    plan_knockout,
    rcu_bands,
    rcu_classes,
    rcu_plan,
    rcu_small_semifinals,
)
from tables.seating import History, Options, SeatingError, SeatingPlayer, compose


def shape(plan):  # type: ignore[no-untyped-def]
    return [(r.players, r.tables, r.best_losers) for r in plan.rounds]


def test_seed_000_example_hundred_players_final_of_five() -> None:
    plan = plan_knockout(100, final_size=5)
    assert shape(plan) == [
        (100, (5,) * 20, 0),
        (20, (4,) * 5, 0),
        (5, (5,), 0),
    ]
    assert plan.rounds[-1].is_final
    assert plan.as_dict()["rounds"][1]["tables"] == [4] * 5


@pytest.mark.parametrize(
    ("entrants", "final", "expected"),
    [
        (20, 5, [(20, (4,) * 5, 0), (5, (5,), 0)]),
        (25, 5, [(25, (5,) * 5, 0), (5, (5,), 0)]),
        (64, 4, [(64, (4,) * 16, 0), (16, (4,) * 4, 0), (4, (4,), 0)]),
        (16, 4, [(16, (4,) * 4, 0), (4, (4,), 0)]),
        # No exact chain: the fewest best runners-up fill the next round.
        (30, 5, [(30, (4, 4, 4, 4, 4, 5, 5), 1), (8, (4, 4), 3), (5, (5,), 0)]),
    ],
)
def test_plans_for_other_counts(entrants: int, final: int, expected: list) -> None:  # type: ignore[type-arg]
    assert shape(plan_knockout(entrants, final)) == expected


@given(st.integers(min_value=8, max_value=600).filter(lambda n: n != 11), st.sampled_from([4, 5]))
@settings(max_examples=60, deadline=None)
def test_every_round_feeds_exactly_the_next(entrants: int, final: int) -> None:
    plan = plan_knockout(entrants, final)
    assert plan.rounds[0].players == entrants
    for current, following in zip(plan.rounds, plan.rounds[1:], strict=False):
        assert sum(current.tables) == current.players
        assert set(current.tables) <= {4, 5}
        assert current.winners == len(current.tables) >= 2
        assert following.players == current.advancing < current.players
    assert plan.rounds[-1].tables == (final,)


def test_impossible_knockouts_are_refused() -> None:
    with pytest.raises(SeatingError):
        plan_knockout(3, 4)
    with pytest.raises(SeatingError):
        plan_knockout(5, 4)  # one table of 5 then a final of 4 of the same players
    with pytest.raises(SeatingError):
        plan_knockout(100, 6)
    with pytest.raises(SeatingError) as caught:
        plan_knockout(11, 4)  # no first round of tables of 4 and 5: the organizer decides
    assert any("ghost" in option for option in caught.value.options)


def test_advance_takes_table_winners_and_asked_best_runners_up() -> None:
    plan = plan_knockout(30, 5)
    winners = list(range(1, 8))
    assert advance(plan, 1, winners, runners_up=[7, 50, 51]) == winners + [50]
    with pytest.raises(SeatingError):
        advance(plan, 1, winners[:-1], runners_up=[50])
    with pytest.raises(SeatingError):
        advance(plan, 1, winners)  # the plan needs one runner-up
    with pytest.raises(SeatingError):
        advance(plan, 3, [1])  # the final has no next round
    hundred = plan_knockout(100, 5)
    assert advance(hundred, 2, [1, 2, 3, 4, 5]) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("entrants", "raduno", "master"),
    [
        (30, None, None),
        (36, None, None),
        (37, (4, 16, 1), None),
        (49, (4, 16, 1), None),
        (50, (4, 16, 1), (4, 16, 1)),
        (76, (4, 16, 1), (4, 16, 1)),
        (77, (8, 32, 2), (4, 16, 1)),
        (80, (8, 32, 2), (4, 16, 1)),
        (100, (8, 32, 2), (8, 32, 2)),
        (120, (12, 48, 3), (8, 32, 2)),
        (196, (16, 64, 4), (12, 48, 3)),
        (200, (20, 80, 5), (16, 64, 4)),
        (400, (20, 80, 5), (16, 64, 4)),
    ],
)
def test_rcu_semifinals_by_entrants(entrants: int, raduno, master) -> None:  # type: ignore[no-untyped-def]
    for kind, expected in (("raduno", raduno), ("master", master)):
        plan = rcu_plan(entrants, kind)
        if expected is None:
            assert plan.small and plan.semifinals == 0 and plan.finals == 1
        else:
            assert not plan.small
            assert (plan.semifinals, plan.semifinalists, plan.finals) == expected


def test_rcu_small_events() -> None:
    with pytest.raises(SeatingError):
        rcu_plan(9, "raduno")
    # 1st and 2nd won both games, 2nd strictly ahead of 3rd: 2 semis of places 3–10.
    two = rcu_small_semifinals(wins=[2, 2, 1], points=[190, 180, 150])
    assert (two.semifinals, two.direct_to_final, two.first_place, two.last_place) == (2, 2, 3, 10)
    # Only 1st won both: 3 semis of places 2–13.
    three = rcu_small_semifinals(wins=[2, 1, 1], points=[190, 150, 140])
    assert (three.semifinals, three.direct_to_final, three.first_place) == (3, 1, 2)
    # 2nd and 3rd tied, even if both leaders won twice: 3 semis.
    assert rcu_small_semifinals(wins=[2, 2, 2], points=[190, 180, 180]).semifinals == 3
    # 1st did not win both, or all three tied, or a leader withdrew: 4 semis of the top 16.
    assert rcu_small_semifinals(wins=[1, 1, 1], points=[150, 140, 130]).semifinals == 4
    assert rcu_small_semifinals(wins=[2, 2, 2], points=[180, 180, 180]).semifinals == 4
    four = rcu_small_semifinals(wins=[2, 2, 0], points=[190, 180, 100], withdrawn=[False, True])
    assert (four.semifinals, four.last_place) == (4, 16)


def test_rcu_classes_and_bands_give_one_player_of_each_band_per_semifinal() -> None:
    standings = list(range(1, 33))  # 77–116 Raduno entrants → 2 finals, 32 semifinalists
    classes = rcu_classes(standings, 2)
    assert classes[0][:3] == [1, 3, 5] and classes[1][:3] == [2, 4, 6]
    bands = rcu_bands(classes[0])
    assert [len(b) for b in bands] == [4, 4, 4, 4]
    band_of = {pid: k for k, band in enumerate(bands) for pid in band}
    # Club separation first, then bands (K-KO-RCU): the band is passed as the "region".
    players = [SeatingPlayer(pid, club=f"c{pid % 3}", region=f"band{band_of[pid]}")
               for pid in classes[0]]
    options = Options(prefer="fours", priorities=("club_apart", "region_apart"))
    comp = compose(players, History(), options, "semis")
    assert len(comp.tables) == 4
    assert comp.report["same_club_pairs"] == comp.report["lower_bounds"]["club_apart"]
    for table in comp.tables:
        assert sorted(band_of[p] for p in table) == [0, 1, 2, 3]
