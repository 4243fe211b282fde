from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import pre_delete

        from .models import PublishedTournament

        pre_delete.connect(_published_copy_deleted, sender=PublishedTournament,
                           dispatch_uid="tournaments.publishing.copy_deleted")


def _published_copy_deleted(sender: object, instance: object, **kwargs: object) -> None:
    """Deleting a published copy (the admin) deletes the tournament made of it, so the laptop
    can publish again afresh (docs/publishing.md, "Conflicts")."""
    tournament = getattr(instance, "tournament", None)
    if tournament is not None:
        tournament.delete()
