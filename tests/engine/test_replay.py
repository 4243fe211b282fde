"""The adjudicator: verdict shape, replay from recorded dice, several violations, B-MAP, scores."""

from __future__ import annotations

import copy
from typing import Any

from engine.board import load_board
from engine.deal import deal
from engine.record import parse_record
from engine.replay import Replay, adjudicate
from engine.rulesets import get_ruleset
from engine.simulate import simulate

WORLD = load_board("world")


def state_before(record: dict[str, Any], index: int) -> Replay:
    cut = copy.deepcopy(record)
    cut["events"] = cut["events"][:index]
    parsed = parse_record(cut)
    assert parsed.record is not None
    game = Replay(parsed.record)
    game.run()
    return game


def test_verdict_has_the_contract_shape_and_a_consistent_final_board() -> None:
    record = simulate(5, "shape")
    verdict = adjudicate(record)
    assert set(verdict) == {"valid", "violations", "ended_by", "rounds", "final", "scores"}
    assert verdict["valid"] is True and verdict["violations"] == []
    assert verdict["ended_by"] in ("objective", "sdadata", "elimination")
    owners, armies = verdict["final"]["owners"], verdict["final"]["armies"]
    assert set(owners) == set(armies) == set(WORLD.territories)
    assert all(a >= 1 for a in armies.values())
    scores = verdict["scores"]
    assert sorted(s["place"] for s in scores) == [1, 2, 3, 4, 5]
    for s in scores:
        assert s["armies"] == sum(armies[t] for t, o in owners.items() if o == s["seat"])
    if verdict["ended_by"] != "objective":  # S-RTU: objective + extra points of everyone = 164
        assert sum(s["game_score"] + s["extra_objective"] for s in scores) == 164
    first = next(s for s in scores if s["place"] == 1)
    assert first["tournament_points"] == first["game_score"] + 30


def test_same_record_same_verdict() -> None:
    record = simulate(4, "again")
    assert adjudicate(record) == adjudicate(copy.deepcopy(record))


def test_attacks_apply_the_recorded_dice_ties_to_the_defender() -> None:
    record = simulate(4, "dice")
    i = next(j for j, e in enumerate(record["events"])
             if e["type"] == "attack" and len(e["attacker"]) == 3 and len(e["defender"]) == 3)
    attack = record["events"][i]
    attack["attacker"], attack["defender"] = [6, 4, 2], [5, 5, 1]  # A-RESOLVE's example: attacker −1, defender −2
    before = state_before(record, i)
    after = state_before(record, i + 1)
    assert after.armies[attack["from"]] == before.armies[attack["from"]] - 1
    assert after.armies[attack["to"]] == before.armies[attack["to"]] - 2
    attack["attacker"], attack["defender"] = [4, 3, 1], [3, 3, 1]  # attacker −2, defender −1
    after = state_before(record, i + 1)
    assert after.armies[attack["from"]] == before.armies[attack["from"]] - 2
    assert after.armies[attack["to"]] == before.armies[attack["to"]] - 1


def test_replay_goes_on_and_lists_every_violation() -> None:
    record = simulate(4, "many")
    events = record["events"]
    first = next(j for j, e in enumerate(events) if e["type"] == "attack")
    events[first]["attacker"][0] = 9
    last = max(j for j, e in enumerate(events) if e["type"] == "attack" and len(e["defender"]) >= 2)
    events[last]["defender"].pop()
    rules = {(v["rule"], v["event"]) for v in adjudicate(record)["violations"]}
    assert ("A-RESOLVE", first) in rules and ("RTU-DEF-MAX", last) in rules


def test_an_unfinished_record_is_incomplete_and_not_scored() -> None:
    record = simulate(4, "cut")
    record["events"] = record["events"][: len(record["events"]) // 2]
    verdict = adjudicate(record)
    assert verdict["valid"] and verdict["ended_by"] == "incomplete" and verdict["scores"] == []
    assert len(verdict["final"]["owners"]) == 42


def test_deal_by_owners_only_is_checked_and_by_seed_only_rederived() -> None:
    record = simulate(4, "owners")
    only_owners = copy.deepcopy(record)
    del only_owners["deal"]["seed"]
    only_seed = copy.deepcopy(record)
    del only_seed["deal"]["owners"]
    assert adjudicate(only_owners) == adjudicate(record) == adjudicate(only_seed)


def test_a_scoring_only_map_cannot_host_attacks() -> None:
    napoli = load_board("napoli")
    rs = get_ruleset("CLASSIC")
    owners = deal(napoli, 4, "napoli", rs)
    mine = next(t for t, s in owners.items() if s == 1)
    theirs = next(t for t, s in owners.items() if s == 2)
    record = {
        "format": "risiko-record/1",
        "ruleset": {"base": "CLASSIC", "overrides": {"starting_armies": {"4": 1}}},
        "map": "napoli",
        "players": [{"seat": s, "name": f"P{s}"} for s in range(1, 5)],
        "deal": {"owners": owners},
        "events": [{"type": "attack", "from": mine, "to": theirs, "attacker": [6], "defender": [1]}],
    }
    violations = adjudicate(record)["violations"]
    assert ("B-MAP", 0) in {(v["rule"], v["event"]) for v in violations}
    assert "scoring-only" in next(v["message"] for v in violations if v["rule"] == "B-MAP")


def test_draws_not_named_means_no_hand_checks() -> None:
    record = simulate(4, "nodraw")
    for e in record["events"]:
        e.pop("draw", None)
    tris = [j for j, e in enumerate(record["events"]) if e["type"] == "tris"]
    assert tris
    verdict = adjudicate(record)
    assert verdict["valid"], verdict["violations"][:3]


def test_classic_destroy_colour_falls_back_to_24_territories() -> None:
    from engine.objectives import default_deck
    from engine.replay import objective_reached

    card = default_deck("classic")["CL-09"]  # destroy the black armies
    owners = {t: (1 if k < 24 else 2) for k, t in enumerate(WORLD.territories)}
    armies = dict.fromkeys(owners, 1)
    colours = {1: "blu", 2: "nere", 3: "rosse"}
    assert not objective_reached(card, 1, owners, armies, WORLD, colours, {})  # black still plays
    assert objective_reached(card, 1, owners, armies, WORLD, colours, {2: 1})  # seat 1 destroyed black
    assert objective_reached(card, 1, owners, armies, WORLD, colours, {2: 3})  # someone else did: 24
    fewer = {t: (1 if k < 20 else 3) for k, t in enumerate(WORLD.territories)}
    assert not objective_reached(card, 1, fewer, armies, WORLD, colours, {2: 3})


def test_time_attack_can_end_when_the_deck_runs_out() -> None:
    spec = {"base": "TIME_ATTACK", "overrides": {"deck_exhaustions_to_end": 1, "closure": "none"}}
    for k in range(30):
        record = simulate(4, f"deck-{k}", spec)
        verdict = adjudicate(record)
        assert verdict["valid"], verdict["violations"][:3]
        if verdict["ended_by"] != "deck":
            continue
        draws = [e["draw"] for e in record["events"] if e.get("draw")]
        assert len(draws) >= 44  # the whole deck of 42 territories + 2 jolly was drawn
        assert record["events"][-1]["type"] == "end_turn" and "draw" in record["events"][-1]
        assert len(verdict["scores"]) == 4
        record["events"].append({"type": "end_turn"})
        rules = {(v["rule"], v["event"]) for v in adjudicate(record)["violations"]}
        assert ("S-TA", len(record["events"]) - 1) in rules
        return
    raise AssertionError("no game ended by the deck")


def test_a_scoring_only_map_says_so_for_moves_too() -> None:
    napoli = load_board("napoli")
    owners = deal(napoli, 4, "napoli-move", get_ruleset("CLASSIC"))
    held = {s: [t for t, o in owners.items() if o == s] for s in range(1, 5)}
    # 12 starting armies each: set-up places what is left after one army per district
    events: list[dict[str, Any]] = [
        {"type": "place", "territory": held[s][0], "armies": 12 - len(held[s])} for s in range(1, 5)
    ]
    reinforcements = len(held[1]) // 3
    events += [
        {"type": "place", "territory": held[1][0], "armies": reinforcements},
        {"type": "move", "from": held[1][0], "to": held[1][1], "armies": 1},
        {"type": "end_turn"},
    ]
    record = {
        "format": "risiko-record/1",
        "ruleset": {"base": "CLASSIC", "overrides": {"starting_armies": {"4": 12}}},
        "map": "napoli",
        "players": [{"seat": s, "name": f"P{s}"} for s in range(1, 5)],
        "deal": {"owners": owners},
        "events": events,
    }
    verdict = adjudicate(record)
    assert [(v["rule"], v["event"]) for v in verdict["violations"]] == [("B-MAP", len(events) - 2)]
    message = verdict["violations"][0]["message"]
    assert "scoring-only" in message and "napoli" in message
