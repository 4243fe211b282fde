from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import for_tournaments

        for_tournaments.register()  # seats in tournaments' exports, merges, audit sentences
