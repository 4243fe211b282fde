"""Template tags that put the self-service parts on pages other apps render (the apps below never
import this one; a template may name any installed app's tags, as the player's page does the
rating's): ``{% player_panel tournament me %}`` on the player's own page, ``{% call_button
tournament table %}`` on a table's page, ``{% referee_calls tournament %}`` on the organizer's
and the referee's pages, ``{% organizer_links tournament %}`` on the organizer's page."""

from __future__ import annotations

from typing import Any

from django import template

from tables.models import Table
from tournaments.models import Player, Tournament

from .. import selectors

register = template.Library()


@register.inclusion_tag("selfservice/_player_panel.html", takes_context=True)
def player_panel(context: Any, tournament: Tournament, me: Player) -> dict[str, Any]:
    return {"tournament": tournament, "me": me, "panel": selectors.player_panel(tournament, me),
            "request": context.get("request"), "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("selfservice/_call_slot.html")
def call_button(tournament: Tournament, table: Table) -> dict[str, Any]:
    """Only a slot: the button comes in its own never-cached answer (the table's page is a public
    page shared by every phone, without a form token), and keeps the call's state fresh."""
    return {"tournament": tournament, "table": table}


@register.inclusion_tag("selfservice/_calls_poll.html", takes_context=True)
def referee_calls(context: Any, tournament: Tournament) -> dict[str, Any]:
    return {"tournament": tournament, "calls": selectors.open_calls(tournament), "recent": [],
            "request": context.get("request"), "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("selfservice/_organizer_links.html")
def organizer_links(tournament: Tournament) -> dict[str, Any]:
    return {"tournament": tournament}
