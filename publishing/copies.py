"""A tournament published from a hall laptop becomes a real tournament of this instance
(docs/publishing.md): its club, players, registrations, games, tables, seats, the laptop's
counting results as confirmed imported results, and the laptop's standings as written, so the
instance's own pages (tournament, standings, tables, players) and the national ranking show it.

``publishing.services.receive`` calls :func:`materialise` inside the publish's transaction
(registered at start-up, see ``publishing.apps``), so a publish cut short leaves nothing half done
and publishing again replaces the same tournament (keyed by the laptop's stable id), never a
second one. Like an event imported from the clubs' workbook, the standings are stored as the
laptop computed them (``WorkbookEvent.standings``, read by ``selectors.imported_rows``) rather
than recomputed here: both show the same leaderboard whatever this instance's settings.

Players: the payload carries a public name and a club only (no date of birth, no national id),
so a player is the one this copy already had for that laptop key, else a player of the
publishing club with that public name, else a new player record (:func:`_players`).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.utils import timezone

from common.errors import DomainError
from ranking import formula as rk
from ranking import national
from scoring import recompute
from scoring import standings as st
from scoring.models import Confirmation, ResultSubmission, WorkbookEvent
from tables.models import Game, Seat, Table
from tournaments import audit, formats
from tournaments.formats.rules import DEFAULT_SCORING_SYSTEM
from tournaments.models import (
    Club,
    Player,
    Registration,
    ScoringSettings,
    Tournament,
    display_name,
    normalise_name,
)

from .models import PublishedTournament, digest_of
from .services import content_of

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


def _players(content: dict[str, Any], tournament: Tournament | None, club: Club,
             previous: dict[str, Any] | None) -> dict[Any, int]:
    """The laptop's player key → this instance's player. A sent player is the player this copy
    already had for that laptop key (or, for a copy published before, under that public name and
    club), else a player of the publishing club (the token's, ``club``) with that public name,
    else a new player record, as registering on the instance makes one. So a club's publish
    never reaches another club's players or another organizer's: a name alone proves nothing
    (docs/security.md, "Publishing and clubs"). Clubs were checked by ``publishing.receive``."""
    clubs = {c.name.strip().casefold(): c.pk for c in Club.objects.all()}
    in_copy: dict[tuple[str, int | None], int] = {}
    if tournament is not None:
        for p in Player.objects.filter(registrations__tournament=tournament).order_by("pk"):
            in_copy.setdefault((p.display_name, p.club_id), p.pk)
    own: dict[str, int] = {}
    for p in Player.objects.filter(club=club).order_by("pk"):
        own.setdefault(p.display_name, p.pk)

    def club_of(sent: dict[str, Any]) -> int | None:
        return clubs.get(str(sent.get("club") or "").strip().casefold())

    before: dict[Any, int] = {}  # the last publish's keys, to the players this copy made of them
    for sent in (previous or {}).get("players", []):
        found = _first(in_copy, [(name, club_of(sent)) for name in _names(sent["name"])])
        if found is not None:
            before[sent["key"]] = found
    out: dict[Any, int] = {}
    for sent in content["players"]:
        club_id, names = club_of(sent), _names(sent["name"])
        found = before.get(sent["key"]) or _first(in_copy, [(name, club_id) for name in names])
        if found is None and club_id == club.pk:
            found = _first(own, names)
        if found is None:
            first, last, nickname = _split(sent["name"])
            found = Player.objects.create(first_name=first, last_name=last, nickname=nickname, club_id=club_id,
                                          normalised_name=normalise_name(first, last)[:170]).pk
        out[sent["key"]] = found
    return out


def _first(index: dict[Any, int], keys: list[Any]) -> int | None:
    return next((index[k] for k in keys if k in index), None)


def _names(name: str) -> list[str]:
    """A sent public name as it is, and as the player made of it shows it."""
    return [name.strip(), display_name(*_split(name))]


def _choice(value: Any, choices: Any, default: str) -> str:
    return value if value in set(choices.values) else default


def _day(value: Any, default: dt.date) -> dt.date:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return default


def _moment(value: Any) -> dt.datetime | None:
    try:
        moment = dt.datetime.fromisoformat(str(value)) if value else None
    except ValueError:
        return None
    return moment if moment is None or timezone.is_aware(moment) else None


def _rules(sent: dict[str, Any]) -> dict[str, Any]:
    """The laptop's rule set and scoring system, when this instance's engine knows them (a laptop
    of a newer version may name one it does not: then this instance's defaults)."""
    defaults = {"ruleset": Tournament.RuleSet.RTU, "ruleset_overrides": {}, "scoring_system": DEFAULT_SCORING_SYSTEM}
    chosen = {"ruleset": _choice(sent.get("ruleset"), Tournament.RuleSet, Tournament.RuleSet.RTU),
              "ruleset_overrides": sent.get("ruleset_overrides") or {},
              "scoring_system": str(sent.get("scoring_system") or DEFAULT_SCORING_SYSTEM)}
    try:
        formats.validate_rules(chosen["ruleset"], chosen["ruleset_overrides"], chosen["scoring_system"])
    except DomainError:
        return defaults
    return chosen


def _tournament(row: PublishedTournament, sent: dict[str, Any]) -> tuple[Tournament, bool]:
    capacity = sent.get("capacity")
    times = sent.get("start_times")
    fields = {"slug": row.slug, "name": str(sent["name"])[:150], "date": dt.date.fromisoformat(sent["date"]),
              "venue": str(sent.get("venue") or "")[:200],
              "format": _choice(sent.get("format"), Tournament.Format, Tournament.Format.ITALIANA),
              "status": _choice(sent.get("status"), Tournament.Status, Tournament.Status.FINISHED),
              "games_count": max(1, min(int(sent.get("games_count") or 1), 20)),
              "event_type": sent.get("event_type") if sent.get("event_type") in rk.TYPES else "",
              "capacity": capacity if isinstance(capacity, int) and not isinstance(capacity, bool)
              and capacity > 0 else None,
              "club": row.club, **_rules(sent)}
    if isinstance(times, list):
        fields["start_times"] = [str(t)[:5] for t in times[:20]]
    tournament = row.tournament
    if tournament is None:
        return Tournament.objects.create(**fields), True
    for k, v in fields.items():
        setattr(tournament, k, v)
    tournament.save()
    return tournament, False


def materialise(row: PublishedTournament, content: dict[str, Any],
                previous: dict[str, Any] | None = None) -> Tournament:
    """Make (or remake) the real tournament of a received copy; inside the caller's transaction.
    ``content`` was checked against ``publishing.schema``; ``previous``: the content of
    the publish before, if any."""
    tournament, created = _tournament(row, content["tournament"])
    players = _players(content, None if created else tournament, row.club, None if created else previous)
    if not created:  # the previous copy's games and registrations are replaced whole
        Game.objects.filter(tournament=tournament).delete()
        Registration.objects.filter(tournament=tournament).delete()
    Registration.objects.bulk_create([Registration(tournament=tournament, player_id=pk)
                                      for pk in dict.fromkeys(players.values())])
    _games(tournament, content["games"], players, row)
    standings = content["standings"]
    chosen = _scoring(content.get("scoring"), standings)
    method = chosen.pop("method")
    if method in formats.STANDINGS_METHODS and method != tournament.format:  # which games count: the tournament's
        tournament.format = method
        tournament.save(update_fields=["format"])
    ScoringSettings.store(tournament, **chosen)
    ranking = content.get("ranking") if isinstance(content.get("ranking"), dict) else {}
    WorkbookEvent.objects.update_or_create(tournament=tournament, defaults={
        "organizer": str(ranking.get("organizer") or row.club.name)[:150], "source": f"{SOURCE}{row.source_id}",
        "digest": row.published_digest, "planned_rounds": tournament.event_format().games_count,
        "dates": [_day(ranking.get("first_day"), tournament.date).isoformat()],
        "standings": _standings(standings["rows"], players), "imported_at": timezone.now()})
    audit.record(actor=None, action="publish.receive", obj=tournament, tournament=tournament, before=None,
                 after={"source_id": str(row.source_id), "sequence": row.sequence, "digest": row.published_digest,
                        "created": created})
    recompute.invalidate(tournament.pk)
    row.tournament = tournament
    row.tournament_digest = fingerprint(tournament)
    PublishedTournament.objects.filter(pk=row.pk).update(tournament=tournament, tournament_digest=row.tournament_digest)
    national.tournament_changed(tournament)
    return tournament


def _scoring(sent: Any, standings: dict[str, Any]) -> dict[str, Any]:
    """The laptop's format choices (preset, games that count, tie-break chain, changed numbers):
    the standings' header, the format page and the national type read them. A laptop of an
    older version sent only the standings' method. ``method`` goes to the tournament's
    ``format`` (its one home); the rest to its ``ScoringSettings``."""
    sent = sent if isinstance(sent, dict) else {"method": standings.get("method")}
    preset = str(sent.get("preset") or "")
    best_n = sent.get("best_n")
    changes = sent.get("club_changes")
    return {"preset": preset if formats.get(preset) is not None else "",
            "method": str(sent.get("method") or "")[:20],
            "tiebreaks": [m for m in sent.get("tiebreaks") or [] if m in st.METRICS],
            "best_n": best_n if isinstance(best_n, int) and not isinstance(best_n, bool) and 1 <= best_n <= 1000 else 2,
            "publish_unconfirmed": sent.get("publish_unconfirmed") is True,
            "club_changes": changes if isinstance(changes, dict) else {}}


# What a standings row keeps of the laptop's (selectors.imported_rows reads them back): every
# column the leaderboard shows, not only position and total.
ROW_FIELDS = ("shared", "extra", "armies", "played", "reached", "advanced", "wins", "finalist", "tiebreak")


def _standings(rows: list[dict[str, Any]], players: dict[Any, int]) -> list[dict[str, Any]]:
    out = []
    for r in rows:
        if r.get("player") not in players:
            continue
        kept = {k: r[k] for k in ROW_FIELDS if k in r}
        kept["games"] = [{k: _text(c.get(k)) for k in ("game", "points", "counted", "place", "table", "extra",
                                                       "armies", "game_score")}
                         for c in r.get("games") or [] if isinstance(c, dict)]
        out.append({"player": players[r["player"]], "position": int(r["rank"]), "points": _text(r["total"]), **kept})
    return out


def _text(value: Any) -> Any:
    """An exact non-integral number as its digits (the stored standings' JSON has no decimals;
    ``selectors`` reads them back exact)."""
    return str(value) if isinstance(value, Decimal) else value


def _games(tournament: Tournament, games: list[dict[str, Any]], players: dict[Any, int],
           row: PublishedTournament) -> None:
    made = Game.objects.bulk_create([
        Game(tournament=tournament, number=int(g["number"]),
             status=_choice(g.get("status"), Game.Status, Game.Status.FINISHED),
             rehearsal=g.get("rehearsal") is True, started_at=_moment(g.get("started_at")),
             finished_at=_moment(g.get("finished_at"))) for g in games])
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
