from django.apps import AppConfig


class LiveConfig(AppConfig):
    """Connects the model signals that give public pages a new validator (config/live.py)."""

    name = "config"
    label = "live"

    def ready(self) -> None:
        from . import live

        live.connect_signals()
