"""Careful reads of the tournaments app (what pages, the API and other apps show)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db.models import Count, Q, QuerySet

from . import hooks
from .models import (
    AccessLink,
    AuditEntry,
    CheckIn,
    ClubRole,
    Player,
    Registration,
    Tournament,
    TournamentRole,
    normalise_name,
)
from .names import by_name
from .permissions import is_organizer, is_referee


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """Public tournaments (not drafts), plus the drafts of tournaments the user works on."""
    # The roles are looked up in a subquery, not joined: a join repeats each registration once
    # per role row and the count doubled (40 players for a 20-player event).
    qs = Tournament.objects.annotate(
        registered_count=Count(
            "registrations", filter=Q(registrations__in=Registration.objects.active()), distinct=True,
        )
    )
    scope = getattr(user, "link_tournament_id", None)  # a referee's private link: one tournament
    if getattr(user, "is_superuser", False) and scope is None:
        return qs
    visible = ~Q(status=Tournament.Status.DRAFT)
    if scope is not None:
        visible |= Q(pk=scope)
    elif getattr(user, "is_authenticated", False):
        visible |= Q(pk__in=TournamentRole.objects.filter(user=user).values("tournament_id"))
        # drafts of the clubs they administer (club admins organise them)
        visible |= Q(club_id__in=ClubRole.objects.filter(user=user).values("club_id"))
    return qs.filter(visible)


def can_see(user: Any, tournament: Tournament) -> bool:
    return tournament.status != Tournament.Status.DRAFT or is_referee(user, tournament)


def registrations(tournament: Tournament) -> QuerySet[Registration]:
    """Every registration, withdrawn ones included, each knowing whether it is withdrawn."""
    return tournament.registrations.with_state().select_related("player__club").order_by("created_at", "id")


def registered_players(tournament: Tournament) -> QuerySet[Registration]:
    """Who holds a place (registered, not withdrawn)."""
    return registrations(tournament).active()


def waitlist(tournament: Tournament) -> QuerySet[Registration]:
    return registrations(tournament).waitlisted()


def checked_in_players(tournament: Tournament, game_number: int) -> QuerySet[Player]:
    """Players present for game ``game_number`` (registered and checked in): who gets seated."""
    return Player.objects.filter(
        registrations__in=Registration.objects.active().filter(tournament=tournament),
        registrations__checkins__game_number=game_number,
    ).select_related("club").order_by("last_name", "first_name")


def matching(regs: Iterable[Registration], query: str) -> list[Registration]:
    """The registrations whose player matches ``query``: every word is part of the name,
    nickname or club. Accents and case do not matter ("niccolo" finds Niccolò) on every
    database: the filter compares ``normalise_name`` forms in Python (one tournament's players:
    a few hundred rows at most). The check-in's and the registrations' search."""
    words = [w for w in (normalise_name(w) for w in query.split()) if w]
    if not words:
        return list(regs)

    def haystack(r: Registration) -> str:
        p = r.player
        return normalise_name(p.first_name, p.last_name, p.nickname, p.club.name if p.club else "")

    return [r for r in regs if all(w in haystack(r) for w in words)]


def checkin_rows(tournament: Tournament, game_number: int, query: str = "") -> list[dict[str, Any]]:
    """Registered players with whether each is checked in for the game, filtered by ``query``
    (see :func:`matching`)."""
    regs = matching(registered_players(tournament), query)
    present = set(
        CheckIn.objects.filter(
            registration__tournament=tournament, game_number=game_number
        ).values_list("registration_id", flat=True)
    )
    notes: dict[int, str] = {}
    for said in hooks.checkin_notes:
        notes |= said(tournament, game_number)
    return [{"registration": r, "present": r.pk in present, "note": notes.get(r.pk, "")}
            for r in by_name(regs, lambda r: r.player)]


def checkin_counts(tournament: Tournament) -> dict[int, int]:
    counts = dict(
        CheckIn.objects.filter(
            registration__in=Registration.objects.active().filter(tournament=tournament),
        ).values_list("game_number").annotate(n=Count("id")).values_list("game_number", "n")
    )
    return {n: counts.get(n, 0) for n in range(1, tournament.event_format().games_count + 1)}


def links(tournament: Tournament) -> QuerySet[AccessLink]:
    return tournament.links.select_related("user", "player").order_by("-created_at")


def audit_log(tournament: Tournament) -> QuerySet[AuditEntry]:
    return tournament.audit.select_related("actor").order_by("-at", "-id")


def user_capabilities(user: Any, tournament: Tournament) -> dict[str, bool]:
    return {"organizer": is_organizer(user, tournament), "referee": is_referee(user, tournament)}
