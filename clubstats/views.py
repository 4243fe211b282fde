"""The statistics' public pages and CSV files (docs/statistics.md). They read stored figures
only (``clubstats.selectors``); the club's ranking rule is changed by its admins here."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from common.errors import DomainError, Refusal
from tournaments import clubs
from tournaments.models import Club, Player, normalise_name
from tournaments.spreadsheets import csv_download

from . import report, selectors, services
from .models import ALL_YEARS, RankingRule

PAGE_SIZE = 100


def _year(request: HttpRequest, choices: list[int], default: int | None = None) -> int:
    """The year asked for (``?year=``; 0: every year), else ``default``, else the latest."""
    raw = (request.GET.get("year") or "").strip()
    if raw.isdigit() and (int(raw) in choices or int(raw) == ALL_YEARS):
        return int(raw)
    if default is not None:
        return default
    return choices[0] if choices else ALL_YEARS


def _recorded(club: Club | None) -> tuple[list[report.Section], Any]:
    play = selectors.play(club)
    return report.recorded(play, selectors.simulator()), play


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The instance's statistics: the clubs, the years, every recorded game beside the simulator."""
    sections, play = _recorded(None)
    return render(request, "clubstats/home.html", {
        "clubs": selectors.clubs_with_figures(), "years": selectors.years(), "sections": sections, "play": play,
        "simulator": selectors.simulator()})


@require_GET
def games_csv(request: HttpRequest) -> HttpResponse:
    """The recorded games' figures beside the simulator's (``?club=``: one club's)."""
    raw = request.GET.get("club") or ""
    club = get_object_or_404(Club, pk=int(raw)) if raw.isdigit() and len(raw) < 10 else None
    sections, _play = _recorded(club)
    return csv_download(request, report.csv_rows(sections), f"partite-registrate{f'-{club.pk}' if club else ''}.csv")


@require_GET
def club(request: HttpRequest, pk: int) -> HttpResponse:
    the_club = get_object_or_404(Club, pk=pk)
    sheets = selectors.club_years(the_club)
    sections, play = _recorded(the_club)
    return render(request, "clubstats/club.html", {
        "club": the_club, "years": report.club_years(sheets), "computed_at": sheets[0].computed_at if sheets else None,
        "sections": sections, "play": play, "simulator": selectors.simulator()})


@require_GET
def club_csv(request: HttpRequest, pk: int) -> HttpResponse:
    the_club = get_object_or_404(Club, pk=pk)
    section = report.club_years(selectors.club_years(the_club))
    return csv_download(request, report.csv_rows([section]), f"statistiche-club-{the_club.pk}.csv")


def _ranking(request: HttpRequest, the_club: Club) -> tuple[int, list[int], report.Section, Any]:
    years = selectors.ranking_years(the_club)
    year = _year(request, [y for y in years if y != ALL_YEARS])
    sheet = selectors.ranking(the_club, year)
    names = selectors.names(r["player"] for r in (sheet.data.get("rows", []) if sheet else []))
    return year, years, report.ranking(sheet, names), sheet


@require_GET
def ranking(request: HttpRequest, pk: int) -> HttpResponse:
    """The club's own ranking across its events of a year (or every year), by its rule."""
    the_club = get_object_or_404(Club, pk=pk)
    year, years, section, sheet = _ranking(request, the_club)
    rule = selectors.rule_of(the_club)
    admin = clubs.is_club_admin(request.user, the_club) or clubs.is_federation_admin(request.user)
    return render(request, "clubstats/ranking.html", {
        "club": the_club, "year": year, "years": years, "section": section, "sheet": sheet, "rule": rule,
        "admin": admin, "rules": RankingRule.Rule.choices, "all_years": ALL_YEARS})


@require_GET
def ranking_csv(request: HttpRequest, pk: int) -> HttpResponse:
    the_club = get_object_or_404(Club, pk=pk)
    year, _years, section, _sheet = _ranking(request, the_club)
    return csv_download(request, report.csv_rows([section]), f"classifica-club-{the_club.pk}-{year or 'tutti'}.csv")


@require_POST
def ranking_rule(request: HttpRequest, pk: int) -> HttpResponse:
    """Set the club's ranking rule (its admins); a refusal is shown on the page, what was typed kept."""
    the_club = get_object_or_404(Club, pk=pk)
    rule, best_n = request.POST.get("rule", ""), request.POST.get("best_n", "")
    try:
        services.set_rule(actor=request.user, club=the_club, rule=rule, best_n=best_n)
    except DomainError as exc:
        if exc.kind != Refusal.INVALID:  # not allowed: the refusal page (common/refusals.py)
            raise
        year, years, section, sheet = _ranking(request, the_club)
        return render(request, "clubstats/ranking.html", {
            "club": the_club, "year": year, "years": years, "section": section, "sheet": sheet, "admin": True,
            "rule": RankingRule(club=the_club, rule=rule, best_n=best_n if str(best_n).isdigit() else 5),
            "typed_best_n": best_n, "error": exc, "rules": RankingRule.Rule.choices, "all_years": ALL_YEARS},
            status=400)
    messages.success(request, _("Ranking rule saved: the ranking is being recomputed."))
    return redirect("clubstats:ranking", pk=the_club.pk)


def _players(request: HttpRequest) -> tuple[int, list[int], list[Any], str]:
    years = selectors.years()
    year = _year(request, years)
    query = (request.GET.get("q") or "").strip()[:100]
    rows = selectors.player_rows(year)
    words = normalise_name(query).split()[:8]
    if words:
        rows = [s for s in rows if s.player and all(w in s.player.normalised_name for w in words)]
    return year, years, rows, query


@require_GET
def players(request: HttpRequest) -> HttpResponse:
    year, years, rows, query = _players(request)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "clubstats/players.html", {
        "year": year, "years": years, "page": page, "query": query, "all_years": ALL_YEARS,
        "computed_at": rows[0].computed_at if rows else None})


@require_GET
def players_csv(request: HttpRequest) -> HttpResponse:
    year, _years, rows, _query = _players(request)
    section = report.player_rows(rows, {})
    return csv_download(request, report.csv_rows([section]), f"statistiche-giocatori-{year or 'tutti'}.csv")


@require_GET
def player(request: HttpRequest, pk: int) -> HttpResponse:
    the_player = get_object_or_404(Player.objects.select_related("club"), pk=pk)
    sheets = selectors.player_years(the_player)
    met = selectors.club_names(c for s in sheets for c in s.data.get("clubs_met", []))
    return render(request, "clubstats/player.html", {
        "player": the_player, "section": report.player_years(sheets, met),
        "computed_at": sheets[0].computed_at if sheets else None})
