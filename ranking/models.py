"""The national ranking's rows (K-RANKING): one year's computed ranking, its events and players,
and the blacklist staff keep. The tables were created by scoring and keep its app label
(``Meta.app_label``), so their migrations stay in ``scoring/migrations``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player, Tournament


class RankingBlacklist(models.Model):
    """A player kept out of the national ranking from ``starts_on`` to ``ends_on`` (empty: open
    ended): which of their events do not count is :func:`ranking.formula.excluded_by_blacklist`.
    Edited by staff in the admin."""

    player = models.ForeignKey(Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+")
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("until"), null=True, blank=True, help_text=_("Empty: until further notice."))
    reason = models.CharField(_("reason"), max_length=300)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+", editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "scoring"  # created by scoring: its table and migrations
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
        from .formula import excluded_by_blacklist

        return excluded_by_blacklist(self.starts_on, self.ends_on, start, end)

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        if self.ends_on is not None and self.starts_on is not None and self.ends_on < self.starts_on:
            raise ValidationError({"ends_on": _("The end of the period cannot come before its start (K-RANKING).")})


class NationalRanking(models.Model):
    """One year's computed national ranking (recomputed by ``ranking.tasks.recompute_ranking (task name ``scoring.tasks.recompute_ranking``)``,
    never in a request): its rows and every player's events hang off it."""

    year = models.PositiveSmallIntegerField(_("year"), unique=True)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    version = models.PositiveIntegerField(_("version"), default=0)  # +1 at every recomputation
    events = models.PositiveIntegerField(_("events"), default=0)
    # The rules applied: minimum table-games, caps per type, valid events N and caps computed.
    rules = models.JSONField(default=dict, blank=True)

    class Meta:
        app_label = "scoring"  # created by scoring: its table and migrations
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
        app_label = "scoring"  # created by scoring: its table and migrations
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
        app_label = "scoring"  # created by scoring: its table and migrations
        ordering = ["ranking", "position", "name"]
        constraints = [models.UniqueConstraint(fields=["ranking", "player"], name="ranking_row_once_per_player")]

    def __str__(self) -> str:
        return f"{self.ranking} {self.position} {self.name}"
