from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments.formats import vocabulary

        from . import (
            for_tables,
            for_tournaments,
            tasks,  # noqa: F401  (known to Celery by name: selectors queue it so, never importing it)
        )
        from .standings import METRICS

        for_tables.register()  # tables reads the results through scoring (tables/hooks.py)
        for_tournaments.register()  # results in exports, erasures and merges
        vocabulary.register("metrics", METRICS)  # the tie-breaks a format's chain may name
