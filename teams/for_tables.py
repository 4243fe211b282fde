"""What tables asks of team events (``tables/hooks.py: Teams``), registered at ``ready``: the
team of each player (the seating keeps team-mates apart and lets teams meet evenly) and who
plays a game (a roster team's starters). Tables never imports teams."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from common.errors import DomainError
from tables import hooks
from tables.models import Game
from tournaments.models import Tournament

from . import selectors


class TeamSeating(hooks.Teams):
    def teams_of(self, tournament: Tournament) -> dict[int, str]:
        if not selectors.mode(tournament):
            return {}
        return {pid: f"team-{view.id}" for pid, view in selectors.team_of_players(tournament).items()}

    def players_for(self, game: Game, players: list[Any]) -> list[Any]:
        """At a roster event only each team's starters of the game play; a team that has checked-in
        players but named no starters stops the draw (the organizer or its captain names them)."""
        if selectors.mode(game.tournament) != selectors.ROSTER:
            return players
        team_of = selectors.member_team_ids(game.tournament)
        named = selectors.starters_of_game(game.tournament, game.number)
        silent = sorted({team_of[p.pk] for p in players if p.pk in team_of and team_of[p.pk] not in named})
        if silent:
            names = ", ".join(v.name for v in selectors.teams(game.tournament) if v.id in silent)
            raise DomainError(_("These teams have not named their starters for game %(n)s: %(teams)s.")
                              % {"n": game.number, "teams": names}, field="players", rule="K-TEAM")
        starting = {p for ps in named.values() for p in ps}
        return [p for p in players if p.pk not in team_of or p.pk in starting]


def register() -> None:
    hooks.register_teams(TeamSeating())
