"""Who may do what within a tournament. Every write in every app asks these functions.

"May organise this tournament" is one check, :func:`is_organizer`; pages (``staff_required``),
the API (``TournamentObjectPermission``), templates (``organizer_of``) and services
(:func:`require_organizer`) all ask it:

- organizer: owns the tournament (or was added as co-organizer); may do everything in it;
- club admin: an organizer of every tournament whose organising club (``Tournament.club``) is
  their club (``clubs.is_club_admin``), through this same check: there is no second list;
- a superuser: an organizer of every tournament (a federation admin is not: ``clubs``);
- referee: records and enters results within *their* tournaments only (organizers may too);
- a referee's private link: a referee of that one tournament, never an organizer;
- anyone else (players, anonymous): reads public pages; players act through private links.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.permissions import SAFE_METHODS, BasePermission

from common.errors import PermissionDeniedError

from .clubs import is_club_admin
from .models import ClubRole, Tournament, TournamentRole


def _role(user: Any, tournament: Tournament) -> str | None:
    if not getattr(user, "is_authenticated", False):
        return None
    scope = getattr(user, "link_tournament_id", None)  # a referee's private link (access.py)
    if scope is not None:
        if scope != tournament.pk:
            return None
        role = (TournamentRole.objects.filter(tournament=tournament, user=user)
                .values_list("role", flat=True).first())
        return TournamentRole.Role.REFEREE if role else None
    if user.is_superuser:
        return TournamentRole.Role.ORGANIZER
    cache = getattr(user, "_tournament_roles", None)
    if cache is None:
        cache = user._tournament_roles = {}
    if tournament.pk not in cache:
        role = (
            TournamentRole.objects.filter(tournament=tournament, user=user)
            .values_list("role", flat=True)
            .first()
        )
        if (role != TournamentRole.Role.ORGANIZER and tournament.club_id is not None
                and is_club_admin(user, tournament.club_id)):
            role = TournamentRole.Role.ORGANIZER  # the organising club's admin
        cache[tournament.pk] = role
    return cache[tournament.pk]


def is_organizer(user: Any, tournament: Tournament) -> bool:
    """May ``user`` organise ``tournament``: the one check (see the module docstring)."""
    return _role(user, tournament) == TournamentRole.Role.ORGANIZER


def is_referee(user: Any, tournament: Tournament) -> bool:
    """Referees and organizers may both act as referee."""
    return _role(user, tournament) in (TournamentRole.Role.ORGANIZER, TournamentRole.Role.REFEREE)


def organises_any(user: Any) -> bool:
    """May ``user`` organise some tournament (an organizer somewhere, or a club's admin)?"""
    if not getattr(user, "is_authenticated", False) or getattr(user, "link_tournament_id", None) is not None:
        return False
    return bool(user.is_superuser or TournamentRole.objects.filter(user=user, role=TournamentRole.Role.ORGANIZER).exists()
                or ClubRole.objects.filter(user=user, role=ClubRole.Role.ADMIN).exists())


def has_role(user: Any, tournament: Tournament, role: str) -> bool:
    """``role`` "organizer" (:func:`is_organizer`) or "referee" (:func:`is_referee`)."""
    return is_organizer(user, tournament) if role == "organizer" else is_referee(user, tournament)


def require_organizer(actor: Any, tournament: Tournament, message: Any = None) -> None:
    """A service's refusal when ``actor`` may not organise ``tournament`` (HTTP 403, rule ROLE);
    ``message`` (a lazy translation) says what was refused."""
    if not is_organizer(actor, tournament):
        raise PermissionDeniedError(str(message or _("Only an organizer of this tournament may do this.")),
                                    rule="ROLE")


def require_referee(actor: Any, tournament: Tournament) -> None:
    if not is_referee(actor, tournament):
        raise PermissionDeniedError(
            _("Only a referee or an organizer of this tournament may do this."), rule="ROLE"
        )


class TournamentScoped:
    """API views routed under ``tournaments/<slug>/``: ``get_tournament`` (asked by
    TournamentObjectPermission and by the view itself) loads the tournament once per request."""

    kwargs: dict[str, Any]
    _tournament: Tournament | None = None

    def get_tournament(self) -> Tournament:
        if self._tournament is None:
            self._tournament = get_object_or_404(Tournament, slug=self.kwargs["slug"])
        return self._tournament


class TournamentObjectPermission(BasePermission):
    """DRF: reads are public; writes need the view's ``required_role`` on the tournament
    returned by ``view.get_tournament()``."""

    def has_permission(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if not request.user or not request.user.is_authenticated:
            return False
        tournament = view.get_tournament() if hasattr(view, "get_tournament") else None
        if tournament is None:
            return True  # e.g. creating a tournament: any signed-in user becomes its organizer
        role = getattr(view, "required_role", "organizer")
        if has_role(request.user, tournament, role):
            return True
        self.message = refusal(request.user, tournament, role)
        return False


def refusal(user: Any, tournament: Tournament, role: str) -> dict[str, Any]:
    """Why a signed-in user may not write here: the role needed, and the role they have (in this
    tournament or elsewhere), so an outside client knows what to fix."""
    from .models import TournamentRole

    mine = TournamentRole.objects.filter(user=user, tournament=tournament).values_list("role", flat=True).first()
    elsewhere = list(TournamentRole.objects.filter(user=user).exclude(tournament=tournament)
                     .values_list("tournament__slug", flat=True)[:5])
    needed = _("an organizer") if role == "organizer" else _("a referee or an organizer")
    if mine:
        text = _("You are %(mine)s of “%(name)s”; this needs %(needed)s of it.") % {
            "mine": _("a referee") if mine == "referee" else _("an organizer"), "name": tournament.name,
            "needed": needed}
    elif elsewhere:
        text = _("You are staff of another tournament (%(others)s), not of “%(name)s”: only %(needed)s of "
                 "this tournament may do this.") % {"others": ", ".join(elsewhere), "name": tournament.name,
                                                     "needed": needed}
    else:
        text = _("You have no role in “%(name)s”: only %(needed)s of this tournament may do this.") % {
            "name": tournament.name, "needed": needed}
    return {"detail": text, "rule": "ROLE", "tournament": tournament.slug, "required_role": role,
            "your_role": mine or ""}


def staff_required(role: str) -> Callable[..., Any]:
    """Page decorator for ``view(request, tournament, ...)`` routed as ``<slug>``: anonymous →
    login page; signed in without ``role`` ("organizer" or "referee") → 403 page (a service's
    PermissionDeniedError too: ``common.refusals``)."""
    # translated per request (in the user's language), not once at import
    if role == "organizer":
        refusal = gettext_lazy("Only an organizer of this tournament can do this.")
    else:
        refusal = gettext_lazy("Only a referee or an organizer of this tournament may do this.")

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            tournament = get_object_or_404(Tournament, slug=slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not has_role(request.user, tournament, role):
                raise PermissionDeniedError(str(refusal), rule="ROLE")
            return view(request, tournament, *args, **kwargs)  # refusals: common.refusals

        return wrapper

    return decorator
