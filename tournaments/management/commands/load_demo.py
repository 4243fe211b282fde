"""``python manage.py load_demo``: the demo tournament (slug ``demo``) on an empty database.

Each entry of ``DEMO_STEPS`` is a dotted path to a function called, in this order, with the
tournament. Other apps append their own steps (tables: start games; scoring: finish game 1).
If the demo already exists the command prints the logins again and changes nothing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction
from django.urls import reverse
from django.utils.module_loading import import_string

from tournaments import demo
from tournaments.models import Tournament

DEMO_STEPS: list[str] = [
    "tournaments.demo.register_players",
    "tables.demo.start_game_1",
    "scoring.demo.finish_game_1",
    "tables.demo.start_game_2",
    "seasons.demo.club_season",
]


class Command(BaseCommand):
    help = "Create the demo tournament (slug 'demo') with its users and print the logins."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--base-url", default="http://127.0.0.1:8000",
                            help="Printed in front of the referee's private link.")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=demo.SLUG).first()
        if tournament is None:
            with transaction.atomic():
                tournament = demo.create_base()
                for step in DEMO_STEPS:
                    self.stdout.write(f"  {step}")
                    import_string(step)(tournament)
            self.stdout.write(self.style.SUCCESS(f"Demo tournament created: /t/{demo.SLUG}/"))
        else:
            self.stdout.write(f"The demo tournament already exists: /t/{demo.SLUG}/ (unchanged)")
        info = demo.logins(tournament)
        self.stdout.write(f"Organizer: {info.organizer[0]} / {info.organizer[1]}")
        self.stdout.write(f"Referee:   {info.referee[0]} / {info.referee[1]}")
        if info.referee_link is not None:
            url = reverse("tournaments:link", args=[info.referee_link.token])
            self.stdout.write(f"Referee's private link: {options['base_url'].rstrip('/')}{url}")
