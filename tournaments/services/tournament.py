"""Tournaments: creation, their editable details (dates, start times, rules) and status."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError

from .. import audit, hooks
from ..formats import check_scoring_system, validate_rules
from ..models import Club, Tournament, TournamentRole
from .guards import require_organizer
from .registration import _promote

TIME_RE = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)$")


EDITABLE_FIELDS = (
    "name", "date", "venue", "format", "ruleset", "ruleset_overrides", "scoring_system",
    "games_count", "start_times", "capacity", "event_type",
)


def tournament_snapshot(t: Tournament) -> dict[str, Any]:
    return {
        "name": t.name, "slug": t.slug, "date": t.date.isoformat() if t.date else None,
        "venue": t.venue, "format": t.format, "ruleset": t.ruleset,
        "ruleset_overrides": t.ruleset_overrides, "scoring_system": t.scoring_system,
        "games_count": t.games_count, "start_times": list(t.start_times or []),
        "capacity": t.capacity, "status": t.status, "event_type": t.event_type,
    }


def _clean_start_times(start_times: Any, games_count: int) -> list[str]:
    if isinstance(start_times, str):
        start_times = [s.strip() for s in re.split(r"[,;\s]+", start_times) if s.strip()]
    if not isinstance(start_times, list | tuple):
        raise DomainError(_("Start times must be a list such as 10:30, 14:00."), field="start_times")
    cleaned = []
    for value in start_times:
        match = TIME_RE.match(str(value).strip())
        if not match:
            raise DomainError(
                _("“%(value)s” is not a time (HH:MM).") % {"value": value}, field="start_times"
            )
        cleaned.append(f"{int(match.group(1)):02d}:{match.group(2)}")
    if len(cleaned) > games_count:
        raise DomainError(
            _("There are more start times than games."), field="start_times", rule="K-BEST2"
        )
    return cleaned


def _validate_tournament_fields(data: dict[str, Any]) -> dict[str, Any]:
    data = dict(data)
    if "name" in data:
        data["name"] = str(data["name"] or "").strip()
        if not data["name"]:
            raise DomainError(_("A tournament needs a name."), field="name", rule="REQUIRED")
    if "format" in data and data["format"] not in Tournament.Format.values:
        raise DomainError(_("Unknown tournament format."), field="format")
    if "ruleset" in data and data["ruleset"] not in Tournament.RuleSet.values:
        raise DomainError(_("Unknown rule set."), field="ruleset")
    if "event_type" in data:
        data["event_type"] = str(data["event_type"] or "").strip().upper()
        if data["event_type"] and data["event_type"] not in Tournament.EventType.values:
            raise DomainError(_("Unknown national ranking type (Tipologia)."), field="event_type",
                              rule="K-RANKING")
    if "games_count" in data:
        try:
            data["games_count"] = int(data["games_count"])
        except (TypeError, ValueError):
            raise DomainError(_("Enter a whole number."), field="games_count") from None
        if not 1 <= data["games_count"] <= 20:
            raise DomainError(
                _("A tournament has between 1 and 20 games."), field="games_count", rule="K-BEST2"
            )
    if "capacity" in data and data["capacity"] not in (None, ""):
        try:
            data["capacity"] = int(data["capacity"])
        except (TypeError, ValueError):
            raise DomainError(_("Enter a whole number."), field="capacity") from None
        if data["capacity"] < 1:
            raise DomainError(_("The capacity must be at least 1."), field="capacity")
    elif "capacity" in data:
        data["capacity"] = None
    if "date" in data and isinstance(data["date"], str):
        try:
            data["date"] = dt.date.fromisoformat(data["date"])
        except ValueError:
            raise DomainError(_("Enter a valid date."), field="date") from None
    if "date" in data and not data["date"]:
        raise DomainError(_("A tournament needs a date."), field="date", rule="REQUIRED")
    if "ruleset_overrides" in data and not isinstance(data["ruleset_overrides"], dict):
        raise DomainError(_("Rule set overrides must be an object."), field="ruleset_overrides")
    if "scoring_system" in data:
        data["scoring_system"] = check_scoring_system(data["scoring_system"])
    return data


def _unique_slug(base: str) -> str:
    base = slugify(base)[:70] or "torneo"
    slug, n = base, 2
    while Tournament.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def create_tournament(*, actor: Any, **fields: Any) -> Tournament:
    """Any signed-in user may create a tournament and becomes its organizer."""
    if not getattr(actor, "is_authenticated", False):
        raise PermissionDeniedError(_("Log in to create a tournament."), rule="ROLE")
    fields.setdefault("date", timezone.localdate())
    club = fields.pop("club", None)  # the organising club: one the actor administers
    if club is not None and not isinstance(club, Club):
        club = Club.objects.filter(pk=club).first() if str(club).isdigit() else None
        if club is None:
            raise DomainError(_("Unknown club."), field="club", rule="ROLE")
    from ..clubs import check_organising_club

    check_organising_club(actor, club)
    data = _validate_tournament_fields(fields)
    unknown = set(data) - set(EDITABLE_FIELDS) - {"slug"}
    if unknown:
        raise DomainError(_("Unknown field."), field=sorted(unknown)[0])
    slug = data.pop("slug", None)
    if slug:
        slug = slugify(slug)
        if Tournament.objects.filter(slug=slug).exists():
            raise DomainError(
                _("Another tournament already uses this address."), field="slug", rule="DUPLICATE"
            )
    else:
        slug = _unique_slug(data["name"])
    validate_rules(data.get("ruleset", Tournament.RuleSet.RTU), data.get("ruleset_overrides", {}),
                   data.get("scoring_system", "S-RTU"))
    games = data.get("games_count", 3)
    if "start_times" in data:
        data["start_times"] = _clean_start_times(data["start_times"], games)
    elif games != 3:
        data["start_times"] = []
    tournament = Tournament.objects.create(slug=slug, created_by=actor, club=club, **data)
    TournamentRole.objects.create(
        tournament=tournament, user=actor, role=TournamentRole.Role.ORGANIZER
    )
    after = tournament_snapshot(tournament)
    if club is not None:
        after["club"] = club.name
    audit.record(actor=actor, action="tournament.create", obj=tournament, tournament=tournament,
                 after=after)
    return tournament


@transaction.atomic
def update_tournament(tournament: Tournament, *, actor: Any, **fields: Any) -> Tournament:
    require_organizer(actor, tournament)
    unknown = set(fields) - set(EDITABLE_FIELDS)
    if unknown:
        raise DomainError(_("This field cannot be changed here."), field=sorted(unknown)[0])
    data = _validate_tournament_fields(fields)
    validate_rules(data.get("ruleset", tournament.ruleset),
                   data.get("ruleset_overrides", tournament.ruleset_overrides or {}),
                   data.get("scoring_system", tournament.scoring_system))
    games = data.get("games_count", tournament.games_count)
    start_times = data.get("start_times", tournament.start_times)
    data["start_times"] = _clean_start_times(start_times, games)
    before = tournament_snapshot(tournament)
    for key, value in data.items():
        setattr(tournament, key, value)
    tournament.save()
    audit.record(actor=actor, action="tournament.update", obj=tournament, tournament=tournament,
                 before=before, after=tournament_snapshot(tournament))
    if tournament.status == Tournament.Status.FINISHED:
        # Its national type or dates may have changed (K-RANKING).
        hooks.call(hooks.tournament_changed, tournament)
    # More places (or no limit any more): waitlisted players move up in order. A smaller
    # capacity never removes anyone already registered.
    while _promote(tournament, actor=actor) is not None:
        pass
    return tournament


@transaction.atomic
def change_status(tournament: Tournament, status: str, *, actor: Any) -> Tournament:
    require_organizer(actor, tournament)
    allowed = Tournament.TRANSITIONS.get(tournament.status, set())
    if status not in allowed:
        raise DomainError(
            _("A tournament cannot go from “%(old)s” to “%(new)s”.")
            % {"old": tournament.get_status_display(),
               "new": dict(Tournament.Status.choices).get(status, status)},
            field="status", rule="STATUS",
        )
    before = tournament.status
    tournament.status = status
    tournament.save(update_fields=["status"])
    audit.record(actor=actor, action="tournament.status", obj=tournament, tournament=tournament,
                 before={"status": before}, after={"status": status})
    if Tournament.Status.FINISHED in (before, status):
        # Finishing or reopening an event changes the national ranking (K-RANKING).
        hooks.call(hooks.tournament_changed, tournament)
    return tournament
