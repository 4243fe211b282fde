"""``{% rating_history player %}``: the rating's history on the player's page, which scoring
renders (scoring never imports ratings; a template may name any installed app's tags)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Player

from .. import selectors
from ..models import PROVISIONAL_BELOW, Rating

register = template.Library()


@register.inclusion_tag("ratings/_history.html")
def rating_history(player: Player) -> dict[str, Any]:
    return {"rating": Rating.objects.filter(player=player).first(), "games": selectors.history(player),
            "provisional_below": PROVISIONAL_BELOW}
