from django.apps import AppConfig


class WorkbookConfig(AppConfig):
    """The clubs' event workbook: a tournament's export for the national ranking and the import
    of past events (docs/workbook.md). Above scoring: it reads results and standings and stores
    an imported event as confirmed results (its ``WorkbookEvent`` rows stay scoring's: the
    standings read them)."""

    name = "workbook"
    default_auto_field = "django.db.models.BigAutoField"
