from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from scoring.models import Confirmation, ResultSubmission, WorkbookEvent

        from . import tasks

        # Every path that makes a result count (a confirmation, a result published unconfirmed,
        # an imported workbook) queues the rating's update after the commit; scoring knows nothing
        # of ratings (the apps depend one way).
        post_save.connect(tasks.confirmation_saved, sender=Confirmation, dispatch_uid="ratings.confirmation")
        post_save.connect(tasks.submission_saved, sender=ResultSubmission, dispatch_uid="ratings.submission")
        post_save.connect(tasks.workbook_saved, sender=WorkbookEvent, dispatch_uid="ratings.workbook")
