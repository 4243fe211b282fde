"""Writes of the self-service app: the players' own check-in, skipping a game and withdrawing,
calls for the referee, the organizer's warnings and penalties, hidden standings. Every write is
authorised here and audited (tournaments.audit); a refusal is a DomainError with its rule id."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from common.errors import DomainError, PermissionDeniedError
from tables.models import Table
from tournaments import audit
from tournaments import services as tournament_services
from tournaments.models import CheckIn, Player, Registration, Tournament
from tournaments.permissions import require_organizer

from . import signals
from .models import Absence, CheckInWindow, SelfCheckIn


def _game_number(tournament: Tournament, value: Any, field: str = "game_number") -> int:
    text = str(value).strip()
    number = int(text) if text.isdigit() and len(text) <= 3 else 0
    if not 1 <= number <= tournament.games_count:
        raise DomainError(_("This tournament has no game %(n)s.") % {"n": value}, field=field, rule="GAME")
    return number


def _on_commit(signal: Any, sender: type, **kwargs: Any) -> None:
    transaction.on_commit(lambda: signal.send(sender=sender, **kwargs))


# ------------------------------------------------------------------ the check-in window
@transaction.atomic
def set_window(tournament: Tournament, game_number: Any, opens_at: dt.datetime | None,
               closes_at: dt.datetime | None, *, actor: Any) -> CheckInWindow:
    """When players may check themselves in for a game (from ``opens_at`` until ``closes_at``)."""
    require_organizer(actor, tournament)
    number = _game_number(tournament, game_number)
    if opens_at is None:
        raise DomainError(_("Say when the check-in opens."), field="opens_at", rule="CHECKIN-WINDOW")
    if closes_at is None or closes_at <= opens_at:
        raise DomainError(_("The check-in must close after it opens."), field="closes_at", rule="CHECKIN-WINDOW")
    window, _created = CheckInWindow.objects.update_or_create(
        tournament=tournament, game_number=number,
        defaults={"opens_at": opens_at, "closes_at": closes_at, "set_by": actor, "set_at": timezone.now()})
    audit.record(actor=actor, action="checkin.window", obj=window, tournament=tournament,
                 after={"game": number, "opens_at": opens_at.isoformat(), "closes_at": closes_at.isoformat()})
    return window


@transaction.atomic
def delete_window(window: CheckInWindow, *, actor: Any) -> None:
    require_organizer(actor, window.tournament)
    audit.record(actor=actor, action="checkin.window_delete", obj=window, tournament=window.tournament,
                 before={"game": window.game_number})
    window.delete()


# ------------------------------------------------------------------ the player's own check-in
def _own(registration: Registration, player: Player | None) -> None:
    """Only the registration's player, from their personal link, acts for it here."""
    if player is None or player.pk != registration.player_id:
        raise PermissionDeniedError(_("Open your personal link on this phone first."), rule="LINK")


def _locked(registration: Registration) -> Registration:
    Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    return Registration.objects.with_state().select_related("player", "tournament").get(pk=registration.pk)


def _label(registration: Registration) -> str:
    return registration.player.full_name


@transaction.atomic
def check_in_self(registration: Registration, game_number: Any, *, player: Player | None) -> CheckIn:
    """The player checks themselves in for a game while its window is open. Checking in again is
    the same check-in; a game the player had said they would skip is played after all."""
    _own(registration, player)
    registration = _locked(registration)
    tournament = registration.tournament
    number = _game_number(tournament, game_number)
    if not registration.is_active:
        raise DomainError(_("Only registered players can be checked in (not waitlisted or withdrawn)."),
                          field="registration", rule="STATUS")
    window = CheckInWindow.objects.filter(tournament=tournament, game_number=number).first()
    if window is None or not window.is_open():
        raise DomainError(_("The check-in for game %(n)s is not open now: ask at the desk.") % {"n": number},
                          field="game_number", rule="CHECKIN-WINDOW")
    existing = CheckIn.objects.filter(registration=registration, game_number=number).first()
    if existing is not None:
        return existing
    Absence.objects.filter(registration=registration, game_number=number).delete()
    checkin = CheckIn.objects.create(registration=registration, game_number=number)
    SelfCheckIn.objects.create(checkin=checkin)
    audit.record(actor=None, label=_label(registration), action="checkin.self", obj=checkin,
                 tournament=tournament, after={"player": registration.player_id, "game": number})
    _on_commit(signals.checked_in_self, CheckIn, registration=registration, game_number=number)
    return checkin


def _without_tables(tournament: Tournament, number: int) -> None:
    if Table.objects.filter(game__tournament=tournament, game__number=number).exists():
        raise DomainError(_("The tables of game %(n)s are already made: call the referee.") % {"n": number},
                          field="game_number", rule="K-TABLES")


@transaction.atomic
def skip_game(registration: Registration, game_number: Any, *, player: Player | None) -> Absence:
    """"I skip this game": the player's check-in for it goes, and neither carrying presences over
    nor the next composition seats them (their standings keep the games they played)."""
    _own(registration, player)
    registration = _locked(registration)
    tournament = registration.tournament
    number = _game_number(tournament, game_number)
    if not registration.is_active:
        raise DomainError(_("Only registered players can be checked in (not waitlisted or withdrawn)."),
                          field="registration", rule="STATUS")
    _without_tables(tournament, number)
    absence, created = Absence.objects.get_or_create(registration=registration, game_number=number)
    if created:
        CheckIn.objects.filter(registration=registration, game_number=number).delete()
        audit.record(actor=None, label=_label(registration), action="game.skip", obj=registration,
                     tournament=tournament, after={"player": registration.player_id, "game": number})
        _on_commit(signals.game_skipped, Registration, registration=registration, game_number=number)
    return absence


@transaction.atomic
def play_after_all(registration: Registration, game_number: Any, *, player: Player | None) -> None:
    """Undo "I skip this game" (the player then checks in as usual)."""
    _own(registration, player)
    registration = _locked(registration)
    number = _game_number(registration.tournament, game_number)
    deleted, _rows = Absence.objects.filter(registration=registration, game_number=number).delete()
    if deleted:
        audit.record(actor=None, label=_label(registration), action="game.unskip", obj=registration,
                     tournament=registration.tournament, after={"player": registration.player_id, "game": number})


def withdraw_self(registration: Registration, *, player: Player | None, reason: str = "") -> None:
    """"I withdraw": the tournament's own withdrawal (from the next game without tables; the
    player's check-ins go, the waiting list moves up), asked from the personal link."""
    _own(registration, player)
    with transaction.atomic():
        tournament_services.withdraw(registration, actor=None, player=player,
                                     reason=reason or _("Withdrawn by the player from their personal link."))
        _on_commit(signals.player_withdrew, Registration, registration=registration)
