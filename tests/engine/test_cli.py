"""``python -m engine``: every command, its JSON and its exit codes, run as a real process."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.replay import adjudicate
from engine.simulate import simulate

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return simulate(4, "cli")


def write(tmp_path: Path, name: str, data: object) -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_adjudicate_valid_invalid_and_unusable(tmp_path: Path, record: dict[str, Any]) -> None:
    ok = run("adjudicate", write(tmp_path, "ok.json", record), "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout) == adjudicate(record)

    broken = copy.deepcopy(record)
    i = next(j for j, e in enumerate(broken["events"]) if e["type"] == "attack")
    broken["events"][i]["defender"] = broken["events"][i]["defender"] + [6, 6, 6]
    bad = run("adjudicate", write(tmp_path, "bad.json", broken), "--json")
    assert bad.returncode == 1
    assert {"event": i, "rule": "RTU-DEF-MAX"}.items() <= json.loads(bad.stdout)["violations"][0].items()

    text = run("adjudicate", write(tmp_path, "bad.json", broken))
    assert text.returncode == 1 and f"event {i}: RTU-DEF-MAX" in text.stdout

    for name, content in [("notjson.json", "{nope"), ("territory.json", json.dumps(
            {**record, "events": [{"type": "place", "territory": "Atlantide", "armies": 1}]}))]:
        out = run("adjudicate", write(tmp_path, name, content), "--json")
        assert out.returncode == 2
        verdict = json.loads(out.stdout)
        assert [(v["event"], v["rule"]) for v in verdict["violations"]] == [(None, "FORMAT")]
        assert out.stderr.strip() and "\n" not in out.stderr.strip()

    missing = run("adjudicate", str(tmp_path / "missing.json"), "--json")
    assert missing.returncode == 2 and json.loads(missing.stdout)["violations"][0]["rule"] == "FORMAT"


def test_deal_one_and_many() -> None:
    one = run("deal", "--players", "4", "--seed", "s1", "--json")
    assert one.returncode == 0
    deal = json.loads(one.stdout)
    assert deal["seed"] == "s1" and deal["players"] == 4 and len(deal["owners"]) == 42
    assert sorted(list(deal["owners"].values()).count(s) for s in (1, 2, 3, 4)) == [10, 10, 11, 11]
    assert json.loads(run("deal", "--players", "4", "--seed", "s1", "--json").stdout) == deal

    many = run("deal", "--players", "5", "--seed", "s1", "--count", "3", "--json")
    lines = many.stdout.strip().splitlines()
    assert many.returncode == 0 and len(lines) == 3
    seeds = [json.loads(line)["seed"] for line in lines]
    assert len(set(seeds)) == 3 and "s1" not in seeds

    human = run("deal", "--players", "4", "--seed", "s1")
    assert human.returncode == 0 and "seat 4 (11)" in human.stdout
    assert run("deal", "--players", "4", "--seed", "s1", "--map", "mars").returncode == 2


def test_simulate_writes_a_record_that_adjudicates_valid(tmp_path: Path) -> None:
    out = run("simulate", "--players", "5", "--seed", "cli-sim", "--ruleset", "RTU", "--json")
    assert out.returncode == 0
    record = json.loads(out.stdout)
    assert record == simulate(5, "cli-sim")
    check = run("adjudicate", write(tmp_path, "sim.json", out.stdout), "--json")
    assert check.returncode == 0 and json.loads(check.stdout)["valid"]
    human = run("simulate", "--players", "4", "--seed", "x", "--ruleset", "CLASSIC")
    assert human.returncode == 0 and "ended by" in human.stdout
    assert run("simulate", "--players", "4", "--seed", "x", "--ruleset", "CHESS").returncode == 2


def test_odds() -> None:
    out = run("odds", "3", "2", "--json")
    assert out.returncode == 0
    odds = json.loads(out.stdout)
    assert 0 < odds["p_conquer"] < 1
    assert abs(sum(odds["attacker_remaining"].values()) - 1) < 1e-9
    assert abs(odds["defender_remaining"]["0"] - odds["p_conquer"]) < 1e-9
    assert run("odds", "3", "2").returncode == 0


def test_score_a_final_board(tmp_path: Path) -> None:
    record = simulate(4, "cli-score")
    verdict = adjudicate(record)
    board = {
        "map": "world", "ruleset": "RTU", "ended_by": verdict["ended_by"],
        "players": [{"seat": p["seat"], "objective": p["objective"], "eliminated": None} for p in record["players"]],
        "objectives": record["objectives"],
        "owners": verdict["final"]["owners"], "armies": verdict["final"]["armies"],
    }
    out = run("score", write(tmp_path, "board.json", board), "--json")
    assert out.returncode == 0, out.stderr
    scores = json.loads(out.stdout)["scores"]
    strip = [{k: s[k] for k in ("seat", "game_score", "place", "tournament_points")} for s in scores]
    assert strip == [{k: s[k] for k in ("seat", "game_score", "place", "tournament_points")} for s in verdict["scores"]]

    impossible = copy.deepcopy(board)
    gone = next(iter(impossible["owners"]))
    del impossible["owners"][gone]
    del impossible["armies"][gone]
    bad = run("score", write(tmp_path, "bad.json", impossible), "--json")
    assert bad.returncode == 1
    assert any(v["rule"] for v in json.loads(bad.stdout)["violations"])
    assert run("score", write(tmp_path, "nojson.json", "{")).returncode == 2


def test_resolve() -> None:
    out = run("resolve", "--attacker", "6", "4", "2", "--defender", "5", "5", "1", "--json")
    assert out.returncode == 0 and json.loads(out.stdout) == {"attacker_losses": 1, "defender_losses": 2}
    illegal = run("resolve", "--attacker", "4", "2", "--defender", "3", "2", "1", "--json")
    assert illegal.returncode == 1 and json.loads(illegal.stdout)["violations"][0]["rule"] == "RTU-ATT-DICE"
    classic = run("resolve", "--attacker", "4", "2", "--defender", "3", "2", "1", "--ruleset", "CLASSIC", "--json")
    assert classic.returncode == 0 and json.loads(classic.stdout) == {"attacker_losses": 1, "defender_losses": 1}
    assert run("resolve", "--attacker", "7", "--defender", "1").returncode == 2
    assert "attacker loses 1" in run("resolve", "--attacker", "6", "4", "2", "--defender", "5", "5", "1").stdout


def test_usage_errors_exit_2() -> None:
    out = run("deal", "--players", "four", "--seed", "x")
    assert out.returncode == 2 and out.stderr.strip()
    assert run().returncode == 2
    assert run("teleport").returncode == 2


def _final_board(seed: str, ended_by: str) -> dict[str, Any]:
    for k in range(40):
        record = simulate(4, f"{seed}-{k}")
        verdict = adjudicate(record)
        if verdict["ended_by"] == ended_by:
            return {
                "map": "world", "ruleset": "RTU", "ended_by": ended_by,
                "players": [{"seat": p["seat"], "objective": p["objective"], "eliminated": None}
                            for p in record["players"]],
                "objectives": record["objectives"],
                "owners": verdict["final"]["owners"], "armies": verdict["final"]["armies"],
                "_verdict": verdict,
            }
    raise AssertionError(f"no game ended by {ended_by}")


def _owned_twice(board: dict[str, Any]) -> str:
    # the same territory under two spellings, the second for another seat: raw JSON text
    text = json.dumps(board)
    owner = board["owners"]["Cita"]
    return text.replace('"owners": {', f'"owners": {{"\\u010cita": {owner % 4 + 1}, ', 1)


def _not_held(board: dict[str, Any]) -> dict[str, Any]:
    card = board["objectives"][board["players"][0]["objective"]]
    taken = next(t for t in card if board["owners"][t] == 1)
    board["owners"][taken] = 2
    return board


@pytest.mark.parametrize(
    ("name", "change", "rule"),
    [
        ("a territory missing", lambda b: (b["owners"].pop("Cina"), b["armies"].pop("Cina"), b)[-1], "B-MAP"),
        ("points not adding up to 164", lambda b: (b["owners"].pop("Cina"), b["armies"].pop("Cina"), b)[-1],
         "S-PLACE"),
        ("owned twice", _owned_twice, "B-MAP"),
        ("0 armies", lambda b: (b["armies"].update({"Cina": 0}), b)[-1], "A-OCCUPY"),
        ("more than 100 for a player", lambda b: (b["armies"].update(
            {t: 30 for t, s in b["owners"].items() if s == 1}), b)[-1], "D-CAP"),
        ("a claimed objective not held", lambda b: _not_held({**b, "ended_by": "objective"}), "O-RTU"),
    ],
)
def test_score_refuses_impossible_boards_with_rule_ids(tmp_path: Path, name: str, change: Any, rule: str) -> None:
    board = _final_board("imp", "sdadata")
    board.pop("_verdict")
    board = change(copy.deepcopy(board))
    out = run("score", write(tmp_path, "board.json", board), "--json")
    assert out.returncode == 1, (name, out.stdout, out.stderr)
    result = json.loads(out.stdout)
    assert result["valid"] is False
    assert rule in {v["rule"] for v in result["violations"]}, (name, result["violations"])
    human = run("score", write(tmp_path, "board.json", board))
    assert human.returncode == 1 and f"{rule}:" in human.stdout


def test_score_objective_ending_and_tiebreak_of_every_place(tmp_path: Path) -> None:
    board = _final_board("won", "objective")
    verdict = board.pop("_verdict")
    out = run("score", write(tmp_path, "board.json", board), "--json")
    assert out.returncode == 0, out.stderr
    scores = json.loads(out.stdout)["scores"]
    assert all("tiebreak" in s for s in scores)  # null where no tie-break was needed
    winner = next(s for s in scores if s["place"] == 1)
    assert winner["game_score"] == 100 and winner["tournament_points"] == 130
    assert [s["place"] for s in scores] == [s["place"] for s in verdict["scores"]]
    # another scoring system on the same board
    m1 = json.loads(run("score", write(tmp_path, "board.json", board), "--scoring", "S-M1", "--json").stdout)
    assert next(s for s in m1["scores"] if s["seat"] == winner["seat"])["game_score"] >= 50
    assert run("score", write(tmp_path, "board.json", board), "--scoring", "S-NOPE").returncode == 2


def test_unusable_boards_exit_2_with_one_line(tmp_path: Path) -> None:
    board = _final_board("bad", "sdadata")
    board.pop("_verdict")
    for broken in (
        {**board, "owners": {**board["owners"], "Atlantide": 1}},
        {**board, "armies": {**board["armies"], "Cina": "tre"}},
        {**board, "map": "marte"},
        {**board, "ruleset": "CHESS"},
        {k: v for k, v in board.items() if k != "players"},
        [1, 2],
    ):
        out = run("score", write(tmp_path, "board.json", broken), "--json")
        assert out.returncode == 2, (broken if isinstance(broken, list) else sorted(broken), out.stdout)
        assert out.stderr.strip() and "\n" not in out.stderr.strip() and "Traceback" not in out.stderr


def test_simulate_refuses_a_table_size_it_cannot_deal_armies_for() -> None:
    out = run("simulate", "--players", "7", "--seed", "x", "--json")
    assert out.returncode == 2 and out.stderr.startswith("T-SIZE")


def test_deal_takes_a_rule_set_object_and_follows_its_deal_order() -> None:
    out = run("deal", "--players", "4", "--seed", "s", "--ruleset",
              '{"base": "RTU", "overrides": {"deal_order": "clockwise_from_seat2"}}', "--json")
    assert out.returncode == 0, out.stderr
    owners = json.loads(out.stdout)["owners"]
    # RisiKo! Napoli's order: seats 2 and 3 get the 11th cards
    assert {s: list(owners.values()).count(s) for s in (1, 2, 3, 4)} == {1: 10, 2: 11, 3: 11, 4: 10}


def test_a_closed_pipe_is_not_a_crash() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "engine", "deal", "--players", "4", "--seed", "p", "--count",
                             "2000", "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0 and b"Traceback" not in err
