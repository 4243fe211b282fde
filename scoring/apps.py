from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import pre_delete

        from tournaments.models import Tournament

        pre_delete.connect(_tournament_deleted, sender=Tournament, dispatch_uid="scoring.national.tournament_deleted")


def _tournament_deleted(sender: object, instance: object, **kwargs: object) -> None:
    """A deleted tournament (admin) leaves the national ranking of the years it was in (K-RANKING)."""
    from .models import NationalRankingEvent
    from .national import request_update

    for year in set(NationalRankingEvent.objects.filter(tournament=instance).values_list("ranking__year", flat=True)):
        request_update(year)
