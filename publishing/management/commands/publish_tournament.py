"""``python manage.py publish_tournament SLUG --to URL --token TOKEN [--club NAME]``: send a
tournament run on this laptop to the clubs' shared instance (docs/publishing.md). One PUT carries
the whole tournament and the instance stores it in one transaction, so an interrupted publish is
simply run again. Network failures are retried with growing pauses (bounded); a refusal is printed
as one line and exits with status 2. ``--club`` names the organising club first (created on this
laptop if new), as the Publish page does. Messages are in the console's language (``LANG``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import CommandError
from django.utils.translation import gettext as _

from common.commands import DomainCommand
from publishing import services as publishing
from tournaments import services
from tournaments.models import Tournament


class Command(DomainCommand):
    help = "Publish a tournament to the clubs' shared instance."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--to", required=True, help="The instance, e.g. https://tornei.example.org")
        parser.add_argument("--token", required=True, help="The club's token (manage.py club_token on the instance).")
        parser.add_argument("--club", help="Name the organising club first (created here if new); it can be "
                                           "changed until the tournament is first published.")
        parser.add_argument("--attempts", type=int, default=6, help="Tries when the network fails (default 6).")
        parser.add_argument("--backoff", type=float, default=1.0, help="First pause in seconds, doubled each time.")
        parser.add_argument("--timeout", type=float, default=60.0, help="Seconds to wait for an answer.")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).select_related("club").first()
        if tournament is None:
            raise CommandError(_("No tournament with slug %(slug)s.") % {"slug": repr(options["slug"])},
                               returncode=2)
        if options["club"] is not None:  # a refusal: exit 2, one line (DomainCommand)
            services.name_organising_club(tournament, options["club"], actor=None)

        def retrying(attempt: int, attempts: int, reason: Any, pause: float) -> None:
            self.stderr.write(_("Attempt %(n)s/%(total)s failed (%(reason)s); retrying in %(pause)s s.")
                              % {"n": attempt, "total": attempts, "reason": reason, "pause": f"{pause:g}"})

        try:
            data = publishing.publish_to(tournament, options["to"], options["token"],
                                         attempts=options["attempts"], backoff=options["backoff"],
                                         timeout=options["timeout"], on_retry=retrying)
        except publishing.Refused as exc:
            raise CommandError(str(exc), returncode=2) from exc
        outcome = {"created": _("created"), "updated": _("updated"), "unchanged": _("unchanged")}
        self.stdout.write(self.style.SUCCESS(
            _("Tournament %(slug)s published (%(outcome)s, version %(sequence)s).")
            % {"slug": tournament.slug, "outcome": outcome.get(str(data.get("status")), data.get("status")),
               "sequence": data.get("sequence")}))
