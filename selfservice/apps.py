from __future__ import annotations

from django.apps import AppConfig


class SelfServiceConfig(AppConfig):
    name = "selfservice"
    verbose_name = "Self-service"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from scoring import hooks as scoring_hooks
        from tournaments import hooks

        from . import for_tournaments, hidden, selectors

        # The apps below know nothing of this one (they depend one way): what they must ask it,
        # it registers here.
        hooks.register(hooks.skipping, selectors.skipping)  # carrying presences over skips them
        hooks.register(hooks.checkin_notes, selectors.checkin_notes)  # "checked in by themselves"
        hooks.register(scoring_hooks.hidden_from, hidden.hidden_from)  # the public standings
        hooks.register(hooks.player_data, for_tournaments.player_data)  # a player's data export
        hooks.register(hooks.player_erased, for_tournaments.player_erased)  # and their erasure
