"""What the statistics store (docs/statistics.md): the figures a worker computed after an event
(pages and the API only read them), and each club's rule for its own ranking."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Player

ALL_YEARS = 0  # the year of a sheet over every year


class Sheet(models.Model):
    """One stored set of figures: a club's year, a player's year, a club's own ranking of a year,
    the recorded games' figures of a club or of the instance, the simulator's. ``year`` 0: every
    year together. Rebuilt whole by ``clubstats.services``; never computed by a request."""

    class Kind(models.TextChoices):
        CLUB = "club", _("Club")
        PLAYER = "player", _("Player")
        RANKING = "ranking", _("Club ranking")
        PLAY = "play", _("Recorded games")
        SIMULATOR = "simulator", _("Simulator")

    kind = models.CharField(max_length=10, choices=Kind.choices)
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    year = models.PositiveSmallIntegerField(default=ALL_YEARS)
    data = models.JSONField(default=dict)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["kind", "club", "player", "-year"]
        indexes = [models.Index(fields=["kind", "year"], name="clubstats_kind_year"),
                   models.Index(fields=["kind", "club", "year"], name="clubstats_kind_club_year"),
                   models.Index(fields=["kind", "player", "year"], name="clubstats_kind_player_year")]

    def __str__(self) -> str:
        return f"{self.kind} {self.club_id or ''} {self.player_id or ''} {self.year}"


class RankingRule(models.Model):
    """How a club ranks its players across its own events (friendly evenings included): every
    event's standings total added up, or only the best N. Set by the club's admins."""

    class Rule(models.TextChoices):
        SUM = "sum", _("Sum of every event")
        BEST = "best", _("Best N events")

    club = models.OneToOneField(Club, on_delete=models.CASCADE, related_name="+")
    rule = models.CharField(_("rule"), max_length=4, choices=Rule.choices, default=Rule.SUM)
    best_n = models.PositiveSmallIntegerField(_("events that count"), default=5)

    class Meta:
        verbose_name = _("club ranking rule")
        verbose_name_plural = _("club ranking rules")

    def __str__(self) -> str:
        return f"{self.club_id}: {self.rule} {self.best_n}"
