from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from common import live

        from .models import AccessLink, Club, Player, Registration, Tournament

        # public pages: every row of this label (publishing's too) gives its tournament's pages a
        # new validator; players, clubs and tournaments show on every page; a private link on none
        live.watch(self.get_models(), quiet=(AccessLink,))
        live.tournament_rows(Tournament)
        live.site_rows(Player, Club, Tournament)
        live.owned_through("registration_id", Registration, "tournament_id")
