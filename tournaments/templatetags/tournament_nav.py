"""``{% include_if_exists "app/_tournament_nav.html" %}``: lets other apps add their links to
the tournament nav of ``base.html`` by shipping that template (nothing when it is missing)."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag(takes_context=True)
def include_if_exists(context: Any, name: str) -> SafeString:
    try:
        tpl = get_template(name)
    except template.TemplateDoesNotExist:
        return mark_safe("")  # noqa: S308 - empty string
    return mark_safe(tpl.render(context.flatten(), context.get("request")))  # noqa: S308


@register.filter
def referee_of(user: Any, tournament: Any) -> bool:
    """``{% if user|referee_of:tournament %}``: organizers and referees of the tournament."""
    from tournaments.permissions import is_referee

    return bool(tournament) and is_referee(user, tournament)


@register.filter
def organizer_of(user: Any, tournament: Any) -> bool:
    from tournaments.permissions import is_organizer

    return bool(tournament) and is_organizer(user, tournament)
