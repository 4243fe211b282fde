"""``python manage.py import_workbooks FILE|DIR|ZIP...``: past events from their workbooks.

One line per file (imported, replaced, unchanged or refused, with the reasons and warnings), a
progress count on a folder, and a summary. Exit code 2 when a file was refused.
"""

from __future__ import annotations

import sys
from typing import Any

from common.commands import DomainCommand
from workbook import importer


class Command(DomainCommand):
    help = "Import past events from their workbooks (.xls/.xlsx files, folders of them, or .zip archives)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("paths", nargs="+")
        parser.add_argument("--quiet-warnings", action="store_true", help="Do not list warnings.")

    def handle(self, *args: Any, **options: Any) -> None:
        counts: dict[str, int] = {}
        done = 0

        def progress(report: importer.FileReport) -> None:
            nonlocal done
            done += 1
            counts[report.status] = counts.get(report.status, 0) + 1
            line = f"[{done}] {report.name}: {report.status}"
            if report.event_id:
                line += f" ({report.event_id})"
            if report.status == importer.REFUSED:
                self.stderr.write(line)
                for issue in report.errors:
                    self.stderr.write(f"    error {issue.line()}")
            else:
                self.stdout.write(line)
            if not options["quiet_warnings"]:
                for issue in report.warnings:
                    self.stdout.write(f"    warning {issue.line()}")
            for dup in report.duplicates:
                self.stdout.write(f"    probable duplicate: {dup['name']} (#{dup['player']}) ~ "
                                  + ", ".join(f"#{c}" for c in dup["candidates"]))

        importer.import_many(importer.workbook_paths(options["paths"]), progress=progress)
        summary = ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) or "no workbook found"
        self.stdout.write(f"{done} file(s): {summary}.")
        if counts.get(importer.REFUSED):
            sys.exit(2)
