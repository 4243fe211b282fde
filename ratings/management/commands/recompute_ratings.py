from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand

from ratings import services
from ratings.models import Rating


class Command(BaseCommand):
    help = "Rebuild every player's rating from every table's result, in order (docs/rating.md)."

    def handle(self, *args: Any, **options: Any) -> None:
        began = time.monotonic()
        tables = services.recompute()
        self.stdout.write(f"{tables} tables rated, {Rating.objects.count()} players, "
                          f"{time.monotonic() - began:.1f} s")
