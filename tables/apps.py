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
        self._live_pages()

    def _live_pages(self) -> None:
        """A change to a game, table or seat is a new version of its tournament's pages."""
        from common import live

        from .models import Game, Table

        live.watch(self.get_models())
        live.owned_through("game_id", Game, "tournament_id")
        live.owned_through("table_id", Table, "game__tournament_id")
