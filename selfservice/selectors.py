"""Reads of the self-service app (never a write): the check-in windows, what a player's own page
shows, the open calls for the referee, the warnings and penalties log, the check-in page's notes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _

from scoring import selectors as scoring
from tables.models import Seat
from tournaments.models import CheckIn, Player, Registration, Tournament
from tournaments.services.registration import next_game

from .models import Absence, CheckInWindow, RefereeCall, Sanction


def windows(tournament: Tournament) -> list[CheckInWindow]:
    return list(CheckInWindow.objects.filter(tournament=tournament).order_by("game_number"))


def open_window(tournament: Tournament) -> CheckInWindow | None:
    """The check-in window open now (the earliest game's, if several are)."""
    now = timezone.now()
    return (CheckInWindow.objects.filter(tournament=tournament, opens_at__lte=now, closes_at__gt=now)
            .order_by("game_number").first())


def skipping(tournament: Tournament, game_number: int) -> set[int]:
    """Registrations whose players said they skip ``game_number``."""
    return set(Absence.objects.filter(registration__tournament=tournament, game_number=game_number)
               .values_list("registration_id", flat=True))


def checkin_notes(tournament: Tournament, game_number: int) -> dict[int, str]:
    """The check-in page's word on each row: checked in by themselves (at what time), or skips."""
    notes = {pk: _("skips this game") for pk in skipping(tournament, game_number)}
    rows = CheckIn.objects.filter(registration__tournament=tournament, game_number=game_number,
                                  self_service__isnull=False).values_list("registration_id", "self_service__at")
    for pk, at in rows:
        notes[pk] = _("checked in by themselves at %(time)s") % {"time": time_format(timezone.localtime(at), "H:i")}
    return notes


@dataclass
class PlayerPanel:
    """What a player's own page shows beyond their seat: check-in, skipping, standing."""

    registration: Registration | None
    window: CheckInWindow | None = None
    checked_in: bool = False
    next_game: int | None = None
    skips_next: bool = False
    standing: dict[str, Any] | None = None
    hidden_from: int | None = None
    own_hidden: list[dict[str, Any]] = field(default_factory=list)
    sanctions: list[Sanction] = field(default_factory=list)


def player_panel(tournament: Tournament, player: Player) -> PlayerPanel:
    registration = (Registration.objects.with_state().filter(tournament=tournament, player=player)
                    .select_related("player").first())
    panel = PlayerPanel(registration)
    panel.hidden_from = scoring.first_hidden_game(tournament)
    panel.standing = scoring.standings_row(tournament, player.pk, public=True)
    if panel.hidden_from is not None:  # their own results of the hidden games, to them only
        panel.own_hidden = [g for g in scoring.player_games(tournament, player)
                            if g["game"].number >= panel.hidden_from and g["score"]]
    panel.sanctions = list(Sanction.objects.filter(tournament=tournament, player=player))
    if registration is None or not registration.is_active:
        return panel
    panel.window = open_window(tournament)
    if panel.window is not None:
        panel.checked_in = CheckIn.objects.filter(registration=registration,
                                                  game_number=panel.window.game_number).exists()
    upcoming = next_game(tournament)
    if upcoming <= tournament.games_count:
        panel.next_game = upcoming
        panel.skips_next = Absence.objects.filter(registration=registration, game_number=upcoming).exists()
    return panel


def open_calls(tournament: Tournament) -> QuerySet[RefereeCall]:
    return (RefereeCall.objects.open().filter(tournament=tournament)
            .select_related("table__game", "called_by_player").order_by("called_at", "id"))


def open_call_of(table_id: int) -> RefereeCall | None:
    return RefereeCall.objects.open().filter(table_id=table_id).select_related("taken_by").first()


def recent_calls(tournament: Tournament, limit: int = 20) -> list[RefereeCall]:
    return list(RefereeCall.objects.filter(tournament=tournament, taken_at__isnull=False)
                .select_related("table__game", "called_by_player", "taken_by").order_by("-taken_at")[:limit])


def sanctions(tournament: Tournament) -> QuerySet[Sanction]:
    return Sanction.objects.filter(tournament=tournament).select_related("player", "recorded_by")


def tournament_players(tournament: Tournament) -> list[Player]:
    """Who may be named in the log: the registered players and anyone seated, by name."""
    from tournaments.names import by_name

    ids = set(Registration.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    ids |= set(Seat.objects.filter(game__tournament=tournament, player__isnull=False)
               .values_list("player_id", flat=True))
    return by_name(Player.objects.filter(pk__in=ids), lambda p: p)
