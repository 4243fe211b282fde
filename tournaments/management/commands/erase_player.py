"""``python manage.py erase_player <player id> [--export FILE] [--export-only] [--yes]``.

A player's request under the GDPR: ``--export`` writes everything stored about them as JSON
(``tournaments.privacy.export_player_data``) first; without ``--export-only`` their personal data
is then erased and their past results kept under an anonymised name
(``tournaments.privacy.erase_player``).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import CommandError

from common.commands import DomainCommand
from tournaments import privacy
from tournaments.models import Player


class Command(DomainCommand):
    help = "Export and/or erase one player's personal data (results kept, anonymised)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("player", type=int, help="The player's id (admin, API /api/players/).")
        parser.add_argument("--export", metavar="FILE", help="Write their data as JSON first ('-' = stdout).")
        parser.add_argument("--export-only", action="store_true", help="Export, do not erase.")
        parser.add_argument("--yes", action="store_true", help="Do not ask for confirmation.")

    def handle(self, *args: Any, **options: Any) -> None:
        player = Player.objects.filter(pk=options["player"]).first()
        if player is None:
            raise CommandError(f"No player with id {options['player']}.")
        if options["export"]:
            text = json.dumps(privacy.export_player_data(player), indent=2, ensure_ascii=False)
            if options["export"] == "-":
                self.stdout.write(text)
            else:
                with open(options["export"], "w", encoding="utf-8") as fh:
                    fh.write(text + "\n")
                self.stderr.write(f"Exported to {options['export']}")
        if options["export_only"]:
            return
        if not options["yes"]:
            answer = input(f"Erase the personal data of {player.full_name} (id {player.pk})? [y/N] ")
            if answer.strip().lower() not in ("y", "yes", "s", "si", "sì"):
                raise CommandError("Nothing erased.")
        privacy.erase_player(player, actor=None)
        self.stderr.write(self.style.SUCCESS(f"Player {player.pk} erased; results kept as {player.full_name}."))
