"""Past events from their workbooks: each file becomes a finished tournament (its type, rounds,
tables, seats, results and the standings as written), in one transaction per file.

- **Idempotent** by the ranking's event id (first round date ``yyyyMMdd - Organizzatore``): the
  same content again changes nothing; changed content replaces that event (same tournament).
- **A tournament run here and exported** (its export recorded the event's id) is recognised:
  its own workbook, as exported or as it is now, changes nothing; a file that differs from it is
  refused (the file or the tournament was edited since), never imported as a second tournament
  and never replacing what was run and audited here.
- **Players** are matched to known ones by national id, else by name + surname + date of birth
  (exactly, accents and case aside). Anyone else is created, and compared with the known players
  (:mod:`tournaments.identity`): probable duplicates are listed for a person to decide on the
  merge page, never merged here.
- Only the registrants who sat at a table are imported (the others took no part in the event).
- A bad file (not a workbook, damaged, too large, refused by the checks of :mod:`.validate`) is
  reported with its sheet and cell; nothing of it is saved, and the other files go on.
"""

from __future__ import annotations

import datetime as dt
import os
import zipfile
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from engine import Ending
from scoring import recompute
from scoring.models import Confirmation, ResultSubmission, WorkbookEvent
from tables.models import Game, Seat, Table
from tournaments import audit
from tournaments.identity import Candidate, probable_duplicates
from tournaments.models import (
    Club,
    Player,
    Registration,
    ScoringSettings,
    Tournament,
    TournamentRole,
    normalise_name,
)

from . import spec
from .event import Event, Registrant, content_digest
from .export import event_of
from .files import WorkbookFileError, open_book
from .validate import Issue, check

IMPORTED, REPLACED, UNCHANGED, REFUSED = "imported", "replaced", "unchanged", "refused"
MAX_GAMES = 20  # a tournament's rounds (Tournament.games_count)
MAX_ZIP_MEMBERS = 5000


@dataclass
class FileReport:
    name: str
    status: str = REFUSED
    event_id: str = ""
    tournament: str = ""  # slug
    issues: list[Issue] = field(default_factory=list)
    players_new: int = 0
    players_matched: int = 0
    duplicates: list[dict[str, Any]] = field(default_factory=list)  # {"player", "name", "candidates"}

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self.issues if i.is_error]

    @property
    def warnings(self) -> list[Issue]:
        return [i for i in self.issues if not i.is_error]

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.name, "status": self.status, "event_id": self.event_id, "tournament": self.tournament,
                "players_new": self.players_new, "players_matched": self.players_matched,
                "errors": [i.as_dict() for i in self.errors], "warnings": [i.as_dict() for i in self.warnings],
                "probable_duplicates": self.duplicates}


class PlayerIndex:
    """Every known player by national id, identity and birth date, loaded once for a batch."""

    def __init__(self) -> None:
        self.national: dict[str, int] = {}
        self.identity: dict[tuple[str, dt.date | None], list[int]] = defaultdict(list)
        self.by_birth: dict[dt.date | None, list[Candidate]] = defaultdict(list)
        self.by_name: dict[str, list[Candidate]] = defaultdict(list)
        self.taken: set[tuple[str, int | None]] = set()
        self.clubs: dict[str, int] = {c.name.casefold(): c.pk for c in Club.objects.all()}
        for p in Player.objects.only("pk", "first_name", "last_name", "birth_date", "national_id", "normalised_name",
                                     "club_id"):
            self.add(p)

    def add(self, p: Player) -> None:
        if p.national_id:
            self.national[p.national_id] = p.pk
        self.identity[(p.normalised_name, p.birth_date)].append(p.pk)
        c = Candidate(p.pk, p.first_name, p.last_name, p.birth_date)
        self.by_birth[p.birth_date].append(c)
        self.by_name[p.normalised_name].append(c)
        self.taken.add((p.normalised_name, p.club_id))

    def find(self, r: Registrant) -> int | None:
        if r.national_id and str(r.national_id) in self.national:
            return self.national[str(r.national_id)]
        same = self.identity.get((normalise_name(r.first_name, r.last_name), r.birth_date), [])
        return same[0] if len(same) == 1 else None

    def near(self, r: Registrant, exclude: int) -> list[Candidate]:
        if r.birth_date is None:
            pool: Iterable[Candidate] = [c for cs in self.by_birth.values() for c in cs]
        else:
            pool = [*self.by_birth.get(r.birth_date, []), *self.by_birth.get(None, []),
                    *self.by_name.get(normalise_name(r.first_name, r.last_name), [])]
        return [c for c in {c.player_id: c for c in pool}.values() if c.player_id != exclude]


def _may_replace(actor: Any, tournament: Tournament) -> bool:
    if actor is None:  # the command line: the server's own operator
        return True
    if getattr(actor, "is_staff", False):
        return True
    from tournaments.permissions import is_organizer

    return is_organizer(actor, tournament)  # its organizers, its organising club's admins


def _slug(event: Event, own: int | None) -> str:
    base = slugify(event.event_id)[:70] or "torneo"
    slug, k = base, 1
    while Tournament.objects.filter(slug=slug).exclude(pk=own).exists():
        k += 1
        slug = f"{base}-{k}"
    return slug


def _noon(day: dt.date) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(12)))


def _places(scores: list[float]) -> list[int]:
    return [1 + sum(1 for o in scores if o > s) for s in scores]


def import_workbook(content: bytes, filename: str, *, actor: Any = None, index: PlayerIndex | None = None,
                    changed_years: set[int] | None = None) -> FileReport:
    """Import one workbook file (see the module's docstring); never raises for bad input."""
    name = os.path.basename(filename)
    report = FileReport(name)
    try:
        book = open_book(content, name)
    except WorkbookFileError as exc:
        report.issues.append(exc.issue)
        return report
    checked = check(book, name)
    report.issues = list(checked.issues)
    event = checked.event
    if event is None:
        return report
    report.event_id = event.event_id
    if max(event.planned_rounds, len(event.rounds)) > MAX_GAMES:
        report.issues.append(Issue("WB-ROUNDS", spec.TORNEO, "D6",
                                   {"max": MAX_GAMES, "rounds": max(event.planned_rounds, len(event.rounds))}))
        return report
    digest = content_digest(event)
    existing = WorkbookEvent.objects.filter(event_id=event.event_id).select_related("tournament").first()
    if existing is not None and existing.imported_at is None:
        return _run_here(existing, event, digest, report)
    if existing is not None and existing.digest == digest:
        report.status, report.tournament = UNCHANGED, existing.tournament.slug
        return report
    if existing is not None and not _may_replace(actor, existing.tournament):
        report.issues.append(Issue("WB-FILE", params={"what": _(
            "event %(id)s was imported by someone else: only its organizers or staff may replace it")
            % {"id": event.event_id}}))
        return report
    index = index or PlayerIndex()
    try:
        with transaction.atomic():
            tournament = _store(event, digest, name, existing, actor, index, report)
    except Exception:
        index.__init__()  # type: ignore[misc]  # players created in the rolled-back transaction are gone
        raise
    report.status = REPLACED if existing is not None else IMPORTED
    report.tournament = tournament.slug
    transaction.on_commit(lambda: recompute.invalidate(tournament.pk))
    recompute.invalidate(tournament.pk)
    if changed_years is not None and event.year is not None:
        changed_years.add(event.year)  # a batch asks the ranking once per year, at its end
    else:
        _ranking_changed(event.year)
    return report


def _run_here(existing: WorkbookEvent, event: Event, digest: str, report: FileReport) -> FileReport:
    """The workbook of a tournament run on this site (its export recorded the event id)."""
    tournament = existing.tournament
    report.tournament = tournament.slug
    if digest in (existing.digest, content_digest(event_of(tournament)[0])):
        report.status = UNCHANGED
        return report
    report.issues.append(Issue("WB-FILE", params={"what": _(
        "event %(id)s is the tournament “%(name)s” run on this site and this file differs from it (the "
        "file or the tournament was edited after the export): correct the tournament on its own pages; "
        "an import never replaces it") % {"id": event.event_id, "name": tournament.name}}))
    return report


def _ranking_changed(year: int | None) -> None:
    """Tell the national ranking an event of ``year`` changed (recomputed after the commit)."""
    if year is None:
        return
    from ranking import national

    national.request_update(year)


def _players(event: Event, actor: Any, index: PlayerIndex, report: FileReport) -> dict[int, int]:
    """Registrant id → player pk for everyone who sat at a table."""
    played = event.played_ids()
    regs = {r.id: r for r in event.registrants if r.id in played}
    out: dict[int, int] = {}
    new: list[tuple[Registrant, Player]] = []
    for ident, r in regs.items():
        found = index.find(r)
        if found is not None and found not in out.values():
            out[ident] = found
            report.players_matched += 1
            if r.national_id and str(r.national_id) not in index.national:
                Player.objects.filter(pk=found, national_id="").update(national_id=str(r.national_id))
                index.national[str(r.national_id)] = found
            continue
        club_id = None
        if r.club:
            club_id = index.clubs.get(r.club.casefold()[:120])
            if club_id is None:
                club = Club.objects.create(name=r.club[:120], region=r.region[:60])
                club_id = index.clubs[club.name.casefold()] = club.pk
        normalised = normalise_name(r.first_name, r.last_name)[:170]
        if (normalised, club_id) in index.taken:
            club_id = None  # one name per club: the same name elsewhere is told apart by its birth date
        national = str(r.national_id) if r.national_id and str(r.national_id) not in index.national else ""
        player = Player(first_name=r.first_name[:80], last_name=r.last_name[:80], nickname=r.nickname[:80],
                        club_id=club_id, birth_date=r.birth_date, national_id=national, normalised_name=normalised)
        index.taken.add((normalised, club_id))
        if national:
            index.national[national] = -1
        new.append((r, player))
    Player.objects.bulk_create([p for _r, p in new])
    for r, p in new:
        out[r.id] = p.pk
        found = probable_duplicates(p.first_name, p.last_name, p.birth_date, index.near(r, p.pk))
        if found:
            report.duplicates.append({"player": p.pk, "name": p.full_name,
                                      "candidates": [d.player_id for d in found]})
    for _r, p in new:
        index.add(p)
    report.players_new = len(new)
    return out


def _play(event: Event, tournament: Tournament, players: dict[int, int], name: str, user: Any) -> list[Table]:
    """The event's rounds as finished games: tables, seats and each table's confirmed result
    (its scores as the workbook gives them; places from the scores)."""
    games = Game.objects.bulk_create([
        Game(tournament=tournament, number=r.number, status=Game.Status.FINISHED,
             started_at=_noon(event.dates[min(k, len(event.dates) - 1)]),
             finished_at=_noon(event.dates[min(k, len(event.dates) - 1)]))
        for k, r in enumerate(event.rounds)])
    game_of = {g.number: g for g in games}
    tables = Table.objects.bulk_create([
        Table(game=game_of[r.number], number=t.number, status=Table.Status.FINISHED)
        for r in event.rounds for t in r.tables])
    seats, subs = [], []
    k = 0
    for r in event.rounds:
        for t in r.tables:
            table = tables[k]
            k += 1
            scores = [s.score for s in t.seats]
            places = _places(scores)
            out = sorted((s for s in t.seats if s.score < 0), key=lambda s: s.score)
            order = {s.seat: n for n, s in enumerate(out, start=1)}
            rows = []
            for s, place in zip(t.seats, places, strict=True):
                player = players.get(s.id) if s.id > 0 else None
                seats.append(Seat(table=table, game=table.game, number=s.seat, player_id=player))
                rows.append({"seat": s.seat, "player": player, "game_score": s.score, "extra_objective": 0,
                             "armies": 0, "place": place, "tournament_points": s.score, "tiebreak": 0,
                             "eliminated": order.get(s.seat)})
            ended = Ending.OBJECTIVE if 100 in scores else Ending.TIME
            subs.append(ResultSubmission(table=table, tournament=tournament, number=1,
                                         kind=ResultSubmission.Kind.SHORT, ended_by=ended,
                                         data={"workbook": name}, scores=rows, entered_by=user))
    Seat.objects.bulk_create(seats)
    subs = ResultSubmission.objects.bulk_create(subs)
    Confirmation.objects.bulk_create([Confirmation(submission=s, user=user, by_organizer=True) for s in subs])
    return tables


def _store(event: Event, digest: str, name: str, existing: WorkbookEvent | None, actor: Any,
           index: PlayerIndex, report: FileReport) -> Tournament:
    user = actor if getattr(actor, "is_authenticated", False) else None
    code = event.type_code or "AMC"
    fields = {"name": event.name[:150] or event.event_id[:150], "date": event.dates[0], "venue": event.venue[:200],
              "event_type": code, "games_count": max(event.planned_rounds, len(event.rounds), 1),
              "format": Tournament.Format.ITALIANA, "status": Tournament.Status.FINISHED}
    if existing is not None:
        tournament = existing.tournament
        before = {"digest": existing.digest, "source": existing.source}
        for k, v in fields.items():
            setattr(tournament, k, v)
        tournament.slug = _slug(event, tournament.pk)
        tournament.save()
        Game.objects.filter(tournament=tournament).delete()
        Registration.objects.filter(tournament=tournament).delete()
    else:
        before = None
        tournament = Tournament.objects.create(slug=_slug(event, None), created_by=user, **fields)
        if user is not None:
            TournamentRole.objects.create(tournament=tournament, user=user, role=TournamentRole.Role.ORGANIZER)
    ScoringSettings.store(tournament, best_n=2)  # every game counts: the tournament's format
    players = _players(event, actor, index, report)
    Registration.objects.bulk_create([Registration(tournament=tournament, player_id=pk) for pk in players.values()])
    tables = _play(event, tournament, players, name, user)

    stored = [{"player": players[s.id], "position": s.position, "points": s.points}
              for s in event.standings if s.id in players]
    WorkbookEvent.objects.update_or_create(tournament=tournament, defaults={
        "organizer": event.organizer[:150], "event_id": event.event_id, "source": name[:255], "digest": digest,
        "planned_rounds": event.planned_rounds, "dates": [d.isoformat() for d in event.dates], "note": event.note,
        "standings": stored, "imported_at": timezone.now()})
    audit.record(actor=actor, action="workbook.import", obj=tournament, tournament=tournament, before=before,
                 after={"event_id": event.event_id, "source": name, "digest": digest, "tables": len(tables),
                        "players": len(players), "probable_duplicates": report.duplicates})
    return tournament


# ------------------------------------------------------------------ many files
def _members(path: str) -> Iterator[tuple[str, bytes | Issue]]:
    """(name, content) of every workbook in a file, folder or zip archive (sorted, recursive)."""
    if os.path.isdir(path):
        for root, _dirs, files in sorted(os.walk(path)):
            for f in sorted(files):
                if f.lower().endswith((".xls", ".xlsx", ".zip")):
                    yield from _members(os.path.join(root, f))
        return
    if path.lower().endswith(".zip"):
        try:
            zf = zipfile.ZipFile(path)
            infos = [i for i in zf.infolist() if not i.is_dir() and i.filename.lower().endswith((".xls", ".xlsx"))]
        except (zipfile.BadZipFile, OSError):
            yield os.path.basename(path), Issue("WB-FILE", params={"what": _("the archive is damaged")})
            return
        for i in infos[:MAX_ZIP_MEMBERS]:
            if i.file_size > spec.MAX_FILE_BYTES:
                yield i.filename, Issue("WB-LIMIT", params={"what": _("the file is larger than %(mb)s MB")
                                                            % {"mb": spec.MAX_FILE_BYTES // 2**20}})
                continue
            try:
                yield i.filename, zf.read(i)
            except (zipfile.BadZipFile, OSError, ValueError, NotImplementedError):
                yield i.filename, Issue("WB-FILE", params={"what": _("the archive is damaged")})
        return
    try:
        if os.path.getsize(path) > spec.MAX_FILE_BYTES:
            yield path, Issue("WB-LIMIT", params={"what": _("the file is larger than %(mb)s MB")
                                                  % {"mb": spec.MAX_FILE_BYTES // 2**20}})
            return
        with open(path, "rb") as fh:
            yield path, fh.read()
    except OSError as exc:
        yield path, Issue("WB-FILE", params={"what": str(exc.strerror or exc)})


def workbook_paths(paths: Iterable[str]) -> Iterator[tuple[str, bytes | Issue]]:
    for p in paths:
        yield from _members(p)


def import_many(items: Iterable[tuple[str, bytes | Issue]], *, actor: Any = None,
                progress: Callable[[FileReport], None] | None = None) -> list[FileReport]:
    """Import every (name, content); one report per file, in order. The national ranking is asked
    to recompute each changed year once, after the last file (not once per file)."""
    index = PlayerIndex()
    years: set[int] = set()
    out = []
    for name, content in items:
        if isinstance(content, Issue):
            report = FileReport(os.path.basename(name), issues=[content])
        else:
            try:
                report = import_workbook(content, name, actor=actor, index=index, changed_years=years)
            except Exception as exc:  # noqa: BLE001 - one file's failure never stops the others
                report = FileReport(os.path.basename(name), issues=[Issue("WB-FILE", params={
                    "what": _("the event could not be stored (%(error)s); nothing of it was saved")
                    % {"error": type(exc).__name__}})])
        out.append(report)
        if progress is not None:
            progress(report)
    for year in sorted(years):
        _ranking_changed(year)
    return out
