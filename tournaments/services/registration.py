"""Registrations: register (capacity, waiting list, duplicates), withdraw, promote from the waiting list."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError

from .. import audit, hooks
from ..models import Club, Player, Registration, Tournament, Withdrawal, normalise_name
from ..permissions import is_organizer
from .clubs import get_or_create_club
from .guards import require_organizer
from .players import PlayerData, player_for


def registration_snapshot(r: Registration) -> dict[str, Any]:
    return {"player": r.player_id, "name": r.player.full_name, "status": r.state}


def _ask_when_same_name(tournament: Tournament, data: PlayerData, club: Club | None) -> None:
    """Typed again without a club, a name already registered is a question for whoever types it
    (the same person, or a namesake to tell apart by club or nickname), not a bare refusal."""
    if data.national_id or club is not None:
        return
    same = (Registration.objects.current().filter(tournament=tournament, player__normalised_name=normalise_name(
        data.first_name, data.last_name)).select_related("player__club").first())
    if same is None or (data.nickname and data.nickname.lower() != same.player.nickname.lower()):
        return
    other = same.player
    raise DomainError(
        _("%(name)s (%(club)s) is already registered for this tournament. Is this the same person? "
          "If so, there is nothing to do. If it is someone else with the same name, give their club "
          "or a nickname so the two can be told apart.")
        % {"name": other.full_name, "club": other.club.name if other.club else _("no club")},
        field="club", rule="DUPLICATE",
    )


def _registration_message_for_duplicate(player: Player) -> str:
    return _(
        "%(name)s is already registered for this tournament."
    ) % {"name": player.full_name}


@transaction.atomic
def register(
    tournament: Tournament, data: PlayerData, *, actor: Any = None, audit_action: str = "registration.create"
) -> Registration:
    """Register a player (found by normalised name + club, or created).

    Anyone may register while registration is open; organizers may also add players while the
    tournament is a draft or running. When the tournament is full the player is waitlisted.
    A player already registered (or waitlisted) is refused with ``DUPLICATE``.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    organizer = is_organizer(actor, tournament)
    if tournament.status == Tournament.Status.FINISHED or (
        not organizer and not tournament.is_registration_open
    ):
        raise DomainError(
            _("Registration for this tournament is closed."), field="status", rule="STATUS"
        )
    data = data.clean()
    if data.national_id and not organizer:
        raise PermissionDeniedError(
            _("Only an organizer of this tournament may enter a national id."),
            field="national_id", rule="ROLE",
        )
    club = get_or_create_club(data.club, actor=actor, region=data.region) if data.club else None
    if club is not None and data.region and not club.region:
        club.region = data.region
        club.save(update_fields=["region"])
    _ask_when_same_name(tournament, data, club)
    player = player_for(data, club, actor=actor, tournament=tournament)
    registration = Registration.objects.filter(tournament=tournament, player=player).first()
    if registration is not None and not registration.is_withdrawn:
        raise DomainError(
            _registration_message_for_duplicate(player), field="last_name", rule="DUPLICATE"
        )
    full = (
        tournament.capacity is not None
        and tournament.registrations.active().count() >= tournament.capacity
    )
    status = Registration.Status.WAITLISTED if full else Registration.Status.REGISTERED
    before = registration_snapshot(registration) if registration else None
    personal = {"email": data.email, "birth_date": data.birth_date,
                "national_id": data.national_id}
    if registration is None:
        registration = Registration.objects.create(
            tournament=tournament, player=player, status=status, **personal
        )
    else:  # a withdrawn player comes back (closing the withdrawal), at the end of the waiting list
        registration.withdrawals.filter(reinstated_at__isnull=True).update(reinstated_at=timezone.now())
        registration.status = status
        registration.created_at = timezone.now()
        for key, value in personal.items():
            setattr(registration, key, value)
        registration.save(update_fields=["status", "created_at", *personal])
    audit.record(actor=actor, action=audit_action, obj=registration, tournament=tournament,
                 before=before, after=registration_snapshot(registration))
    return registration


def waitlist_position(registration: Registration) -> int | None:
    if registration.status != Registration.Status.WAITLISTED or registration.is_withdrawn:
        return None
    return Registration.objects.waitlisted().filter(
        tournament_id=registration.tournament_id, created_at__lte=registration.created_at,
    ).exclude(created_at=registration.created_at, id__gt=registration.id).count()


def next_game(tournament: Tournament) -> int:
    """The first game without tables yet (1 before the event): where a withdrawal takes effect."""
    return 1 + max((under_way(tournament) for under_way in hooks.games_under_way), default=0)


@transaction.atomic
def withdraw(registration: Registration, *, actor: Any, reason: str = "",
             player: Any = None) -> Registration | None:
    """Withdraw a registration; the first waitlisted player moves up when a place frees.
    Returns the promoted registration, if any. The withdrawal is recorded (``Withdrawal``: from
    the next game without tables, when, by whom, ``reason``). The withdrawn player's check-ins
    are removed (they will not be seated); tables keep their own history. ``player``: the
    registration's own player, withdrawing from their personal link (no organizer needed)."""
    tournament = Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    if player is None or getattr(player, "pk", None) != registration.player_id:
        require_organizer(actor, tournament)
    reason = " ".join(str(reason or "").split())
    if len(reason) > Withdrawal._meta.get_field("reason").max_length:
        raise DomainError(_("The reason is too long (200 characters at most)."), field="reason", rule="FORMAT")
    registration = Registration.objects.with_state().select_related("player").get(pk=registration.pk)
    if registration.is_withdrawn:
        raise DomainError(
            _("This registration is already withdrawn."), field="status", rule="STATUS"
        )
    was_registered = registration.is_active
    before = registration_snapshot(registration)
    # The status stays (registered or waitlisted): the open withdrawal alone says "withdrawn".
    withdrawal = Withdrawal.objects.create(
        registration=registration, from_game=next_game(tournament), reason=reason,
        withdrawn_by=actor if getattr(actor, "is_authenticated", False) else None)
    registration.in_withdrawal = True  # type: ignore[attr-defined]
    registration.checkins.all().delete()
    audit.record(actor=actor, action="registration.withdraw", obj=registration,
                 tournament=tournament, before=before,
                 after=registration_snapshot(registration) | {"from_game": withdrawal.from_game, "reason": reason})
    if was_registered:
        return _promote(tournament, actor=actor)
    return None


def _promote(tournament: Tournament, *, actor: Any) -> Registration | None:
    registered = tournament.registrations.active().count()
    if tournament.capacity is not None and registered >= tournament.capacity:
        return None
    first = (
        tournament.registrations.waitlisted().select_related("player")
        .order_by("created_at", "id")
        .first()
    )
    if first is None:
        return None
    before = registration_snapshot(first)
    first.status = Registration.Status.REGISTERED
    first.save(update_fields=["status"])
    audit.record(actor=actor, action="registration.promote", obj=first, tournament=tournament,
                 before=before, after=registration_snapshot(first))
    return first


@transaction.atomic
def promote(registration: Registration, *, actor: Any) -> Registration:
    """An organizer moves a waitlisted player up by hand (even beyond the capacity)."""
    require_organizer(actor, registration.tournament)
    if registration.status != Registration.Status.WAITLISTED or registration.is_withdrawn:
        raise DomainError(_("Only a waitlisted player can be moved up."), field="status",
                          rule="STATUS")
    before = registration_snapshot(registration)
    registration.status = Registration.Status.REGISTERED
    registration.save(update_fields=["status"])
    audit.record(actor=actor, action="registration.promote", obj=registration,
                 tournament=registration.tournament, before=before,
                 after=registration_snapshot(registration))
    return registration
