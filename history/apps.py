from django.apps import AppConfig


class HistoryConfig(AppConfig):
    """One history per player across every event on this instance, and head-to-head between two
    players (read only). Above scoring: it reads results, standings and the national ranking."""

    name = "history"
    default_auto_field = "django.db.models.BigAutoField"
