from django.apps import AppConfig


class FeesConfig(AppConfig):
    """Entry fees and club membership (docs/fees.md): an event's fee and member price, who paid
    at check-in, the event's cash summary, and each club's members with their annual card.
    Above tournaments only: it reads registrations, check-ins, clubs and seasons; the check-in
    page shows its column through the ``fees`` template tags (tournaments never imports it)."""

    name = "fees"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments import hooks

        from . import selectors, services

        hooks.register(hooks.merge_refusals, services.fold_memberships)
        hooks.audit_context["fees.Payment"] = selectors.audit_players
        hooks.register(hooks.player_data, selectors.player_data)
        # an event's fee and payments travel with its backup; memberships belong to the club
        for label in ("fees.EventFee", "fees.Payment"):
            hooks.register(hooks.backed_up, label)
