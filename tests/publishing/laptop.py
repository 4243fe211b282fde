"""The hall laptop's side of tests/publishing/test_two_instances.py, run inside the laptop's own
process (its SQLite database, no Redis): ``python -m tests.publishing.laptop ACTION ARG...``
prints one JSON line.

- ``event CLUB SLUG``: a tournament of CLUB with one game played (``helpers.laptop_event``);
- ``second-game SLUG``: a second game played and confirmed;
- ``standings SLUG``: the laptop's standings (as computed) and its public standings page's rows
  (position, name, club, total, as shown).
"""

from __future__ import annotations

import os
import re
import sys
from typing import Any

ROW = re.compile(r'<tr id="player-\d+"[^>]*>\s*<td class="num[^"]*">([^<]*)</td>\s*<td[^>]*><a [^>]*>([^<]*)</a>'
                 r'(?: <span class="muted">([^<]*)</span>)?.*?<td class="num total"[^>]*><strong>([^<]*)</strong>', re.S)


def standings_page(html: str) -> list[list[str]]:
    """(position, name, club, total) of every row of a public standings page, as shown."""
    return [[x.strip() for x in row] for row in ROW.findall(html)]


def standings_totals(html: str) -> list[str]:
    """The totals of a standings page, top to bottom, as shown (not a number found anywhere in
    the page: a player's id or a generated name may contain it)."""
    return [row[3] for row in standings_page(html)]


def _event(slug: str) -> dict[str, Any]:
    from tables.models import Seat
    from tournaments.models import Tournament, TournamentRole

    t = Tournament.objects.select_related("club").get(slug=slug)
    roles = {r.role: r.user for r in TournamentRole.objects.filter(tournament=t).select_related("user")}
    seats = Seat.objects.filter(game__tournament=t, game__number=1).order_by("number").select_related("player")
    return {"t": t, "org": roles["organizer"], "ref": roles["referee"], "club": t.club,
            "players": [s.player for s in seats]}


def run(action: str, *args: str) -> Any:
    import json

    from django.test import Client

    from engine import exact
    from scoring import selectors
    from scoring.for_tournaments import VOLATILE

    from .helpers import add_second_game, laptop_event

    if action == "event":
        e = laptop_event(args[0], slug=args[1])
        return {"slug": e["t"].slug, "club": e["club"].name, "players": len(e["players"])}
    if action == "second-game":
        add_second_game(_event(args[0]))
        return {"games": 2}
    if action == "standings":
        t = _event(args[0])["t"]
        data = {k: v for k, v in selectors._standings(t).items() if k not in VOLATILE}
        html = Client(HTTP_HOST="127.0.0.1").get(f"/t/{t.slug}/standings/").content.decode()
        return {"data": json.loads(exact.dumps(data)), "page": standings_page(html),
                "source_id": str(t.publish_state.source_id) if hasattr(t, "publish_state") else None}
    raise SystemExit(f"unknown action {action!r}")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from engine import exact as _exact

    print(_exact.dumps(run(sys.argv[1], *sys.argv[2:])))
