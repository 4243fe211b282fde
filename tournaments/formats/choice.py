"""Checking a format: a preset's own numbers, and an organizer's choice of a preset with the
changes it allows (``editable``). Refusals are DomainErrors naming the field and the rule id;
``scoring.services.apply_preset`` stores what :func:`check_choice` returns, the season service
checks its evenings' format with :func:`preset_or_refuse`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from common.errors import DomainError
from engine import CLUB_FORMATS, SCORING_SYSTEMS

from . import vocabulary
from .presets import (
    CLUB_NUMBERS,
    KNOCKOUTS,
    PRESETS,
    SHAPE_PLAYERS,
    TEAM_MODES,
    Preset,
)

MAX_GAMES = 20  # a tournament has between 1 and 20 games (Tournament's check constraint)
MAX_BEST_N = 50  # K-BESTN: the clubs' championships count up to 50 games
METHODS = ("rtu", "italiana")  # standings: best N of M, or every game counts
EDITABLE = ("best_n", "games_count", "chain", *CLUB_NUMBERS)


@dataclass(frozen=True)
class FormatChoice:
    """A preset with the organizer's changes, checked: what a tournament stores."""

    preset: Preset
    best_n: int | None
    games_count: int
    chain: tuple[str, ...]
    club_changes: Mapping[str, Any]


def preset_or_refuse(preset_id: str, field: str = "preset") -> Preset:
    preset = PRESETS.get(preset_id)
    if preset is None:
        raise DomainError(_("Unknown format %(p)s. Known: %(known)s.")
                          % {"p": preset_id, "known": ", ".join(PRESETS)}, field=field, rule="FORMAT")
    return preset


def check_chain(chain: Sequence[Any], field: str = "chain") -> tuple[str, ...]:
    """A tie-break chain: known metrics, none repeated, at least one (K-BESTN)."""
    metrics = vocabulary.known("metrics")
    names = [str(m) for m in chain]
    unknown = [m for m in names if m not in metrics]
    if unknown or not names or len(set(names)) != len(names):
        raise DomainError(_("Unknown or repeated tie-breaks: %(bad)s. Known: %(known)s.")
                          % {"bad": ", ".join(unknown) or ", ".join(names), "known": ", ".join(metrics)},
                          field=field, rule="K-BESTN")
    return tuple(names)


def _whole(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


def check_choice(preset_id: str, changes: Mapping[str, Any] | None = None) -> FormatChoice:
    """The preset ``preset_id`` with ``changes`` (only what its ``editable`` lists): best_n,
    games_count, chain and the club format's numbers (win_bonus, shared_win_bonus,
    size_factor)."""
    preset = preset_or_refuse(preset_id)
    changes = dict(changes or {})
    refused = sorted(k for k in changes if k not in preset.editable)
    if refused:
        raise DomainError(_("The format %(p)s does not let you change: %(fields)s.")
                          % {"p": preset.name, "fields": ", ".join(refused)}, field=refused[0], rule="FORMAT")
    best_n = preset.best_n
    if "best_n" in changes:
        best_n = _whole(changes["best_n"])
        if not 1 <= best_n <= MAX_BEST_N:
            raise DomainError(_("Between 1 and 50 games can count."), field="best_n", rule="K-BESTN")
    games_count = preset.games_count
    if "games_count" in changes:
        games_count = _whole(changes["games_count"])
        if not 1 <= games_count <= MAX_GAMES:
            raise DomainError(_("A tournament has between 1 and 20 games."), field="games_count", rule="FORMAT")
    chain = preset.chain
    if "chain" in changes:
        chain = check_chain(changes["chain"] or [])
    club_changes = {k: v for k, v in changes.items() if k in CLUB_NUMBERS}
    if club_changes:
        club_changes = _club_numbers(preset, club_changes)
    return FormatChoice(preset, best_n, games_count, chain, club_changes)


def _club_numbers(preset: Preset, club_changes: dict[str, Any]) -> dict[str, Any]:
    try:
        numbers = CLUB_FORMATS[preset.scoring_system].with_changes(club_changes)
        if any(x < 0 for x in (numbers.win_bonus, numbers.shared_win_bonus, *numbers.size_factor.values())):
            raise ValueError("negative")
    except (KeyError, ValueError, TypeError, AttributeError):
        raise DomainError(_("These numbers cannot be used: %(numbers)s.") % {"numbers": club_changes},
                          field=next(iter(club_changes)), rule=preset.scoring_system) from None
    return {k: v for k, v in numbers.as_dict().items() if k in club_changes}


def problems(preset: Preset) -> list[str]:
    """What is wrong with a preset's own numbers (empty: it can be offered). A preset names
    only words the registries know: its scoring system, tie-breaks, table priorities, seeding and
    knock-out kind."""
    out = []
    if preset.scoring_system not in SCORING_SYSTEMS:
        out.append(f"scoring_system {preset.scoring_system!r} is not in engine.scoring.SCORING_SYSTEMS")
    if preset.method not in METHODS:
        out.append(f"method {preset.method!r} is not one of {METHODS}")
    if not 1 <= preset.games_count <= MAX_GAMES:
        out.append(f"games_count {preset.games_count} is not between 1 and {MAX_GAMES}")
    if preset.best_n is not None and not 1 <= preset.best_n <= MAX_BEST_N:
        out.append(f"best_n {preset.best_n} is not between 1 and {MAX_BEST_N}")
    metrics = vocabulary.known("metrics")
    out += [f"tie-break {m!r} is not a metric of the standings" for m in preset.chain if m not in metrics]
    if not preset.chain or len(set(preset.chain)) != len(preset.chain):
        out.append("the tie-break chain is empty or repeats a metric")
    priorities, seedings = vocabulary.known("priorities"), vocabulary.known("seedings")
    if not preset.rounds:
        out.append("no round says how its tables are composed")
    for number, tables in preset.rounds.items():
        out += [f"round {number}: priority {p!r} is not a seating priority"
                for p in tables.priorities if p not in priorities]
        if tables.seeding not in seedings:
            out.append(f"round {number}: seeding {tables.seeding!r} is not a seeding")
    if preset.knockout and preset.knockout not in KNOCKOUTS:
        out.append(f"knockout {preset.knockout!r} has no K-KO-RCU thresholds nor fixed semifinals")
    if preset.shape not in SHAPE_PLAYERS:
        out.append(f"shape {preset.shape!r} is not a table shape")
    out += [f"editable {k!r} is not something an organizer may change" for k in preset.editable if k not in EDITABLE]
    if set(preset.editable) & set(CLUB_NUMBERS) and preset.scoring_system not in CLUB_FORMATS:
        out.append(f"{preset.scoring_system} has no club-format numbers to change")
    if preset.teams not in TEAM_MODES:
        out.append(f"teams {preset.teams!r} is not one of {TEAM_MODES}")
    return out
