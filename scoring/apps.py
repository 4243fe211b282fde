from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments.formats import vocabulary

        from . import (
            for_tables,
            for_tournaments,
            recompute,
            selectors,
            tasks,  # noqa: F401  (known to Celery by name: recompute queues it so, never importing it)
        )
        from .standings import METRICS

        for_tables.register()  # tables reads the results through scoring (tables/hooks.py)
        for_tournaments.register()  # results in exports, erasures and merges
        # a reader that finds the standings old or broken tells the write side, which queues
        # their recomputation (a selector never schedules)
        selectors.stale_standings.append(recompute.refresh)
        selectors.lost_heads.append(recompute.lost)
        vocabulary.register("metrics", METRICS)  # the tie-breaks a format's chain may name
        self._live_pages()

    def _live_pages(self) -> None:
        """A result or a standings row saved is a new version of its tournament's pages (this
        label's rows: the national ranking's too, whose models keep it)."""
        from common import live

        from .models import ResultSubmission

        live.watch(self.get_models())
        live.owned_through("submission_id", ResultSubmission, "tournament_id")
