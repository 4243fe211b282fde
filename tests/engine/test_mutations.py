"""Break one rule in one event of a valid simulated record: the verdict must cite that rule there.

Every rule id a record can break is listed in BREAKABLE and has a mutation below (a test makes
sure the two lists agree). B-MAP cannot be broken on the world map (every territory has
borders); it is tested in test_replay.py on the scoring-only Napoli map.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from engine.record import parse_record
from engine.replay import Replay, adjudicate
from engine.simulate import simulate

Record = dict[str, Any]
Mutation = Callable[[], tuple[Record, int | None]]

BREAKABLE = [
    "T-SIZE", "T-ORDER", "D-DEAL", "D-50", "D-ARMIES", "D-CAP", "TURN-PHASES", "C-TRIS", "C-DRAW",
    "C-HAND7", "R-BASE", "R-CONT", "R-PLUS1", "R-PLACE", "A-ADJ", "A-SRC", "RTU-DEF-MAX",
    "RTU-ATT-DICE", "A-RESOLVE", "A-OCCUPY", "RTU-GARRISON", "A-ELIM", "M-MOVE", "O-RTU",
    "O-CLASSIC", "E-TIME", "E-SUPP", "E-SDADATA", "E-BAR", "S-TA",
]


# ---------------------------------------------------------------------- helpers
def game(players: int = 4, seed: str = "m1", ruleset: Any = "RTU") -> Record:
    record = simulate(players, seed, ruleset)
    assert adjudicate(record)["valid"], "the simulator's record must be valid before mutation"
    return record


def replayed(record: Record, upto: int | None = None) -> Replay:
    """The game state just before event ``upto`` (all events when None)."""
    cut = copy.deepcopy(record)
    if upto is not None:
        cut["events"] = cut["events"][:upto]
    parsed = parse_record(cut)
    assert parsed.record is not None, parsed.problems
    r = Replay(parsed.record)
    r.run()
    return r


def turns(record: Record) -> list[tuple[int, int]]:
    """(first event, end_turn event) of every turn."""
    starts = replayed(record).turn_starts
    out = []
    for start in starts:
        end = next((j for j in range(start, len(record["events"])) if record["events"][j]["type"] == "end_turn"), None)
        if end is not None:
            out.append((start, end))
    return out


def indices(record: Record, kind: str) -> Iterator[int]:
    return (i for i, e in enumerate(record["events"]) if e["type"] == kind)


def seeds(players: int = 4, ruleset: Any = "RTU") -> Iterator[Record]:
    for k in range(200):
        yield simulate(players, f"mut-{k}", ruleset)


def cites(record: Record, rule: str, event: int | None) -> dict[str, Any]:
    verdict = adjudicate(record)
    assert not verdict["valid"]
    found = [(v["rule"], v["event"]) for v in verdict["violations"]]
    assert (rule, event) in found, f"expected {rule} at event {event}, got {found[:6]}"
    return verdict


# ---------------------------------------------------------------------- mutations
def m_t_size() -> tuple[Record, int | None]:
    record = game(4)
    record["players"].append({"seat": 5, "name": "X", "colour": "nere", "objective": None})
    record["players"].extend({"seat": s, "name": "Y"} for s in (6,))
    return record, None


def m_t_order() -> tuple[Record, int | None]:
    record = game()
    start, _ = turns(record)[0]  # seat 1's first turn
    record["events"][start]["seat"] = 2
    return record, start


def m_d_deal() -> tuple[Record, int | None]:
    record = game()
    owners = record["deal"]["owners"]
    a, b = "Alaska", "Siam"
    if owners[a] == owners[b]:
        b = next(t for t in owners if owners[t] != owners[a])
    owners[a], owners[b] = owners[b], owners[a]
    return record, None


def m_d_50() -> tuple[Record, int | None]:
    record = game()
    del record["deal"]["seed"]
    owners = record["deal"]["owners"]
    south = ["Venezuela", "Perù", "Brasile", "Argentina"]
    # give seat 1 all of Sud America by swapping with seat 1's other territories (counts unchanged)
    for t in south:
        if owners[t] != 1:
            other = next(x for x in owners if owners[x] == 1 and x not in south)
            owners[other], owners[t] = owners[t], 1
    return record, None


def m_d_armies() -> tuple[Record, int | None]:
    record = game()
    record["events"][0]["armies"] = 4  # 3 at a time
    return record, 0


def m_d_cap() -> tuple[Record, int | None]:
    spec = {"base": "RTU", "overrides": {"army_cap": 34}}
    for record in seeds(4, spec):
        for start, end in turns(record):
            state = replayed(record, start)
            seat = _seat_at(record, start)
            room = 34 - state.total[seat]
            if room < state.allowance(seat):
                places = [j for j in range(start, end) if record["events"][j]["type"] == "place"]
                place = places[-1] if places else None  # the last one: the allowance is used up there
                if place is not None and "tris" not in {e["type"] for e in record["events"][start:end]}:
                    record["events"][place]["armies"] += 1
                    return record, place
    raise AssertionError("no capped turn found")


def _seat_at(record: Record, start: int) -> int:
    state = replayed(record)
    return dict(zip(state.turn_starts, state.turn_seats, strict=True))[start]


def m_turn_phases() -> tuple[Record, int | None]:
    for record in seeds():
        ev = record["events"]
        for i in indices(record, "tris"):
            if ev[i + 1]["type"] == "place":
                ev[i], ev[i + 1] = ev[i + 1], ev[i]
                return record, i + 1
    raise AssertionError("no tris found")


def m_c_tris() -> tuple[Record, int | None]:
    for record in seeds():
        for i in indices(record, "tris"):
            cards = record["events"][i]["cards"]
            held_elsewhere = next(t for t in record["deal"]["owners"] if t not in cards)
            cards[0] = held_elsewhere if cards[0] != "jolly" else cards[0]
            cards[1] = cards[1] if cards[0] != cards[1] else held_elsewhere
            record["events"][i]["cards"] = cards[:2] + [cards[1]]  # a card twice: never a tris
            return record, i
    raise AssertionError("no tris found")


def m_c_draw() -> tuple[Record, int | None]:
    record = game()
    i = next(j for j in indices(record, "end_turn") if "draw" in record["events"][j])
    del record["events"][i]["draw"]
    return record, i


def m_c_hand7() -> tuple[Record, int | None]:
    record = game(4, "h7", "TIME_ATTACK")
    record["ruleset"] = {"base": "TIME_ATTACK", "overrides": {"hand_limit": 1}}
    hands: dict[int, int] = {}
    for start, end in turns(record):
        seat = _seat_at(record, start)
        played = sum(len(e["cards"]) for e in record["events"][start:end] if e["type"] == "tris")
        hands[seat] = hands.get(seat, 0) - played + (1 if "draw" in record["events"][end] else 0)
        if hands[seat] > 1:
            return record, end
    raise AssertionError("no second card drawn")


def m_r_base() -> tuple[Record, int | None]:
    record = game()
    start, end = turns(record)[0]
    place = [j for j in range(start, end) if record["events"][j]["type"] == "place"][-1]
    record["events"][place]["armies"] += 1
    return record, place


def m_r_cont() -> tuple[Record, int | None]:
    # claim a continent bonus (Oceania +2) the player does not have: over-placing the allowance
    record = game()
    start, end = turns(record)[0]
    place = [j for j in range(start, end) if record["events"][j]["type"] == "place"][-1]
    record["events"][place]["armies"] += 2
    return record, place


def m_r_plus1() -> tuple[Record, int | None]:
    # TIME_ATTACK's "5 armate" option is off by default: placing its extra army breaks R-PLUS1
    record = game(4, "p1", "TIME_ATTACK")
    start, end = turns(record)[0]
    place = [j for j in range(start, end) if record["events"][j]["type"] == "place"][-1]
    record["events"][place]["armies"] += 1
    return record, place


def m_r_place() -> tuple[Record, int | None]:
    record = game()
    start, end = turns(record)[0]
    place = next(j for j in range(start, end) if record["events"][j]["type"] == "place")
    del record["events"][place]
    return record, next(j for j in range(place, end) if record["events"][j]["type"] != "place")


def m_a_adj() -> tuple[Record, int | None]:
    record = game()
    i = next(indices(record, "attack"))
    state = replayed(record, i)
    src = record["events"][i]["from"]
    far = next(t for t in state.owner if t not in state.adj[src] and state.owner[t] != state.owner[src])
    record["events"][i]["to"] = far
    return record, i


def m_a_src() -> tuple[Record, int | None]:
    record = game()
    for i in indices(record, "attack"):
        state = replayed(record, i)
        attack = record["events"][i]
        if state.armies[attack["from"]] == 2 and len(attack["attacker"]) == 1 and len(attack["defender"]) == 1:
            attack["attacker"] = attack["attacker"] + [1]  # 2 dice from 2 armies
            return record, i
    raise AssertionError("no attack from 2 armies")


def m_rtu_def_max() -> tuple[Record, int | None]:
    record = game()
    i = next(j for j in indices(record, "attack") if len(record["events"][j]["defender"]) >= 2)
    record["events"][i]["defender"].pop()
    return record, i


def m_rtu_att_dice() -> tuple[Record, int | None]:
    record = game()
    i = next(j for j in indices(record, "attack")
             if len(record["events"][j]["attacker"]) == len(record["events"][j]["defender"]) >= 2)
    record["events"][i]["attacker"].pop()
    return record, i


def m_a_resolve() -> tuple[Record, int | None]:
    record = game()
    i = next(indices(record, "attack"))
    record["events"][i]["attacker"][0] = 7
    return record, i


def m_a_occupy() -> tuple[Record, int | None]:
    record = game()
    for i in indices(record, "advance"):
        if len(record["events"][i - 1]["attacker"]) >= 2:
            record["events"][i]["armies"] = 1
            return record, i
    raise AssertionError("no advance after 2+ dice")


def m_rtu_garrison() -> tuple[Record, int | None]:
    for record in seeds():
        for i in indices(record, "move"):
            state = replayed(record, i)
            move = record["events"][i]
            src, seat = move["from"], state.owner[move["from"]]
            if state.armies[src] >= 3 and state.borders_enemy(src, seat) and move["armies"] < state.armies[src] - 1:
                move["armies"] = state.armies[src] - 1  # leaves 1 on a border
                return record, i
    raise AssertionError("no move from a border")


def m_a_elim() -> tuple[Record, int | None]:
    for record in seeds():
        state = replayed(record)
        if not state.eliminated:
            continue
        record["ruleset"] = {"base": "RTU", "overrides": {"elimination_from_round": 999}}
        loser = state.eliminated[0]
        # the attack that took the loser's last territory: the first prefix in which it is out
        lo, hi = 0, len(record["events"])
        while lo < hi:
            mid = (lo + hi) // 2
            if loser in replayed(record, mid + 1).eliminated:
                hi = mid
            else:
                lo = mid + 1
        assert record["events"][lo]["type"] == "attack"
        return record, lo
    raise AssertionError("no elimination")


def m_m_move() -> tuple[Record, int | None]:
    record = game()
    i = next(indices(record, "move"))
    state = replayed(record, i)
    seat = state.owner[record["events"][i]["from"]]
    record["events"][i]["to"] = next(t for t in state.owner if state.owner[t] != seat)
    return record, i


def _ended_by(kind: str, ruleset: str, players: int = 4) -> tuple[Record, int | None]:
    for record in seeds(players, ruleset):
        if adjudicate(record)["ended_by"] == kind:
            record["events"].append({"type": "end_turn"})
            return record, len(record["events"]) - 1
    raise AssertionError(f"no game ended by {kind}")


def m_o_rtu() -> tuple[Record, int | None]:
    return _ended_by("objective", "RTU", 3)


def m_o_classic() -> tuple[Record, int | None]:
    return _ended_by("objective", "CLASSIC")


def m_s_ta() -> tuple[Record, int | None]:
    return _ended_by("time", "TIME_ATTACK")


def m_e_time() -> tuple[Record, int | None]:
    record = game()
    i = next(indices(record, "time_expired"))
    record["events"].insert(i + 1, {"type": "time_expired"})
    return record, i + 1


def m_e_supp() -> tuple[Record, int | None]:
    record = game()
    i = next(indices(record, "time_expired"))
    end = next(j for j in range(i, len(record["events"])) if record["events"][j]["type"] == "end_turn")
    record["events"].insert(end, {"type": "sdadata", "dice": [6, 6]})
    return record, end


def m_e_sdadata() -> tuple[Record, int | None]:
    # Not every simulated game reaches the closure (an objective may end it first): take the
    # first seed whose game has a sdadata roll.
    for record in seeds():
        i = next(indices(record, "sdadata"), None)
        if i is not None:
            del record["events"][i]
            return record, i  # the end_turn that should have followed the roll
    raise AssertionError("no simulated game reached the sdadata closure")


def m_e_bar() -> tuple[Record, int | None]:
    for record in seeds():
        ev = record["events"]
        first = next(indices(record, "sdadata"), None)
        if first is None:
            continue
        for start, end in turns(record):
            if start <= first + 1:
                continue
            kinds = [e["type"] for e in ev[start:end]]
            if kinds.count("advance") > 2 and "sdadata" not in kinds:
                ev.insert(end, {"type": "sdadata", "dice": [6, 6]})
                return record, end
    raise AssertionError("no barred turn")


MUTATIONS: dict[str, Mutation] = {
    "T-SIZE": m_t_size, "T-ORDER": m_t_order, "D-DEAL": m_d_deal, "D-50": m_d_50,
    "D-ARMIES": m_d_armies, "D-CAP": m_d_cap, "TURN-PHASES": m_turn_phases, "C-TRIS": m_c_tris,
    "C-DRAW": m_c_draw, "C-HAND7": m_c_hand7, "R-BASE": m_r_base, "R-CONT": m_r_cont,
    "R-PLUS1": m_r_plus1, "R-PLACE": m_r_place, "A-ADJ": m_a_adj, "A-SRC": m_a_src,
    "RTU-DEF-MAX": m_rtu_def_max, "RTU-ATT-DICE": m_rtu_att_dice, "A-RESOLVE": m_a_resolve,
    "A-OCCUPY": m_a_occupy, "RTU-GARRISON": m_rtu_garrison, "A-ELIM": m_a_elim, "M-MOVE": m_m_move,
    "O-RTU": m_o_rtu, "O-CLASSIC": m_o_classic, "E-TIME": m_e_time, "E-SUPP": m_e_supp,
    "E-SDADATA": m_e_sdadata, "E-BAR": m_e_bar, "S-TA": m_s_ta,
}

# Rules whose breach the adjudicator reports under the rule that computes the number:
# R-CONT and R-PLUS1 are parts of the reinforcement allowance, cited as R-BASE.
CITED_AS = {"R-CONT": "R-BASE", "R-PLUS1": "R-BASE"}


def test_every_breakable_rule_has_a_mutation() -> None:
    assert sorted(MUTATIONS) == sorted(BREAKABLE)


@pytest.mark.parametrize("rule", BREAKABLE)
def test_mutation_is_cited_at_its_event(rule: str) -> None:
    record, event = MUTATIONS[rule]()
    cites(record, CITED_AS.get(rule, rule), event)
