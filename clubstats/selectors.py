"""Reads of the statistics: the tables and standings the worker computes from (``plays``,
``event_results``), and the stored figures the pages, the CSV files and the API show. A page
never computes a year: it reads ``Sheet`` rows (``clubstats.services`` writes them)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet

from scoring import selectors as scoring
from scoring.models import Confirmation, ResultSubmission
from tables.models import Table, TurnEvent
from tournaments.models import Club, Player, ScoringSettings, Tournament
from tournaments.names import sort_key

from .figures import EventResult, Play, SeatPlay
from .models import ALL_YEARS, RankingRule, Sheet

ROLL_KINDS = (TurnEvent.Kind.END_TURN, TurnEvent.Kind.SDADATA)
RECORDED_KINDS = (ResultSubmission.Kind.RECORD, ResultSubmission.Kind.BOARD)


def finished_events() -> QuerySet[Tournament]:
    """The events the statistics count: finished ones, in date order."""
    return Tournament.objects.filter(status=Tournament.Status.FINISHED).order_by("date", "pk")


def _rolls_of(tournament_ids: Sequence[int]) -> dict[int, list[tuple[int, ...]]]:
    """Each table's sdadata rolls as the referee's page recorded them (its turn log)."""
    out: dict[int, list[tuple[int, ...]]] = {}
    for table, dice in (TurnEvent.objects.filter(table__game__tournament__in=tournament_ids, kind__in=ROLL_KINDS)
                        .order_by("table", "index").values_list("table_id", "dice")):
        if dice:
            out.setdefault(table, []).append(tuple(int(d) for d in dice))
    return out


def _record_rolls(data: dict[str, Any]) -> list[tuple[int, ...]]:
    record = data.get("record") or {}
    events = record.get("events") if isinstance(record, dict) else None
    return [tuple(int(d) for d in e.get("dice") or ()) for e in events or ()
            if isinstance(e, dict) and e.get("type") == "sdadata"]


CHUNK = 400  # events a query reads at once (SQLite's bound on a query's parameters)


@dataclass(frozen=True)
class _Counting:
    """The result that counts at a table, as ``_counting`` reads it (no model built: thousands)."""

    table_id: int
    kind: str
    ended_by: str
    data: dict[str, Any]
    scores: list[dict[str, Any]]


def _counting(events: Sequence[Tournament]) -> dict[int, list[_Counting]]:
    """Each event's counting results, table by table, by scoring's rule (``TableState.counting``:
    the latest confirmed version, or the latest where the organizer publishes unconfirmed
    results); rehearsal games left out. Read as plain values: the rows of a whole history."""
    ids = [t.pk for t in events]
    confirmed = set(Confirmation.objects.filter(submission__tournament__in=ids).values_list("submission_id", flat=True))
    publish = set(ScoringSettings.objects.filter(tournament__in=ids, publish_unconfirmed=True)
                  .values_list("tournament_id", flat=True))
    rehearsals = set(Table.objects.filter(game__tournament__in=ids, game__rehearsal=True).values_list("pk", flat=True))
    counting: dict[int, tuple[int, _Counting]] = {}
    for pk, tournament, table, kind, ended_by, data, scores in (
            ResultSubmission.objects.filter(tournament__in=ids).order_by("table_id", "number")
            .values_list("pk", "tournament_id", "table_id", "kind", "ended_by", "data", "scores")):
        if table not in rehearsals and (pk in confirmed or tournament in publish):
            counting[table] = (tournament, _Counting(table, kind, ended_by, data or {}, scores or []))
    out: dict[int, list[_Counting]] = {}
    for tournament, sub in sorted(counting.values(), key=lambda c: c[1].table_id):
        out.setdefault(tournament, []).append(sub)
    return out


def _play(tournament: Tournament, sub: _Counting, club_of: dict[int, int | None],
          logged: dict[int, list[tuple[int, ...]]]) -> Play | None:
    """One counting result as a ``Play``: an adjudicated record or a final board is a recorded
    game (its seats, cards and ending are known); a short form (and every imported workbook) is
    not. A ghost seat (no player) is left out."""
    data = sub.data
    cards = {int(p.get("seat", 0)): str(p.get("objective") or "") for p in data.get("players") or ()
             if isinstance(p, dict)}
    recorded = sub.kind in RECORDED_KINDS
    seats = tuple(
        SeatPlay(int(r["seat"]), int(r["player"]), int(r["place"]), club_of.get(int(r["player"])),
                 cards.get(int(r["seat"]), "") if recorded else "")
        for r in sorted(sub.scores, key=lambda r: int(r["seat"]))
        if r.get("player") is not None and r.get("place") is not None)
    if len(seats) < 2:
        return None
    rolls = _record_rolls(data) if sub.kind == ResultSubmission.Kind.RECORD else logged.get(sub.table_id, [])
    return Play(tournament.pk, tournament.club_id, tournament.date, sub.table_id, seats, recorded,
                sub.ended_by if recorded else "", tuple(rolls) if recorded else ())


def plays(tournaments: Iterable[Tournament] | None = None) -> list[Play]:
    """Every table that counts (the confirmed result, or the latest where the organizer publishes
    unconfirmed ones: scoring's rule) of the finished events; rehearsal games left out."""
    events = list(finished_events() if tournaments is None else tournaments)
    club_of = dict(Player.objects.values_list("pk", "club_id"))
    out = []
    for start in range(0, len(events), CHUNK):
        chunk = events[start:start + CHUNK]
        logged = _rolls_of([t.pk for t in chunk])
        counting = _counting(chunk)
        for tournament in chunk:
            for sub in counting.get(tournament.pk, []):
                play = _play(tournament, sub, club_of, logged)
                if play is not None:
                    out.append(play)
    return out


def event_results(tournaments: Iterable[Tournament]) -> list[EventResult]:
    """Each player's final position and total in the standings of ``tournaments``; a registered
    player who played no game that counts has no result (and is not one of the field)."""
    out = []
    for t in tournaments:
        rows = [r for r in scoring.standings(t)["rows"] if r.get("played", 1)]
        field = len(rows)
        out.extend(EventResult(t.pk, t.name, t.date, int(r["player"]), int(r["rank"]), field, str(r.get("total", 0)))
                   for r in rows if r.get("rank") is not None)
    return out


def rule_of(club: Club | int) -> RankingRule:
    """The club's ranking rule (the default, unsaved, when never set: every event added up)."""
    club_id = club if isinstance(club, int) else club.pk
    return RankingRule.objects.filter(club_id=club_id).first() or RankingRule(club_id=club_id)


# ------------------------------------------------------------------ the stored figures

def club_years(club: Club) -> list[Sheet]:
    """The club's years, newest first, then every year together (``year`` 0)."""
    rows = list(Sheet.objects.filter(kind=Sheet.Kind.CLUB, club=club))
    return sorted(rows, key=lambda s: (s.year == ALL_YEARS, -s.year))


def clubs_with_figures() -> list[tuple[Club, Sheet]]:
    """Every club with figures, by name, with its figures over every year."""
    sheets = Sheet.objects.filter(kind=Sheet.Kind.CLUB, year=ALL_YEARS).select_related("club")
    return sorted(((s.club, s) for s in sheets if s.club is not None), key=lambda cs: sort_key(cs[0].name))


def years(kind: str = Sheet.Kind.PLAYER) -> list[int]:
    return sorted({y for y in Sheet.objects.filter(kind=kind).values_list("year", flat=True) if y != ALL_YEARS},
                  reverse=True)


def player_rows(year: int) -> list[Sheet]:
    """Everyone's figures of ``year`` (0: every year), most games first, then by name."""
    rows = list(Sheet.objects.filter(kind=Sheet.Kind.PLAYER, year=year).select_related("player__club"))
    return sorted(rows, key=lambda s: (-s.data.get("games", 0), sort_key(s.player.display_name) if s.player else ""))


def player_years(player: Player) -> list[Sheet]:
    rows = list(Sheet.objects.filter(kind=Sheet.Kind.PLAYER, player=player))
    return sorted(rows, key=lambda s: (s.year == ALL_YEARS, -s.year))


def ranking(club: Club, year: int) -> Sheet | None:
    return Sheet.objects.filter(kind=Sheet.Kind.RANKING, club=club, year=year).first()


def ranking_years(club: Club) -> list[int]:
    found = Sheet.objects.filter(kind=Sheet.Kind.RANKING, club=club).values_list("year", flat=True)
    return sorted(set(found), key=lambda y: (y == ALL_YEARS, -y))


def play(club: Club | None) -> Sheet | None:
    """The recorded games' figures of ``club`` (None: of the whole instance)."""
    return Sheet.objects.filter(kind=Sheet.Kind.PLAY, club=club, year=ALL_YEARS).first()


def simulator() -> Sheet | None:
    return Sheet.objects.filter(kind=Sheet.Kind.SIMULATOR).first()


def names(player_ids: Iterable[int]) -> dict[int, str]:
    return {p.pk: p.display_name for p in Player.objects.filter(pk__in=set(player_ids))}


def club_names(club_ids: Iterable[int]) -> dict[int, str]:
    return dict(Club.objects.filter(pk__in=set(club_ids)).values_list("pk", "name"))
