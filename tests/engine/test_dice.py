"""A-RESOLVE, A-SRC, RTU-DEF-MAX and RTU-ATT-DICE on single rolls."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.dice import can_attack, check_roll, resolve
from engine.rulesets import get_ruleset

RTU = get_ruleset("RTU")
CLASSIC = get_ruleset("CLASSIC")


@pytest.mark.parametrize(
    ("attacker", "defender", "losses"),
    [
        ([6, 4, 2], [5, 5, 1], (1, 2)),
        ([4, 3, 1], [3, 3, 1], (2, 1)),
        ([5, 3, 2], [5], (1, 0)),
        ([4, 2], [3, 2, 1], (1, 1)),
    ],
)
def test_worked_examples_of_seed_003(attacker, defender, losses):
    assert resolve(attacker, defender) == losses


def test_order_of_the_dice_does_not_matter_and_scores_are_not_added():
    assert resolve([2, 6, 4], [1, 5, 5]) == (1, 2)
    # 1+1+6 = 8 beats 5 if summed; compared die by die the 6 beats the 5 and nothing else counts
    assert resolve([1, 1, 6], [5]) == (0, 1)


@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.lists(st.integers(1, 6), min_size=1, max_size=3))
def test_losses_add_up_to_the_compared_dice(attacker, defender):
    a, d = resolve(attacker, defender)
    assert a + d == min(len(attacker), len(defender))


def test_rtu_refuses_fewer_attack_dice_than_defence_dice():
    rules = [rule for rule, _ in check_roll(RTU, [4, 2], [3, 2, 1], 3, 3)]
    assert rules == ["RTU-ATT-DICE"]
    assert check_roll(CLASSIC, [4, 2], [3, 2, 1], 3, 3) == []


def test_rtu_defender_must_roll_the_maximum():
    rules = [rule for rule, _ in check_roll(RTU, [6, 5, 4], [3], 10, 5)]
    assert rules == ["RTU-DEF-MAX"]
    assert check_roll(CLASSIC, [6, 5, 4], [3], 10, 5) == []
    assert check_roll(RTU, [6, 5, 4], [3, 2], 10, 2) == []


def test_attacker_must_leave_an_army_behind():
    assert [r for r, _ in check_roll(CLASSIC, [6, 5, 4], [1], 3, 1)] == ["A-SRC"]
    assert [r for r, _ in check_roll(CLASSIC, [6], [1], 1, 1)] == ["A-SRC"]
    assert check_roll(CLASSIC, [6, 5], [1], 3, 1) == []


def test_dice_values_are_checked():
    assert ("FORMAT" in {r for r, _ in check_roll(RTU, [7, 1, 1], [1], 10, 1)})
    assert ("FORMAT" in {r for r, _ in check_roll(RTU, [1, 1, 1, 1], [1], 10, 1)})


def test_rtu_three_armies_cannot_attack_three():
    # 2 dice at most against an obligatory 3
    assert not can_attack(RTU, 3, 3)
    assert can_attack(CLASSIC, 3, 3)
    assert can_attack(RTU, 4, 3)


def test_check_roll_matches_enumeration_of_legal_counts():
    for a_armies, d_armies in itertools.product(range(1, 6), range(1, 5)):
        for a, d in itertools.product(range(1, 4), range(1, 4)):
            legal = check_roll(RTU, [6] * a, [1] * d, a_armies, d_armies) == []
            expected = a <= min(3, a_armies - 1) and d == min(3, d_armies) and a >= d
            assert legal == expected, (a_armies, d_armies, a, d)
