"""What tables reads of the results (``tables/hooks.py``), registered by
:meth:`scoring.apps.ScoringConfig.ready`: tables never imports scoring."""

from __future__ import annotations

from typing import Any

from tables import hooks
from tables.models import Game, Table
from tournaments.models import Tournament

from . import recompute, selectors, standings


class ScoringResults(hooks.Results):
    def counting_scores(self, tournament: Tournament, game: Game | None = None) -> list[tuple[Table, list[dict[str, Any]]]]:
        publish_unconfirmed = tournament.event_format().publish_unconfirmed
        out = []
        for state in selectors.table_states(tournament, game):
            counting = state.counting(publish_unconfirmed)
            if counting is not None:
                out.append((state.table, counting.scores))
        return out

    def first_hidden_game(self, tournament: Tournament) -> int | None:
        return selectors.first_hidden_game(tournament)

    def standings_rows(self, tournament: Tournament) -> list[dict[str, Any]]:
        return list(selectors.standings(tournament)["rows"])

    def qualifier_standings(self, tournament: Tournament, games: int) -> list[dict[str, Any]]:
        """The preset's chain over the first ``games`` games, of the players who played them all
        (as the clubs' desktop tool does)."""
        fmt = tournament.event_format()
        results = [r for r in selectors.game_results(selectors.counted_results(tournament)) if r.game <= games]
        rows = standings.compute(results, method=fmt.method, best_n=fmt.best_n, chain=fmt.chain)
        return [{"player": r.player, "rank": r.rank, "total": r.total, "wins": r.wins}
                for r in rows if r.played >= games]

    def invalidate(self, tournament_id: int) -> None:
        recompute.invalidate(tournament_id)


def register() -> None:
    hooks.register(ScoringResults())
