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

    def invalidate(self, tournament_id: int) -> None:
        """The cached standings of the tournament are stale (a game became a rehearsal)."""


results = Results()


def register(source: Results) -> None:
    """Make ``source`` the reader of results (scoring, at ``ready``)."""
    global results
    results = source
