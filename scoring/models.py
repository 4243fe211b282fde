"""Results of tables, their confirmations, and the tournament's scoring settings.

A table's result is a chain of versioned submissions (``ResultSubmission.number`` 1, 2, 3…):
every entry or correction adds one, nothing is overwritten. A submission keeps what was entered
(the final board, the short form, or an uploaded record) and the scores the engine computed from
it. It counts once someone other than its author confirms it (``Confirmation``). Writes go through
``scoring/services.py``; reads through ``scoring/selectors.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from common.engine_messages import ENDING_CHOICES
from common.jsonexact import ExactJSONDecoder, ExactModelJSONEncoder
from tables.models import Table
from tournaments.models import Player, Tournament


class ResultSubmission(models.Model):
    class Kind(models.TextChoices):
        BOARD = "board", _("Final board")
        SHORT = "short", _("Short form")
        RECORD = "record", _("Recorded game")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="results"
    )  # denormalised from table.game.tournament: one-query reads per tournament
    number = models.PositiveIntegerField(_("version"))
    kind = models.CharField(max_length=10, choices=Kind.choices)
    # engine.endings.ENTERED (a recorded game's "deck" is stored as the "time" it scores under)
    ended_by = models.CharField(_("how the game ended"), max_length=20, choices=ENDING_CHOICES)
    # What was entered. Board: {"players": [{seat, objective, eliminated}], "owners": {territory:
    # seat}, "armies": {territory: n}}; short: {"players": [{seat, objective_points, extra_points,
    # armies, eliminated, risiko}]}; record: {"record": {...}} plus the board read from it.
    data = models.JSONField(default=dict, encoder=ExactModelJSONEncoder, decoder=ExactJSONDecoder)
    # The engine's scores, one per seat: {seat, player, game_score, extra_objective, armies, place,
    # tournament_points, tiebreak, eliminated}.
    # Every number exact: non-integral ones are Decimals, stored as the JSON numbers they spell.
    scores = models.JSONField(default=list, encoder=ExactModelJSONEncoder, decoder=ExactJSONDecoder)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            # Optimistic concurrency: two saves of the same table cannot both become version N.
            models.UniqueConstraint(fields=["table", "number"], name="result_version_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table} v{self.number}"

    def same_result(self, other: ResultSubmission) -> bool:
        """Double entry: two people entered the same scores for the table."""
        def key(s: ResultSubmission) -> list[tuple[object, ...]]:
            return sorted(
                (r["seat"], r["game_score"], r["extra_objective"], r["armies"], r["place"])
                for r in s.scores
            )
        return self.ended_by == other.ended_by and key(self) == key(other)


class Confirmation(models.Model):
    """A second person vouches for a submission: a referee, the organizer, or a player of the
    table through their private link (``player`` set, ``user`` possibly empty)."""

    submission = models.ForeignKey(
        ResultSubmission, on_delete=models.CASCADE, related_name="confirmations"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_organizer = models.BooleanField(default=False)
    double_entry = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["submission", "at", "id"]
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")

    def __str__(self) -> str:
        return f"{self.submission} ✓ {self.user or self.player}"


class WorkbookEvent(models.Model):
    """A tournament as the clubs' event workbook knows it: the organizer's name as the national
    ranking spells it (part of the event's id), and, for an event imported from a workbook, what
    the workbook said. An imported event's standings are its ``Classifica Ridotta`` as written
    (positions, ties and points kept; K-RANKING stores them so), not recomputed."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="workbook")
    organizer = models.CharField(_("organizer (as in the clubs' list)"), max_length=150, blank=True)
    # "yyyyMMdd - Organizzatore", the ranking's key of the event: what an imported event's file
    # said, or what the last export of a tournament run here wrote (its re-import recognises it).
    event_id = models.CharField(max_length=200, null=True, blank=True, unique=True)
    source = models.CharField(_("file"), max_length=255, blank=True)
    digest = models.CharField(max_length=64, blank=True)  # of what was read: the same file changes nothing
    planned_rounds = models.PositiveSmallIntegerField(default=0)
    dates = models.JSONField(default=list, blank=True)
    note = models.TextField(blank=True)
    standings = models.JSONField(default=list, blank=True)  # [{"player", "position", "points"}] in sheet order
    imported_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("event workbook")
        verbose_name_plural = _("event workbooks")

    def __str__(self) -> str:
        return self.event_id or str(self.tournament)
# ------------------------------------------------------------------ national ranking (K-RANKING)
