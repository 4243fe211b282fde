"""The tournament format's one home: presets, the rule set and scoring system of a tournament,
and their validation.

* :mod:`.presets`: the :class:`Preset` / :class:`RoundTables` data, the :data:`PRESETS`
  registry and the K-KO-RCU thresholds (:data:`RCU_THRESHOLDS`);
* :mod:`.choice`: a preset's own check (:func:`problems`) and an organizer's choice with its
  changes (:func:`check_choice`), against the words other apps register (:mod:`.vocabulary`);
* :mod:`.rules`: the engine rule set of a tournament (:func:`ruleset_for`, :func:`time_limit`,
  :func:`has_clock`), its scoring system chosen from ``engine.scoring.SCORING_SYSTEMS``, and
  :func:`validate_rules`.

* :mod:`.event`: a tournament's whole format as one frozen value (:class:`EventFormat`), read
  through ``tournament.event_format()`` (kept on the instance, read again after a save), the
  one tie-break fallback (:func:`applied_chain`) and the default tables (:func:`default_tables`).

What a tournament stores of its format, each once: ``Tournament.format`` (which games count),
``ruleset``, ``ruleset_overrides``, ``event_type``, ``scoring_system`` and ``games_count``, and
beside it ``ScoringSettings`` (preset, best N, tie-breaks, changed numbers; both in
``tournaments/models.py``). Only :func:`of` reads them; everything else reads the
``EventFormat``. A game's tables as they were composed are ``tables.models.Game.composition_options``
(the format's choices completed by the organizer's for that game). docs/architecture.md,
"Add a format", is the checklist.
"""

from __future__ import annotations

from .choice import FormatChoice, check_chain, check_choice, preset_or_refuse, problems
from .event import (
    FRIENDLY,
    STANDINGS_METHODS,
    EventFormat,
    applied_chain,
    default_tables,
    of,
    of_many,
)
from .presets import (
    BEST,
    CLUB_NUMBERS,
    DEFAULT_CHAIN,
    DEFAULT_ROUNDS,
    FIXED_SEMIFINALS,
    KNOCKOUTS,
    PRESETS,
    RCU_THRESHOLDS,
    SHAPE_PLAYERS,
    TEAM_BEST,
    TEAM_ROSTER,
    TEAM_STARTERS,
    Preset,
    RoundTables,
    all_presets,
    get,
)
from .rules import (
    DEFAULT_SCORING_SYSTEM,
    check_scoring_system,
    has_clock,
    ruleset_for,
    scoring_system_choices,
    time_limit,
    validate_rules,
)

__all__ = [
    "BEST", "CLUB_NUMBERS", "DEFAULT_CHAIN", "DEFAULT_ROUNDS", "FRIENDLY", "STANDINGS_METHODS", "EventFormat", "applied_chain",
    "default_tables", "of", "of_many", "DEFAULT_SCORING_SYSTEM", "FIXED_SEMIFINALS", "KNOCKOUTS", "PRESETS",
    "RCU_THRESHOLDS", "SHAPE_PLAYERS", "TEAM_BEST", "TEAM_ROSTER", "TEAM_STARTERS", "FormatChoice", "Preset",
    "RoundTables", "all_presets", "check_chain", "check_choice", "check_scoring_system", "get", "has_clock",
    "preset_or_refuse", "problems", "ruleset_for", "scoring_system_choices", "time_limit", "validate_rules",
]
