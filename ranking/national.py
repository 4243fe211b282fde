"""The national ranking (K-RANKING) live across every event on this instance.

Which events count: tournaments with status finished and a national type (the tournament's own
``event_type``, else its format preset's ``ranking_class``; neither, or "AMC": a friendly, never
read). An event belongs to the year of its last day (the latest of its date and its games' start
and end). Positions come from the event's ordinary standings; ghost seats and anonymous players
(the clubs' "Anonimo Anonimo" and "The Ghost" records, players whose data were erased) are left
out; a blacklisted player's events do not count as the pipeline decides it
(``ranking.excluded_by_blacklist``). T is the event's non-empty tables over all rounds.

The computed ranking is stored per year (``NationalRanking`` with its rows and every player's
events) by ``compute(year)``, which runs in the Celery task ``ranking.tasks.recompute_ranking``,
never in a request. ``request_update(year)`` queues that task once the current transaction commits
(once per year however often it is asked in one transaction); ``tournament_changed`` asks it for
every year a tournament is or was in: services call it when a tournament finishes or reopens and
when a result of a finished tournament changes.
"""

from __future__ import annotations

import datetime as dt
import gc
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import connection, connections, router, transaction
from django.db.models import CharField, Count, ForeignKey, IntegerField, Max, Min, Model, Q
from django.utils import timezone

from scoring import selectors
from scoring.models import WorkbookEvent
from tournaments import formats
from tournaments.models import Player, Tournament, display_name, normalise_name

from . import formula as rk
from .models import NationalRanking, NationalRankingEvent, NationalRankingRow, RankingBlacklist

FRIENDLY = formats.FRIENDLY
RECOMPUTE_TASK = "scoring.tasks.recompute_ranking"  # its name since it was scoring's: queued messages still run
ANONYMOUS_NAMES = frozenset({normalise_name("Anonimo", "Anonimo"), normalise_name("The", "Ghost")})


# ------------------------------------------------------------------ which events, which year
def event_type(tournament: Tournament) -> str:
    """The tournament's national type: its own, else its format preset's, else "AMC"
    (``EventFormat.event_type``)."""
    return tournament.event_format().event_type


def _local(value: dt.datetime | None) -> dt.date | None:
    return timezone.localdate(value) if value is not None else None


def _with_dates(queryset: Any) -> Any:
    """The dates of the games that count (a rehearsal game is not part of the event), and how
    many rehearsal games there are (not rounds)."""
    counted = Q(games__rehearsal=False)
    return queryset.annotate(
        first_start=Min("games__started_at", filter=counted), last_start=Max("games__started_at", filter=counted),
        first_end=Min("games__finished_at", filter=counted), last_end=Max("games__finished_at", filter=counted),
        rehearsals=Count("games", filter=Q(games__rehearsal=True)),
    )


def _dates(t: Any) -> tuple[dt.date, dt.date]:
    days = [t.date, *(d for d in (_local(t.first_start), _local(t.last_start), _local(t.first_end),
                                   _local(t.last_end)) if d is not None)]
    return min(days), max(days)


def event_dates(tournament: Tournament) -> tuple[dt.date, dt.date]:
    """First and last day of the event: its date and its games' starts and ends."""
    return _dates(_with_dates(Tournament.objects.filter(pk=tournament.pk)).get())


def event_year(tournament: Tournament) -> int:
    return event_dates(tournament)[1].year


def event_organizer(tournament: Tournament) -> str:
    """The organizer's name in the event's id: as stored for the clubs' workbook (the clubs' list
    spelling), else the creator's full name or user name, else the tournament's slug."""
    stored = WorkbookEvent.objects.filter(tournament=tournament).values_list("organizer", flat=True).first()
    if stored:
        return str(stored).strip()
    user = tournament.created_by
    return ((user.get_full_name() or user.username) if user is not None else "").strip() or tournament.slug


def event_first_day(tournament: Tournament) -> dt.date:
    """The event's first round's date: the first of the workbook's round dates when stored (an
    imported event), else the local day the earliest-numbered game that started or ended did,
    else the tournament's date."""
    from tables.models import Game

    stored = WorkbookEvent.objects.filter(tournament=tournament).values_list("dates", flat=True).first()
    if stored:
        return dt.date.fromisoformat(stored[0])
    for started, finished in Game.objects.filter(tournament=tournament).order_by("number").values_list(
            "started_at", "finished_at"):
        day = _local(finished or started)
        if day is not None:
            return day
    return tournament.date


def event_id(tournament: Tournament) -> str:
    """The event's id in the national ranking and the clubs' workbook (K-RANKING): the first
    round's date as ``yyyyMMdd``, " - ", the organizer's name (:func:`event_organizer`). The one
    place it is decided: the workbook's export, its import, the event's and the year's rows."""
    return rk.event_id(event_first_day(tournament), event_organizer(tournament))


def event_ids(tournaments: Iterable[Tournament]) -> dict[int, str]:
    """:func:`event_id` of many tournaments at once (three queries), by tournament pk."""
    from tables.models import Game

    ts = {t.pk: t for t in tournaments}
    stored = {tid: (org, dates) for tid, org, dates in WorkbookEvent.objects.filter(tournament__in=list(ts))
              .values_list("tournament_id", "organizer", "dates")}
    users = {t.pk: t.created_by for t in Tournament.objects.filter(pk__in=list(ts)).select_related("created_by")}
    first: dict[int, dt.date] = {}
    for tid, started, finished in Game.objects.filter(tournament__in=list(ts)).exclude(
            started_at=None, finished_at=None).order_by("tournament_id", "-number").values_list(
            "tournament_id", "started_at", "finished_at"):
        day = _local(finished or started)
        if day is not None:
            first[tid] = day  # the last written is the earliest-numbered game's
    out = {}
    for pk, t in ts.items():
        org, dates = stored.get(pk, ("", []))
        user = users.get(pk)
        organizer = (org or ((user.get_full_name() or user.username) if user is not None else "")).strip() or t.slug
        day = dt.date.fromisoformat(dates[0]) if dates else first.get(pk, t.date)
        out[pk] = rk.event_id(day, organizer)
    return out


def is_anonymous(player: Player) -> bool:
    return anonymous(player.pk, player.normalised_name, player.last_name)


def anonymous(pk: int, normalised_name: str, last_name: str) -> bool:
    """:func:`is_anonymous` from plain values (a year reads thousands of players)."""
    return normalised_name in ANONYMOUS_NAMES or last_name == f"#{pk}"


def _finished(years: Iterable[int] | None = None) -> list[tuple[Tournament, str, dt.date, dt.date]]:
    """Every finished tournament with a national type (not a friendly), with its dates; only
    those ending in ``years`` when given."""
    wanted = set(years) if years is not None else None
    ts = list(_with_dates(Tournament.objects.filter(status=Tournament.Status.FINISHED)))
    fmts = formats.of_many(ts)
    out = []
    for t in ts:
        kind = fmts[t.pk].event_type
        if kind == FRIENDLY:
            continue
        start, end = _dates(t)
        if wanted is None or end.year in wanted:
            out.append((t, kind, start, end))
    return out


def years_with_events() -> list[int]:
    return sorted({end.year for _t, _k, _s, end in _finished()}, reverse=True)


def table_games(tournament_ids: list[int]) -> dict[int, int]:
    """T per tournament, as the national pipeline counts it (its TAVOLI): the non-empty tables
    (at least one seat, a ghost seat included) of every round, rehearsal games left out, whether
    or not a result was entered."""
    from tables.models import Table

    return dict(Table.objects.filter(game__tournament__in=tournament_ids, game__rehearsal=False, seats__isnull=False)
                .values_list("game__tournament_id").annotate(n=Count("id", distinct=True)).values_list(
                    "game__tournament_id", "n"))


# ------------------------------------------------------------------ computing a year
@dataclass(frozen=True)
class _Shown:
    """What the year's rows show of a player, as of the computation."""

    name: str
    club: str
    search: str


def compute(year: int) -> NationalRanking:
    """Recompute and store ``year``'s ranking (rows replaced, version + 1). Serialised per year:
    the year's row is locked while reading and writing, so two workers never interleave."""
    with _collector_paused(), transaction.atomic():
        NationalRanking.objects.get_or_create(year=year)
        stored = NationalRanking.objects.select_for_update().get(year=year)
        finished = _finished([year])
        t_games = table_games([t.pk for t, *_ in finished])
        places = selectors.places_many([t for t, *_ in finished])
        ids = {player for rows in places.values() for player, _rank, played in rows if played}
        shown: dict[int, _Shown] = {}
        for pk, first, last, nickname, normalised, club in Player.objects.filter(pk__in=ids).values_list(
                "pk", "first_name", "last_name", "nickname", "normalised_name", "club__name"):
            if not anonymous(pk, normalised, last):
                shown[pk] = _Shown(display_name(first, last, nickname), club or "",
                                   normalise_name(first, last, nickname))
        banned: dict[int, list[RankingBlacklist]] = defaultdict(list)
        for b in RankingBlacklist.objects.filter(player_id__in=ids):
            banned[b.player_id].append(b)
        events = []
        for t, kind, start, end in finished:
            rows = [(player, rank) for player, rank, played in places[t.pk] if played and player in shown]
            events.append(rk.Event(key=t.pk, event_type=kind, table_games=t_games.get(t.pk, 0),
                                   rounds=t.event_format().games_count - t.rehearsals, start=start, end=end, standings=rows))

        def blacklisted(player: int, e: rk.Event) -> bool:
            return any(b.covers(e.start, e.end) for b in banned.get(player, ()))

        result = rk.year_ranking(year, events, blacklisted)
        # Replace the year's rows and events: plain DELETEs (nothing points at them), plain INSERTs.
        for old in (NationalRankingRow.objects.filter(ranking=stored), NationalRankingEvent.objects.filter(ranking=stored)):
            old._raw_delete(old.db)
        _insert(NationalRankingEvent, ("ranking", "tournament", "event_type", "table_games", "rounds", "starts_on",
                                       "ends_on"),
                [(stored.pk, e.key, e.event_type, e.table_games, e.rounds, e.start, e.end) for e in events])
        _insert(NationalRankingRow, ("ranking", "player", "position", "points", "name", "club", "search", "events"), [
            (stored.pk, py.player, py.position, py.points, shown[py.player].name, shown[py.player].club,
             shown[py.player].search,
             [{"tournament": ln.event.key, "position": ln.position, "vt": str(ln.shown_vt), "reason": ln.reason}
              for ln in py.lines])
            for py in result.players])
        stored.computed_at = timezone.now()
        stored.version += 1
        stored.events = len(events)
        stored.rules = {**result.rules.as_dict(), "valid_events": result.valid_events, "caps_applied": result.caps}
        stored.save()
    return stored


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a year is computed. Its places, scores, lines and rows
    are hundreds of thousands of small objects without cycles (freed as their counts drop): each
    pass of the collector walks the ones still alive, about a tenth of the computation's time for
    the benchmark's year. Back on as it was at the end, whatever happens."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _insert(model: type[Model], fields: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """INSERT ``rows`` (values of ``fields``, in order) as ``bulk_create`` would store them, in
    statements of as many rows as the database takes, without a model object and its SQL per
    row (that took a third of a year's computation). One statement per row (``executemany``)
    costs PostgreSQL a round of planning and index work per row: a fifth of a second more."""
    if not rows:
        return
    db = connections[router.db_for_write(model)]  # the connection itself: the proxy costs a lookup per value
    fs = [model._meta.get_field(name) for name in fields]
    qn = db.ops.quote_name
    head = f"INSERT INTO {qn(model._meta.db_table)} ({', '.join(qn(f.column) for f in fs)}) VALUES "
    one = f"({', '.join(['%s'] * len(fs))})"
    # ints and strings go in as they are (what their fields would make of them); dates,
    # decimals and JSON as their fields prepare them
    plain = {i for i, f in enumerate(fs) if isinstance(f, IntegerField | CharField | ForeignKey)}
    prepared = [[v if i in plain and isinstance(v, int | str | None) else f.get_db_prep_save(v, db)
                 for i, (f, v) in enumerate(zip(fs, row, strict=True))] for row in rows]
    size = max(1, min(1000, db.ops.bulk_batch_size(fs, rows)))  # SQLite: at most 999 values a statement
    with db.cursor() as cursor:
        for at in range(0, len(prepared), size):
            chunk = prepared[at:at + size]
            cursor.execute(head + ", ".join([one] * len(chunk)), [v for row in chunk for v in row])


# ------------------------------------------------------------------ asking for a recomputation
class _Recompute:
    """An on-commit callback that queues one year's recomputation (recognisable, so a year is
    queued once per transaction)."""

    def __init__(self, year: int) -> None:
        self.year = year
        self.queued = False

    def __call__(self) -> None:
        from celery import current_app as app

        self.queued = True
        # the task by its name (ranking/tasks.py calls this module: no import back)
        app.tasks[RECOMPUTE_TASK].delay(self.year)


def request_update(year: int) -> None:
    """Queue the recomputation of ``year``'s ranking once the current transaction commits (at
    once outside a transaction). Asked again for the same year in the same transaction: once."""
    year = int(year)
    if connection.in_atomic_block and any(
            isinstance(item[1], _Recompute) and item[1].year == year and not item[1].queued
            for item in connection.run_on_commit):
        return
    # robust: a broker away fails the queuing (logged), never the write that committed
    transaction.on_commit(_Recompute(year), robust=True)


def tournament_changed(tournament: Tournament) -> None:
    """A tournament finished, reopened, or a result or setting of a finished one changed: every
    year it is in now or was in when last computed gets recomputed."""
    years = set(NationalRankingEvent.objects.filter(tournament=tournament).values_list("ranking__year", flat=True))
    years.add(event_year(tournament))
    for year in sorted(years):
        request_update(year)


def players_changed(player_ids: Iterable[int]) -> None:
    """Players were renamed, merged or erased: the years that show them get recomputed (their
    rows keep the name and club as of the last computation)."""
    years = set(NationalRankingRow.objects.filter(player_id__in=list(player_ids))
                .values_list("ranking__year", flat=True))
    for year in sorted(years):
        request_update(year)
