"""Maps as data (B-MAP): territories, continents, values and borders.

A map is a JSON file in ``engine/data`` (format ``risiko-map/1``). The world map carries its 82
borders; a territory's value is its number of borders (the classic rulebook's table), 164 in all.
The Napoli map (RisiKo! Napoli) has values but no borders in our sources, so it serves scoring only and
:meth:`Board.adjacent` refuses to answer on it rather than guess.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from engine.violations import EngineError

SYMBOLS = ("fanti", "cannoni", "cavalieri")
MAPS = ("world", "napoli")


@dataclass(frozen=True)
class Territory:
    name: str
    continent: str
    value: int
    symbol: str | None  # card symbol: "fanti" | "cannoni" | "cavalieri"; None on maps without cards
    region: str | None = None  # finer division where the map has one (Napoli: the municipality)


@dataclass(frozen=True)
class Continent:
    name: str
    bonus: int  # R-CONT
    territories: tuple[str, ...]


def _key(name: str) -> str:
    """Spelling-insensitive lookup key: case, accents, hyphens, dots and spaces do not matter."""
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return "".join(ch for ch in text if ch.isalnum())


@dataclass(frozen=True)
class Board:
    id: str
    territories: Mapping[str, Territory]
    continents: Mapping[str, Continent]
    borders: Mapping[str, frozenset[str]] | None  # None: a scoring-only map (Napoli)
    aliases: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    continent_aliases: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    @property
    def names(self) -> tuple[str, ...]:
        """Territory names in the stable order of the map file."""
        return tuple(self.territories)

    @property
    def total_value(self) -> int:
        """Sum of all territory values (164 on the world map: the scoresheet's "Totale Punti")."""
        return sum(t.value for t in self.territories.values())

    def has_borders(self) -> bool:
        return self.borders is not None

    def neighbours(self, name: str) -> frozenset[str]:
        if self.borders is None:
            raise EngineError("B-MAP", f"map {self.id!r} has no borders in our sources (scoring only)")
        if name not in self.borders:
            raise EngineError("FORMAT", f"unknown territory {name!r} on map {self.id!r}")
        return self.borders[name]

    def adjacent(self, a: str, b: str) -> bool:
        """A-ADJ: whether ``a`` and ``b`` share a border (land or dashed sea line)."""
        return b in self.neighbours(a)

    def canonical(self, name: str) -> str | None:
        """The map's own spelling of a territory name (variants, case, accents accepted)."""
        if name in self.territories:
            return name
        return self.aliases.get(_key(name))

    def continent_of(self, name: str) -> Continent:
        return self.continents[self.territories[name].continent]

    def canonical_continent(self, name: str) -> str | None:
        if name in self.continents:
            return name
        return self.continent_aliases.get(_key(name))


def _board_from_data(data: Mapping[str, Any]) -> Board:
    territories: dict[str, Territory] = {}
    aliases: dict[str, str] = {}
    for raw in data["territories"]:
        symbol = raw.get("symbol")
        if symbol is not None and symbol not in SYMBOLS:
            raise EngineError("FORMAT", f"territory {raw['name']!r}: unknown card symbol {symbol!r}")
        t = Territory(raw["name"], raw["continent"], int(raw["value"]), symbol, raw.get("municipality"))
        territories[t.name] = t
        for alias in (t.name, *raw.get("aliases", ())):
            aliases[_key(alias)] = t.name
    continents: dict[str, Continent] = {}
    continent_aliases: dict[str, str] = {}
    for raw in data["continents"]:
        members = tuple(raw["territories"])
        unknown = [m for m in members if m not in territories]
        if unknown:
            raise EngineError("FORMAT", f"continent {raw['name']!r} names unknown territories {unknown}")
        continents[raw["name"]] = Continent(raw["name"], int(raw["bonus"]), members)
        for alias in (raw["name"], *raw.get("aliases", ())):
            continent_aliases[_key(alias)] = raw["name"]
    for t in territories.values():
        if t.continent not in continents:
            raise EngineError("FORMAT", f"territory {t.name!r}: unknown continent {t.continent!r}")
    borders: Mapping[str, frozenset[str]] | None = None
    if data.get("borders") is not None:
        links: dict[str, set[str]] = {name: set() for name in territories}
        for a, b in data["borders"]:
            if a not in territories or b not in territories or a == b:
                raise EngineError("FORMAT", f"border {a!r}–{b!r} names an unknown territory")
            links[a].add(b)
            links[b].add(a)
        borders = MappingProxyType({name: frozenset(n) for name, n in links.items()})
    return Board(
        id=str(data["id"]),
        territories=MappingProxyType(territories),
        continents=MappingProxyType(continents),
        borders=borders,
        aliases=MappingProxyType(aliases),
        continent_aliases=MappingProxyType(continent_aliases),
    )


def read_data(filename: str) -> Any:
    """A JSON file shipped in ``engine/data`` (works from a checkout and an installed wheel)."""
    return json.loads(resources.files("engine.data").joinpath(filename).read_text(encoding="utf-8"))


@cache
def load_board(map_id: str = "world") -> Board:
    """The map ``map_id`` ("world" or "napoli"); unknown ids raise EngineError("FORMAT")."""
    if map_id not in MAPS:
        raise EngineError("FORMAT", f"unknown map {map_id!r} (known: {', '.join(MAPS)})")
    return _board_from_data(read_data(f"{map_id}.json"))
