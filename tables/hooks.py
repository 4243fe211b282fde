"""What tables reads of the results, which scoring records.

The apps depend one way: engine <- tournaments <- tables <- scoring (docs/architecture.md), so
tables never imports scoring. Seating by standings (Swiss, alla greca), the knock-out phases and
the scoresheets need to know who finished where: they ask :data:`results`, which scoring
replaces with its own reader in ``ScoringConfig.ready`` (``scoring/for_tables.py``). The default
here knows no result (composition then works on seat order, as before any game is played).
The format (its tables, its knock-out) is not asked here: tables reads it from below, through
``tournament.event_format()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tournaments.models import Tournament

    from .models import Game, Table


class Results:
    """The reads tables makes of results. This default knows none."""

    def counting_scores(self, tournament: Tournament, game: Game | None = None) -> list[tuple[Table, list[dict[str, Any]]]]:
        """(table, score rows) of every table of ``game`` (of every game without one) whose result
        counts: the confirmed one, or the latest when the organizer publishes unconfirmed results."""
        return []

    def standings_rows(self, tournament: Tournament) -> list[dict[str, Any]]:
        """The tournament's standings rows (player, rank, played …), leader first."""
        return []

    def qualifier_standings(self, tournament: Tournament, games: int) -> list[dict[str, Any]]:
        """The standings after the first ``games`` games, of the players who played all of them:
        rows with player, rank, total, wins."""
        return []

    def first_hidden_game(self, tournament: Tournament) -> int | None:
        """The first game whose results the public may not see yet (hidden standings), or None."""
        return None

    def invalidate(self, tournament_id: int) -> None:
        """The cached standings of the tournament are stale (a game became a rehearsal)."""


results = Results()


def register(source: Results) -> None:
    """Make ``source`` the reader of results (scoring, at ``ready``)."""
    global results
    results = source


class Teams:
    """What tables asks of team events (``teams/`` registers its own at ``ready``). This default
    knows no team: everyone checked in plays, and nobody has team-mates."""

    def teams_of(self, tournament: Tournament) -> dict[int, str]:
        """{player id: team key} of every player on a team of the tournament."""
        return {}

    def players_for(self, game: Game, players: list[Any]) -> list[Any]:
        """Who of the checked-in ``players`` plays ``game`` (a team event: its starters)."""
        return players


teams = Teams()


def register_teams(source: Teams) -> None:
    """Make ``source`` what tables asks of team events (the teams app, at ``ready``)."""
    global teams
    teams = source
