"""Exact battle odds against enumeration and a seeded Monte Carlo run."""

import itertools
import math
import time

import pytest

from engine.dice import can_attack, defender_dice, max_attacker_dice, resolve
from engine.odds import conquest_table, odds, roll_distribution
from engine.rng import SeededRng
from engine.rulesets import get_ruleset

RTU = get_ruleset("RTU")
CLASSIC = get_ruleset("CLASSIC")


@pytest.mark.parametrize(("a", "d"), list(itertools.product((1, 2, 3), (1, 2, 3))))
def test_single_roll_distribution_equals_enumeration(a, d):
    counts = {}
    for faces in itertools.product(range(1, 7), repeat=a + d):
        key = resolve(faces[:a], faces[a:])
        counts[key] = counts.get(key, 0) + 1
    dist = roll_distribution(a, d)
    assert set(dist) == set(counts)
    for key, n in counts.items():
        assert dist[key] == pytest.approx(n / 6 ** (a + d), abs=1e-15)


def test_known_single_roll_values():
    # 1 die against 1: the attacker wins 15 of 36
    assert roll_distribution(1, 1)[(0, 1)] == pytest.approx(15 / 36)
    # 3 against 2: the classic 2890/7776 for the attacker winning both
    assert roll_distribution(3, 2)[(0, 2)] == pytest.approx(2890 / 7776)


@pytest.mark.parametrize(("rs", "a", "d"), [(RTU, 5, 3), (RTU, 10, 6), (CLASSIC, 5, 3), (CLASSIC, 4, 4), (RTU, 7, 2)])
def test_probabilities_sum_to_one(rs, a, d):
    o = odds(a, d, rs)
    assert sum(o.attacker_remaining.values()) == pytest.approx(1)
    assert sum(o.defender_remaining.values()) == pytest.approx(1)
    assert o.defender_remaining.get(0, 0) == pytest.approx(o.p_conquer)
    assert conquest_table(a, d, rs)[a][d] == pytest.approx(o.p_conquer)


def _simulate(rs, a, d, rng):
    while d > 0 and can_attack(rs, a, d):
        k, dd = max_attacker_dice(rs, a), defender_dice(rs, d)
        la, ld = resolve([rng.randint(1, 6) for _ in range(k)], [rng.randint(1, 6) for _ in range(dd)])
        a, d = a - la, d - ld
    return a, d


@pytest.mark.parametrize(("rs", "a", "d"), [(RTU, 6, 3), (CLASSIC, 6, 3), (RTU, 12, 8), (CLASSIC, 3, 2)])
def test_exact_odds_agree_with_monte_carlo(rs, a, d):
    rng = SeededRng(f"odds-{rs.id}-{a}-{d}", stream="monte-carlo")
    n = 4000
    ends = [_simulate(rs, a, d, rng) for _ in range(n)]
    exact = odds(a, d, rs)
    p = exact.p_conquer
    observed = sum(1 for _, left in ends if left == 0) / n
    assert abs(observed - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-9
    for left, q in exact.attacker_remaining.items():
        freq = sum(1 for x, _ in ends if x == left) / n
        assert abs(freq - q) <= 4 * math.sqrt(q * (1 - q) / n) + 1e-9, left


def test_rtu_and_classic_differ_where_the_dice_rule_bites():
    # 3 armies against 3: under RTU the attacker's 2 dice may not face 3, so it cannot attack
    assert odds(3, 3, RTU).p_conquer == 0
    assert odds(3, 3, RTU).attacker_remaining == {3: 1.0}
    assert odds(3, 3, CLASSIC).p_conquer > 0.05
    # the attack stops earlier under RTU, so RTU never conquers more often
    for a, d in itertools.product(range(2, 9), range(1, 7)):
        assert odds(a, d, RTU).p_conquer <= odds(a, d, CLASSIC).p_conquer + 1e-12
    # against a single defender the dice rule never bites
    assert odds(8, 1, RTU).p_conquer == pytest.approx(odds(8, 1, CLASSIC).p_conquer)
    # against 2, RTU stops at 2 attackers (1 die against 2) where CLASSIC fights on
    assert odds(8, 2, RTU).p_conquer < odds(8, 2, CLASSIC).p_conquer
    assert odds(2, 2, RTU).p_conquer == 0 < odds(2, 2, CLASSIC).p_conquer


def test_a_hopeless_attack_never_starts():
    o = odds(1, 5, RTU)
    assert o.p_conquer == 0 and o.attacker_remaining == {1: 1.0} and o.defender_remaining == {5: 1.0}


def test_hundred_against_hundred_is_fast():
    start = time.perf_counter()
    o = odds(100, 100, RTU)
    table = conquest_table(100, 100, RTU)
    assert time.perf_counter() - start < 1.0
    assert sum(o.attacker_remaining.values()) == pytest.approx(1)
    assert table[100][100] == pytest.approx(o.p_conquer)
    # more attackers never hurt
    assert all(table[a][50] <= table[a + 1][50] + 1e-12 for a in range(1, 100))
