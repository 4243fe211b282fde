"""Public pages of the national ranking (K-RANKING): the years, one year's ranking with a search
by name, a player's card (every event, its VT, whether it counted and why not), and the exports
(CSV, XLSX, JSON). They read the stored ranking only: nothing is computed in a request."""

from __future__ import annotations

import io
import json
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from common import live
from common.errors import PermissionDeniedError
from scoring import selectors as scoring_selectors
from tournaments.models import Tournament
from tournaments.permissions import is_referee
from tournaments.spreadsheets import csv_download, safe_row

from . import event
from . import formula as rk
from . import selectors as ns
from .models import NationalRanking, NationalRankingRow

PAGE_SIZE = 100


def _year_or_404(year: int) -> NationalRanking:
    found = ns.year(year)
    if found is None or not found.events:
        raise Http404(_("No national ranking for this year."))
    return found


def _caps(ranking: NationalRanking) -> list[dict[str, Any]]:
    """The year's rules as a table: per type, its class, the valid events N and the cap."""
    rules = ranking.rules or {}
    out = []
    caps = rules.get("caps") or {}
    order = {kind: i for i, kind in enumerate(rk.TYPES)}  # PostgreSQL's JSON keeps no key order
    for kind, cap in sorted(caps.items(), key=lambda item: (order.get(item[0], len(order)), item[0])):
        applied = (rules.get("caps_applied") or {}).get(kind)
        out.append({"type": kind, "label": rk.TYPES.get(kind, kind), "events": (rules.get("valid_events") or {}).get(kind, 0),
                    "cap": applied, "rounds": cap.get("rounds"), "percent": cap.get("percent"),
                    "minimum": cap.get("minimum")})
    return out


@require_GET
def years_page(request: HttpRequest) -> HttpResponse:
    return render(request, "ranking/national_years.html", {"years": ns.years()})


@require_GET
def year_page(request: HttpRequest, year: int) -> HttpResponse:
    ranking = _year_or_404(year)
    query = (request.GET.get("q") or "").strip()[:100]
    page = Paginator(ns.rows(ranking, query), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "ranking/national_year.html", {
        "ranking": ranking, "page": page, "query": query, "years": ns.years(), "caps": _caps(ranking),
        "min_table_games": (ranking.rules or {}).get("min_table_games"),
    })


@require_GET
def player_page(request: HttpRequest, year: int, pk: int) -> HttpResponse:
    ranking = _year_or_404(year)
    row = get_object_or_404(NationalRankingRow, ranking=ranking, player_id=pk)
    entries = ns.card(row, ns.events_of(ranking))
    return render(request, "ranking/national_player.html", {
        "ranking": ranking, "row": row, "entries": entries, "caps": _caps(ranking),
        "counted": sum(1 for e in entries if e["counted"]),
        "min_table_games": (ranking.rules or {}).get("min_table_games"),
    })


def _table(ranking: NationalRanking) -> tuple[list[str], list[list[Any]], list[list[Any]]]:
    rows = list(ns.rows(ranking))
    events = ns.events_of(ranking)
    head = [_("Position"), _("Player"), _("Club"), _("Points"), _("Events counted"), _("Events")]
    body, detail = [], []
    for r in rows:
        card = ns.card(r, events)
        position = r.position if r.position is not None else ""
        body.append([position, r.name, r.club, r.points, sum(1 for e in card if e["counted"]), len(card)])
        detail += [[position, r.name, e["tournament"].name, e["tournament"].slug, e["type"], e["position"], e["vt"],
                    _("yes") if e["counted"] else _("no"), e["reason_label"]] for e in card]
    return head, body, detail


@require_GET
def export(request: HttpRequest, year: int, fmt: str) -> HttpResponse:
    """The year's ranking as CSV (one row per player), XLSX (that and a sheet of every player's
    events) or JSON (as the API, every row). Spreadsheet cells go through ``safe_row``."""
    ranking = _year_or_404(year)
    name = f"ranking-{ranking.year}"
    if fmt == "json":
        data = {"year": ranking.year, "computed_at": ranking.computed_at.isoformat() if ranking.computed_at else None,
                "version": ranking.version, "rows": ns.row_dicts(ranking, list(ns.rows(ranking)))}
        resp = HttpResponse(json.dumps(data, ensure_ascii=False), content_type="application/json")
    elif fmt == "csv":
        head, body, _detail = _table(ranking)
        return csv_download(request, [head, *body], f"{name}.csv")  # Excel's form unless ?plain=1
    elif fmt == "xlsx":
        from openpyxl import Workbook

        head, body, detail = _table(ranking)
        wb = Workbook()
        ws = wb.active
        ws.title = _("Ranking")[:30]
        _append(ws, head, body)
        ws2 = wb.create_sheet(_("Events")[:30])
        _append(ws2, [_("Position"), _("Player"), _("Event"), _("Event id"), _("Type"), _("Position in the event"),
                      _("VT"), _("Counted"), _("Why")], detail)
        out = io.BytesIO()
        wb.save(out)
        resp = HttpResponse(out.getvalue(),
                            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
    else:
        raise Http404(_("Unknown export format."))
    resp["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return resp


def _append(ws: Any, head: list[str], rows: list[list[Any]]) -> None:
    """Rows into a worksheet: text cells as strings, never formulas (``safe_row``, then the
    string type forced on every text cell)."""
    for values in [head, *rows]:
        ws.append(safe_row(values))
        for cell in ws[ws.max_row]:
            if isinstance(cell.value, str):
                cell.data_type = "s"


@live.public
@require_GET
def event_page(request: HttpRequest, slug: str) -> HttpResponse:
    """K-RANKING: each player's national-ranking contribution from this event (public: name,
    nickname and club only), with the event's rows for the ranking as CSV/XLSX."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if scoring_selectors.first_hidden_game(tournament) is not None and not is_referee(request.user, tournament):
        raise PermissionDeniedError(_("The organizer has hidden the last games' standings until the end: this "
                                      "event's ranking points come back with them."), rule="HIDDEN")
    return render(request, "ranking/ranking.html", {
        "tournament": tournament, "r": event.event_ranking(tournament),
        "finished": tournament.status == Tournament.Status.FINISHED,
        "exports": [(what, label) for what, label in (
            ("ranking-events", _("Event")), ("ranking-games", _("Games")),
            ("ranking-standings", _("Standings")))],
    })
