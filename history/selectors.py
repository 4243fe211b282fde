"""One history per player across every event on this instance (imported workbooks included):
the events they took part in with their position, every game with its table, opponents, points
and place at the table, their national ranking per year, and head-to-head against another player.

Public reads: names, nicknames and clubs only, never an e-mail, a date of birth or a national
id. Draft tournaments are left out. A fixed number of queries whatever the number of events,
games or opponents (``tests/scoring/test_player_history.py`` counts them at two sizes).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q

from engine import decimal
from ranking import selectors as ranking_selectors
from scoring import selectors as sel
from scoring.models import Confirmation, ResultSubmission
from tables.models import Seat
from tournaments import formats
from tournaments.models import Player, Tournament, normalise_name

MAX_MATCHES = 20  # players a head-to-head search lists


@dataclass
class Opponent:
    player: Player | None  # None: a ghost seat
    place: Decimal | None
    points: Decimal | None


@dataclass
class GameLine:
    tournament: Tournament
    game: int
    rehearsal: bool
    table: int
    table_pk: int
    seat: int
    place: Decimal | None  # None: no result counts yet
    points: Decimal | None
    opponents: list[Opponent] = field(default_factory=list)


@dataclass
class EventLine:
    tournament: Tournament
    position: int | None
    total: Decimal | None
    finished: bool
    games: list[GameLine] = field(default_factory=list)


def _tournaments(player_ids: Iterable[int]) -> list[Tournament]:
    """The public events (not drafts) any of ``player_ids`` registered in or sat at, newest first."""
    ids = list(player_ids)
    return list(
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .filter(Q(registrations__player_id__in=ids) | Q(games__seats__player_id__in=ids))
        .distinct().select_related("club").order_by("-date", "-pk")
    )


def _counted_scores(tournaments: list[Tournament], table_ids: set[int]) -> dict[int, dict[int, dict[str, Any]]]:
    """{table: {seat number: score row}} of the result that counts at each table (confirmed, or
    the latest when the tournament publishes unconfirmed results)."""
    unconfirmed = {pk for pk, fmt in formats.of_many(tournaments).items() if fmt.publish_unconfirmed}
    confirmed = set(Confirmation.objects.filter(submission__table_id__in=table_ids)
                    .values_list("submission_id", flat=True))
    out: dict[int, dict[int, dict[str, Any]]] = {}
    for sub_id, tid, table_id, scores in (ResultSubmission.objects.filter(table_id__in=table_ids)
                                          .order_by("table_id", "number")
                                          .values_list("id", "tournament_id", "table_id", "scores")):
        if sub_id in confirmed or tid in unconfirmed:  # oldest first: the last that counts wins
            out[table_id] = {int(r["seat"]): r for r in scores}
    return out


def _number(value: Any) -> Decimal | None:
    return None if value is None else decimal(value)


def _games(player: Player, tournaments: list[Tournament], only_tables: set[int] | None = None) -> list[GameLine]:
    by_pk = {t.pk: t for t in tournaments}
    mine = list(Seat.objects.filter(player=player, game__tournament__in=list(by_pk))
                .values_list("table_id", "number", "table__number", "game__number", "game__rehearsal",
                             "game__tournament_id"))
    if only_tables is not None:
        mine = [m for m in mine if m[0] in only_tables]
    tables = {m[0] for m in mine}
    everyone: dict[int, list[Seat]] = defaultdict(list)
    for s in Seat.objects.filter(table_id__in=tables).select_related("player__club").order_by("number"):
        everyone[s.table_id].append(s)
    scores = _counted_scores(tournaments, tables)
    out = []
    for table_id, seat, table_no, game_no, rehearsal, tid in mine:
        rows = scores.get(table_id, {})
        me = rows.get(seat, {})
        out.append(GameLine(
            tournament=by_pk[tid], game=game_no, rehearsal=rehearsal, table=table_no, table_pk=table_id, seat=seat,
            place=_number(me.get("place")), points=_number(me.get("tournament_points")),
            opponents=[Opponent(o.player, _number(rows.get(o.number, {}).get("place")),
                                _number(rows.get(o.number, {}).get("tournament_points")))
                       for o in everyone[table_id] if o.number != seat],
        ))
    out.sort(key=lambda g: (-g.tournament.date.toordinal(), -g.tournament.pk, g.game))
    return out


def history(player: Player) -> dict[str, Any]:
    """Every public event of ``player`` (newest first) with their position and games, and their
    national ranking rows (year, position, points)."""
    tournaments = _tournaments([player.pk])
    standings = sel.standings_many(tournaments, labelled=False) if tournaments else {}
    games: dict[int, list[GameLine]] = defaultdict(list)
    for g in _games(player, tournaments):
        games[g.tournament.pk].append(g)
    events = []
    for t in tournaments:
        row = next((r for r in standings.get(t.pk, {}).get("rows", []) if r["player"] == player.pk), None)
        events.append(EventLine(
            tournament=t, position=row["rank"] if row and row.get("played") else None,
            total=_number(row["total"]) if row and row.get("played") else None,
            finished=t.status == Tournament.Status.FINISHED, games=games.get(t.pk, []),
        ))
    return {"player": player, "events": events, "ranking": ranking_selectors.player_years(player.pk),
            "games": sum(len(e.games) for e in events)}


@dataclass
class Meeting:
    game: GameLine
    other_place: Decimal | None
    other_points: Decimal | None

    @property
    def ahead(self) -> str:
        """"me", "other", "tie" or "" (no result counts yet)."""
        if self.game.place is None or self.other_place is None:
            return ""
        if self.game.place == self.other_place:
            return "tie"
        return "me" if self.game.place < self.other_place else "other"


def head_to_head(player: Player, other: Player) -> dict[str, Any]:
    """The games ``player`` and ``other`` played at the same table, who placed ahead in each,
    and the totals (rehearsal games are listed but never counted)."""
    shared = set(Seat.objects.filter(player=player, table__seats__player=other).values_list("table_id", flat=True))
    tournaments = _tournaments([player.pk]) if shared else []
    meetings = []
    for g in _games(player, tournaments, only_tables=shared):
        them = next((o for o in g.opponents if o.player is not None and o.player.pk == other.pk), None)
        if them is not None:
            meetings.append(Meeting(g, them.place, them.points))
    counted = [m for m in meetings if not m.game.rehearsal and m.ahead]
    return {
        "player": player, "other": other, "meetings": meetings,
        "totals": {"games": len(counted), "me": sum(m.ahead == "me" for m in counted),
                   "other": sum(m.ahead == "other" for m in counted), "tie": sum(m.ahead == "tie" for m in counted),
                   "my_points": sum((m.game.points or Decimal(0) for m in counted), Decimal(0)),
                   "other_points": sum((m.other_points or Decimal(0) for m in counted), Decimal(0))},
    }


def opponents(player: Player, query: str) -> list[Player]:
    """Players who sat at a table with ``player`` in a public event whose name or nickname
    holds every word of ``query`` (accents and case ignored), at most ``MAX_MATCHES``."""
    public = [s for s in Tournament.Status.values if s != Tournament.Status.DRAFT]
    qs = (Player.objects.filter(seats__table__seats__player=player, seats__game__tournament__status__in=public)
          .exclude(pk=player.pk).select_related("club"))
    for word in normalise_name(query).split()[:6]:
        qs = qs.filter(Q(normalised_name__contains=word) | Q(nickname__icontains=word))
    return list(qs.distinct().order_by("last_name", "first_name", "pk")[:MAX_MATCHES])
