from __future__ import annotations

from typing import Any

from django import template

from teams import selectors

register = template.Library()


@register.filter
def is_team_event(tournament: Any) -> bool:
    """Does the tournament's format have teams (its navigation then links to them)?"""
    return bool(getattr(tournament, "pk", None)) and bool(selectors.mode(tournament))
