"""Season pages, under their club: the public standings with explained tie-breaks and the
evenings; for the club's admins (and federation admins) creating and editing the season and the
next evening in two clicks (the button, then the confirmation). Writes go through
``seasons.services``."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.errors import ConflictError, DomainError
from common.refusals import add_to_form, refuse
from tournaments import selectors as tournament_selectors
from tournaments.models import Club, Season, Tournament

from . import evenings as club_seasons
from . import selectors as season_selectors
from . import services as seasons
from .finals import options as final_options
from .finals import selectors as finals_selectors
from .forms import EveningForm, SeasonForm


def _season(club: int, pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=pk, club_id=club)


def _managers_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous → the login page; anyone but the club's admins and federation admins → 403."""
    @wraps(view)
    def wrapper(request: HttpRequest, club: int, *args: Any, **kwargs: Any) -> HttpResponse:
        the_club = get_object_or_404(Club, pk=club)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not club_seasons.may_manage(request.user, the_club):
            raise PermissionDenied(_("Only an admin of %(club)s or a federation admin may do this.")
                                   % {"club": the_club.name})
        return view(request, the_club, *args, **kwargs)
    return wrapper


def _context(request: HttpRequest, season: Season) -> dict[str, Any]:
    visible = tournament_selectors.visible_tournaments(request.user)
    evenings = list(visible.filter(season=season).order_by("date", "pk"))
    user = request.user
    changer = user.is_authenticated and not getattr(user, "link_tournament_id", None)
    return {
        "club": season.club, "season": season, "s": season_selectors.standings(season),
        "evenings": [(t, changer and club_seasons.may_change_evenings(user, season, t)) for t in evenings],
        "attachable": [t for t in seasons.attachable(season)
                       if club_seasons.may_change_evenings(user, season, t)] if changer else [],
        "manager": club_seasons.may_manage(user, season.club),
    }


@require_GET
def season_page(request: HttpRequest, club: int, pk: int) -> HttpResponse:
    season = _season(club, pk)
    context = _context(request, season)
    context["finals"] = finals_selectors.overview(season, context["s"])  # the page's section only
    return render(request, "seasons/season.html", context)


@require_GET
def season_standings(request: HttpRequest, club: int, pk: int) -> HttpResponse:
    """The standings alone: the club page loads the current season's with htmx."""
    season = _season(club, pk)
    return render(request, "seasons/_season_table.html", _context(request, season))


@require_http_methods(["GET", "POST"])
@_managers_only
def season_create(request: HttpRequest, club: Club) -> HttpResponse:
    form = SeasonForm(request.POST or None, initial={
        "rule": Season.Rule.SUM, "preset": "campionato", "year": timezone.localdate().year, "evening_games": 2,
        **{f"finals_{k}": v for k, v in final_options.DEFAULTS.items()}})
    if request.method == "POST" and form.is_valid():
        try:
            season = seasons.create_season(actor=request.user, club=club, **form.cleaned_data)
        except DomainError as exc:
            add_to_form(form, exc)
        else:
            messages.success(request, _("Season %(name)s created.") % {"name": season.name})
            return redirect("seasons:season", club=club.pk, pk=season.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "seasons/season_form.html", {"form": form, "club": club, "season": None}, status=status)


@require_http_methods(["GET", "POST"])
@_managers_only
def season_edit(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    season = _season(club.pk, pk)
    form = SeasonForm(request.POST or None, initial=SeasonForm.initial_for(season))
    if request.method == "POST" and form.is_valid():
        try:
            seasons.update_season(season, actor=request.user, **form.cleaned_data)
        except DomainError as exc:
            add_to_form(form, exc)
        else:
            messages.success(request, _("Season saved."))
            return redirect("seasons:season", club=club.pk, pk=season.pk)
    status = 400 if request.method == "POST" else 200
    return render(request, "seasons/season_form.html", {"form": form, "club": club, "season": season},
                  status=status)


@require_http_methods(["GET", "POST"])
@_managers_only
def evening_new(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    """First click (the season page's button): what will be created, the date changeable.
    Second click (confirm): the evening, its players registered."""
    season = _season(club.pk, pk)
    plan = seasons.evening_plan(season)
    form = EveningForm(request.POST or None, initial={"date": plan.date, "number": plan.number})
    if request.method == "POST" and form.is_valid():
        try:
            evening = seasons.new_evening(season, actor=request.user, date=form.cleaned_data["date"],
                                          number=form.cleaned_data["number"])
        except ConflictError as exc:  # the same confirmation tapped twice: the evening exists
            messages.info(request, exc.message)
            return redirect("seasons:season", club=club.pk, pk=season.pk)
        except DomainError as exc:
            add_to_form(form, exc)
        else:
            messages.success(request, _("%(name)s created with %(n)s players registered.")
                             % {"name": evening.name, "n": evening.registrations.count()})
            return redirect("tournaments:manage", slug=evening.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "seasons/season_evening.html",
                  {"form": form, "club": club, "season": season, "plan": plan}, status=status)


def _tournament(request: HttpRequest) -> Tournament:
    value = request.POST.get("tournament", "")
    tournament = Tournament.objects.filter(pk=int(value)).first() if value.isdigit() and len(value) <= 12 else None
    if tournament is None:
        raise DomainError(_("Choose a tournament."), field="tournament", rule="REQUIRED")
    return tournament


@require_POST
def evening_attach(request: HttpRequest, club: int, pk: int) -> HttpResponse:
    """An existing tournament of the club becomes an evening of the season."""
    season = _season(club, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("seasons:season", args=[club, pk]))
    try:
        tournament = _tournament(request)
        if seasons.attach_evening(season, tournament, actor=request.user):
            messages.success(request, _("%(name)s is now an evening of the season.") % {"name": tournament.name})
    except DomainError as exc:
        refuse(request, exc)
    return redirect("seasons:season", club=club, pk=pk)


@require_POST
def evening_detach(request: HttpRequest, club: int, pk: int) -> HttpResponse:
    """An evening leaves the season (it stays a tournament of the club, with its results)."""
    season = _season(club, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("seasons:season", args=[club, pk]))
    try:
        tournament = _tournament(request)
        seasons.detach_evening(season, tournament, actor=request.user)
        messages.success(request, _("%(name)s is no longer an evening of the season.") % {"name": tournament.name})
    except DomainError as exc:
        refuse(request, exc)
    return redirect("seasons:season", club=club, pk=pk)
