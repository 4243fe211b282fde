"""A tournament's rules of play and scoring system, as the engine's registries know them.

The rule set (``Tournament.ruleset`` and its ``ruleset_overrides``, :mod:`engine.rulesets`) and
the scoring system (``Tournament.scoring_system``, :data:`engine.scoring.SCORING_SYSTEMS`) are
chosen from the engine's registries, never free text: stored unchecked, a bad value would only
fail later, on the referee's page.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils.translation import gettext as _

from common.engine_messages import describe
from common.errors import DomainError
from engine import SCORING_SYSTEMS, EngineError, RuleSet, get_ruleset

from .. import labels

DEFAULT_SCORING_SYSTEM = "S-RTU"


def scoring_system_choices() -> list[tuple[str, str]]:
    """Every scoring system of the engine, by its id and what it does (the model field's, the
    forms' and the API's choices: one list, the engine's registry)."""
    return [(code, f"{code} – {labels.system(code)}") for code in SCORING_SYSTEMS]


def check_scoring_system(scoring_system: Any) -> str:
    """``scoring_system`` if the engine knows it, else a DomainError naming the field."""
    code = str(scoring_system or "").strip()
    if code not in SCORING_SYSTEMS:
        raise DomainError(
            _("Unknown scoring system %(system)s (known: %(known)s).")
            % {"system": code, "known": ", ".join(SCORING_SYSTEMS)},
            field="scoring_system", rule="FORMAT",
        )
    return code


def validate_rules(ruleset: str, overrides: Any, scoring_system: str) -> None:
    """The rule set, its overrides and the scoring system must be ones the engine knows.
    DomainError names the field and the engine's rule id."""
    if not isinstance(overrides, dict):
        raise DomainError(_("Rule set overrides must be an object."), field="ruleset_overrides",
                          rule="FORMAT")
    try:
        get_ruleset(ruleset)
    except EngineError as err:
        raise DomainError(describe(err.code, err.params, err.message), field="ruleset", rule=err.rule) from None
    try:
        get_ruleset({"base": ruleset, "overrides": overrides})
    except EngineError as err:
        raise DomainError(describe(err.code, err.params, err.message), field="ruleset_overrides",
                          rule=err.rule) from None
    check_scoring_system(scoring_system)


def ruleset_for(tournament: Any) -> RuleSet:
    """The engine rule set of ``tournament``, honouring ``ruleset_overrides``."""
    overrides = dict(tournament.ruleset_overrides or {})
    try:
        return get_ruleset({"base": tournament.ruleset, "overrides": overrides})
    except EngineError as exc:
        raise DomainError(describe(exc.code, exc.params, exc.message), field="ruleset_overrides",
                          rule=exc.rule) from exc


def time_limit(tournament: Any) -> dt.timedelta:
    """E-TIME: the rule set's ``time_limit_minutes`` (90 for RTU). A rule set may give
    ``extra.time_limit_seconds`` instead (short clocks for demos and tests)."""
    rs = ruleset_for(tournament)
    seconds = rs.extra.get("time_limit_seconds") if rs.extra else None
    if isinstance(seconds, int | float) and not isinstance(seconds, bool) and seconds > 0:
        return dt.timedelta(seconds=seconds)
    return dt.timedelta(minutes=rs.time_limit_minutes)


def has_clock(tournament: Any) -> bool:
    """CLASSIC plays without a time limit (``closure = "none"``)."""
    return ruleset_for(tournament).closure != "none"
