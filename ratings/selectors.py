"""Reads of the rating: the tables to rate, in the one order that makes the rating
deterministic, and the rows the page, the API and the player's page show."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import QuerySet

from tables import hooks
from tables.models import Table
from tournaments.models import Player, Tournament, normalise_name

from .models import RatedGame, Rating


@dataclass(frozen=True)
class TableGame:
    """One table's finishing order: (player, place), ties sharing a place."""

    key: str
    tournament_id: int
    table_id: int
    places: tuple[tuple[int, int], ...]


def tournament_key(day: date, tournament_id: int) -> str:
    return f"{day.isoformat()}|{tournament_id:012d}"


def table_key(table: Table) -> str:
    """Where ``table`` falls in the rating's order: date, tournament id, game number, table number."""
    game = table.game
    return f"{tournament_key(game.tournament.date, game.tournament_id)}|{game.number:05d}|{table.number:05d}"


def tables_from(start: str = "") -> list[TableGame]:
    """Every table whose result counts (confirmed, or the latest where the organizer publishes
    unconfirmed results: scoring's rule), at or after ``start`` in the rating's order. Draft
    events and rehearsal games are left out; a seat with no player (a ghost) is no one's. The
    place is the engine's: survivors first, a player eliminated earlier below, ties shared."""
    day = date.fromisoformat(start[:10]) if start else date.min
    out = []
    for tournament in (Tournament.objects.exclude(status=Tournament.Status.DRAFT).filter(date__gte=day)
                       .order_by("date", "pk")):
        if tournament_key(tournament.date, tournament.pk) < start[:23]:
            continue
        for table, scores in hooks.results.counting_scores(tournament):
            if table.game.rehearsal:
                continue
            table.game.tournament = tournament
            key = table_key(table)
            places = tuple((int(r["player"]), int(r["place"])) for r in scores
                           if r.get("player") is not None and r.get("place") is not None)
            if key >= start and len(places) > 1:
                out.append(TableGame(key, tournament.pk, table.pk, places))
    out.sort(key=lambda t: t.key)
    return out


def rows(query: str = "") -> QuerySet[Rating]:
    """Everyone rated, best first (ties by name); ``query`` keeps those whose name or nickname
    holds every word of it (accents and case ignored)."""
    qs = Rating.objects.select_related("player__club")
    for word in normalise_name(query).split()[:8]:
        qs = qs.filter(player__normalised_name__contains=word)
    return qs.order_by("-rating", "player__last_name", "player__first_name", "player_id")


def row_dict(r: Rating) -> dict[str, object]:
    return {"player": {"id": r.player_id, "name": r.player.display_name,
                       "club": r.player.club.name if r.player.club else ""},
            "rating": r.rating, "games": r.games, "provisional": r.provisional}


def history(player: Player) -> list[RatedGame]:
    """The player's rating after each table, newest first."""
    return list(RatedGame.objects.filter(player=player).select_related("tournament", "table__game")
                .order_by("-key"))
