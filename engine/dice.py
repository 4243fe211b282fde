"""One roll of combat: A-SRC, RTU-DEF-MAX, RTU-ATT-DICE and A-RESOLVE."""

from __future__ import annotations

from collections.abc import Sequence

from engine.rulesets import RuleSet


def resolve(attacker: Sequence[int], defender: Sequence[int]) -> tuple[int, int]:
    """A-RESOLVE: (attacker_losses, defender_losses).

    Both rolls sorted high to low, compared pairwise over the shorter roll; ties go to the
    defender; scores are never added.
    """
    a_losses = d_losses = 0
    for a, d in zip(sorted(attacker, reverse=True), sorted(defender, reverse=True), strict=False):
        if a > d:
            d_losses += 1
        else:
            a_losses += 1
    return a_losses, d_losses


def max_attacker_dice(rs: RuleSet, armies: int) -> int:
    """A-SRC: up to 3 dice, always leaving one army behind (0: may not attack)."""
    return max(0, min(rs.max_attack_dice, armies - 1))


def defender_dice_range(rs: RuleSet, armies: int) -> tuple[int, int]:
    """(fewest, most) dice the defender may roll with ``armies`` on the territory (RTU-DEF-MAX)."""
    most = min(rs.max_defence_dice, armies)
    return (most if rs.defender_must_roll_max else 1), most


def defender_dice(rs: RuleSet, armies: int) -> int:
    """The dice the defender rolls when it defends as strongly as it may (always under RTU)."""
    return defender_dice_range(rs, armies)[1]


def min_attacker_dice(rs: RuleSet, defender_rolls: int) -> int:
    """RTU-ATT-DICE: the attacker may not roll fewer dice than the defender."""
    return defender_rolls if rs.attacker_dice_at_least_defender else 1


def can_attack(rs: RuleSet, attacking_armies: int, defending_armies: int) -> bool:
    """Whether any legal roll exists (A-SRC, and RTU-ATT-DICE against the defender's least roll)."""
    most = max_attacker_dice(rs, attacking_armies)
    fewest_defence = defender_dice_range(rs, defending_armies)[0]
    return most >= 1 and most >= min_attacker_dice(rs, fewest_defence)


def _check_values(side: str, dice: Sequence[int]) -> list[tuple[str, str]]:
    problems: list[tuple[str, str]] = []
    if not 1 <= len(dice) <= 3:
        problems.append(("FORMAT", f"{side} rolled {len(dice)} dice (1 to 3 expected)"))
    bad = [d for d in dice if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6]
    if bad:
        problems.append(("FORMAT", f"{side} dice must be whole numbers 1 to 6, not {bad}"))
    return problems


def check_roll(
    rs: RuleSet,
    attacker: Sequence[int],
    defender: Sequence[int],
    attacking_armies: int,
    defending_armies: int,
) -> list[tuple[str, str]]:
    """Every rule one roll breaks, as (rule id, message); empty when the roll is legal."""
    problems = _check_values("attacker", attacker) + _check_values("defender", defender)
    a, d = len(attacker), len(defender)
    if attacking_armies < 2:
        problems.append(("A-SRC", f"the attacking territory holds {attacking_armies} armies; at least 2 are needed"))
    elif a > max_attacker_dice(rs, attacking_armies):
        problems.append(
            ("A-SRC", f"attacker rolled {a} dice with {attacking_armies} armies (at most {max_attacker_dice(rs, attacking_armies)})")
        )
    fewest, most = defender_dice_range(rs, defending_armies)
    if d > most:
        problems.append(("RTU-DEF-MAX", f"defender rolled {d} dice with {defending_armies} armies (at most {most})"))
    elif d < fewest:
        problems.append(("RTU-DEF-MAX", f"defender must roll {fewest} dice with {defending_armies} armies, rolled {d}"))
    if d and a < min_attacker_dice(rs, d):
        problems.append(("RTU-ATT-DICE", f"attacker rolled {a} dice against {d}"))
    return problems
