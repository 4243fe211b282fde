"""The hall laptop's side of tests/publishing/test_two_instances.py, run inside the laptop's own
process (its SQLite database, no Redis): ``python -m tests.publishing.laptop ACTION ARG...``
prints one JSON line.

- ``event CLUB SLUG``: a tournament of CLUB with one game played (``helpers.laptop_event``);
- ``second-game SLUG``: a second game played and confirmed;
- ``standings SLUG``: the laptop's standings (as computed) and its public standings page's rows
  (position, name, club, total, as shown);
- ``preset PRESET CLUB SLUG``: a finished event of CLUB in that format (``helpers.preset_event``);
- ``public YEAR SLUG...``: what the public pages and API answers show of those events and of
  YEAR's national ranking (:func:`public_answers`), compared with the instance's.
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


CELL = re.compile(r"<t[dh][^>]*>(.*?)</t[dh]>", re.S)
TAGS = re.compile(r"<[^>]+>")


def table_cells(html: str) -> list[list[str]]:
    """Every row of every table of a page, each cell's text as shown (links' addresses, which
    hold the database's ids, left out)."""
    rows = []
    for table in re.findall(r"<table.*?</table>", html, re.S):
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S):
            rows.append([" ".join(TAGS.sub(" ", cell).split()) for cell in CELL.findall(row)])
    return rows


def _named(value: Any, names: dict[int, str]) -> Any:
    """An answer with every player id replaced by the player's name (ids are each database's)."""
    if isinstance(value, list):
        return [_named(v, names) for v in value]
    if isinstance(value, dict):
        return {k: (names.get(v, v) if k == "player" and isinstance(v, int) else _named(v, names))
                for k, v in value.items() if k not in ("id", "stamp", "computed_at", "generation")}
    return value


def _cells_or_none(get: Any, path: str) -> list[list[str]] | None:
    try:
        return table_cells(get(path))
    except LookupError:  # no such page (a year with nothing counted)
        return None


def public_answers(get: Any, year: int, slugs: list[str]) -> dict[str, Any]:
    """What anyone sees of the events ``slugs`` and of ``year``'s national ranking: the tournament,
    standings, format, games and results APIs, the standings page's and the ranking pages' cells.
    ``get(path)`` answers a page's text. The database's own ids are replaced by names, or left
    out where they only name a row (the tournament's, a table's, a result's, a club's)."""
    import json

    out: dict[str, Any] = {}
    for slug in slugs:
        standings = json.loads(get(f"/api/scoring/tournaments/{slug}/standings/"))
        names = {r["player"]: r["name"] for r in standings["rows"]}
        tournament = _named(json.loads(get(f"/api/tournaments/{slug}/")), {})
        tournament.pop("club")
        games, results = [], []
        for number in range(1, tournament["games_count"] + 1):
            try:
                game = json.loads(get(f"/api/tournaments/{slug}/games/{number}/"))
            except LookupError:
                continue  # a round not played
            tables = game.pop("tables")
            games.append({**{k: game[k] for k in ("number", "status", "rehearsal", "started_at")},
                          "tables": [{"number": t["number"], "status": t["status"],
                                      "seats": [{k: s[k] for k in ("number", "player_name", "club_name", "colour",
                                                                    "ghost")} for s in t["seats"]]}
                                     for t in tables]})
            for t in tables:
                answer = json.loads(get(f"/api/scoring/tables/{t['id']}/results/"))
                counting = [sub for sub in answer["submissions"] if sub["confirmations"]][-1:]
                results.append({"game": number, "table": t["number"], "status": answer["status"],
                                "counting": [_named({k: sub[k] for k in ("kind", "ended_by", "scores")}, names)
                                             for sub in counting]})
        out[slug] = {"tournament": tournament, "standings": _named(standings, names),
                     "format": json.loads(get(f"/api/scoring/tournaments/{slug}/format/")),
                     "games": games, "results": results,
                     "standings_page": table_cells(get(f"/t/{slug}/standings/"))}
    try:
        ranking = json.loads(get(f"/api/ranking/{year}/?limit=1000"))
    except LookupError:  # nothing counted that year
        out["ranking"] = None
    else:
        out["ranking"] = {"count": ranking["count"], "rows": [
            {**row, "player": {"name": row["player"]["name"], "club": row["player"]["club"]}}
            for row in ranking["rows"]]}
    out["ranking_pages"] = {path: _cells_or_none(get, path) for path in ("/ranking/", f"/ranking/{year}/")}
    return out


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
    from publishing.selectors import VOLATILE
    from scoring import selectors

    from .helpers import add_second_game, laptop_event, preset_event

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
    if action == "preset":
        from ranking import national

        e = preset_event(args[0], args[1], args[2])
        return {"slug": e["t"].slug, "club": e["club"].name, "year": national.event_year(e["t"])}
    if action == "public":
        client = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_LANGUAGE="it")

        def get(path: str) -> str:
            answer = client.get(path)
            if answer.status_code == 404:
                raise LookupError(path)
            assert answer.status_code == 200, (path, answer.status_code)
            return answer.content.decode()

        return public_answers(get, int(args[0]), list(args[1:]))
    raise SystemExit(f"unknown action {action!r}")


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from engine import exact as _exact

    print(_exact.dumps(run(sys.argv[1], *sys.argv[2:])))
