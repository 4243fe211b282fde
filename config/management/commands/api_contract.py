"""``python manage.py api_contract [--write]``: does the API keep its contract?

Compares the OpenAPI schema the code generates with ``docs/api-contract.json`` (docs/api.md
"Stability"): exit 2 with what is gone and what to do when a field or operation disappeared
without a release marked deprecated. ``--write`` refreshes the contract after fields or
operations were added or marked deprecated; it refuses while a promise is broken."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from common.errors import EXIT_CODE
from config import api_contract


class Command(BaseCommand):
    help = "Check the API against docs/api-contract.json; --write refreshes it."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--write", action="store_true",
                            help="record the API as it is now (new fields, new deprecations)")

    def handle(self, *args: Any, **options: Any) -> None:
        version = api_contract.project_version()
        contract = api_contract.load_contract()
        current = api_contract.operations(api_contract.generated_schema())
        broken = api_contract.broken_promises(contract, current, version)
        if broken:
            raise CommandError(api_contract.explain(broken, version), returncode=EXIT_CODE)
        if options["write"]:
            api_contract.CONTRACT.write_text(
                api_contract.dump(api_contract.refreshed(contract, current, version)))
            self.stdout.write(f"{api_contract.CONTRACT.name}: {len(current)} operations recorded")
            return
        new = api_contract.new_names(contract, current)
        note = f"; {new} new operations or names not recorded yet ({api_contract.REFRESH})" if new else ""
        self.stdout.write(f"The API keeps its contract{note}.")
