"""Games of a tournament, their tables and seats.

A ``Game`` is one round of the tournament (game 1, 2, 3…); it has ``Table`` s, each with
``Seat`` s in turn order (T-ORDER). Deals, clocks and the sdadata closure hang off ``Table``.
The owners of this app extend these models; scoring/ relies on Game, Table and Seat as below.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player, Tournament


class Colour(models.TextChoices):
    BLUE = "blue", _("blue")
    RED = "red", _("red")
    YELLOW = "yellow", _("yellow")
    GREEN = "green", _("green")
    BLACK = "black", _("black")
    PURPLE = "purple", _("purple")


class Game(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")  # tables may be composed and changed
        RUNNING = "running", _("Running")  # dealt, clocks started
        FINISHED = "finished", _("Finished")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.PLANNED)
    seed = models.CharField(_("composition seed"), max_length=64, blank=True)
    composition_report = models.JSONField(default=dict, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="game_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {_('game')} {self.number}"


class Table(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting")
        RUNNING = "running", _("Running")
        TIME_EXPIRED = "time_expired", _("Time expired")
        FINISHED = "finished", _("Finished")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    deal_seed = models.CharField(max_length=64, blank=True)
    deal = models.JSONField(default=dict, blank=True)  # territory → seat (D-DEAL, D-50)

    class Meta:
        ordering = ["game", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="table_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} – {_('table')} {self.number}"


class Seat(models.Model):
    """One place at a table. ``number`` is the turn order (seat 1 plays first). A seat with no
    player is a "ghost" seat (K-TABLES: only by an explicit organizer decision)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    colour = models.CharField(max_length=10, choices=Colour.choices, blank=True)
    objective = models.CharField(_("objective card"), max_length=40, blank=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="player_seated_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"{self.table} – {self.number}: {self.player or _('ghost')}"
