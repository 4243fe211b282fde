"""``manage.py rebuild_statistics``: rebuild every stored statistic now (docs/statistics.md),
e.g. after a restore or when a worker was away; ``--simulator`` plays the simulator's games again."""

from __future__ import annotations

from typing import Any

from clubstats import services
from common.commands import DomainCommand


class Command(DomainCommand):
    help = "Rebuild the clubs' and players' statistics, the clubs' rankings and the recorded games' figures."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--simulator", action="store_true", help="Play the simulator's games again.")

    def handle(self, *args: Any, **options: Any) -> None:
        stored = services.recompute()
        simulated = services.refresh_simulator(force=options["simulator"])
        self.stdout.write(f"{stored} sheets stored" + (", simulator played again" if simulated else ""))
