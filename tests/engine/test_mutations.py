"""Break one rule in one event of a valid simulated record: the verdict must cite that rule there.

Every rule id a record can break is listed in BREAKABLE and has at least one mutation below (a
test makes sure the two lists agree). A mutation takes a valid record and changes it in place,
returning the event it broke (``None``: the record as a whole) or ``SKIP`` when that game has
nothing to break (no tris, no move from a border…). Each mutation runs on three independent
families of seeds and takes the first game of each family where it applies, so no test depends
on one lucky seed. B-MAP cannot be broken on the world map (every territory has borders); it is
tested in test_replay.py on the scoring-only Napoli map.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import pytest

from engine.messages import ENGLISH
from engine.record import parse_record
from engine.replay import Replay, adjudicate, adjudicate_parsed
from engine.simulate import simulate

Record = dict[str, Any]
SKIP = object()  # the mutation does not apply to this game
FAMILIES = ("alfa", "bravo", "charlie")
GAMES_PER_FAMILY = 80  # a mutation that finds nothing to break in 80 games is a bug of the test

BREAKABLE = [
    "T-SIZE", "T-ORDER", "D-DEAL", "D-50", "D-ARMIES", "D-CAP", "TURN-PHASES", "C-TRIS", "C-DRAW",
    "C-HAND7", "R-BASE", "R-CONT", "R-PLUS1", "R-PLACE", "A-ADJ", "A-SRC", "RTU-DEF-MAX",
    "RTU-ATT-DICE", "A-RESOLVE", "A-OCCUPY", "RTU-GARRISON", "A-ELIM", "M-MOVE", "O-RTU",
    "O-CLASSIC", "E-TIME", "E-SUPP", "E-SDADATA", "E-BAR", "S-TA",
]


# ---------------------------------------------------------------------- helpers
@cache
def _simulated(players: int, seed: str, ruleset: str) -> Record:
    import json

    record = simulate(players, seed, json.loads(ruleset) if ruleset.startswith("{") else ruleset)
    verdict = adjudicate(record)
    assert verdict["valid"], ("the simulator's record must be valid before mutation", seed, verdict["violations"][:3])
    return record


def games(family: str, players: int, ruleset: str) -> Iterator[Record]:
    for k in range(GAMES_PER_FAMILY):
        yield copy.deepcopy(_simulated(players, f"{family}-{k}", ruleset))


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


def turns(record: Record) -> list[tuple[int, int, int]]:
    """(first event, end_turn event, seat) of every turn that ends."""
    state = replayed(record)
    out = []
    for start, seat in zip(state.turn_starts, state.turn_seats, strict=True):
        end = next((j for j in range(start, len(record["events"])) if record["events"][j]["type"] == "end_turn"), None)
        if end is not None:
            out.append((start, end, seat))
    return out


def indices(record: Record, kind: str) -> list[int]:
    return [i for i, e in enumerate(record["events"]) if e["type"] == kind]


def last_place(record: Record, start: int, end: int) -> int | None:
    places = [j for j in range(start, end) if record["events"][j]["type"] == "place"]
    return places[-1] if places else None


# ---------------------------------------------------------------------- mutations
def m_t_size(record: Record) -> object:
    record["players"].extend({"seat": s, "name": f"X{s}", "objective": None} for s in (5, 6))
    return None


def m_t_order(record: Record) -> object:
    start, _, seat = turns(record)[0]
    record["events"][start]["seat"] = seat % len(record["players"]) + 1
    return start


def m_d_deal(record: Record) -> object:
    owners = record["deal"]["owners"]
    a = "Alaska"
    b = next(t for t in owners if owners[t] != owners[a])
    owners[a], owners[b] = owners[b], owners[a]
    return None


def m_d_50(record: Record) -> object:
    del record["deal"]["seed"]
    owners = record["deal"]["owners"]
    south = ["Venezuela", "Perù", "Brasile", "Argentina"]
    # give seat 1 all of Sud America by swapping with seat 1's other territories (counts unchanged)
    for t in south:
        if owners[t] != 1:
            other = next(x for x in owners if owners[x] == 1 and x not in south)
            owners[other], owners[t] = owners[t], 1
    return None


def m_d_armies(record: Record) -> object:
    record["events"][0]["armies"] = 4  # set-up armies go 3 at a time
    return 0


def m_d_armies_foreign(record: Record) -> object:
    owners = record["deal"]["owners"]
    record["events"][0]["territory"] = next(t for t in owners if owners[t] != 1)  # seat 1 places first
    return 0


def m_d_cap(record: Record) -> object:
    for start, end, seat in turns(record):
        events = record["events"][start:end]
        if any(e["type"] == "tris" for e in events):
            continue
        state = replayed(record, start)
        room = 34 - state.total[seat]
        place = last_place(record, start, end)
        if place is not None and room < state.allowance(seat):
            record["events"][place]["armies"] += 1  # the last one: the capped allowance is used up there
            return place
    return SKIP


def m_turn_phases(record: Record) -> object:
    ev = record["events"]
    for i in indices(record, "tris"):
        if ev[i + 1]["type"] == "place":
            ev[i], ev[i + 1] = ev[i + 1], ev[i]
            return i + 1
    return SKIP


def m_turn_phases_attack_after_move(record: Record) -> object:
    ev = record["events"]
    for i in indices(record, "move"):
        if ev[i - 1]["type"] == "attack" and ev[i - 1]["to"] not in (ev[i]["from"], ev[i]["to"]):
            state = replayed(record, i - 1)
            if state.armies[ev[i - 1]["to"]] > 3:  # the attack does not conquer: no advance to move
                ev[i - 1], ev[i] = ev[i], ev[i - 1]
                return i
    return SKIP


def m_c_tris(record: Record) -> object:
    for i in indices(record, "tris"):
        cards = record["events"][i]["cards"]
        named = [c for c in cards if c != "jolly"]
        record["events"][i]["cards"] = [named[0], named[0], named[0]]  # a card three times: not in hand
        return i
    return SKIP


def m_c_tris_jolly(record: Record) -> object:
    for i in indices(record, "tris"):
        cards = record["events"][i]["cards"]
        symbols = {c for c in cards}
        if "jolly" in symbols:
            continue
        record["events"][i]["cards"] = ["jolly", "jolly", cards[0]]  # two jolly: never a tris
        return i
    return SKIP


def m_c_draw(record: Record) -> object:
    i = next((j for j in indices(record, "end_turn") if "draw" in record["events"][j]), None)
    if i is None:
        return SKIP
    del record["events"][i]["draw"]
    return i


def m_c_draw_extra(record: Record) -> object:
    drawn = {e["draw"] for e in record["events"] if e.get("draw")}
    spare = next((t for t in record["deal"]["owners"] if t not in drawn), None)
    i = next((j for j in indices(record, "end_turn") if "draw" not in record["events"][j]), None)
    if spare is None or i is None or not drawn:
        return SKIP
    record["events"][i]["draw"] = spare  # a card after a turn without conquest
    return i


def m_c_hand7(record: Record) -> object:
    record["ruleset"] = {"base": "TIME_ATTACK", "overrides": {"hand_limit": 1}}
    hands: dict[int, int] = {}
    for start, end, seat in turns(record):
        played = sum(len(e["cards"]) for e in record["events"][start:end] if e["type"] == "tris")
        hands[seat] = hands.get(seat, 0) - played + (1 if "draw" in record["events"][end] else 0)
        if hands[seat] > 1:
            return end
    return SKIP


def _overplace(extra: int) -> Callable[[Record], object]:
    def mutate(record: Record) -> object:
        for start, end, _ in turns(record):
            if any(e["type"] == "tris" for e in record["events"][start:end]):
                continue
            place = last_place(record, start, end)
            if place is not None:
                record["events"][place]["armies"] += extra
                return place
        return SKIP

    return mutate


m_r_base = _overplace(1)
# R-CONT: claiming a continent bonus (Oceania +2) the player does not have over-places the allowance
m_r_cont = _overplace(2)
# R-PLUS1: TIME_ATTACK's "5 armate" option is off by default, so its extra army over-places
m_r_plus1 = _overplace(1)


def m_r_place(record: Record) -> object:
    for start, end, _ in turns(record):
        place = next((j for j in range(start, end) if record["events"][j]["type"] == "place"), None)
        if place is not None:
            del record["events"][place]
            return next(j for j in range(place, end) if record["events"][j]["type"] != "place")
    return SKIP


def m_a_adj(record: Record) -> object:
    i = indices(record, "attack")[0]
    state = replayed(record, i)
    src = record["events"][i]["from"]
    far = next(t for t in state.owner if t not in state.adj[src] and state.owner[t] != state.owner[src])
    record["events"][i]["to"] = far
    return i


def m_a_src(record: Record) -> object:
    for i in indices(record, "attack"):
        attack = record["events"][i]
        if len(attack["attacker"]) == 1 and len(attack["defender"]) == 1:
            state = replayed(record, i)
            if state.armies[attack["from"]] == 2:
                attack["attacker"] = [*attack["attacker"], 1]  # 2 dice from 2 armies
                return i
    return SKIP


def m_rtu_def_max(record: Record) -> object:
    i = next((j for j in indices(record, "attack") if len(record["events"][j]["defender"]) >= 2), None)
    if i is None:
        return SKIP
    record["events"][i]["defender"].pop()
    return i


def m_rtu_att_dice(record: Record) -> object:
    ev = record["events"]
    i = next((j for j in indices(record, "attack") if len(ev[j]["attacker"]) == len(ev[j]["defender"]) >= 2), None)
    if i is None:
        return SKIP
    ev[i]["attacker"].pop()
    return i


def m_a_resolve(record: Record) -> object:
    i = indices(record, "attack")[0]
    record["events"][i]["attacker"][0] = 7
    return i


def m_a_occupy(record: Record) -> object:
    for i in indices(record, "advance"):
        if len(record["events"][i - 1]["attacker"]) >= 2:
            record["events"][i]["armies"] = 1
            return i
    return SKIP


def m_a_occupy_missing(record: Record) -> object:
    for i in indices(record, "advance"):
        if i + 1 < len(record["events"]):
            del record["events"][i]
            return i  # the event after the conquest, where the advance was due
    return SKIP


def m_rtu_garrison(record: Record) -> object:
    for i in indices(record, "move"):
        state = replayed(record, i)
        move = record["events"][i]
        src, seat = move["from"], state.owner[move["from"]]
        if state.armies[src] >= 3 and state.borders_enemy(src, seat) and move["armies"] < state.armies[src] - 1:
            move["armies"] = state.armies[src] - 1  # leaves 1 on a border
            return i
    return SKIP


def m_a_elim(record: Record) -> object:
    state = replayed(record)
    if not state.eliminated:
        return SKIP
    record["ruleset"] = {"base": "RTU", "overrides": {"elimination_from_round": 999}}
    return _eliminating_attack(record, state.eliminated[0])


def _eliminating_attack(record: Record, loser: int) -> int:
    """The attack that took the loser's last territory: the first prefix in which it is out."""
    lo, hi = 0, len(record["events"])
    while lo < hi:
        mid = (lo + hi) // 2
        if loser in replayed(record, mid + 1).eliminated:
            hi = mid
        else:
            lo = mid + 1
    assert record["events"][lo]["type"] == "attack"
    return lo


def m_c_hand7_elimination(record: Record) -> object:
    """The loser's cards push the winner's hand over the limit (C-HAND7 at the eliminating attack)."""
    state = replayed(record)
    if not state.eliminated:
        return SKIP
    loser = state.eliminated[0]
    at = _eliminating_attack(record, loser)
    before = replayed(record, at)
    seat = before.owner[record["events"][at]["from"]]
    mine, theirs = len(before.hands[seat]), len(before.hands[loser])
    if not theirs or not mine:
        return SKIP
    record["ruleset"] = {"base": "RTU", "overrides": {"hand_limit": mine + theirs - 1}}
    if not adjudicate({**record, "events": record["events"][:at]})["valid"]:
        return SKIP  # some hand was already over that limit earlier in the game
    return at


def m_m_move(record: Record) -> object:
    moves = indices(record, "move")
    if not moves:
        return SKIP
    i = moves[0]
    state = replayed(record, i)
    seat = state.owner[record["events"][i]["from"]]
    record["events"][i]["to"] = next(t for t in state.owner if state.owner[t] != seat)
    return i


def m_m_move_twice(record: Record) -> object:
    for i in indices(record, "move"):
        move = dict(record["events"][i])
        state = replayed(record, i + 1)
        if state.armies[move["to"]] >= 2:
            record["events"].insert(i + 1, {**move, "from": move["to"], "to": move["from"], "armies": 1})
            return i + 1
    return SKIP


def _ended_by(kind: str) -> Callable[[Record], object]:
    def mutate(record: Record) -> object:
        if adjudicate(record)["ended_by"] != kind:
            return SKIP
        record["events"].append({"type": "end_turn"})
        return len(record["events"]) - 1

    return mutate


def m_e_time(record: Record) -> object:
    expired = indices(record, "time_expired")
    if not expired:
        return SKIP
    record["events"].insert(expired[0] + 1, {"type": "time_expired"})
    return expired[0] + 1


def m_e_time_early_roll(record: Record) -> object:
    start, end, _ = turns(record)[0]  # round 1: the clock is still running
    record["events"].insert(end, {"type": "sdadata", "dice": [6, 6]})
    return end


def m_e_supp(record: Record) -> object:
    expired = indices(record, "time_expired")
    if not expired:
        return SKIP
    ev = record["events"]
    end = next(j for j in range(expired[0], len(ev)) if ev[j]["type"] == "end_turn")
    if ev[end - 1]["type"] == "sdadata":
        return SKIP  # time expired in the turn that rolls first (supplementary = "turns" only)
    ev.insert(end, {"type": "sdadata", "dice": [6, 6]})
    return end


def m_e_sdadata(record: Record) -> object:
    rolls = indices(record, "sdadata")
    if not rolls:
        return SKIP  # an objective ended this game before the closure
    del record["events"][rolls[0]]
    return rolls[0]  # the end_turn that should have followed the roll


def m_e_sdadata_order(record: Record) -> object:
    ev = record["events"]
    for i in indices(record, "sdadata"):
        if ev[i - 1]["type"] == "move":
            ev[i - 1], ev[i] = ev[i], ev[i - 1]  # the roll comes after the strategic move
            return i
    return SKIP


def m_e_sdadata_after_end(record: Record) -> object:
    if adjudicate(record)["ended_by"] != "sdadata":
        return SKIP
    record["events"].append({"type": "place", "territory": "Cina", "armies": 1})
    return len(record["events"]) - 1


def m_e_bar(record: Record) -> object:
    ev = record["events"]
    rolls = indices(record, "sdadata")
    if not rolls:
        return SKIP
    for start, end, _ in turns(record):
        if start <= rolls[0] + 1:
            continue
        kinds = [e["type"] for e in ev[start:end]]
        if kinds.count("advance") > 2 and "sdadata" not in kinds:
            ev.insert(end, {"type": "sdadata", "dice": [6, 6]})
            return end
    return SKIP


@dataclass(frozen=True)
class Mutation:
    name: str
    rule: str  # the rule broken
    mutate: Callable[[Record], object]
    players: int = 4
    ruleset: str = "RTU"
    cited_as: str | None = None  # the rule the verdict cites, when another one computes the number

    @property
    def cited(self) -> str:
        return self.cited_as or self.rule


CAP34 = '{"base": "RTU", "overrides": {"army_cap": 34}}'
MUTATIONS = [
    Mutation("T-SIZE", "T-SIZE", m_t_size),
    Mutation("T-ORDER", "T-ORDER", m_t_order, players=5),
    Mutation("D-DEAL", "D-DEAL", m_d_deal),
    Mutation("D-50", "D-50", m_d_50, players=5),
    Mutation("D-ARMIES", "D-ARMIES", m_d_armies),
    Mutation("D-ARMIES foreign territory", "D-ARMIES", m_d_armies_foreign, players=5),
    Mutation("D-CAP", "D-CAP", m_d_cap, ruleset=CAP34),
    Mutation("TURN-PHASES place before tris", "TURN-PHASES", m_turn_phases),
    Mutation("TURN-PHASES attack after move", "TURN-PHASES", m_turn_phases_attack_after_move, players=5),
    Mutation("C-TRIS card not held", "C-TRIS", m_c_tris),
    Mutation("C-TRIS two jolly", "C-TRIS", m_c_tris_jolly, players=5),
    Mutation("C-DRAW missing", "C-DRAW", m_c_draw),
    Mutation("C-DRAW without conquest", "C-DRAW", m_c_draw_extra, players=5),
    Mutation("C-HAND7", "C-HAND7", m_c_hand7, ruleset="TIME_ATTACK"),
    Mutation("C-HAND7 by elimination", "C-HAND7", m_c_hand7_elimination, players=5),
    Mutation("R-BASE", "R-BASE", m_r_base),
    Mutation("R-CONT", "R-CONT", m_r_cont, players=5, cited_as="R-BASE"),
    Mutation("R-PLUS1", "R-PLUS1", m_r_plus1, ruleset="TIME_ATTACK", cited_as="R-BASE"),
    Mutation("R-PLACE", "R-PLACE", m_r_place),
    Mutation("A-ADJ", "A-ADJ", m_a_adj),
    Mutation("A-SRC", "A-SRC", m_a_src),
    Mutation("RTU-DEF-MAX", "RTU-DEF-MAX", m_rtu_def_max),
    Mutation("RTU-ATT-DICE", "RTU-ATT-DICE", m_rtu_att_dice, players=5),
    Mutation("A-RESOLVE", "A-RESOLVE", m_a_resolve),
    Mutation("A-OCCUPY too few", "A-OCCUPY", m_a_occupy),
    Mutation("A-OCCUPY missing", "A-OCCUPY", m_a_occupy_missing, players=5),
    Mutation("RTU-GARRISON", "RTU-GARRISON", m_rtu_garrison),
    Mutation("A-ELIM", "A-ELIM", m_a_elim),
    Mutation("M-MOVE not own", "M-MOVE", m_m_move),
    Mutation("M-MOVE twice", "M-MOVE", m_m_move_twice, players=5),
    Mutation("O-RTU", "O-RTU", _ended_by("objective"), players=3),
    Mutation("O-CLASSIC", "O-CLASSIC", _ended_by("objective"), ruleset="CLASSIC"),
    Mutation("E-TIME twice", "E-TIME", m_e_time),
    Mutation("E-TIME roll before expiry", "E-TIME", m_e_time_early_roll, players=5),
    Mutation("E-SUPP", "E-SUPP", m_e_supp),
    Mutation("E-SDADATA missing", "E-SDADATA", m_e_sdadata),
    Mutation("E-SDADATA before the move", "E-SDADATA", m_e_sdadata_order, players=5),
    Mutation("E-SDADATA event after the end", "E-SDADATA", m_e_sdadata_after_end),
    Mutation("E-BAR", "E-BAR", m_e_bar),
    Mutation("S-TA", "S-TA", _ended_by("time"), ruleset="TIME_ATTACK"),
]


def test_every_breakable_rule_has_a_mutation() -> None:
    assert sorted({m.rule for m in MUTATIONS}) == sorted(BREAKABLE)
    assert len({m.name for m in MUTATIONS}) == len(MUTATIONS)


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("mutation", MUTATIONS, ids=lambda m: m.name)
def test_mutation_is_cited_at_its_event(mutation: Mutation, family: str) -> None:
    for record in games(family, mutation.players, mutation.ruleset):
        event = mutation.mutate(record)
        if event is SKIP:
            continue
        verdict = adjudicate(record)
        assert not verdict["valid"]
        found = [(v["rule"], v["event"]) for v in verdict["violations"]]
        assert (mutation.cited, event) in found, f"expected {mutation.cited} at event {event}, got {found[:6]}"
        # every finding carries a message code a page can translate (common/engine_messages.py)
        uncoded = [v for v in adjudicate_parsed(parse_record(record)).violations
                   if not (v.code in ENGLISH or v.code.startswith(("closure.", "board.")))]
        assert not uncoded
        return
    pytest.fail(f"no game of family {family!r} lets {mutation.name} be broken")
