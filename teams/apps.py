from __future__ import annotations

from django.apps import AppConfig


class TeamsConfig(AppConfig):
    """Team events (docs/teams.md): teams, rosters, starters per round, team standings. Above
    scoring, ranking and workbook: it tells tables who plays and who are team-mates, and adds
    its sheet to the workbook and its spreadsheet to the exports, at start-up."""

    name = "teams"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from common import live

        from . import exports, for_tables
        from .models import Team

        for_tables.register()
        exports.register()
        # team pages are live public pages: a team's or a starter's change gives them a new validator
        live.watch(self.get_models())
        live.owned_through("team_id", Team, "tournament_id")
