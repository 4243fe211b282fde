"""``python manage.py publish_tournament SLUG --to URL --token TOKEN``: send a tournament run on
this laptop to the clubs' shared instance (docs/publishing.md). One PUT carries the whole
tournament and the instance stores it in one transaction, so an interrupted publish is simply
run again. Network failures are retried with growing pauses (bounded); a refusal is printed as
one line and exits with status 2."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from config.errors import DomainError
from engine import exact
from tournaments import publishing
from tournaments.models import PublishState, Tournament

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def endpoint(base: str, slug: str) -> str:
    """The instance's publish address; plain http only to this machine (tests, a local proxy)."""
    parts = urllib.parse.urlsplit(base)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise CommandError(f"--to must be an https:// address, not {base!r}.", returncode=2)
    if parts.scheme == "http" and parts.hostname not in LOCAL_HOSTS:
        raise CommandError("Refusing plain http: publish over https:// (http only to localhost).",
                           returncode=2)
    return base.rstrip("/") + f"/api/publish/tournaments/{urllib.parse.quote(slug)}/"


def send(url: str, token: str, body: bytes, timeout: float) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(url, data=body, method="PUT", headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json",
        "Accept": "application/json", "Accept-Language": "en"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (scheme checked)
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as exc:
        try:
            data = json.loads(exc.read() or b"{}")
        except ValueError:
            data = {}
        return exc.code, data if isinstance(data, dict) else {}


class Command(BaseCommand):
    help = "Publish a tournament to the clubs' shared instance."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--to", required=True, help="The instance, e.g. https://tornei.example.org")
        parser.add_argument("--token", required=True, help="The club's token (manage.py club_token on the instance).")
        parser.add_argument("--attempts", type=int, default=6, help="Tries when the network fails (default 6).")
        parser.add_argument("--backoff", type=float, default=1.0, help="First pause in seconds, doubled each time.")
        parser.add_argument("--timeout", type=float, default=60.0, help="Seconds to wait for an answer.")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).select_related("club").first()
        if tournament is None:
            raise CommandError(f"No tournament with slug {options['slug']!r}.", returncode=2)
        url = endpoint(options["to"], tournament.slug)
        try:
            document = publishing.prepare(tournament)
        except DomainError as exc:
            raise CommandError(f"{exc.message} [{exc.rule}]", returncode=2) from exc
        body = exact.dumps(document, ensure_ascii=False).encode("utf-8")
        attempts = max(1, options["attempts"])
        pause = max(0.0, options["backoff"])
        for attempt in range(1, attempts + 1):
            try:
                status, data = send(url, options["token"], body, options["timeout"])
            except (urllib.error.URLError, OSError) as exc:
                reason = getattr(exc, "reason", exc)
                status, data = 0, {"detail": f"network: {reason}"}
            if 200 <= status < 300:
                PublishState.objects.filter(tournament=tournament).update(
                    last_published_at=timezone.now(), last_target=options["to"][:300])
                self.stdout.write(self.style.SUCCESS(
                    f"Tournament {tournament.slug} published ({data.get('status')}, "
                    f"sequence {data.get('sequence')})."))
                return
            if status and status < 500 and status != 429:
                named = [k for k in data if k not in ("rule", "detail")]
                field = f" (field {named[0]})" if named else ""
                rule = f" [{data['rule']}]" if data.get("rule") else ""
                raise CommandError(f"Refused, HTTP {status}: {data.get('detail', '')}{field}{rule}",
                                   returncode=2)
            if attempt < attempts:
                self.stderr.write(f"Attempt {attempt}/{attempts} failed ({data.get('detail') or status}); "
                                  f"retrying in {pause:g} s.")
                time.sleep(pause)
                pause *= 2
        raise CommandError(f"Not published after {attempts} attempts: {data.get('detail') or status}",
                           returncode=2)
