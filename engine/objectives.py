"""Objective cards as data (O-RTU, O-CLASSIC), checked on load.

The 16 tournament cards live in ``engine/data/objectives-rtu.json``; the 14 classic cards in
``objectives-classic.json``. Organizers may load their own deck (a record's ``objectives``
field, or an edited file): :func:`load_deck` checks every card — names on the map, territories
connected, values adding up to 86 — and reports each problem with the card id instead of
stopping at the first, so one upload shows everything to fix.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any

from engine.board import Board, load_board, read_data
from engine.violations import EngineError, Violation

KINDS = ("territories", "conquer_n", "n_with_2", "continents", "destroy_colour")


@dataclass(frozen=True)
class Objective:
    id: str
    name: str
    territories: frozenset[str]  # the card's territories ("continents": those of the named continents)
    kind: str = "territories"
    count: int = 0  # conquer_n / n_with_2 / the fallback of destroy_colour
    min_armies: int = 1  # n_with_2: armies on each counted territory
    continents: tuple[str, ...] = ()  # continents: the named ones
    any_third: bool = False  # continents: plus one more continent of the player's choice
    colour: str | None = None  # destroy_colour


def _territories_held(owners: Mapping[str, int], seat: int) -> list[str]:
    return [t for t, s in owners.items() if s == seat]


def objective_held(
    obj: Objective,
    owners: Mapping[str, int],
    seat: int,
    *,
    armies: Mapping[str, int] | None = None,
    board: Board | None = None,
) -> bool:
    """Whether ``seat`` holds its objective on this board.

    ``destroy_colour`` cannot be judged from a board alone (who eliminated whom): it is tested as
    its fallback, ``count`` territories; the replay decides the destruction itself.
    """
    if obj.kind == "territories":
        return bool(obj.territories) and all(owners.get(t) == seat for t in obj.territories)
    held = _territories_held(owners, seat)
    if obj.kind in ("conquer_n", "destroy_colour"):
        return len(held) >= obj.count
    if obj.kind == "n_with_2":
        if armies is None:
            raise EngineError("O-CLASSIC", f"{obj.id}: needs the armies on the board")
        return sum(1 for t in held if armies.get(t, 0) >= obj.min_armies) >= obj.count
    if obj.kind == "continents":
        if not all(owners.get(t) == seat for t in obj.territories):
            return False
        if not obj.any_third:
            return True
        board = board or load_board("world")
        return any(
            name not in obj.continents and all(owners.get(t) == seat for t in c.territories)
            for name, c in board.continents.items()
        )
    raise EngineError("O-CLASSIC", f"{obj.id}: unknown objective kind {obj.kind!r}")


def _connected(board: Board, names: frozenset[str]) -> bool:
    if board.borders is None or not names:
        return True  # a scoring-only map cannot be checked (B-MAP)
    start = next(iter(names))
    seen = {start}
    queue = deque([start])
    while queue:
        for n in board.borders[queue.popleft()]:
            if n in names and n not in seen:
                seen.add(n)
                queue.append(n)
    return seen == names


def _cards(data: Any) -> list[dict[str, Any]]:
    """Accept our file format, a list of cards, or ``{"RTU-07": ["Cina", ...]}`` (a record's field)."""
    if isinstance(data, Mapping) and "cards" in data:
        data = data["cards"]
    if isinstance(data, Mapping):
        return [{"id": str(k), "territories": v} for k, v in data.items()]
    if isinstance(data, list):
        return [c if isinstance(c, dict) else {"id": None, "bad": c} for c in data]
    raise EngineError.coded("FORMAT", "objective.deck_shape")


def load_deck(
    data: Any, board: Board | None = None, *, total: int | None = 86
) -> tuple[dict[str, Objective], list[Violation]]:
    """Read and check a deck; never raises. Every problem is one O-RTU (or FORMAT) violation.

    A card with problems is still returned (with its known territories) so a game that used it
    can be scored; the violations say why it is not a valid tournament card.
    """
    board = board or load_board("world")
    problems: list[Violation] = []
    deck: dict[str, Objective] = {}
    try:
        cards = _cards(data)
    except EngineError as err:
        return {}, [err.violation()]
    for index, raw in enumerate(cards):
        card_id = raw.get("id")
        if not isinstance(card_id, str) or not card_id:
            problems.append(Violation.coded(None, "FORMAT", "objective.no_id", n=index + 1))
            continue
        if card_id in deck:
            problems.append(Violation.coded(None, "O-RTU", "objective.id_twice", card=card_id))
            continue
        kind = raw.get("kind", "territories")
        if kind not in KINDS:
            problems.append(Violation.coded(None, "FORMAT", "objective.unknown_kind", card=card_id, kind=kind))
            continue
        if kind != "territories":
            deck[card_id] = _classic_card(card_id, raw, board, problems)
            continue
        names = raw.get("territories")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            problems.append(Violation.coded(None, "FORMAT", "objective.territories_not_list", card=card_id))
            continue
        known: set[str] = set()
        for name in names:
            canonical = board.canonical(name)
            if canonical is None:
                problems.append(Violation.coded(None, "O-RTU", "objective.unknown_territory", card=card_id, territory=name))
            elif canonical in known:
                problems.append(Violation.coded(None, "O-RTU", "objective.listed_twice", card=card_id, territory=canonical))
            else:
                known.add(canonical)
        territories = frozenset(known)
        if not territories:
            problems.append(Violation.coded(None, "O-RTU", "objective.no_territories", card=card_id))
        elif not _connected(board, territories):
            problems.append(Violation.coded(None, "O-RTU", "objective.not_connected", card=card_id))
        points = sum(board.territories[t].value for t in territories)
        if total is not None and territories and len(known) == len(names) and points != total:
            problems.append(Violation.coded(None, "O-RTU", "objective.worth", card=card_id, points=points, total=total))
        deck[card_id] = Objective(card_id, str(raw.get("name") or card_id), territories)
    return deck, problems


def _classic_card(card_id: str, raw: Mapping[str, Any], board: Board, problems: list[Violation]) -> Objective:
    kind = raw["kind"]
    name = str(raw.get("name") or raw.get("text") or card_id)
    if kind == "continents":
        continents: list[str] = []
        territories: set[str] = set()
        for cname in raw.get("continents", []):
            canonical = board.canonical_continent(cname)
            if canonical is None:
                problems.append(Violation.coded(None, "O-CLASSIC", "objective.unknown_continent", card=card_id,
                                                continent=cname))
                continue
            continents.append(canonical)
            territories.update(board.continents[canonical].territories)
        return Objective(
            card_id, name, frozenset(territories), kind, continents=tuple(continents), any_third=bool(raw.get("any_third"))
        )
    count = raw.get("fallback_count" if kind == "destroy_colour" else "count", 24)
    if not isinstance(count, int) or not 0 < count <= len(board.names):
        problems.append(Violation.coded(None, "O-CLASSIC", "objective.bad_count", card=card_id, count=count))
        count = 24
    return Objective(
        card_id,
        name,
        frozenset(),
        kind,
        count=count,
        min_armies=int(raw.get("min_armies", 2 if kind == "n_with_2" else 1)),
        colour=raw.get("colour"),
    )


DECK_MAPS = {"rtu": "world", "classic": "world", "napoli": "napoli"}


@cache
def _default_deck(kind: str) -> Mapping[str, Objective]:
    if kind not in DECK_MAPS:
        raise EngineError("FORMAT", f"unknown objective deck {kind!r} (known: {', '.join(DECK_MAPS)})")
    board = load_board(DECK_MAPS[kind])
    deck, problems = load_deck(read_data(f"objectives-{kind}.json"), board, total=86 if kind == "rtu" else None)
    if problems:  # our own data is wrong: a bug, not a user error
        raise EngineError("O-RTU", "; ".join(p.message for p in problems))
    return MappingProxyType(deck)


def default_deck(kind: str = "rtu") -> Mapping[str, Objective]:
    """The built-in deck, in file order: RTU-01..RTU-16 (O-RTU), CL-01..CL-14 (O-CLASSIC), or
    NA-01..NA-14 (the classic cards of the Napoli map)."""
    return _default_deck(kind)


def deck_for(kind: str, board: Board) -> Mapping[str, Objective]:
    """The built-in deck a game on ``board`` uses when its rule set names the deck ``kind``.

    A deck belongs to one map: a Napoli game whose rule set names the world's classic deck
    plays with the Napoli cards, which name that map's districts.
    """
    if DECK_MAPS.get(kind) != board.id:
        kind = next((k for k, m in DECK_MAPS.items() if m == board.id), kind)
    return default_deck(kind)


def objective_points(obj: Objective, board: Board) -> int:
    return sum(board.territories[t].value for t in obj.territories)
