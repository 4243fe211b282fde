"""A tournament's event workbook: the event as the clubs' workbook describes it, built from the
app's tables, counted results and standings, checked by :mod:`.validate` before it is written.

- ``Iscritti``: every registered player (and anyone seated), ids 1, 2, 3… in registration order.
- one ``n° Turno`` sheet per round with a counted result; a ghost seat is the Ghost (−1).
- scores are the raw table points as the clubs write them: the game score, 100 for a completed
  objective, eliminated players negative (a later elimination higher), ties between places broken
  with decimals.
- ``Classifica Ridotta``: the players who played, with the app's positions and totals.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils import timezone

from engine import Ending
from scoring import selectors
from scoring.models import ResultSubmission, WorkbookEvent
from tables.models import Game, Seat
from tournaments.models import Player, Registration, Tournament

from . import spec
from .book import Book, number, text
from .event import (
    Event,
    Registrant,
    RoundEntry,
    SeatEntry,
    StandingEntry,
    TableEntry,
    content_digest,
    file_name,
    to_book,
)
from .files import write
from .validate import Checked, Issue, check

# The sheets an app above adds to an event's workbook, registered at start-up (its AppConfig.ready):
# a sheet name and what makes its rows of a tournament (the first row the header; [] adds no sheet).
# The team standings' "Classifica a Squadre" (teams/exports.py) is one; the clubs' tools read none.
Sheet = Callable[[Tournament], list[list[Any]]]
SHEETS: dict[str, Sheet] = {}


def _add_sheets(book: Book, tournament: Tournament) -> None:
    for name, rows_of in SHEETS.items():
        rows = rows_of(tournament)
        if not rows:
            continue
        sheet = book.add(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if value is None or value == "":
                    continue
                sheet.put(r, c, number(float(value)) if isinstance(value, int | float | Decimal) else text(str(value)))


@dataclass
class Export:
    event: Event
    checked: Checked
    filename: str
    content: bytes = b""

    @property
    def ok(self) -> bool:
        return self.checked.ok


def organizer_of(tournament: Tournament) -> str:
    from ranking import national

    return national.event_organizer(tournament)


def type_code(tournament: Tournament) -> str:
    return tournament.event_format().event_type


def _raw_scores(sub: ResultSubmission) -> dict[int, float]:
    """Seat → the raw table points the workbook holds."""
    rows = sorted(sub.scores, key=lambda r: r["seat"])
    if sub.data.get("workbook"):
        return {int(r["seat"]): float(r["game_score"]) for r in rows}
    eliminated = [r for r in rows if r.get("eliminated")]
    out: dict[int, float] = {}
    for r in rows:
        if r.get("eliminated"):
            out[int(r["seat"])] = -float(len(eliminated) - int(r["eliminated"]) + 1)
        elif sub.ended_by == Ending.OBJECTIVE and float(r["place"]) == 1:
            out[int(r["seat"])] = 100.0
        else:
            score = float(r["game_score"])
            worse = sum(1 for o in rows if not o.get("eliminated") and float(o["game_score"]) == score
                        and float(o["place"]) > float(r["place"]))
            out[int(r["seat"])] = round(score + worse / 10, 1)
    return out


def _rounds(tournament: Tournament, unconfirmed: bool, seats: list[Seat], ids: dict[int, int],
            round_of: dict[int, int], issues: list[Issue]) -> tuple[list[RoundEntry], list[dt.date]]:
    """The event's rounds (each counted game's tables, with the raw scores of their seats) and
    each round's date; a table without a counted result or with too many seats is an issue."""
    by_table: dict[int, list[Seat]] = defaultdict(list)
    for s in seats:
        by_table[s.table_id].append(s)
    counted = {state.table.pk: (state, state.counting(unconfirmed))
               for state in selectors.table_states(tournament) if not state.table.game.rehearsal}
    games = {g.number: g for g in Game.objects.filter(tournament=tournament, rehearsal=False)}
    played_rounds = sorted({state.table.game.number for state, sub in counted.values() if sub is not None})
    rounds: list[RoundEntry] = []
    dates: list[dt.date] = []
    for n in played_rounds:
        k = round_of.get(n, n)
        tables: list[TableEntry] = []
        states = sorted((st for st, _sub in counted.values() if st.table.game.number == n),
                        key=lambda st: st.table.number)
        for state in states:
            sub = counted[state.table.pk][1]
            sat = by_table.get(state.table.pk, [])
            if not any(s.player_id for s in sat):
                continue
            if sub is None:
                issues.append(Issue("WB-RESULT", spec.round_sheet(k), params={"round": k, "table": state.table.number}))
                continue
            if len(sat) > spec.MAX_SEATS:
                issues.append(Issue("WB-SEATS", spec.round_sheet(k), params={"table": state.table.number,
                                                                              "max": spec.MAX_SEATS}))
                continue
            raw = _raw_scores(sub)
            tables.append(TableEntry(len(tables) + 1, tuple(
                SeatEntry(k, ids[s.player_id] if s.player_id else spec.GHOST_ID, raw.get(s.number, 0.0))
                for k, s in enumerate(sat, start=1))))
        rounds.append(RoundEntry(k, tuple(tables)))
        game = games.get(n)
        when = (game.finished_at or game.started_at) if game is not None else None
        dates.append(timezone.localdate(when) if when else tournament.date)
    return rounds, dates


def event_of(tournament: Tournament, organizer: str | None = None) -> tuple[Event, list[Issue]]:
    from ranking import national

    unconfirmed = tournament.event_format().publish_unconfirmed
    issues: list[Issue] = []
    regs = list(Registration.objects.active().filter(tournament=tournament)
                .select_related("player__club").order_by("created_at", "pk"))
    # A rehearsal game never counts (its seats and results stay out of the workbook).
    seats = list(Seat.objects.filter(game__tournament=tournament, game__rehearsal=False).select_related("player__club", "game", "table")
                 .order_by("game__number", "table__number", "number"))
    people: dict[int, Player] = {r.player_id: r.player for r in regs}
    for s in seats:
        if s.player_id is not None and s.player_id not in people:
            people[s.player_id] = s.player  # type: ignore[assignment]
    ids = {pk: k for k, pk in enumerate(people, start=1)}
    registrants = [Registrant(
        id=ids[pk], first_name=p.first_name, last_name=p.last_name, nickname=p.nickname,
        club=p.club.name if p.club_id else "", region=p.club.region if p.club_id else "",
        birth_date=p.birth_date, national_id=int(p.national_id) if p.national_id.isdigit() else None,
    ) for pk, p in people.items()]
    # The workbook's rounds are the games that count: a rehearsal game leaves no gap.
    round_of = selectors.round_numbers(tournament)
    rounds, dates = _rounds(tournament, unconfirmed, seats, ids, round_of, issues)
    stored = WorkbookEvent.objects.filter(tournament=tournament).first()
    if stored is not None and stored.dates and len(stored.dates) >= len(dates):
        dates = [dt.date.fromisoformat(d) for d in stored.dates]
    # The first date is the event id's (one rule for the workbook and the ranking, K-RANKING).
    first = national.event_first_day(tournament)
    dates = [first, *dates[1:]] if dates else [first]
    data = selectors.standings(tournament)
    standings = [StandingEntry(int(r["rank"]), ids[r["player"]], float(r["total"]),
                               people[r["player"]].first_name, people[r["player"]].last_name)
                 for r in data["rows"] if r["played"] and r["player"] in ids]
    event = Event(
        organizer=organizer or organizer_of(tournament), name=tournament.name,
        type_label=spec.TYPES[type_code(tournament)],
        planned_rounds=stored.planned_rounds if stored is not None and stored.planned_rounds else len(round_of),
        dates=dates, venue=tournament.venue, note=stored.note if stored is not None else "",
        registrants=registrants, rounds=rounds, standings=standings,
    )
    return event, issues


def export(tournament: Tournament, *, fmt: str = "xls", organizer: str | None = None,
           write_file: bool = True) -> Export:
    """Check the tournament's workbook and, when nothing would be refused, write it."""
    event, issues = event_of(tournament, organizer)
    name = file_name(event, "." + fmt)
    book = to_book(event)
    _add_sheets(book, tournament)
    checked = check(book, name)
    checked.issues[:0] = issues
    result = Export(event, checked, name)
    if write_file and checked.ok:
        result.content = write(book, fmt)
        _remember_export(tournament, event)
    return result


def _remember_export(tournament: Tournament, event: Event) -> None:
    """Record the exported event's id and content on the tournament, so importing its workbook
    on this site recognises the tournament instead of creating a second one. An imported event
    keeps what its file said; an id another event already holds is left to that event."""
    stored = WorkbookEvent.objects.filter(tournament=tournament).first()
    if stored is not None and stored.imported_at is not None:
        return
    if WorkbookEvent.objects.filter(event_id=event.event_id).exclude(tournament=tournament).exists():
        return
    WorkbookEvent.objects.update_or_create(tournament=tournament, defaults={
        "event_id": event.event_id, "digest": content_digest(event)})


def remember_organizer(tournament: Tournament, organizer: str, *, actor: Any = None) -> None:
    """The organizer's name as the clubs' list spells it (part of the event's id); audited."""
    from tournaments import audit

    organizer = " ".join(organizer.split())[:150]
    before = organizer_of(tournament)
    if organizer and organizer != before:
        WorkbookEvent.objects.update_or_create(tournament=tournament, defaults={"organizer": organizer})
        audit.record(actor=actor, action="workbook.organizer", obj=tournament, tournament=tournament,
                     before={"organizer": before}, after={"organizer": organizer})


def as_dict(result: Export) -> dict[str, Any]:
    return {"file": result.filename, "event_id": result.event.event_id, "ok": result.ok,
            "errors": [i.as_dict() for i in result.checked.errors],
            "warnings": [i.as_dict() for i in result.checked.warnings]}
