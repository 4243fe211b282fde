"""What the clubs print on an event day: the scoresheet of every table (two per A4 page, all
tables of a game in one go) and the meeting statistics (who met whom, club against club).

The scoresheet is the clubs' own: per player Punti (P), Pti fuori obiettivo, Punti Torneo and
Firma, then the check total of the map (every point on the board belongs to one player: 164 on
the classic map, S-PLACE) and lines for notes. A table with a counted result is printed filled in
(the report of the game); otherwise blank, for the players to write on.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from engine import DECK_MAPS, load_board
from tables import hooks, selectors
from tables.models import Seat, Table
from tournaments.models import Tournament
from tournaments.names import by_name
from tournaments.permissions import is_referee


def board_total(tournament: Tournament) -> int:
    """The points on the tournament's map (the scoresheet's "Totale Punti")."""
    rs = tournament.event_format().rules()
    return load_board(DECK_MAPS.get(rs.objectives, "world")).total_value


def _sheets(tournament: Tournament, tables: list[Table], *, filled: bool = True) -> list[dict[str, Any]]:
    counting = {table.pk: rows for table, rows in hooks.results.counting_scores(tournament)} if filled else {}
    out = []
    for table in tables:
        scores = {r["seat"]: r for r in counting.get(table.pk, [])}
        rows = []
        for seat in sorted(table.seats.all(), key=lambda s: s.number):
            r = scores.get(seat.number)
            rows.append({"seat": seat, "points": r["game_score"] if r else None,
                         "extra": r["extra_objective"] if r else None,
                         "tournament_points": r["tournament_points"] if r else None})
        out.append({"table": table, "rows": rows, "filled": any(r["points"] is not None for r in rows)})
    return out


@require_GET
def scoresheets(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Every table of a game (or ``?table=N``), two scoresheets per A4 page."""
    tournament = get_object_or_404(Tournament, slug=slug)
    game = selectors.game_of(tournament, number)
    if game is None:
        raise Http404
    tables = Table.objects.filter(game=game).prefetch_related("seats__player__club").order_by("number")
    only = request.GET.get("table", "")
    if only:
        if not only.isdigit():
            raise Http404
        tables = tables.filter(number=int(only))
    hidden = hooks.results.first_hidden_game(tournament)
    # the organizer hid the last games' standings: their sheets print blank for the public
    filled = hidden is None or number < hidden or is_referee(request.user, tournament)
    sheets = _sheets(tournament, list(tables), filled=filled)
    if only and not sheets:
        raise Http404
    pages = [sheets[i:i + 2] for i in range(0, len(sheets), 2)]
    return render(request, "tables/scoresheets.html", {
        "tournament": tournament, "game": game, "pages": pages, "board_total": board_total(tournament),
        "only": only,
    })


@require_GET
def meetings(request: HttpRequest, slug: str) -> HttpResponse:
    """How many times each pair of players (and each pair of clubs) met at a table (a rehearsal
    game's tables are no meetings)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    by_table: dict[int, list[Seat]] = defaultdict(list)
    for seat in (Seat.objects.filter(game__tournament=tournament, game__rehearsal=False, player__isnull=False)
                 .select_related("player__club")):
        by_table[seat.table_id].append(seat)
    players: dict[int, Any] = {}
    met: dict[tuple[int, int], int] = defaultdict(int)
    clubs: dict[tuple[str, str], int] = defaultdict(int)
    for seats in by_table.values():
        for a in seats:
            players[a.player_id] = a.player
            for b in seats:
                if a.player_id != b.player_id:
                    met[(a.player_id, b.player_id)] += 1
                    ca = a.player.club.name if a.player.club else "—"
                    cb = b.player.club.name if b.player.club else "—"
                    clubs[(ca, cb)] += 1
    order = by_name(players.values())
    grid = [{"player": p, "cells": [met.get((p.pk, q.pk), 0) if p.pk != q.pk else None for q in order],
             "total": sum(met.get((p.pk, q.pk), 0) for q in order)} for p in order]
    club_names = sorted({c for pair in clubs for c in pair})
    club_grid = [{"club": c, "cells": [clubs.get((c, d), 0) for d in club_names]} for c in club_names]
    return render(request, "tables/meetings.html", {
        "tournament": tournament, "players": order, "grid": grid, "clubs": club_names, "club_grid": club_grid,
    })
