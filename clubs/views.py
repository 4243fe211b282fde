"""Club pages: public (members by name, events past and upcoming) and, for a federation admin,
setting up clubs and appointing or removing their admins (``clubs.federation``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.errors import DomainError
from common.refusals import add_to_form, refuse
from tournaments import clubs, selectors
from tournaments.forms import ClubAdminForm, ClubSetupForm
from tournaments.models import Club, ClubRole, Tournament
from tournaments.names import by_name

from . import federation


def _password_hint(request: HttpRequest, setup: federation.ClubSetup) -> None:
    if not setup.user.has_usable_password():
        messages.warning(request, _(
            "%(user)s has no password yet: give them this link to choose one (it works once): %(url)s") % {
            "user": setup.user.get_username(),
            "url": request.build_absolute_uri(federation.set_password_path(setup.user))})


@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    rows = Club.objects.annotate(
        members=Count("players", distinct=True),
        events=Count("tournaments", filter=~Q(tournaments__status="draft"), distinct=True),
    )
    return render(request, "clubs/clubs.html", {
        "clubs": rows, "federation": clubs.is_federation_admin(request.user),
        "mine": (Club.objects.filter(roles__user=request.user).distinct()  # the clubs they admin
                 if request.user.is_authenticated else []),
    })


@require_GET
def club_detail(request: HttpRequest, pk: int) -> HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    events = selectors.visible_tournaments(request.user).filter(club=club)
    today = timezone.localdate()
    federation = clubs.is_federation_admin(request.user)
    return render(request, "clubs/club.html", {
        "club": club,
        "members": by_name(club.players.all()),
        # a concluded event is past even on its own day (a season's evening ends before midnight)
        "upcoming": events.filter(date__gte=today).exclude(status=Tournament.Status.FINISHED).order_by("date", "name"),
        "past": events.filter(Q(date__lt=today) | Q(status=Tournament.Status.FINISHED)).order_by("-date", "name"),
        "federation": federation,
        "is_admin": clubs.is_club_admin(request.user, club),
        "seasons": club.seasons.order_by("-year", "-pk"),
        "season_manager": clubs.may_manage_seasons(request.user, club),
        "admins": club.roles.select_related("user") if federation else [],
        "form": ClubAdminForm(),
    })


def _federation_only(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not clubs.is_federation_admin(request.user):
        raise PermissionDenied(_("Only a federation admin may do this."))
    return None


@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    refused = _federation_only(request)
    if refused is not None:
        return refused
    form = ClubSetupForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                setup = federation.set_up_club(actor=request.user, name=data["name"],
                                          admin_username=data["admin"], city=data["city"],
                                          region=data["region"])
            except DomainError as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, _("%(user)s is an admin of %(club)s.") % {
                    "user": setup.user.get_username(), "club": setup.club.name})
                _password_hint(request, setup)
                return redirect("clubs:detail", pk=setup.club.pk)
        return render(request, "clubs/club_form.html", {"form": form}, status=400)
    return render(request, "clubs/club_form.html", {"form": form})


@require_POST
def club_admin_add(request: HttpRequest, pk: int) -> HttpResponse:
    refused = _federation_only(request)
    if refused is not None:
        return refused
    club = get_object_or_404(Club, pk=pk)
    form = ClubAdminForm(request.POST)
    if form.is_valid():
        try:
            setup = federation.set_up_club(actor=request.user, name=club.name,
                                      admin_username=form.cleaned_data["admin"])
        except DomainError as exc:
            refuse(request, exc)
        else:
            messages.success(request, _("%(user)s is an admin of %(club)s.") % {
                "user": setup.user.get_username(), "club": club.name})
            _password_hint(request, setup)
    else:
        messages.error(request, _("Name the club's admin (a username)."))
    return redirect("clubs:detail", pk=club.pk)


@require_POST
def club_admin_remove(request: HttpRequest, pk: int, role: int) -> HttpResponse:
    refused = _federation_only(request)
    if refused is not None:
        return refused
    club_role = get_object_or_404(ClubRole, pk=role, club_id=pk)
    federation.remove_admin(club_role, actor=request.user)
    messages.success(request, _("%(user)s is no longer an admin of %(club)s.") % {
        "user": club_role.user.get_username(), "club": club_role.club.name})
    return redirect("clubs:detail", pk=pk)
