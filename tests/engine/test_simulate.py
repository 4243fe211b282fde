"""The simulator plays complete legal games: every one adjudicates valid (engine/simulate.py)."""

from __future__ import annotations

import itertools

import jsonschema
import pytest

from engine.replay import adjudicate
from engine.schema import record_schema
from engine.simulate import simulate

RULESETS = ("RTU", "CLASSIC", "TIME_ATTACK")
PLAYERS = (2, 3, 4, 5, 6)


def _games(seeds: range) -> list[tuple[str, int, str]]:
    return [(rs, n, f"prop-{k}") for rs, n, k in itertools.product(RULESETS, PLAYERS, seeds)]


def _check(games: list[tuple[str, int, str]]) -> dict[tuple[str, str], int]:
    endings: dict[tuple[str, str], int] = {}
    for rs, n, seed in games:
        record = simulate(n, seed, rs)
        verdict = adjudicate(record)
        assert verdict["valid"], (rs, n, seed, verdict["violations"][:3])
        assert verdict["ended_by"] != "incomplete", (rs, n, seed)
        assert len(verdict["scores"]) == n
        endings[(rs, verdict["ended_by"])] = endings.get((rs, verdict["ended_by"]), 0) + 1
    return endings


def test_every_simulated_game_adjudicates_valid_and_complete() -> None:
    endings = _check(_games(range(22)))  # 330 games, 2–6 players, three rule sets
    # the games really exercise every way a game ends
    assert endings.get(("RTU", "sdadata"), 0) > 20
    assert endings.get(("RTU", "objective"), 0) > 0
    assert endings.get(("TIME_ATTACK", "time"), 0) > 20
    assert endings.get(("CLASSIC", "objective"), 0) > 20
    assert sum(v for (rs, end), v in endings.items() if end == "elimination") > 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_thousands_of_simulated_games_adjudicate_valid(ruleset: str) -> None:
    # 3 × 5 × 80 = 1,200 more games (with the 330 above: 1,530 in every run, ≈ 9 ms each)
    games = [(rs, n, seed) for rs, n, seed in _games(range(22, 102)) if rs == ruleset]
    endings = _check(games)
    assert sum(endings.values()) == 400


def test_table_sizes_without_starting_armies_are_refused() -> None:
    from engine.violations import EngineError

    for players in (1, 7):
        with pytest.raises(EngineError) as err:
            simulate(players, "x")
        assert err.value.rule == "T-SIZE"


def test_same_seed_same_record_other_seed_other_game() -> None:
    assert simulate(4, "same") == simulate(4, "same")
    assert simulate(4, "same")["events"] != simulate(4, "other")["events"]
    assert simulate(5, "same", "CLASSIC") == simulate(5, "same", "CLASSIC")


def test_record_stands_on_its_own() -> None:
    record = simulate(4, "alone")
    dealt = {p["objective"] for p in record["players"]}
    assert dealt == set(record["objectives"])  # every objective card it dealt is written out
    assert all(len(cards) >= 5 for cards in record["objectives"].values())
    assert set(record["deal"]) == {"seed", "owners"} and len(record["deal"]["owners"]) == 42
    assert record["ruleset"] == "RTU"


def test_table_sizes_outside_the_rule_set_are_written_as_overrides() -> None:
    assert simulate(3, "t")["ruleset"] == {"base": "RTU", "overrides": {"min_players": 3, "max_players": 5}}
    two = simulate(2, "t")["ruleset"]
    assert two["overrides"]["deal_max_continent_share"] is None  # D-50 cannot hold for 2 players
    assert simulate(6, "t", "CLASSIC")["ruleset"] == "CLASSIC"


def test_rtu_games_go_through_time_expiry_and_sdadata() -> None:
    for k in range(10):
        record = simulate(4, f"clock-{k}")
        verdict = adjudicate(record)
        if verdict["ended_by"] != "sdadata":
            continue
        kinds = [e["type"] for e in record["events"]]
        assert kinds.count("time_expired") == 1
        assert kinds.index("time_expired") < kinds.index("sdadata")
        last_roll = [e for e in record["events"] if e["type"] == "sdadata"][-1]
        assert sum(last_roll["dice"]) <= 7 and kinds[-1] == "end_turn" and kinds[-2] == "sdadata"
        return
    pytest.fail("no RTU game ended by sdadata in 10 seeds")


def test_simulated_records_match_the_shipped_json_schema() -> None:
    schema = record_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for rs, n in itertools.product(RULESETS, PLAYERS):
        errors = list(validator.iter_errors(simulate(n, "schema", rs)))
        assert not errors, (rs, n, errors[0].message)
    bad = simulate(4, "schema")
    bad["events"][0]["type"] = "teleport"
    assert list(validator.iter_errors(bad))


OVERRIDDEN = [
    {"base": "RTU", "overrides": {"supplementary": "turns"}},
    {"base": "RTU", "overrides": {"sdadata_first_threshold": 2, "sdadata_threshold_step": 2, "sdadata_max_threshold": 12}},
    {"base": "RTU", "overrides": {"army_cap": 40, "sdadata_bar_conquests": 0}},
    {"base": "TIME_ATTACK", "overrides": {"reinforcement_plus_one": True, "deck_exhaustions_to_end": 2}},
    {"base": "TIME_ATTACK", "overrides": {"closure": "none", "deck_exhaustions_to_end": 1}},
    {"base": "CLASSIC", "overrides": {"defender_must_roll_max": True, "closure": "sdadata"}},
]


@pytest.mark.parametrize("spec", OVERRIDDEN, ids=lambda s: ",".join(s["overrides"]))
def test_games_under_overridden_rule_sets_adjudicate_valid(spec: dict) -> None:
    endings: dict[str, int] = {}
    for n in (3, 4, 5):
        for k in range(15):
            record = simulate(n, f"override-{k}", spec)
            assert record["ruleset"]["overrides"].items() >= spec["overrides"].items()
            verdict = adjudicate(record)
            assert verdict["valid"], (spec, n, k, verdict["violations"][:3])
            endings[verdict["ended_by"]] = endings.get(verdict["ended_by"], 0) + 1
    assert "incomplete" not in endings
