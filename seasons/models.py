"""The season's final phase (*fase finale*): its options and the events it made.

``Season`` itself stays in ``tournaments/models.py`` (a tournament points to its season); the
final phase is the seasons app's own, with its own label and migrations. The final-phase event
and the consolation event are ordinary tournaments of the club that are *not* evenings of the
season (``Tournament.season`` stays empty), so the season's standings never count them.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Season, Tournament

FINAL_SIZES = (3, 4, 5)  # a final is one table (T-SIZE)


class SeasonFinals(models.Model):
    """How a season ends: ``direct`` players straight to the final, ``semifinal_places`` players
    at semifinal tables of four (``ripescati`` of them "fished back" by their best single game
    among those with at least ``min_evenings`` evenings), each semifinal's winner to the final,
    and, with ``consolation``, a *torneo degli esclusi* for everyone else."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="finals",
                                  verbose_name=_("season"))
    direct = models.PositiveSmallIntegerField(_("straight to the final"), default=2)
    semifinal_places = models.PositiveSmallIntegerField(_("semifinal places"), default=8)
    ripescati = models.PositiveSmallIntegerField(_("semifinal places by best game (ripescaggio)"), default=1)
    min_evenings = models.PositiveSmallIntegerField(_("evenings needed for the ripescaggio"), default=1)
    consolation = models.BooleanField(_("consolation event (torneo degli esclusi)"), default=True)
    phase = models.OneToOneField(Tournament, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="+", verbose_name=_("final phase"))
    consolation_event = models.OneToOneField(Tournament, null=True, blank=True, on_delete=models.SET_NULL,
                                             related_name="+", verbose_name=_("consolation event"))

    class Meta:
        verbose_name = _("season final phase")
        verbose_name_plural = _("season final phases")
        constraints = [
            models.CheckConstraint(condition=models.Q(semifinal_places__gte=models.F("ripescati")),
                                   name="season_finals_ripescati_within_semifinals"),
        ]

    def __str__(self) -> str:
        return f"{self.season} – {self._meta.verbose_name}"

    @property
    def semifinals(self) -> int:
        """Semifinal tables (of four)."""
        return self.semifinal_places // 4

    @property
    def final_size(self) -> int:
        return self.direct + self.semifinals

    def options(self) -> dict[str, object]:
        return {"direct": self.direct, "semifinal_places": self.semifinal_places, "ripescati": self.ripescati,
                "min_evenings": self.min_evenings, "consolation": self.consolation}
