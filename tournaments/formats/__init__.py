"""The tournament format's one home: presets, the rule set and scoring system of a tournament,
and their validation.

* :mod:`.presets`: the :class:`Preset` / :class:`RoundTables` data, the :data:`PRESETS`
  registry and the K-KO-RCU thresholds (:data:`RCU_THRESHOLDS`);
* :mod:`.choice`: a preset's own check (:func:`problems`) and an organizer's choice with its
  changes (:func:`check_choice`), against the words other apps register (:mod:`.vocabulary`);
* :mod:`.rules`: the engine rule set of a tournament (:func:`ruleset_for`, :func:`time_limit`,
  :func:`has_clock`), its scoring system chosen from ``engine.scoring.SCORING_SYSTEMS``, and
  :func:`validate_rules`.

What a tournament stores of its format: ``Tournament.ruleset``, ``ruleset_overrides``,
``scoring_system`` and ``games_count`` (tournaments), the chosen preset with the organizer's
changes in ``scoring.models.ScoringSettings`` (scoring, next to the standings that read it),
each round's table choices in ``tables.models.Game.composition_options``. docs/architecture.md,
"Add a format", is the checklist.
"""

from __future__ import annotations

from .choice import FormatChoice, check_chain, check_choice, preset_or_refuse, problems
from .presets import (
    BEST,
    CLUB_NUMBERS,
    PRESETS,
    RCU_THRESHOLDS,
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
    "BEST", "CLUB_NUMBERS", "DEFAULT_SCORING_SYSTEM", "PRESETS", "RCU_THRESHOLDS", "TEAM_BEST", "TEAM_ROSTER", "TEAM_STARTERS",
    "FormatChoice", "Preset",
    "RoundTables", "all_presets", "check_chain", "check_choice", "check_scoring_system", "get", "has_clock",
    "preset_or_refuse", "problems", "ruleset_for", "scoring_system_choices", "time_limit", "validate_rules",
]
