"""Rule sets as data: one frozen object of named parameters per rule set.

Engine logic reads parameters (``rs.defender_must_roll_max``), never the rule set's name, so an
organizer can run "RTU with a 60-minute clock" as ``{"base": "RTU", "overrides":
{"time_limit_minutes": 60}}`` and every module follows. Rule ids are those of docs/rules.md.

Choices where the sources are silent (each one a parameter you can override):
- ``starting_armies[2] = 40``: the classic rulebook (3–6 players) gives no two-player value; 40 continues its
  step of 5 per player and is what most two-player house rules use.
- ``min_players``/``max_players``: RTU follows T-SIZE (4 or 5); CLASSIC the classic rulebook (3 to
  6); TIME_ATTACK RisiKo! Napoli (3 to 4 in the box, up to 6 with armies from another box). A 3- or
  6-player RTU table (K-TABLES) is an organizer's explicit override.
- D-50 (``deal_max_continent_share``) is written only in the tournament regulation,
  so CLASSIC and TIME_ATTACK deal without it.
- TIME_ATTACK ends on time by default (``deck_exhaustions_to_end = None``); RisiKo! Napoli suggests 2
  when the deck decides the end instead.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Any

from engine.violations import EngineError

TRIS_KINDS = ("three_fanti", "three_cannoni", "three_cavalieri", "one_each", "jolly_two_alike")
DEAL_ORDERS = ("counterclockwise_from_last", "clockwise_from_seat2")
CLOSURES = ("sdadata", "time_attack", "none")
SUPPLEMENTARY = ("whole_rounds", "turns")
OBJECTIVE_DECKS = ("rtu", "classic", "napoli")


def _frozen(mapping: Mapping[Any, int]) -> Mapping[Any, int]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class RuleSet:
    id: str  # "RTU" | "CLASSIC" | "TIME_ATTACK" (or the base of an overridden set)
    # T-SIZE
    min_players: int
    max_players: int
    # D-ARMIES (per player, by number of players) and D-DEAL / D-50
    starting_armies: Mapping[int, int]
    deal_order: str
    deal_max_continent_share: float | None
    # D-CAP
    army_cap: int | None
    # combat: A-SRC, RTU-DEF-MAX, RTU-ATT-DICE, RTU-GARRISON
    defender_must_roll_max: bool
    attacker_dice_at_least_defender: bool
    garrison_min_on_border: int
    # C-TRIS, C-HAND7, R-PLUS1
    tris_values: Mapping[str, int]
    tris_owned_territory_bonus: int
    reinforcement_plus_one: bool
    hand_limit: int | None
    # A-ELIM: the last territory of a player may be taken from this round on
    elimination_from_round: int
    # E-TIME, E-SUPP, E-SDADATA, E-BAR, S-TA
    time_limit_minutes: int
    closure: str
    sdadata_first_threshold: int
    sdadata_threshold_step: int
    sdadata_max_threshold: int
    sdadata_dice: int
    sdadata_bar_conquests: int  # conquering MORE than this many territories bars the roll
    supplementary: str
    # O-RTU / O-CLASSIC and scoring
    objectives: str  # the built-in deck: "rtu" | "classic" | "napoli"
    default_scoring: str
    shared_places: bool  # S-PLACE: ties share places (average bonus) instead of tie-breaks
    deck_exhaustions_to_end: int | None
    # placement and dice limits (the same in every edition, still data)
    setup_armies_per_placement: int = 3
    max_attack_dice: int = 3
    max_defence_dice: int = 3
    jolly_cards: int = 2
    tournament_place_bonus: tuple[float, ...] = (30, 15, 5)  # S-TOURNAMENT
    objective_points_risiko: int = 100  # S-RTU: making RisiKo! scores a fixed 100
    objective_total: int = 86  # O-RTU: every card is worth 86
    extra: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __hash__(self) -> int:
        # mapping fields are read-only views; hash the parameters so a rule set can key a cache
        return hash(json.dumps(self.as_dict(), sort_keys=True, default=str))

    def armies_for(self, players: int) -> int:
        """D-ARMIES: starting armies of each player at a table of ``players``."""
        try:
            return self.starting_armies[players]
        except KeyError:
            raise EngineError.coded("T-SIZE", "replay.no_starting_armies", ruleset=self.id, n=players) from None

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise EngineError.coded("T-SIZE", "ruleset.players", ruleset=self.id, least=self.min_players,
                                    most=self.max_players, n=players)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Mapping):
                value = {str(k): v for k, v in value.items()}
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out


_ARMIES = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
_CLASSIC_TRIS = {"three_cannoni": 4, "three_fanti": 6, "three_cavalieri": 8, "one_each": 10, "jolly_two_alike": 12}

RTU = RuleSet(
    id="RTU",
    min_players=4,
    max_players=5,
    starting_armies=_frozen(_ARMIES),
    deal_order="counterclockwise_from_last",
    deal_max_continent_share=0.5,
    army_cap=100,
    defender_must_roll_max=True,
    attacker_dice_at_least_defender=True,
    garrison_min_on_border=2,
    tris_values=_frozen({"three_fanti": 8, "three_cannoni": 8, "three_cavalieri": 8, "one_each": 10, "jolly_two_alike": 12}),
    tris_owned_territory_bonus=2,
    reinforcement_plus_one=False,
    hand_limit=None,
    elimination_from_round=5,
    time_limit_minutes=90,
    closure="sdadata",
    sdadata_first_threshold=4,
    sdadata_threshold_step=1,
    sdadata_max_threshold=7,
    sdadata_dice=2,
    sdadata_bar_conquests=2,
    supplementary="whole_rounds",
    objectives="rtu",
    default_scoring="S-RTU",
    shared_places=False,
    deck_exhaustions_to_end=None,
)

CLASSIC = replace(
    RTU,
    id="CLASSIC",
    min_players=3,
    max_players=6,
    deal_max_continent_share=None,
    army_cap=None,
    defender_must_roll_max=False,
    attacker_dice_at_least_defender=False,
    garrison_min_on_border=1,
    tris_values=_frozen(_CLASSIC_TRIS),
    closure="none",
    objectives="classic",
    default_scoring="S-M1",
)

TIME_ATTACK = replace(
    CLASSIC,
    id="TIME_ATTACK",
    deal_order="clockwise_from_seat2",
    hand_limit=7,
    closure="time_attack",
    default_scoring="S-TA",
)

RULESETS: Mapping[str, RuleSet] = MappingProxyType({rs.id: rs for rs in (RTU, CLASSIC, TIME_ATTACK)})

_CHOICES: dict[str, tuple[str, ...]] = {
    "deal_order": DEAL_ORDERS,
    "closure": CLOSURES,
    "supplementary": SUPPLEMENTARY,
    "objectives": OBJECTIVE_DECKS,
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _coerce(base: RuleSet, name: str, value: Any) -> Any:
    """Check one override against the type of the base value; the message names the parameter."""
    current = getattr(base, name)
    bad = EngineError.coded("FORMAT", "ruleset.invalid_value", name=name, value=repr(value))
    if name == "starting_armies":
        if not isinstance(value, Mapping):
            raise bad
        try:
            armies = {int(k): v for k, v in value.items()}
        except (TypeError, ValueError):
            raise bad from None
        if not all(_is_int(v) and v > 0 for v in armies.values()):
            raise bad
        return _frozen(armies)
    if name == "tris_values":
        if not isinstance(value, Mapping) or not set(value) <= set(TRIS_KINDS):
            unknown = sorted(set(value) - set(TRIS_KINDS)) if isinstance(value, Mapping) else value
            raise EngineError.coded("FORMAT", "ruleset.tris_kinds", unknown=str(unknown))
        if not all(_is_int(v) and v >= 0 for v in value.values()):
            raise bad
        return _frozen({**base.tris_values, **value})
    if name == "extra":
        if not isinstance(value, Mapping):
            raise bad
        return MappingProxyType(dict(value))
    if name == "tournament_place_bonus":
        if not isinstance(value, list | tuple) or not all(_is_int(v) or isinstance(v, float) for v in value):
            raise bad
        return tuple(value)
    if name in _CHOICES:
        if value not in _CHOICES[name]:
            raise EngineError.coded("FORMAT", "ruleset.not_a_choice", name=name, value=repr(value),
                                    choices=str(list(_CHOICES[name])))
        return value
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise bad
        return value
    if name == "deal_max_continent_share":
        if value is None or (isinstance(value, int | float) and not isinstance(value, bool) and 0 < value <= 1):
            return None if value is None else float(value)
        raise bad
    nullable = name in {"army_cap", "hand_limit", "deck_exhaustions_to_end"}
    if value is None and nullable:
        return None
    if isinstance(current, str):
        if not isinstance(value, str) or not value:
            raise bad
        return value
    if not _is_int(value) or value < 0:
        raise bad
    return value


def get_ruleset(spec: str | Mapping[str, Any] | RuleSet = "RTU") -> RuleSet:
    """``"RTU"``, ``{"base": "RTU", "overrides": {...}}`` or a RuleSet; anything unknown → FORMAT."""
    if isinstance(spec, RuleSet):
        return spec
    overrides: Mapping[str, Any]
    if isinstance(spec, str):
        base_name, overrides = spec, {}
    elif isinstance(spec, Mapping):
        unknown_keys = sorted(set(spec) - {"base", "overrides"})
        if unknown_keys:
            raise EngineError.coded("FORMAT", "ruleset.unknown_keys", keys=str(unknown_keys))
        base_name = spec.get("base", "RTU")
        overrides = spec.get("overrides") or {}
        if not isinstance(base_name, str) or not isinstance(overrides, Mapping):
            raise EngineError.coded("FORMAT", "ruleset.shape")
    else:
        raise EngineError.coded("FORMAT", "ruleset.type", kind=type(spec).__name__)
    base = RULESETS.get(base_name.upper()) if isinstance(base_name, str) else None
    if base is None:
        raise EngineError.coded("FORMAT", "ruleset.unknown", name=repr(base_name), known=", ".join(RULESETS))
    if not overrides:
        return base
    names = {f.name for f in dataclasses.fields(RuleSet)} - {"id"}
    changes: dict[str, Any] = {}
    for name, value in overrides.items():
        if name not in names:
            raise EngineError.coded("FORMAT", "ruleset.unknown_parameter", name=name)
        changes[name] = _coerce(base, name, value)
    result = replace(base, **changes)
    if result.min_players > result.max_players:
        raise EngineError.coded("FORMAT", "ruleset.min_over_max")
    if result.sdadata_first_threshold > result.sdadata_max_threshold:
        raise EngineError.coded("FORMAT", "ruleset.thresholds")
    return result
