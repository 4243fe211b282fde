"""``python manage.py create_club NAME --admin USERNAME [--city CITY] [--region REGION]``.

The club named NAME (created when missing) with USERNAME as its admin (the account created,
without a password, when missing): the way a server's operator sets up the first clubs. Audited
like the federation admin's pages (``clubs.federation.set_up_club``). Bad input: exit code 2
with a one-line reason.
"""

from __future__ import annotations

from typing import Any

from clubs import federation
from common.commands import DomainCommand


class Command(DomainCommand):
    help = "Create a club (when missing) and appoint its admin (the user created when missing)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("name", help="The club's name (an existing club is matched ignoring case).")
        parser.add_argument("--admin", required=True, metavar="USERNAME", help="The club's admin.")
        parser.add_argument("--city", default="", help="The club's city (new clubs only).")
        parser.add_argument("--region", default="", help="The club's region (new clubs only).")

    def handle(self, *args: Any, **options: Any) -> None:
        setup = federation.set_up_club(actor=None, name=options["name"], admin_username=options["admin"],
                                  city=options["city"], region=options["region"])
        club, user = setup.club, setup.user.get_username()
        self.stdout.write(f"Club {'created' if setup.club_created else 'found'}: {club.name} (id {club.pk})")
        self.stdout.write(f"{user} is an admin of {club.name}.")
        if setup.user_created or not setup.user.has_usable_password():
            self.stdout.write(f"Set {user}'s password with: python manage.py changepassword {user}")
