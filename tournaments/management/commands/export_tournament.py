"""``python manage.py export_tournament <slug> [-o FILE]``: the whole tournament as JSON
(players, registrations, check-ins, roles, links, audit log, games, tables, seats, clocks, turns,
results) — see ``tournaments/backup.py``. Restore with ``import_tournament``."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments import backup
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a whole tournament as one JSON document (backup)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", default="-", help="File to write ('-' = stdout).")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with slug {options['slug']!r}.")
        text = backup.dumps(backup.export_tournament(tournament))
        if options["output"] == "-":
            self.stdout.write(text)
        else:
            with open(options["output"], "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
            self.stderr.write(f"Tournament {tournament.slug} written to {options['output']}")
