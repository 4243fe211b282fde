from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments.formats import vocabulary

        from . import for_tournaments
        from .seating import PRIORITY_BY_KEY, SEEDINGS

        for_tournaments.register()  # seats in tournaments' exports, merges, audit sentences
        vocabulary.register("priorities", PRIORITY_BY_KEY)  # the words a format's rounds may use
        vocabulary.register("seedings", SEEDINGS)
