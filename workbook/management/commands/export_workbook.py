"""``python manage.py export_workbook SLUG OUT``: the event's workbook for the national ranking.

OUT is a file, or a folder (the file is then named after the event id). ``--check`` only checks.
Anything the ranking would refuse stops the export: exit code 2 with every reason.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from common.commands import DomainCommand
from tournaments.models import Tournament
from workbook import export as wb_export


class Command(DomainCommand):
    help = "Write (or with --check only check) a tournament's event workbook for the national ranking."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("out", nargs="?", default="", help="A file, or a folder (file named after the event).")
        parser.add_argument("--check", action="store_true", help="Only check: list errors and warnings.")
        parser.add_argument("--format", choices=("xls", "xlsx"), default="xls",
                            help="xls (default: what the clubs' tool writes and the ranking's upload converts).")
        parser.add_argument("--organizer", default="",
                            help="The organizer exactly as in the clubs' list, e.g. 'MILANO [RCU]' (remembered).")

    def _fail(self, line: str) -> None:
        self.stderr.write(line)
        sys.exit(2)

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            self._fail(f"No tournament with slug {options['slug']!r}.")
        assert tournament is not None
        if not options["check"] and not options["out"]:
            self._fail("Give OUT (a file or a folder), or --check.")
        if options["organizer"]:
            wb_export.remember_organizer(tournament, options["organizer"])
        result = wb_export.export(tournament, fmt=options["format"], write_file=not options["check"])
        for issue in result.checked.warnings:
            self.stdout.write(f"warning {issue.line()}")
        if not result.ok:
            for issue in result.checked.errors:
                self.stderr.write(f"error {issue.line()}")
            self._fail(f"The ranking would refuse this workbook: {len(result.checked.errors)} error(s); "
                       "nothing written.")
        if options["check"]:
            self.stdout.write(self.style.SUCCESS(f"{result.filename}: no errors, "
                                                 f"{len(result.checked.warnings)} warning(s)."))
            return
        out = options["out"]
        path = os.path.join(out, result.filename) if os.path.isdir(out) else out
        try:
            with open(path, "wb") as fh:
                fh.write(result.content)
        except OSError as exc:
            self._fail(f"Cannot write {path}: {exc.strerror or exc}")
        self.stdout.write(self.style.SUCCESS(f"Written {path} ({result.event.event_id})."))
