"""Rule sets are data: named parameters, overridable, mistakes named."""

import pytest

from engine.rulesets import RULESETS, get_ruleset
from engine.violations import EngineError


def test_three_rule_sets_with_the_documented_parameters():
    assert set(RULESETS) == {"RTU", "CLASSIC", "TIME_ATTACK"}
    rtu = get_ruleset("RTU")
    assert rtu.deal_max_continent_share == 0.5
    assert rtu.army_cap == 100
    assert rtu.defender_must_roll_max and rtu.attacker_dice_at_least_defender
    assert rtu.garrison_min_on_border == 2
    assert set(rtu.tris_values.values()) == {8, 10, 12}
    assert [rtu.starting_armies[n] for n in (3, 4, 5, 6)] == [35, 30, 25, 20]
    assert (rtu.sdadata_first_threshold, rtu.sdadata_max_threshold, rtu.time_limit_minutes) == (4, 7, 90)
    classic = get_ruleset("CLASSIC")
    assert classic.tris_values["three_cannoni"] == 4 and classic.tris_values["three_fanti"] == 6
    assert not classic.defender_must_roll_max and classic.deal_max_continent_share is None
    ta = get_ruleset("TIME_ATTACK")
    assert ta.hand_limit == 7 and ta.deal_order == "clockwise_from_seat2" and ta.closure == "time_attack"


def test_overrides_change_only_the_named_parameter():
    rs = get_ruleset({"base": "RTU", "overrides": {"time_limit_minutes": 60, "starting_armies": {"3": 33}}})
    assert rs.time_limit_minutes == 60
    assert rs.starting_armies[3] == 33
    assert rs.army_cap == 100
    assert get_ruleset("RTU").time_limit_minutes == 90


@pytest.mark.parametrize(
    ("spec", "named"),
    [
        ("RISIKO", "RISIKO"),
        ({"base": "RTU", "overrides": {"time_limt_minutes": 60}}, "time_limt_minutes"),
        ({"base": "RTU", "overrides": {"army_cap": "cento"}}, "army_cap"),
        ({"base": "RTU", "overrides": {"defender_must_roll_max": 1}}, "defender_must_roll_max"),
        ({"base": "RTU", "overrides": {"closure": "dice"}}, "closure"),
        ({"base": "RTU", "overrides": {"tris_values": {"three_jolly": 20}}}, "three_jolly"),
        ({"base": "NOPE"}, "NOPE"),
    ],
)
def test_mistakes_are_format_errors_naming_the_parameter(spec, named):
    with pytest.raises(EngineError) as err:
        get_ruleset(spec)
    assert err.value.rule == "FORMAT"
    assert named in err.value.message


def test_players_outside_the_table_size_are_refused():
    rtu = get_ruleset("RTU")
    rtu.check_players(5)
    with pytest.raises(EngineError) as err:
        rtu.check_players(6)
    assert err.value.rule == "T-SIZE"
    assert get_ruleset({"base": "RTU", "overrides": {"max_players": 6}}).max_players == 6


def test_equal_rule_sets_hash_alike_so_they_can_key_a_cache():
    a = get_ruleset("RTU")
    b = get_ruleset({"base": "RTU", "overrides": {"time_limit_minutes": 90}})
    c = get_ruleset({"base": "RTU", "overrides": {"time_limit_minutes": 60}})
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert {a: "x"}[b] == "x"


def test_as_dict_round_trips_through_overrides():
    rs = get_ruleset({"base": "CLASSIC", "overrides": {"hand_limit": 7, "army_cap": 120}})
    data = rs.as_dict()
    again = get_ruleset({"base": data.pop("id"), "overrides": data})
    assert again == rs


# every parameter the rules name (docs/rules.md), by rule id: (field, RTU, CLASSIC, TIME_ATTACK)
PARAMETERS = [
    ("T-SIZE", "min_players", 4, 3, 3),
    ("T-SIZE", "max_players", 5, 6, 6),
    ("D-DEAL", "deal_order", "counterclockwise_from_last", "counterclockwise_from_last", "clockwise_from_seat2"),
    ("D-50", "deal_max_continent_share", 0.5, None, None),
    ("D-ARMIES", "setup_armies_per_placement", 3, 3, 3),
    ("D-CAP", "army_cap", 100, None, None),
    ("R-PLUS1", "reinforcement_plus_one", False, False, False),
    ("C-TRIS", "tris_owned_territory_bonus", 2, 2, 2),
    ("C-DRAW", "jolly_cards", 2, 2, 2),
    ("C-HAND7", "hand_limit", None, None, 7),
    ("A-SRC", "max_attack_dice", 3, 3, 3),
    ("RTU-DEF-MAX", "defender_must_roll_max", True, False, False),
    ("RTU-DEF-MAX", "max_defence_dice", 3, 3, 3),
    ("RTU-ATT-DICE", "attacker_dice_at_least_defender", True, False, False),
    ("RTU-GARRISON", "garrison_min_on_border", 2, 1, 1),
    ("A-ELIM", "elimination_from_round", 5, 5, 5),
    ("O-RTU", "objectives", "rtu", "classic", "classic"),
    ("O-RTU", "objective_total", 86, 86, 86),
    ("E-TIME", "time_limit_minutes", 90, 90, 90),
    ("E-SUPP", "supplementary", "whole_rounds", "whole_rounds", "whole_rounds"),
    ("E-SDADATA", "closure", "sdadata", "none", "time_attack"),
    ("E-SDADATA", "sdadata_first_threshold", 4, 4, 4),
    ("E-SDADATA", "sdadata_threshold_step", 1, 1, 1),
    ("E-SDADATA", "sdadata_max_threshold", 7, 7, 7),
    ("E-SDADATA", "sdadata_dice", 2, 2, 2),
    ("E-BAR", "sdadata_bar_conquests", 2, 2, 2),
    ("S-RTU", "objective_points_risiko", 100, 100, 100),
    ("S-PLACE", "shared_places", False, False, False),
    ("S-TOURNAMENT", "tournament_place_bonus", (30, 15, 5), (30, 15, 5), (30, 15, 5)),
    ("S-TA", "deck_exhaustions_to_end", None, None, None),
    ("S-TA", "default_scoring", "S-RTU", "S-M1", "S-TA"),
]


@pytest.mark.parametrize(("rule", "name", "rtu", "classic", "ta"), PARAMETERS, ids=lambda v: str(v))
def test_every_parameter_rules_md_names_has_its_default(rule, name, rtu, classic, ta):
    values = [getattr(get_ruleset(rs), name) for rs in ("RTU", "CLASSIC", "TIME_ATTACK")]
    assert values == [rtu, classic, ta], rule


@pytest.mark.parametrize(("rule", "name", "rtu", "classic", "ta"), PARAMETERS, ids=lambda v: str(v))
def test_every_parameter_can_be_overridden_in_a_record(rule, name, rtu, classic, ta):
    from engine.record import parse_record
    from engine.simulate import simulate

    other = {
        bool: lambda v: not v, int: lambda v: v + 1, float: lambda v: 0.75, str: lambda v: v,
        tuple: lambda v: [40, 20, 10], type(None): lambda v: 3 if name != "hand_limit" else 9,
    }[type(rtu)](rtu)
    if isinstance(rtu, str):
        other = {"deal_order": "clockwise_from_seat2", "objectives": "classic", "supplementary": "turns",
                 "closure": "time_attack", "default_scoring": "S-M2"}[name]
    record = simulate(4, "override")
    record["ruleset"] = {"base": "RTU", "overrides": {name: other}}
    parsed = parse_record(record)
    assert parsed.record is not None, parsed.problems
    got = getattr(parsed.record.ruleset, name)
    assert got == (tuple(other) if isinstance(other, list) else other)
    assert got != rtu


def test_tris_values_by_rule_set():
    assert dict(get_ruleset("RTU").tris_values) == {
        "three_fanti": 8, "three_cannoni": 8, "three_cavalieri": 8, "one_each": 10, "jolly_two_alike": 12}
    assert dict(get_ruleset("CLASSIC").tris_values) == {
        "three_cannoni": 4, "three_fanti": 6, "three_cavalieri": 8, "one_each": 10, "jolly_two_alike": 12}
    assert [get_ruleset("CLASSIC").starting_armies[n] for n in (3, 4, 5, 6)] == [35, 30, 25, 20]
