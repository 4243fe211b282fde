"""``python manage.py club_token NAME``: a new publishing token for club NAME, printed once
(only its hash is stored). ``--list`` shows the club's tokens (or every club's, without NAME);
``--revoke [PREFIX]`` revokes one token, or all the club's tokens without PREFIX. A token can
publish only the tournaments of its own club (docs/publishing.md)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from publishing import services as publishing
from publishing.models import ClubToken
from tournaments.models import Club


class Command(BaseCommand):
    help = "Create, list or revoke a club's publishing tokens."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("name", nargs="?", help="The club's name (created if missing when issuing).")
        parser.add_argument("--list", action="store_true", help="List tokens (prefix, created, used, revoked).")
        parser.add_argument("--revoke", nargs="?", const="*", metavar="PREFIX",
                            help="Revoke the token with PREFIX, or every token of the club.")

    def handle(self, *args: Any, **options: Any) -> None:
        name = (options["name"] or "").strip()
        if options["list"]:
            qs = ClubToken.objects.select_related("club")
            if name:
                qs = qs.filter(club__name=name)
            for t in qs:
                state = f"revoked {t.revoked_at:%Y-%m-%d %H:%M}" if t.revoked_at else "active"
                used = f"{t.last_used_at:%Y-%m-%d %H:%M}" if t.last_used_at else "never"
                self.stdout.write(f"{t.club.name}\t{t.prefix}\t{t.created_at:%Y-%m-%d %H:%M}\tused {used}\t{state}")
            return
        if not name:
            raise CommandError("Name the club.", returncode=2)
        if options["revoke"]:
            club = Club.objects.filter(name=name).first()
            if club is None:
                raise CommandError(f"No club named {name!r}.", returncode=2)
            prefix = None if options["revoke"] == "*" else options["revoke"]
            count = publishing.revoke_tokens(club, prefix)
            if prefix and not count:
                raise CommandError(f"No active token {prefix} for club {name!r}.", returncode=2)
            self.stdout.write(f"{count} token(s) of {name} revoked.")
            return
        club, created = Club.objects.get_or_create(name=name)
        if created:
            self.stderr.write(f"Club {name!r} created.")
        self.stdout.write(publishing.issue_token(club))
