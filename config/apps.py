from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The site's own package: its management command (``api_contract``). The live pages' model
    signals are each app's own (``common/live.py: watch``, called from their ``AppConfig.ready``)."""

    name = "config"
