"""The season's final-phase page (public: who qualified and why, the tables, the final ranking)
and its actions for the club's admins and federation admins: create the final phase (the
button, then the confirmation with the qualifiers and the date), mark a qualifier absent, draw
the semifinals, draw the final. Writes go through ``seasons.finals.services``."""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from common.errors import ConflictError, DomainError
from common.refusals import add_to_form, refuse
from tournaments.dates import DateField
from tournaments.models import Season

from .. import evenings as club_seasons
from ..models import SeasonFinals
from . import selectors, services


class PhaseForm(forms.Form):
    date = DateField(label=gettext_lazy("Date of the final phase"))


def _season(club: int, pk: int) -> Season:
    return get_object_or_404(Season.objects.select_related("club"), pk=pk, club_id=club)


def _page(request: HttpRequest, season: Season, form: PhaseForm | None = None, status: int = 200) -> HttpResponse:
    data = selectors.overview(season)
    if data is None:
        raise Http404(_("This season has no final phase."))
    manager = request.user.is_authenticated and club_seasons.may_manage(request.user, season.club)
    if manager and form is None and data["step"] == "create":
        form = PhaseForm(initial={"date": club_seasons.next_date(season, timezone.localdate())})
    return render(request, "seasons/finals.html", {"club": season.club, "season": season, "f": data,
                                                   "manager": manager, "form": form}, status=status)


@require_GET
def finals_page(request: HttpRequest, club: int, pk: int) -> HttpResponse:
    return _page(request, _season(club, pk))


@require_POST
def phase_create(request: HttpRequest, club: int, pk: int) -> HttpResponse:
    """The confirmation of the page's form: the final-phase event and the consolation event."""
    season = _season(club, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    form = PhaseForm(request.POST)
    if form.is_valid():
        try:
            services.create_phase(season, actor=request.user, date=form.cleaned_data["date"])
        except ConflictError as exc:  # tapped twice: it exists
            messages.info(request, exc.message)
        except DomainError as exc:
            if not SeasonFinals.objects.filter(season=season).exists():  # no page to keep the form on
                refuse(request, exc)
                return redirect("seasons:season", club=club, pk=pk)
            add_to_form(form, exc)
            return _page(request, season, form, status=400)
        else:
            messages.success(request, _("The final phase is created: its players are registered."))
        return redirect("seasons:finals", club=club, pk=pk)
    return _page(request, season, form, status=400)


def _act(request: HttpRequest, club: int, pk: int, done: str, action: Callable[[Season], object]) -> HttpResponse:
    season = _season(club, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        action(season)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, done)
    return redirect("seasons:finals", club=club, pk=pk)


@require_POST
def absent(request: HttpRequest, club: int, pk: int) -> HttpResponse:
    value = request.POST.get("player", "")
    player = int(value) if value.isdigit() and len(value) <= 12 else 0
    return _act(request, club, pk, _("Marked absent: the next in line takes the place."),
                lambda s: services.mark_absent(s, player, actor=request.user))


@require_POST
def draw(request: HttpRequest, club: int, pk: int, phase: str) -> HttpResponse:
    action = {"semifinals": services.draw_semifinals, "final": services.draw_final}.get(phase)
    if action is None:
        raise Http404()
    done = _("Semifinal tables drawn.") if phase == "semifinals" else _("Final table drawn.")
    return _act(request, club, pk, done, lambda s: action(s, actor=request.user, seed=request.POST.get("seed")))
