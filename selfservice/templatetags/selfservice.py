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


@register.inclusion_tag("selfservice/_call_button.html", takes_context=True)
def call_button(context: Any, tournament: Tournament, table: Table, back: str = "") -> dict[str, Any]:
    return {"tournament": tournament, "table": table, "call": selectors.open_call_of(table.pk),
            "over": table.game.status == "finished", "next": back or context.get("request").get_full_path(),
            "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("selfservice/_calls_poll.html", takes_context=True)
def referee_calls(context: Any, tournament: Tournament) -> dict[str, Any]:
    return {"tournament": tournament, "calls": selectors.open_calls(tournament), "recent": [],
            "request": context.get("request"), "csrf_token": context.get("csrf_token")}


@register.inclusion_tag("selfservice/_organizer_links.html")
def organizer_links(tournament: Tournament) -> dict[str, Any]:
    return {"tournament": tournament}
