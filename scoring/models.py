"""Results of tables, their confirmations, and the tournament's scoring settings.

A table's result is a chain of versioned submissions (``ResultSubmission.number`` 1, 2, 3…):
every entry or correction adds one, nothing is overwritten. A submission keeps what was entered
(the final board, the short form, or an uploaded record) and the scores the engine computed from
it. It counts once someone other than its author confirms it (``Confirmation``). Writes go through
``scoring/services.py``; reads through ``scoring/selectors.py``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from config.engine_messages import ENDING_CHOICES
from config.jsonexact import ExactJSONDecoder, ExactModelJSONEncoder
from tables.models import Table
from tournaments.models import Player, Tournament


class ScoringSettings(models.Model):
    """Tournament-level scoring choices kept by this app (not in tournaments/)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="scoring_settings"
    )
    publish_unconfirmed = models.BooleanField(
        _("publish unconfirmed results"), default=False,
        help_text=_("Standings include results nobody has confirmed yet."),
    )
    best_n = models.PositiveSmallIntegerField(
        _("games that count"), default=2,
        help_text=_("K-BEST2 / K-BESTN: how many of a player's best games count."),
    )
    # The format preset (tournaments.formats.PRESETS) and what the organizer changed of it.
    preset = models.CharField(_("format"), max_length=30, blank=True, default="")
    method = models.CharField(
        _("games that count"), max_length=20, blank=True, default="",
        help_text=_("Empty: from the tournament's format; \"italiana\": every game; \"rtu\": the best N."),
    )
    tiebreaks = models.JSONField(_("tie-break chain"), default=list, blank=True)
    club_changes = models.JSONField(_("changed scoring numbers"), default=dict, blank=True,
                                    encoder=ExactModelJSONEncoder, decoder=ExactJSONDecoder)

    class Meta:
        verbose_name = _("scoring settings")
        verbose_name_plural = _("scoring settings")

    def __str__(self) -> str:
        return f"{self.tournament} – {self._meta.verbose_name}"


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
class RankingBlacklist(models.Model):
    """A player kept out of the national ranking from ``starts_on`` to ``ends_on`` (empty: open
    ended): which of their events do not count is :func:`scoring.ranking.excluded_by_blacklist`.
    Edited by staff in the admin."""

    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+")
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("until"), null=True, blank=True, help_text=_("Empty: until further notice."))
    reason = models.CharField(_("reason"), max_length=300)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "id"]
        verbose_name = _("ranking blacklist entry")
        verbose_name_plural = _("ranking blacklist")
        constraints = [
            models.CheckConstraint(condition=models.Q(ends_on__isnull=True) | models.Q(ends_on__gte=models.F("starts_on")),
                                   name="ranking_blacklist_dates_in_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.starts_on}–{self.ends_on or '…'}"

    def covers(self, start: Any, end: Any) -> bool:
        """Whether an event held from ``start`` to ``end`` does not count for the player."""
        from .ranking import excluded_by_blacklist

        return excluded_by_blacklist(self.starts_on, self.ends_on, start, end)

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        if self.ends_on is not None and self.starts_on is not None and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("The end of the period cannot come before its start (K-RANKING).")})


class NationalRanking(models.Model):
    """One year's computed national ranking (recomputed by ``scoring.tasks.recompute_ranking``,
    never in a request): its rows and every player's events hang off it."""

    year = models.PositiveSmallIntegerField(_("year"), unique=True)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)  # +1 at every recomputation
    events = models.PositiveIntegerField(_("events"), default=0)
    # The rules applied: minimum table-games, caps per type, valid events N and caps computed.
    rules = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-year"]
        verbose_name = _("national ranking")
        verbose_name_plural = _("national rankings")

    def __str__(self) -> str:
        return str(self.year)


class NationalRankingEvent(models.Model):
    """An event the year's ranking read: its type, table-games T, declared rounds and dates."""

    ranking = models.ForeignKey(NationalRanking, on_delete=models.CASCADE, related_name="event_set")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    event_type = models.CharField(max_length=3)
    table_games = models.PositiveIntegerField()
    rounds = models.PositiveSmallIntegerField()
    starts_on = models.DateField()
    ends_on = models.DateField()

    class Meta:
        ordering = ["ranking", "ends_on", "id"]
        constraints = [models.UniqueConstraint(fields=["ranking", "tournament"], name="ranking_event_once")]

    def __str__(self) -> str:
        return f"{self.ranking} {self.tournament_id} {self.event_type}"


class NationalRankingRow(models.Model):
    """A player's line of the year: position, points, and every event of theirs (``events``:
    [{"tournament", "position", "vt", "reason"}], ``reason`` one of ``Reason``)."""

    class Reason(models.TextChoices):
        COUNTED = "counted", _("counted")
        BELOW_MINIMUM = "below_minimum", _("fewer table-games than the year's minimum")
        NOT_RANKED_TYPE = "not_ranked_type", _("this type of event does not count in the ranking")
        BEYOND_CAP = "beyond_cap", _("beyond the yearly cap for its type: better events of this type count")
        BEYOND_ROUNDS = "beyond_rounds", _("beyond the rounds counted for periodic championships")
        BLACKLISTED = "blacklisted", _("the player was on the blacklist on the event's dates")

    ranking = models.ForeignKey(NationalRanking, on_delete=models.CASCADE, related_name="rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(null=True, blank=True)  # empty: nothing counted
    points = models.DecimalField(max_digits=12, decimal_places=1)
    # What public pages show (name, nickname, club) as of the computation; ``search`` is the
    # normalised name and nickname the page's search matches.
    name = models.CharField(max_length=250)
    club = models.CharField(max_length=120, blank=True)
    search = models.CharField(max_length=340, db_index=True)
    events = models.JSONField(default=list)

    class Meta:
        ordering = ["ranking", "position", "name"]
        constraints = [models.UniqueConstraint(fields=["ranking", "player"], name="ranking_row_once_per_player")]

    def __str__(self) -> str:
        return f"{self.ranking} {self.position} {self.name}"
