from django.apps import AppConfig


class PublishingConfig(AppConfig):
    """Publishing a hall laptop's tournament to the clubs' shared instance (docs/publishing.md).

    Above scoring: it reads the tournaments, tables and results it sends, and makes a received
    copy a real tournament of the instance (``copies.py``)."""

    name = "publishing"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import pre_delete

        from . import copies, services
        from .models import PublishedTournament

        services.set_materialiser(copies.materialise, copies.edited)  # a published copy: a real tournament
        pre_delete.connect(_published_copy_deleted, sender=PublishedTournament,
                           dispatch_uid="publishing.copy_deleted")


def _published_copy_deleted(sender: object, instance: object, **kwargs: object) -> None:
    """Deleting a published copy (the admin) deletes the tournament made of it, so the laptop
    can publish again afresh (docs/publishing.md, "Conflicts")."""
    tournament = getattr(instance, "tournament", None)
    if tournament is not None:
        tournament.delete()
