"""What tables adds to the operations of tournaments (``tournaments/hooks.py``), registered by
:meth:`tables.apps.TablesConfig.ready`: tournaments never imports tables."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from common.errors import ConflictError
from tournaments import hooks
from tournaments.models import Player

from .models import Game, Seat, Table


def player_tournaments(player: Player) -> set[int]:
    """The tournaments ``player`` was seated in."""
    return set(Seat.objects.filter(player=player).values_list("game__tournament_id", flat=True))


def player_data(player: Player) -> dict[str, Any]:
    """Every seat ``player`` took (their data export)."""
    seats = []
    for seat in Seat.objects.filter(player=player).select_related("table__game__tournament"):
        game = seat.table.game
        seats.append({
            "tournament": game.tournament.slug, "game": game.number, "table": seat.table.number,
            "seat": seat.number, "objective": seat.objective, "colour": getattr(seat, "colour", ""),
        })
    return {"seats": seats}


def merge_refusal(keep: int, drop: int) -> None:
    """Two players seated in the same game cannot be one person."""
    clash = Seat.objects.filter(player_id=keep, game_id__in=Seat.objects.filter(player_id=drop).values("game_id"))
    if clash.exists():
        raise ConflictError(_("Both players sat in the same game: they cannot be the same person."),
                            field="drop", rule="IDENTITY")


def tables_context(ids: set[int]) -> dict[int, dict[str, Any]]:
    return {t.pk: {"table": t.number, "game": t.game.number}
            for t in Table.objects.filter(pk__in=ids).select_related("game")}


def games_context(ids: set[int]) -> dict[int, dict[str, Any]]:
    return {g.pk: {"game": g.number} for g in Game.objects.filter(pk__in=ids)}


def games_under_way(tournament: Any) -> int:
    """The highest game number of ``tournament`` that has tables (0 before the first)."""
    numbers = Table.objects.filter(game__tournament=tournament).values_list("game__number", flat=True)
    return max(numbers, default=0)


def register() -> None:
    hooks.register(hooks.player_tournaments, player_tournaments)
    hooks.register(hooks.games_under_way, games_under_way)
    hooks.register(hooks.player_data, player_data)
    hooks.register(hooks.merge_refusals, merge_refusal)
    hooks.audit_context["tables.Table"] = tables_context
    hooks.audit_context["tables.Game"] = games_context
