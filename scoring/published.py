"""A tournament published from a hall laptop becomes a real tournament of this instance
(docs/publishing.md): its club, players, registrations, games, tables, seats, the laptop's
counting results as confirmed imported results, and the laptop's standings as written, so the
instance's own pages (tournament, standings, tables, players) and the national ranking show it.

``tournaments.publishing.receive`` calls :func:`materialise` inside the publish's transaction
(registered at start-up, see ``scoring.apps``), so a publish cut short leaves nothing half done
and publishing again replaces the same tournament (keyed by the laptop's stable id), never a
second one. Like an event imported from the clubs' workbook, the standings are stored as the
laptop computed them (``WorkbookEvent.standings``, read by ``selectors.imported_rows``) rather
than recomputed here: both show the same leaderboard whatever this instance's settings.

Players: the payload carries a public name and a club only (no date of birth, no national id),
so a player is the one this copy already had under that name, else a player of that club with
that public name, else a new player of that club.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from tables.models import Game, Seat, Table
from tournaments import audit
from tournaments.models import (
    Club,
    Player,
    PublishedTournament,
    Registration,
    Tournament,
    normalise_name,
)
from tournaments.publishing import content_of, digest_of

from . import national, selectors
from . import ranking as rk
from .models import Confirmation, ResultSubmission, ScoringSettings, WorkbookEvent

SOURCE = "published:"


def fingerprint(tournament: Tournament) -> str:
    """What an edit on this instance would change: the tournament, its players and its games
    with their counting results, as the publishing format describes them (the standings are
    derived from those, and may be cached)."""
    content = content_of(tournament)
    content.pop("standings", None)
    return digest_of(content)


def edited(row: PublishedTournament) -> bool:
    """Whether the tournament made of ``row`` was changed here since it was last published."""
    if row.tournament is None or not row.tournament_digest:
        return False
    return fingerprint(row.tournament) != row.tournament_digest


def _split(name: str) -> tuple[str, str, str]:
    """"First Last (nickname)" → (first, last, nickname), as ``display_name`` joins them."""
    nickname = ""
    if name.endswith(")") and " (" in name:
        name, nickname = name[:-1].rsplit(" (", 1)
    first, _sep, last = name.strip().partition(" ")
    return first[:80], last.strip()[:80], nickname.strip()[:80]


def _players(content: dict[str, Any], tournament: Tournament | None) -> dict[Any, int]:
    """The laptop's player key → this instance's player."""
    previous: dict[tuple[str, int | None], int] = {}
    if tournament is not None:
        for p in Player.objects.filter(registrations__tournament=tournament).select_related("club"):
            previous.setdefault((p.display_name, p.club_id), p.pk)
    clubs: dict[str, int | None] = {"": None}
    out: dict[Any, int] = {}
    for sent in content["players"]:
        club_name = str(sent.get("club") or "").strip()[:120]
        if club_name not in clubs:
            club = Club.objects.filter(name=club_name).first() or Club.objects.create(name=club_name)
            clubs[club_name] = club.pk
        club_id = clubs[club_name]
        name = str(sent["name"]).strip()
        found = previous.get((name, club_id))
        if found is None and club_id is not None:
            found = next((p.pk for p in Player.objects.filter(club_id=club_id).order_by("pk")
                          if p.display_name == name), None)
        if found is None:
            first, last, nickname = _split(name)
            found = Player.objects.create(first_name=first, last_name=last, nickname=nickname, club_id=club_id,
                                          normalised_name=normalise_name(first, last)[:170]).pk
        out[sent.get("key")] = found
    return out


def _choice(value: Any, choices: Any, default: str) -> str:
    return value if value in set(choices.values) else default


def _tournament(row: PublishedTournament, sent: dict[str, Any]) -> tuple[Tournament, bool]:
    try:
        day = dt.date.fromisoformat(str(sent.get("date")))
    except ValueError:
        day = timezone.localdate()
    fields = {"slug": row.slug, "name": str(sent["name"])[:150], "date": day, "venue": str(sent.get("venue") or "")[:200],
              "format": _choice(sent.get("format"), Tournament.Format, Tournament.Format.ITALIANA),
              "status": _choice(sent.get("status"), Tournament.Status, Tournament.Status.FINISHED),
              "games_count": max(1, min(int(sent.get("games_count") or 1), 20)),
              "event_type": sent.get("event_type") if sent.get("event_type") in rk.TYPES else "",
              "club": row.club}
    tournament = row.tournament
    if tournament is None:
        return Tournament.objects.create(**fields), True
    for k, v in fields.items():
        setattr(tournament, k, v)
    tournament.save()
    return tournament, False


def materialise(row: PublishedTournament, content: dict[str, Any]) -> Tournament:
    """Make (or remake) the real tournament of a received copy; inside the caller's transaction."""
    tournament, created = _tournament(row, content["tournament"])
    players = _players(content, None if created else tournament)
    if not created:  # the previous copy's games and registrations are replaced whole
        Game.objects.filter(tournament=tournament).delete()
        Registration.objects.filter(tournament=tournament).delete()
    Registration.objects.bulk_create([Registration(tournament=tournament, player_id=pk)
                                      for pk in dict.fromkeys(players.values())])
    _games(tournament, content["games"], players, row)
    standings = content["standings"]
    method = str(standings.get("method") or "")[:20]
    ScoringSettings.objects.update_or_create(tournament=tournament, defaults={"method": method})
    stored = [{"player": players[r["player"]], "position": int(r["rank"]), "points": r["total"]}
              for r in standings["rows"] if r.get("player") in players]
    WorkbookEvent.objects.update_or_create(tournament=tournament, defaults={
        "organizer": row.club.name[:150], "source": f"{SOURCE}{row.source_id}", "digest": row.published_digest,
        "planned_rounds": tournament.games_count, "dates": [tournament.date.isoformat()], "standings": stored,
        "imported_at": timezone.now()})
    audit.record(actor=None, action="publish.receive", obj=tournament, tournament=tournament, before=None,
                 after={"source_id": str(row.source_id), "sequence": row.sequence, "digest": row.published_digest,
                        "created": created})
    selectors.invalidate(tournament.pk)
    row.tournament = tournament
    row.tournament_digest = fingerprint(tournament)
    PublishedTournament.objects.filter(pk=row.pk).update(tournament=tournament, tournament_digest=row.tournament_digest)
    national.tournament_changed(tournament)
    return tournament


def _games(tournament: Tournament, games: list[dict[str, Any]], players: dict[Any, int],
           row: PublishedTournament) -> None:
    made = Game.objects.bulk_create([
        Game(tournament=tournament, number=int(g["number"]),
             status=_choice(g.get("status"), Game.Status, Game.Status.FINISHED)) for g in games])
    tables: list[tuple[Table, dict[str, Any]]] = []
    for game, g in zip(made, games, strict=True):
        for t in g["tables"]:
            tables.append((Table(game=game, number=int(t["number"]),
                                 status=_choice(t.get("status"), Table.Status, Table.Status.FINISHED)), t))
    Table.objects.bulk_create([t for t, _sent in tables])
    seats, subs = [], []
    for table, sent in tables:
        for s in sent.get("seats", []):
            seats.append(Seat(table=table, game=table.game, number=int(s["number"]),
                              player_id=players.get(s.get("player")), colour=str(s.get("colour") or "")[:10]))
        result = sent.get("result")
        if result:
            scores = [{**r, "player": players.get(r.get("player"))} for r in result.get("scores", [])]
            subs.append(ResultSubmission(table=table, tournament=tournament, number=int(result.get("version") or 1),
                                         kind=result.get("kind") or ResultSubmission.Kind.SHORT,
                                         ended_by=result.get("ended_by") or ResultSubmission.Ending.TIME,
                                         data={"published": str(row.source_id)}, scores=scores, entered_by=None))
    Seat.objects.bulk_create(seats)
    subs = ResultSubmission.objects.bulk_create(subs)
    Confirmation.objects.bulk_create([Confirmation(submission=s, user=None, by_organizer=True) for s in subs])
