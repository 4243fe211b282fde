"""A tournament's spreadsheets: the standings, every counting result, and those an app above
adds (``TABLES``: the national ranking's rows of the event, K-RANKING, ``ranking/exports.py``), as
CSV or XLSX (``GET /t/<slug>/export/<what>.<fmt>``).

Every cell goes through ``tournaments.spreadsheets``: names starting with = + - @ are never
formulas. The printable final ranking is a page (``views.print_ranking``, scoring/print.html).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from common.engine_messages import ending
from tournaments import labels, spreadsheets
from tournaments.models import Player, Tournament

from . import selectors

EXPORTS = ("standings", "results")
# The spreadsheets an app above adds, registered at start-up (its AppConfig.ready): a name and
# what makes its head and rows of a tournament (the flag: an organizer asks, national ids shown).
Table = Callable[[Tournament, bool], tuple[list[str], list[list[Any]]]]
TABLES: dict[str, Table] = {}


def known(what: str) -> bool:
    return what in EXPORTS or what in TABLES
FORMATS = ("csv", "xlsx")


def standings_table(tournament: Tournament) -> tuple[list[str], list[list[Any]]]:
    data = selectors.standings(tournament)
    head = [_("Rank"), _("Player"), _("Club")]
    for g in data["games"]:
        head += [_("Game %(n)s") % {"n": g}, _("Counted")]
    head += [_("Total"), _("Extra-objective points"), _("Armies")]
    rows = []
    for r in data["rows"]:
        cells = {c["game"]: c for c in r["games"]}
        line: list[Any] = [r["rank"], r["name"], r["club"]]
        for g in data["games"]:
            c = cells.get(g)
            line += [c["points"] if c else "", (_("yes") if c["counted"] else _("no")) if c else ""]
        line += [r["total"], r["extra"], r["armies"]]
        rows.append(line)
    return head, rows


def results_table(tournament: Tournament) -> tuple[list[str], list[list[Any]]]:
    unconfirmed = tournament.event_format().publish_unconfirmed
    head = [_("Game"), _("Table"), _("Status"), _("Version"), _("Seat"), _("Player"), _("Game score"),
            _("Extra-objective points"), _("Armies"), _("Place"), _("Tournament points"), _("Eliminated"),
            _("Ended by"), _("Short form"), _("Rehearsal game")]  # a rehearsal's results never count
    states = selectors.table_states(tournament)
    names = {p.pk: p.display_name for p in Player.objects.filter(
        pk__in={r.get("player") for st in states for s in st.submissions for r in s.scores})}
    rows = []
    for st in states:
        sub = st.counting(unconfirmed)
        rehearsal = _("yes") if st.table.game.rehearsal else ""
        if sub is None:
            rows.append([st.table.game.number, st.table.number, labels.result_status(st.status)] + [""] * 11
                        + [rehearsal])
            continue
        for r in sorted(sub.scores, key=lambda r: r["seat"]):
            rows.append([st.table.game.number, st.table.number, labels.result_status(st.status), sub.number,
                         r["seat"], names.get(r.get("player"), ""), r["game_score"], r["extra_objective"],
                         r["armies"], r["place"], r["tournament_points"], r.get("eliminated") or "", ending(sub.ended_by),
                         _("yes") if sub.kind == "short" else "", rehearsal])
    return head, rows


def response(request: HttpRequest, tournament: Tournament, what: str, fmt: str,
             national_ids: bool = False) -> HttpResponse:
    """The ``what`` spreadsheet (one of :data:`EXPORTS`) as a ``fmt`` file to download (a CSV
    in Excel's form unless ``?plain=1``, ``tournaments.spreadsheets.csv_download``)."""
    if what in TABLES:
        head, rows = TABLES[what](tournament, national_ids)
    else:
        head, rows = (standings_table if what == "standings" else results_table)(tournament)
    name = f"{tournament.slug}-{what}.{fmt}"
    if fmt == "csv":
        return spreadsheets.csv_download(request, [head, *rows], name)
    resp = HttpResponse(spreadsheets.xlsx_bytes([(what[:30], [head, *rows])]),
                        content_type=spreadsheets.XLSX_CONTENT_TYPE)
    resp["Content-Disposition"] = f'attachment; filename="{name}"'
    return resp
