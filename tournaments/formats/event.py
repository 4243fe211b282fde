"""A tournament's whole format as one frozen value, read through one accessor.

:class:`EventFormat` is everything the tournament's format decides: the preset it was built
from, the scoring system and the numbers the organizer changed, which games count (every game,
the best N, or a knock-out), the tie-break chain, each round's tables, the knock-out kind, the
rule set with its overrides and clocks, the games, the national ranking type. It is made in one
place, :func:`of`, from the two rows that store a format: the ``Tournament`` (rule set, scoring
system, games, ``format``: which games count, ranking type) and its ``ScoringSettings`` (preset,
best N, tie-breaks, changed numbers; ``tournaments/models.py``). Every app reads it through
``tournament.event_format()``, which keeps it on the instance until the tournament or its
settings are saved: nothing else reads those fields, and nothing else applies their defaults
(the tie-break fallback, the default table priorities, the type of an event of no preset).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from django.db.models import prefetch_related_objects

from engine import RuleSet

from . import vocabulary
from .presets import DEFAULT_CHAIN, DEFAULT_ROUNDS, PRESETS, Preset, RoundTables
from .rules import has_clock, ruleset_for, time_limit

FRIENDLY = "AMC"  # K-RANKING: a friendly, which the national ranking does not count
DEFAULT_BEST_N = 2  # K-BEST2: two of three games count when nothing else is chosen
STANDINGS_METHODS = ("rtu", "italiana", "knockout")  # ``Tournament.format``: best N, every game, direct elimination


def applied_chain(chosen: Iterable[Any] | None) -> tuple[str, ...]:
    """The tie-break chain the standings apply: the chosen metrics the standings know, else
    K-BEST2's (:data:`DEFAULT_CHAIN`). The one fallback."""
    known = vocabulary.known("metrics")
    chain = tuple(str(m) for m in (chosen or ()) if not known or str(m) in known)
    return chain or DEFAULT_CHAIN


def default_tables(number: int) -> RoundTables:
    """The tables of game ``number`` when no preset names them (K-TABLES)."""
    return DEFAULT_ROUNDS[1 if number <= 1 else 2]


@dataclass(frozen=True)
class EventFormat:
    """One tournament's format (read it with ``tournament.event_format()``)."""

    preset: str  # key of tournaments.formats.PRESETS; "" when none was chosen
    scoring_system: str  # engine.scoring.SCORING_SYSTEMS
    method: str  # which games count: "rtu" (best N), "italiana" (every game), "knockout"
    best_n: int  # K-BEST2 / K-BESTN: games that count with "rtu"
    chain: tuple[str, ...]  # tie-breaks, the fallback applied
    games_count: int
    ruleset: str
    ruleset_overrides: Mapping[str, Any]
    own_event_type: str  # the type the organizer set ("" = the preset's)
    club_changes: Mapping[str, Any]  # the club format's numbers the organizer changed
    publish_unconfirmed: bool  # results count before anyone confirms them (stored beside the format)

    @property
    def preset_obj(self) -> Preset | None:
        return PRESETS.get(self.preset)

    @property
    def knockout(self) -> str:
        """K-KO-RCU kind of the preset's knock-out phase ("" = none)."""
        preset = self.preset_obj
        return preset.knockout if preset is not None else ""

    @property
    def final_games(self) -> frozenset[int]:
        """K-KO-RCU: the last game of a preset with a knock-out phase is the final."""
        return frozenset({self.games_count}) if self.knockout and self.method != "knockout" else frozenset()

    @property
    def event_type(self) -> str:
        """K-RANKING type: the tournament's own, else its preset's class, else a friendly."""
        preset = self.preset_obj
        return self.own_event_type or (preset.ranking_class if preset is not None else "") or FRIENDLY

    @property
    def event_type_source(self) -> str:
        """Where :attr:`event_type` comes from: "tournament", "preset" or "default"."""
        if self.own_event_type:
            return "tournament"
        preset = self.preset_obj
        return "preset" if preset is not None and preset.ranking_class else "default"

    def tables_for(self, number: int) -> RoundTables:
        """How game ``number``'s tables are composed: the preset's round, else the defaults."""
        preset = self.preset_obj
        return preset.tables_for(number) if preset is not None else default_tables(number)

    def preset_tables(self, number: int) -> dict[str, Any]:
        """The preset's own table choices for game ``number`` ({} with no preset)."""
        if self.preset_obj is None:
            return {}
        tables = self.tables_for(number)
        chosen = {"priorities": list(tables.priorities), "seeding": tables.seeding, "by_region": tables.by_region,
                  "shape": self.preset_obj.shape}
        if self.preset_obj.teams:
            chosen["prefer"] = "fours"  # a team event: 4 starters of 4 teams a table, a 5-table only if it must
        return chosen

    def rules(self) -> RuleSet:
        """The engine's rule set, overrides applied (DomainError if they no longer fit)."""
        return ruleset_for(self)

    def time_limit(self) -> dt.timedelta:
        return time_limit(self)

    def has_clock(self) -> bool:
        return has_clock(self)


def of(tournament: Any) -> EventFormat:
    """The format of ``tournament`` from its stored rows (prefer ``tournament.event_format()``,
    which keeps it). Its settings row is read through the relation (none: the defaults)."""
    conf = getattr(tournament, "scoring_settings", None) if tournament.pk else None
    return EventFormat(
        preset=conf.preset if conf is not None else "",
        scoring_system=tournament.scoring_system,
        method=tournament.format if tournament.format in STANDINGS_METHODS else "rtu",
        best_n=conf.best_n if conf is not None else DEFAULT_BEST_N,
        chain=applied_chain(conf.tiebreaks if conf is not None else ()),
        games_count=tournament.games_count,
        ruleset=tournament.ruleset,
        ruleset_overrides=MappingProxyType(dict(tournament.ruleset_overrides or {})),
        own_event_type=tournament.event_type or "",
        club_changes=MappingProxyType(dict(conf.club_changes or {})) if conf is not None else MappingProxyType({}),
        publish_unconfirmed=bool(conf.publish_unconfirmed) if conf is not None else False,
    )


def of_many(tournaments: Iterable[Any]) -> dict[int, EventFormat]:
    """{tournament id: its format} of many tournaments, their settings read in one query."""
    tournaments = list(tournaments)
    prefetch_related_objects([t for t in tournaments if "_event_format" not in t.__dict__], "scoring_settings")
    return {t.pk: t.event_format() for t in tournaments}
