from django.apps import AppConfig


class ClubsConfig(AppConfig):
    """The clubs' and the federation's tools (docs/clubs.md): clubs and their admins, federation
    admins, probable duplicate players across clubs.

    Above the three base apps; it reads only ``tournaments`` (the ``Club`` and ``ClubRole`` rows,
    who may do what in ``tournaments/clubs.py``, identity and merge), which never imports it."""

    name = "clubs"
    default_auto_field = "django.db.models.BigAutoField"
