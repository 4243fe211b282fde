"""Games of a tournament, their tables and seats.

A ``Game`` is one round of the tournament (game 1, 2, 3…); it has ``Table`` s, each with
``Seat`` s in turn order (T-ORDER). Deals, clocks and the sdadata closure hang off ``Table``.
scoring/ relies on Game, Table and Seat as below.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.utils import timezone
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
    # The organizer's choices for this game's composition (table sizes, priorities, seeding).
    composition_options = models.JSONField(default=dict, blank=True)
    # Objective cards dealt by the system (when the organizer chooses). They are secret, so they
    # come from their own seed: drawn by the server at the start (never from the deal seed or any
    # seed an organizer types), never shown while the game runs. Only its SHA-256 commitment is
    # public then; the seed itself is published once the game is finished, so anyone can check
    # the cards were not changed (commit-reveal, see tables.services.secret_commitment).
    deal_objectives = models.BooleanField(_("deal objective cards"), default=False)
    secret_seed = models.CharField(max_length=64, blank=True)
    secret_commitment = models.CharField(max_length=64, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # A rehearsal ("partita di prova"): played as usual (tables, deals, clocks, results), but its
    # results never count: not in the standings, the national ranking, the clubs' workbook, nor
    # in who has already met whom when later games are seated. Chosen before the game starts.
    rehearsal = models.BooleanField(
        _("rehearsal game"), default=False,
        help_text=_("A rehearsal game is played as usual but its results never count."),
    )

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
    # Clock (E-TIME). Whether time is up is derived from ``deadline`` (see tables/clocks.py), so it
    # is right even with no worker; ``expired_marked_at`` is set once by the task or the sweep.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    expired_marked_at = models.DateTimeField(null=True, blank=True)
    # The sdadata closure state (engine.closure.ClosureState, stored as a dict) once time is up.
    closure_state = models.JSONField(default=dict, blank=True)
    # Optimistic concurrency: bumped on every write to the table's clock or turn log.
    version = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="table_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.game} – {_('table')} {self.number}"

    def time_expired(self, now: dt.datetime | None = None) -> bool:
        """Whether the clock's time has run out (E-TIME), derived from the deadline: recorded, or
        the deadline passed on a clock that is not paused. What ``tables.clocks`` decides by."""
        if self.expired_marked_at is not None:
            return True
        if self.deadline is None or self.paused_at is not None:
            return False
        return (now or timezone.now()) >= self.deadline

    @property
    def shows_expired(self) -> bool:
        """What a page says of the clock: expired once the deadline has passed, even before any
        process has recorded it (a page rendered then must not say the clock is running); a closed
        game's clock stays stopped instead."""
        return self.expired_marked_at is not None or (not self.clock_stopped and self.time_expired())

    @property
    def clock_stopped(self) -> bool:
        """A closed game's clocks stop (E-TIME): once the game is finished or the tournament has
        concluded, no clock runs on and no expiry is recorded (tables.clocks)."""
        game = self.game
        return game.status == Game.Status.FINISHED or game.tournament.status == Tournament.Status.FINISHED

    # what a clock or closure write changes on the row (tables.clocks, tables.closure)
    PLAY_STATE_FIELDS = ("status", "clock_started_at", "deadline", "paused_at", "expired_marked_at",
                         "closure_state", "version")

    def take_saved_state(self, saved: Table) -> None:
        """Copy the clock and closure state of ``saved`` (this row, locked and written by a
        service) into this instance, so the caller's object shows what was just stored."""
        for field in self.PLAY_STATE_FIELDS:
            setattr(self, field, getattr(saved, field))


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


class ClockEvent(models.Model):
    """Start, pause, resume, extension and expiry of a table's clock: who, when and why."""

    class Kind(models.TextChoices):
        START = "start", _("Started")
        PAUSE = "pause", _("Paused")
        RESUME = "resume", _("Resumed")
        EXTEND = "extend", _("Extended")
        EXPIRE = "expire", _("Time expired")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="clock_events")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    at = models.DateTimeField(default=timezone.now)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    seconds = models.IntegerField(default=0)  # for EXTEND (and PAUSE length on RESUME)

    class Meta:
        ordering = ["table", "at", "id"]
        verbose_name = _("clock event")
        verbose_name_plural = _("clock events")

    def __str__(self) -> str:
        return f"{self.table} – {self.get_kind_display()}"


class TurnEvent(models.Model):
    """What the referee records at a table once time may matter: ends of turn (with the
    territories conquered that turn, for E-BAR) and sdadata rolls (E-SDADATA). ``index`` orders
    the log; (table, index) is unique so two referees cannot both write the same step."""

    class Kind(models.TextChoices):
        END_TURN = "end_turn", _("End of turn")
        SDADATA = "sdadata", _("Sdadata roll")
        TIME_EXPIRED = "time_expired", _("Time expired")
        ELIMINATION = "elimination", _("Elimination")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="turn_events")
    index = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    conquered = models.PositiveSmallIntegerField(default=0)
    dice = models.JSONField(default=list, blank=True)
    rolled_by_server = models.BooleanField(default=False)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["table", "index"]
        verbose_name = _("turn event")
        verbose_name_plural = _("turn events")
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="turn_event_index_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.index} {self.kind}"
