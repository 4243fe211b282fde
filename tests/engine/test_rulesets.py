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
