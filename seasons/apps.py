from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    """A club's season (Campionato periodico): its evenings, their standings combined by the
    season's rule, its pages and API. Above scoring: it reads the evenings' results and
    standings. The ``Season`` row stays in ``tournaments/models.py``: a tournament points to
    its season."""

    name = "seasons"
    default_auto_field = "django.db.models.BigAutoField"
