"""A player's public history across events and their head-to-head with another player
(``history.selectors``): names and clubs only, never personal data."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.models import Player

from . import selectors as history


def _player(pk: int) -> Player:
    return get_object_or_404(Player.objects.select_related("club"), pk=pk)


@require_GET
def player_history(request: HttpRequest, pk: int) -> HttpResponse:
    return render(request, "history/player_history.html", history.history(_player(pk)))


@require_GET
def opponents(request: HttpRequest, pk: int) -> HttpResponse:
    """The players met at a table whose name matches ``?q=`` (htmx: the list alone; without
    JavaScript: the player's page with the list)."""
    player = _player(pk)
    query = (request.GET.get("q") or "").strip()[:60]
    ctx = {"player": player, "query": query, "found": history.opponents(player, query), "searched": True}
    if getattr(request, "htmx", False):
        return render(request, "history/_opponents.html", ctx)
    return render(request, "history/player_history.html", {**history.history(player), **ctx})


@require_GET
def head_to_head(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    return render(request, "history/head_to_head.html", history.head_to_head(_player(pk), _player(other)))
