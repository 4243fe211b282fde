"""Reading records: problems of form are one FORMAT violation with event null, never a crash."""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.record import parse_record
from engine.replay import adjudicate
from engine.simulate import simulate

VALID = simulate(4, "record-tests")


def _format_only(verdict: dict[str, Any]) -> str:
    assert verdict["valid"] is False
    assert len(verdict["violations"]) == 1
    (v,) = verdict["violations"]
    assert v["event"] is None and v["rule"] == "FORMAT"
    assert verdict["ended_by"] == "incomplete" and verdict["scores"] == []
    return str(v["message"])


def test_bad_json_is_one_format_violation() -> None:
    assert "not JSON" in _format_only(adjudicate('{"format": "risiko-record/1", "players": ['))
    assert "not UTF-8" in _format_only(adjudicate(b"\xff\xfe\x00"))
    assert "JSON object" in _format_only(adjudicate("[1, 2, 3]"))


def test_unknown_territory_is_one_format_violation_naming_it() -> None:
    record = copy.deepcopy(VALID)
    record["events"][5]["territory"] = "Atlantide"
    assert "Atlantide" in _format_only(adjudicate(json.dumps(record)))


def test_unknown_event_type_is_one_format_violation() -> None:
    record = copy.deepcopy(VALID)
    record["events"].insert(3, {"type": "teleport", "to": "Cina"})
    assert "teleport" in _format_only(adjudicate(record))


def test_all_problems_are_listed_in_the_one_message() -> None:
    record = copy.deepcopy(VALID)
    record["format"] = "risiko-record/9"
    record["events"][0]["armies"] = "three"
    record["events"][1]["territory"] = 42
    message = _format_only(adjudicate(record))
    assert "risiko-record/9" in message and "events[0]" in message and "events[1]" in message


def test_other_malformed_parts() -> None:
    for key, value in [("ruleset", "CHESS"), ("map", "mars"), ("deal", {}), ("players", []),
                       ("events", "none"), ("objectives", ["x"])]:
        record = copy.deepcopy(VALID)
        record[key] = value
        _format_only(adjudicate(record))
    record = copy.deepcopy(VALID)
    record["players"][1]["seat"] = 3
    assert "turn order" in _format_only(adjudicate(record))


def test_spelling_variants_are_accepted_and_canonical() -> None:
    record = copy.deepcopy(VALID)
    for event in record["events"]:
        if event["type"] == "attack":
            event["from"] = event["from"].upper()
            event["to"] = event["to"].lower()
    parsed = parse_record(record)
    assert parsed.ok
    assert adjudicate(record) == adjudicate(VALID)


def test_parse_gives_typed_events() -> None:
    parsed = parse_record(json.dumps(VALID))
    assert parsed.ok and parsed.record is not None
    assert len(parsed.record.events) == len(VALID["events"])
    attack = next(e for e in parsed.record.events if e.type == "attack")
    assert attack.src and attack.dst and attack.attacker and attack.defender
    assert parsed.record.ruleset.id == "RTU" and parsed.record.board.id == "world"


json_like = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 100) | st.floats(allow_nan=True) | st.text(max_size=12)
    | st.sampled_from(["place", "attack", "Cina", "jolly", "risiko-record/1", "RTU", "world"]),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(
        st.sampled_from(["format", "ruleset", "map", "players", "deal", "events", "type", "seat",
                         "territory", "armies", "from", "to", "attacker", "defender", "cards", "draw",
                         "dice", "owners", "seed", "objective", "objectives", "base", "overrides"])
        | st.text(max_size=5),
        children, max_size=6),
    max_leaves=30,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_like)
def test_fuzz_random_json_never_raises(data: object) -> None:
    verdict = adjudicate(data)
    assert isinstance(verdict["valid"], bool)
    assert adjudicate(json.dumps(data)) == verdict or not isinstance(data, dict)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(VALID["events"]) - 1), st.sampled_from(
    ["type", "territory", "armies", "from", "to", "attacker", "defender", "cards", "draw", "dice", "seat"]),
    json_like)
def test_fuzz_one_field_of_a_valid_record_never_raises(index: int, key: str, value: object) -> None:
    record = copy.deepcopy(VALID)
    record["events"][index][key] = value
    verdict = adjudicate(record)
    assert verdict["valid"] in (True, False)
    for v in verdict["violations"]:
        assert "could not be replayed" not in v["message"]  # the safety net never catches a bug
        assert v["rule"] and (v["event"] is None or 0 <= v["event"] < len(record["events"]))


RECORDS = [simulate(n, f"shuffle-{n}", rs) for n, rs in ((4, "RTU"), (5, "CLASSIC"), (3, "TIME_ATTACK"))]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(RECORDS) - 1),
    edits=st.lists(
        st.tuples(st.sampled_from(["delete", "duplicate", "swap", "move_to_end"]), st.integers(0, 10_000),
                  st.integers(0, 10_000)),
        min_size=1, max_size=6,
    ),
)
def test_reordered_or_missing_events_are_violations_never_crashes(which: int, edits: list) -> None:
    """Deleting, repeating and swapping whole events gives rule violations, never the safety net."""
    record = copy.deepcopy(RECORDS[which])
    events = record["events"]
    for op, a, b in edits:
        i, j = a % len(events), b % len(events)
        if op == "delete" and len(events) > 1:
            del events[i]
        elif op == "duplicate":
            events.insert(i, copy.deepcopy(events[i]))
        elif op == "swap":
            events[i], events[j] = events[j], events[i]
        else:
            events.append(events.pop(i))
    verdict = adjudicate(record)
    for v in verdict["violations"]:
        assert "could not be replayed" not in v["message"], v
        assert v["rule"] != "FORMAT" or v["event"] is None
        assert v["event"] is None or 0 <= v["event"] < len(events)
    assert verdict["ended_by"] in ("objective", "sdadata", "elimination", "time", "deck", "incomplete")
