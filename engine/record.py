"""Reading a game record (docs/engine.md) into typed, checked values.

Like python-chess's PGN reader, the parser never raises: it collects every problem of form
(bad JSON, wrong types, unknown territory or event type) and keeps going, so the verdict can say
everything that is wrong at once. Problems of *form* are the rule ``FORMAT``; whether the moves
are legal is the adjudicator's business (engine/replay.py), never this module's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from engine.board import Board, load_board
from engine.rulesets import RuleSet, get_ruleset
from engine.violations import EngineError, Violation

FORMAT_VERSION = "risiko-record/1"
JOLLY = "jolly"
EVENT_TYPES = ("place", "tris", "attack", "advance", "move", "end_turn", "time_expired", "sdadata")
MAX_PROBLEMS_SHOWN = 5


class Event(NamedTuple):
    """One event; fields not used by its type stay at their defaults.

    Immutable like the frozen dataclasses elsewhere, but a named tuple: a record has thousands of
    events, and a named tuple is built about three times faster than a frozen dataclass (which
    sets each field through ``object.__setattr__``), a fifth of the whole adjudication time.
    """

    type: str
    seat: int | None = None
    territory: str = ""  # place
    armies: int = 0  # place, advance, move
    cards: tuple[str, ...] = ()  # tris: territory names or "jolly"
    src: str = ""  # attack / move "from"
    dst: str = ""  # attack / move "to"
    attacker: tuple[int, ...] = ()
    defender: tuple[int, ...] = ()
    draw: str | None = None  # end_turn: card drawn (territory name or "jolly")
    dice: tuple[int, ...] = ()  # sdadata


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    colour: str | None
    objective: str | None


@dataclass(frozen=True)
class Record:
    ruleset: RuleSet
    ruleset_spec: str | Mapping[str, Any]
    board: Board
    players: tuple[Player, ...]
    objectives: Mapping[str, tuple[str, ...]]  # cards written in the record
    deal_seed: str | None
    deal_owners: Mapping[str, int] | None
    events: tuple[Event, ...]
    raw: Mapping[str, Any] = field(compare=False, repr=False)


@dataclass(frozen=True)
class ParseResult:
    record: Record | None
    # each one a FORMAT problem, in reading order, said by its code (engine.messages) so that a
    # page can say it in its own language
    findings: tuple[Violation, ...]

    @property
    def problems(self) -> tuple[str, ...]:
        """The problems in English (the command line's and the verdict's words)."""
        return tuple(f.message for f in self.findings)

    @property
    def ok(self) -> bool:
        return self.record is not None and not self.findings

    @property
    def shown(self) -> tuple[Violation, ...]:
        """The problems a message lists; :attr:`more` says how many it leaves out."""
        return self.findings[:MAX_PROBLEMS_SHOWN]

    @property
    def more(self) -> int:
        return max(0, len(self.findings) - MAX_PROBLEMS_SHOWN)

    def summary(self) -> str:
        shown = "; ".join(f.message for f in self.shown)
        return shown + (f"; and {self.more} more" if self.more else "")


def _failed(code: str, **params: Any) -> ParseResult:
    return ParseResult(None, (_finding(code, params),))


def _finding(code: str, params: Mapping[str, Any]) -> Violation:
    return Violation.coded(None, "FORMAT", code, **params)


def _is_int(value: object) -> bool:
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


class _Reader:
    def __init__(self) -> None:
        self.problems: list[Violation] = []

    def problem(self, code: str, **params: Any) -> None:
        self.problems.append(_finding(code, params))

    # --- small typed getters; each records a problem and returns a fallback
    def int_field(self, obj: Mapping[str, Any], key: str, where: str, minimum: int = 1) -> int:
        value = obj.get(key)
        if isinstance(value, int) and _is_int(value) and value >= minimum:
            return int(value)
        self.problem("record.not_int", where=where, key=key, minimum=minimum, value=json.dumps(value))
        return minimum

    def dice_field(self, obj: Mapping[str, Any], key: str, where: str) -> tuple[int, ...]:
        value = obj.get(key)
        if type(value) is list and all(type(d) is int for d in value):
            return tuple(value)  # the common case, checked fast
        if not isinstance(value, list) or not all(_is_int(d) for d in value):
            self.problem("record.not_dice", where=where, key=key, value=json.dumps(value))
            return ()
        return tuple(int(d) for d in value)

    def territory(self, board: Board, value: object, where: str) -> str:
        if type(value) is str and value in board.territories:
            return value  # already the map's spelling
        if not isinstance(value, str):
            self.problem("record.territory_type", where=where, value=json.dumps(value))
            return ""
        name = board.canonical(value)
        if name is None:
            self.problem("record.unknown_territory", where=where, territory=value, map=board.id)
            return ""
        return name

    def card(self, board: Board, value: object, where: str) -> str:
        if isinstance(value, str) and value.strip().lower() == JOLLY:
            return JOLLY
        return self.territory(board, value, where)


def parse_record(source: str | bytes | Mapping[str, Any] | object) -> ParseResult:
    """Read a record from JSON text or an already decoded object. Never raises."""
    try:
        return _parse(source)
    except Exception as exc:  # noqa: BLE001 - the parser's promise is to never raise
        return _failed("record.unreadable", error=f"{type(exc).__name__}: {exc}")


def _parse(source: object) -> ParseResult:
    r = _Reader()
    data: object = source
    if isinstance(source, bytes | bytearray):
        try:
            source = bytes(source).decode("utf-8")
        except UnicodeDecodeError as exc:
            return _failed("record.not_utf8", error=str(exc))
    if isinstance(source, str):
        try:
            data = json.loads(source)
        except json.JSONDecodeError as exc:
            return _failed("record.not_json", error=str(exc), line=exc.lineno, column=exc.colno)
        except RecursionError as exc:
            return _failed("record.too_deep", error=str(exc))
    if not isinstance(data, dict):
        return _failed("record.not_an_object", kind=type(data).__name__)

    if data.get("format") != FORMAT_VERSION:
        r.problem("record.format", expected=FORMAT_VERSION, value=json.dumps(data.get("format")))

    spec = data.get("ruleset", "RTU")
    ruleset: RuleSet | None = None
    if isinstance(spec, str | dict):
        try:
            ruleset = get_ruleset(spec)
        except EngineError as exc:
            r.problem("record.bad_ruleset", message=exc.message, value=json.dumps(spec))
    else:
        r.problem("record.ruleset_type", value=json.dumps(spec))

    map_id = data.get("map", "world")
    board: Board | None = None
    if isinstance(map_id, str):
        try:
            board = load_board(map_id)
        except EngineError as exc:
            r.problem("record.bad_map", message=exc.message, value=json.dumps(map_id))
    else:
        r.problem("record.map_type", value=json.dumps(map_id))

    players = _players(r, data.get("players"))
    if board is None or ruleset is None:
        return ParseResult(None, tuple(r.problems))

    objectives = _objectives(r, board, data.get("objectives", {}))
    seed, owners = _deal(r, board, data.get("deal"), len(players))
    events = _events(r, board, data.get("events"))
    record = Record(
        ruleset=ruleset,
        ruleset_spec=spec,
        board=board,
        players=players,
        objectives=objectives,
        deal_seed=seed,
        deal_owners=owners,
        events=events,
        raw=data,
    )
    return ParseResult(None if r.problems else record, tuple(r.problems))


def _players(r: _Reader, value: object) -> tuple[Player, ...]:
    if not isinstance(value, list) or not value:
        r.problem("record.no_players")
        return ()
    players: list[Player] = []
    for i, item in enumerate(value):
        where = f"players[{i}]"
        if not isinstance(item, dict):
            r.problem("record.item_not_object", where=where)
            continue
        seat = r.int_field(item, "seat", where)
        if seat != i + 1:
            r.problem("record.seat_order", where=where, expected=i + 1, seat=seat)
        name = item.get("name", f"seat {seat}")
        colour = item.get("colour")
        objective = item.get("objective")
        if not isinstance(name, str):
            r.problem("record.name_type", where=where)
            name = f"seat {seat}"
        if colour is not None and not isinstance(colour, str):
            r.problem("record.colour_type", where=where)
            colour = None
        if objective is not None and not isinstance(objective, str):
            r.problem("record.objective_type", where=where)
            objective = None
        players.append(Player(seat, name, colour, objective))
    return tuple(players)


def _objectives(r: _Reader, board: Board, value: object) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        r.problem("record.objectives_type")
        return {}
    cards: dict[str, tuple[str, ...]] = {}
    for card_id, names in value.items():
        if not isinstance(names, list) or not names:
            r.problem("record.objective_territories", where=f"objectives[{card_id!r}]")
            continue
        cards[card_id] = tuple(r.territory(board, n, f"objectives[{card_id!r}]") for n in names)
    return cards


def _deal(r: _Reader, board: Board, value: object, players: int) -> tuple[str | None, dict[str, int] | None]:
    if not isinstance(value, dict):
        r.problem("record.deal_type")
        return None, None
    seed = value.get("seed")
    if seed is not None and not isinstance(seed, str):
        r.problem("record.seed_type")
        seed = None
    raw_owners = value.get("owners")
    owners: dict[str, int] | None = None
    if raw_owners is not None:
        if not isinstance(raw_owners, dict):
            r.problem("record.owners_type")
        else:
            owners = {}
            for name, seat in raw_owners.items():
                territory = r.territory(board, name, "deal.owners")
                if not _is_int(seat) or not 1 <= seat <= max(players, 1):
                    r.problem("record.owner_seat", where=f"deal.owners[{name!r}]", players=players,
                              value=json.dumps(seat))
                    continue
                if territory:
                    owners[territory] = int(seat)
    if seed is None and owners is None:
        r.problem("record.deal_empty")
    return seed, owners


def _events(r: _Reader, board: Board, value: object) -> tuple[Event, ...]:
    if value is None:
        value = []
    if not isinstance(value, list):
        r.problem("record.events_type")
        return ()
    events: list[Event] = []
    names = board.territories
    for i, item in enumerate(value):
        if not isinstance(item, dict):
            r.problem("record.item_not_object", where=f"events[{i}]")
            continue
        kind = item.get("type")
        if kind not in EVENT_TYPES:
            r.problem("record.event_type", where=f"events[{i}]", value=json.dumps(kind))
            continue
        seat = item.get("seat")
        if seat is not None and not _is_int(seat):
            r.problem("record.event_seat", where=f"events[{i}]")
            seat = None
        event = _plain_event(kind, seat, item, names)
        events.append(event if event is not None else _event(r, board, kind, seat, item, f"events[{i}]"))
    return tuple(events)


def _plain_event(kind: str, seat: int | None, item: Mapping[str, Any], names: Mapping[str, object]) -> Event | None:
    """The event when every field already has its plain form (a name in the map's spelling, a
    list of ints, a positive int), as in almost every record; None sends it the careful way of
    :func:`_event`, which reads it to the same event or names its problems."""
    if kind == "attack":
        src, dst, a, d = item.get("from"), item.get("to"), item.get("attacker"), item.get("defender")
        if (type(src) is str and src in names and type(dst) is str and dst in names
                and type(a) is list and type(d) is list
                and all(type(x) is int for x in a) and all(type(x) is int for x in d)):
            return Event(kind, seat, src=src, dst=dst, attacker=tuple(a), defender=tuple(d))
    elif kind == "advance":
        armies = item.get("armies")
        if type(armies) is int and armies >= 1:
            return Event(kind, seat, armies=armies)
    elif kind == "place":
        territory, armies = item.get("territory"), item.get("armies")
        if type(territory) is str and territory in names and type(armies) is int and armies >= 1:
            return Event(kind, seat, territory=territory, armies=armies)
    elif kind == "end_turn" and item.get("draw") is None:
        return Event(kind, seat)
    return None


def _event(r: _Reader, board: Board, kind: str, seat: int | None, item: Mapping[str, Any], where: str) -> Event:
    if kind == "place":
        return Event(kind, seat, territory=r.territory(board, item.get("territory"), where),
                     armies=r.int_field(item, "armies", where))
    if kind == "tris":
        cards = item.get("cards")
        if not isinstance(cards, list) or not cards:
            r.problem("record.cards_type", where=where)
            return Event(kind, seat)
        return Event(kind, seat, cards=tuple(r.card(board, c, where) for c in cards))
    if kind == "attack":
        return Event(kind, seat, src=r.territory(board, item.get("from"), where),
                     dst=r.territory(board, item.get("to"), where),
                     attacker=r.dice_field(item, "attacker", where),
                     defender=r.dice_field(item, "defender", where))
    if kind == "advance":
        return Event(kind, seat, armies=r.int_field(item, "armies", where))
    if kind == "move":
        return Event(kind, seat, src=r.territory(board, item.get("from"), where),
                     dst=r.territory(board, item.get("to"), where),
                     armies=r.int_field(item, "armies", where))
    if kind == "end_turn":
        draw = item.get("draw")
        return Event(kind, seat, draw=None if draw is None else r.card(board, draw, where))
    if kind == "sdadata":
        return Event(kind, seat, dice=r.dice_field(item, "dice", where))
    return Event(kind, seat)  # time_expired
