"""Team events (K-TEAM): a tournament's teams, their rosters and each round's starters.

Only a format whose teams are rosters (CNS, ``Preset.teams == "roster"``) stores teams; a club
team tournament (``"club"``) makes a team of every club from the registrations, with no rows.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Club, Player, Tournament, new_token


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("name"), max_length=80)
    club = models.ForeignKey(Club, verbose_name=_("club"), null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="teams")
    captain = models.ForeignKey(Player, verbose_name=_("captain"), null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="captained_teams")
    # The captain's private link (no account needed): whoever holds it names the starters.
    captain_token = models.CharField(max_length=64, unique=True, default=new_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name", "pk"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="one_team_name_per_tournament")]

    def __str__(self) -> str:
        return self.name


class TeamMember(models.Model):
    """A player on a team's roster; a player is on at most one team of a tournament."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="members")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="team_memberships")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("team member")
        verbose_name_plural = _("team members")
        constraints = [models.UniqueConstraint(fields=["tournament", "player"], name="one_team_per_player")]

    def __str__(self) -> str:
        return f"{self.player} – {self.team}"


class Starter(models.Model):
    """A member named by the captain to play one game; the other members sit it out."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="starters")
    game_number = models.PositiveSmallIntegerField(_("game"))
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("starter")
        verbose_name_plural = _("starters")
        constraints = [models.UniqueConstraint(fields=["team", "game_number", "player"], name="one_start_per_game")]

    def __str__(self) -> str:
        return f"{self.player} – {self.team} ({self.game_number})"
