"""Exact battle odds: a Markov chain over (attacking armies, defending armies).

Each roll moves the chain from (a, d) to (a − attacker losses, d − defender losses) with the
probabilities of :func:`roll_distribution`, found by enumerating all 6^(a+d) outcomes. The
attacker always rolls the most dice it may (A-SRC), the defender the most it may (always, under
RTU-DEF-MAX; under CLASSIC that is its strongest choice), and the attack stops when the
territory falls or the attacker may no longer attack: one army left, or — under RTU-ATT-DICE —
fewer dice available than the defender must roll.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from types import MappingProxyType

from engine.dice import defender_dice, max_attacker_dice, resolve
from engine.rulesets import RuleSet
from engine.violations import EngineError


@dataclass(frozen=True)
class Odds:
    p_conquer: float
    attacker_remaining: Mapping[int, float]  # armies left on the attacking territory when it stops
    defender_remaining: Mapping[int, float]  # 0 = conquered

    def as_dict(self) -> dict[str, object]:
        return {
            "p_conquer": self.p_conquer,
            "attacker_remaining": {str(k): v for k, v in sorted(self.attacker_remaining.items())},
            "defender_remaining": {str(k): v for k, v in sorted(self.defender_remaining.items())},
        }


@cache
def _exact_roll(a_dice: int, d_dice: int) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    counts: dict[tuple[int, int], int] = {}
    for faces in itertools.product(range(1, 7), repeat=a_dice + d_dice):
        losses = resolve(faces[:a_dice], faces[a_dice:])
        counts[losses] = counts.get(losses, 0) + 1
    total = 6 ** (a_dice + d_dice)
    return tuple(sorted((k, Fraction(v, total)) for k, v in counts.items()))


def roll_distribution(a_dice: int, d_dice: int) -> Mapping[tuple[int, int], float]:
    """(attacker losses, defender losses) → probability for one roll of a_dice against d_dice."""
    if not (1 <= a_dice <= 3 and 1 <= d_dice <= 3):
        raise EngineError("FORMAT", f"a roll is 1 to 3 dice a side, not {a_dice} against {d_dice}")
    return MappingProxyType({k: float(p) for k, p in _exact_roll(a_dice, d_dice)})


def _dice(rs: RuleSet, a: int, d: int) -> tuple[int, int] | None:
    """Dice rolled in state (a, d), or None when the attack must stop."""
    if d <= 0:
        return None
    k = max_attacker_dice(rs, a)
    dd = defender_dice(rs, d)
    if k < 1 or (rs.attacker_dice_at_least_defender and k < dd):
        return None
    return k, dd


_TRANSITIONS = {(k, dd): tuple((key, float(p)) for key, p in _exact_roll(k, dd)) for k in (1, 2, 3) for dd in (1, 2, 3)}


def odds(attackers: int, defenders: int, rs: RuleSet) -> Odds:
    """Exact distribution of how an all-out attack from ``attackers`` on ``defenders`` ends."""
    if attackers < 1 or defenders < 1:
        raise EngineError("FORMAT", f"odds need at least 1 army a side, not {attackers} against {defenders}")
    # probability mass of each live state; every roll lowers a + d, so sweep by decreasing total
    mass: dict[tuple[int, int], float] = {(attackers, defenders): 1.0}
    a_end: dict[int, float] = {}
    d_end: dict[int, float] = {}
    p_conquer = 0.0
    for total in range(attackers + defenders, 0, -1):
        for a in range(min(attackers, total), 0, -1):
            d = total - a
            if d < 0 or d > defenders:
                continue
            p = mass.pop((a, d), 0.0)
            if p == 0.0:
                continue
            dice = _dice(rs, a, d)
            if dice is None:
                a_end[a] = a_end.get(a, 0.0) + p
                d_end[d] = d_end.get(d, 0.0) + p
                if d == 0:
                    p_conquer += p
                continue
            for (la, ld), q in _TRANSITIONS[dice]:
                key = (a - la, d - ld)
                mass[key] = mass.get(key, 0.0) + p * q
    return Odds(p_conquer, MappingProxyType(dict(sorted(a_end.items()))), MappingProxyType(dict(sorted(d_end.items()))))


def conquest_table(max_attackers: int, max_defenders: int, rs: RuleSet) -> list[list[float]]:
    """``table[a][d]`` = probability that a armies conquer d (backward DP over the whole grid)."""
    table = [[0.0] * (max_defenders + 1) for _ in range(max_attackers + 1)]
    for a in range(1, max_attackers + 1):
        row = table[a]
        row[0] = 1.0
        for d in range(1, max_defenders + 1):
            dice = _dice(rs, a, d)
            if dice is None:
                continue  # the attack stops without conquest
            row[d] = sum(q * table[a - la][d - ld] for (la, ld), q in _TRANSITIONS[dice])
    return table
