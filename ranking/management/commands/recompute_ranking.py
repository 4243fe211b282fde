"""``python manage.py recompute_ranking [YEAR ...] [--queue]``.

Recomputes the stored national ranking (K-RANKING) of the years given, or of every year with a
finished event when none is given: after an upgrade, after editing finished events outside the
app, or to check a year by hand. Runs here by default; ``--queue`` hands the years to the Celery
worker instead.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from ranking import national
from ranking.tasks import recompute_ranking


class Command(BaseCommand):
    help = "Recompute the national ranking of some years (default: every year with events)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("years", nargs="*", type=int, help="Years, e.g. 2024 2025.")
        parser.add_argument("--queue", action="store_true", help="Queue on the Celery worker instead.")

    def handle(self, *args: Any, **options: Any) -> None:
        years = options["years"] or national.years_with_events()
        for year in years:
            if not 1900 <= year <= 9999:
                raise CommandError(f"Not a year: {year}.")
        for year in years:
            if options["queue"]:
                recompute_ranking.delay(year)
                self.stdout.write(f"{year}: queued")
            else:
                stored = national.compute(year)
                self.stdout.write(f"{year}: {stored.events} events, {stored.rows.count()} players, "
                                  f"version {stored.version}")
