"""What players do for themselves on their phones, and what the staff keep about it.

- ``CheckInWindow``: when players may check themselves in for a game (opens, closes).
- ``SelfCheckIn``: a check-in the player made from their personal link or the door's QR code (it
  goes with its ``tournaments.CheckIn``: the organizer checking the player out removes both).
- ``Absence``: "I skip this game": the player is left out of that game's check-in and tables.
- ``RefereeCall``: a table called the referee; open until a referee or organizer takes it.
- ``Sanction``: a warning or penalty the organizer keeps in a player's log (who, when, why, game).
- ``HiddenStandings``: the standings of the last games hidden from the public until the end.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tables.models import Table
from tournaments.models import CheckIn, Player, Registration, Tournament


class CheckInWindow(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="checkin_windows")
    game_number = models.PositiveSmallIntegerField(_("game"))
    opens_at = models.DateTimeField(_("opens at"))
    closes_at = models.DateTimeField(_("closes at"))
    set_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    set_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game_number"]
        verbose_name = _("self check-in window")
        verbose_name_plural = _("self check-in windows")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "game_number"], name="one_window_per_game"),
            models.CheckConstraint(condition=models.Q(opens_at__lt=models.F("closes_at")),
                                   name="window_opens_before_closing"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.game_number}"

    def is_open(self, now: object = None) -> bool:
        at = now or timezone.now()
        return bool(self.opens_at <= at < self.closes_at)  # type: ignore[operator]


class SelfCheckIn(models.Model):
    checkin = models.OneToOneField(CheckIn, on_delete=models.CASCADE, related_name="self_service")
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("self check-in")
        verbose_name_plural = _("self check-ins")

    def __str__(self) -> str:
        return str(self.checkin)


class Absence(models.Model):
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="absences")
    game_number = models.PositiveSmallIntegerField(_("game"))
    said_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game_number", "said_at"]
        verbose_name = _("skipped game")
        verbose_name_plural = _("skipped games")
        constraints = [
            models.UniqueConstraint(fields=["registration", "game_number"], name="skip_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.registration} – {self.game_number}"


class OpenCalls(models.QuerySet["RefereeCall"]):
    def open(self) -> OpenCalls:
        return self.filter(taken_at__isnull=True)


class RefereeCall(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="referee_calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="referee_calls")
    called_at = models.DateTimeField(default=timezone.now)
    called_by_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                                         related_name="+")
    called_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")
    taken_at = models.DateTimeField(null=True, blank=True)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+")

    objects = OpenCalls.as_manager()

    class Meta:
        ordering = ["called_at", "id"]
        verbose_name = _("referee call")
        verbose_name_plural = _("referee calls")
        constraints = [  # one open call per table: pressing the button again is the same call
            models.UniqueConstraint(fields=["table"], condition=models.Q(taken_at__isnull=True),
                                    name="one_open_call_per_table"),
        ]

    def __str__(self) -> str:
        return f"{self.table} @ {self.called_at:%H:%M}"


class Sanction(models.Model):
    class Kind(models.TextChoices):
        WARNING = "warning", _("Warning")
        PENALTY = "penalty", _("Penalty")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="sanctions")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="sanctions")
    game_number = models.PositiveSmallIntegerField(_("game"), null=True, blank=True)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices, default=Kind.WARNING)
    reason = models.CharField(_("reason"), max_length=300)
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")

    class Meta:
        ordering = ["-recorded_at", "-id"]
        verbose_name = _("warning or penalty")
        verbose_name_plural = _("warnings and penalties")

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.player} ({self.game_number})"


class HiddenStandings(models.Model):
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="hidden_standings")
    from_game = models.PositiveSmallIntegerField(_("hidden from game"))
    hidden_at = models.DateTimeField(default=timezone.now)
    hidden_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="+")

    class Meta:
        verbose_name = _("hidden standings")
        verbose_name_plural = _("hidden standings")
        constraints = [
            models.CheckConstraint(condition=models.Q(from_game__gte=1), name="hidden_from_game_1"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} ({self.from_game})"
