"""The rating ("Indice", docs/rating.md): each player's skill as the openskill Plackett–Luce
model estimates it from every table's finishing order, and one history row per table played."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.models import Table
from tournaments.models import Player, Tournament

# Fewer rated games than this: the rating is provisional (shown, marked).
PROVISIONAL_BELOW = 10


def shown(mu: float, sigma: float) -> int:
    """The displayed rating: the conservative ordinal mu − 3 sigma, as 1500 + 100 × ordinal
    (a newcomer, mu 25 and sigma 25/3, starts at 1500)."""
    return round(1500 + 100 * (mu - 3 * sigma))


class Rating(models.Model):
    # One per player, kept so by ratings.services (which deletes a player's row before writing
    # it); not a unique key: a merge of two rated players moves both rows to the kept player
    # (tournaments/merge.py) before ratings.tasks.players_merged deletes them and queues the update.
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(_("games"))
    rating = models.IntegerField(_("rating"), db_index=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.rating}"

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_BELOW


class RatedGame(models.Model):
    """A player's rating after one table. ``key`` orders every table rated on the instance:
    tournament date, tournament id, game number, table number (docs/rating.md)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=48, db_index=True)
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    place = models.PositiveSmallIntegerField(_("place"))
    mu = models.FloatField()
    sigma = models.FloatField()
    rating = models.IntegerField(_("rating"))

    class Meta:
        ordering = ["player", "key"]
        constraints = [models.UniqueConstraint(fields=["player", "table"], name="rated_game_once")]
        indexes = [models.Index(fields=["player", "key"], name="rated_game_player_key")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.key}: {self.rating}"
