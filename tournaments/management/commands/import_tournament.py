"""``python manage.py import_tournament <file>``: restore a tournament written by
``export_tournament`` (one transaction; refuses to overwrite existing rows)."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandError

from common.commands import DomainCommand
from engine import exact
from tournaments import backup


class Command(DomainCommand):
    help = "Restore a tournament from its JSON backup (made by export_tournament)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="The backup file ('-' = stdin).")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                document = exact.loads(sys.stdin.read())
            else:
                with open(options["file"], encoding="utf-8") as fh:
                    document = exact.loads(fh.read())
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc}") from exc
        tournament = backup.import_tournament(document)  # a refusal: exit code 2 (DomainCommand)
        self.stdout.write(self.style.SUCCESS(f"Tournament {tournament.slug} restored."))
