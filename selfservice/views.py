"""Pages of the self-service app. Players: the door's check-in page (its QR code), check in, skip a
game, withdraw, call the referee from their table. Staff: the open calls (polled), the check-in
windows and hidden standings, the warnings and penalties log. Thin: services do the work."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.errors import DomainError, PermissionDeniedError
from common.htmx import refusal_from
from common.refusals import add_to_form, refuse
from tables import selectors as table_selectors
from tables.views import qr_svg
from tournaments.access import linked_player
from tournaments.models import Registration, Tournament
from tournaments.permissions import staff_required

from . import calls, hidden, sanctions, selectors, services
from .forms import SanctionForm, WindowForm
from .models import CheckInWindow, RefereeCall, Sanction


def _home(slug: str) -> str:
    return reverse("tables:player_home", args=[slug])


def _back(request: HttpRequest, default: str) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(default)


def _mine(request: HttpRequest, slug: str) -> tuple[Tournament, Any, Registration | None]:
    tournament = get_object_or_404(Tournament, slug=slug)
    player = linked_player(request, tournament)
    registration = (Registration.objects.filter(tournament=tournament, player=player).first()
                    if player is not None else None)
    return tournament, player, registration


@require_GET
def door(request: HttpRequest, slug: str) -> HttpResponse:
    """The page of the QR code at the door: check in with the personal link this phone holds."""
    tournament, player, _registration = _mine(request, slug)
    panel = selectors.player_panel(tournament, player) if player is not None else None
    response = render(request, "selfservice/door.html", {"tournament": tournament, "me": player, "panel": panel})
    add_never_cache_headers(response)
    return response


def _player_action(request: HttpRequest, slug: str, action: Any, done: str) -> HttpResponse:
    tournament, player, registration = _mine(request, slug)
    try:
        if registration is None:  # nobody's phone: a refusal page, not a message
            raise PermissionDeniedError(_("Open your personal link on this phone first."), rule="LINK")
        action(registration, player)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, done)
    return _back(request, _home(slug))


@require_POST
def check_in(request: HttpRequest, slug: str) -> HttpResponse:
    game = request.POST.get("game_number", "")
    return _player_action(request, slug, lambda reg, me: services.check_in_self(reg, game, player=me),
                          _("You are checked in for game %(n)s.") % {"n": game})


@require_POST
def skip(request: HttpRequest, slug: str) -> HttpResponse:
    game = request.POST.get("game_number", "")
    if request.POST.get("action") == "play":
        return _player_action(request, slug, lambda reg, me: services.play_after_all(reg, game, player=me),
                              _("You play game %(n)s after all: check in when the check-in opens.") % {"n": game})
    return _player_action(request, slug, lambda reg, me: services.skip_game(reg, game, player=me),
                          _("You skip game %(n)s: you will not be seated in it.") % {"n": game})


@require_http_methods(["GET", "POST"])
def withdraw(request: HttpRequest, slug: str) -> HttpResponse:
    """"I withdraw": a page that asks once more, then the tournament's own withdrawal."""
    tournament, player, registration = _mine(request, slug)
    if request.method == "POST":
        reason = request.POST.get("reason", "")[:200]
        return _player_action(request, slug,
                              lambda reg, me: services.withdraw_self(reg, player=me, reason=reason),
                              _("You have withdrawn from the tournament. Thank you for playing!"))
    response = render(request, "selfservice/withdraw.html", {"tournament": tournament, "me": player,
                                                             "registration": registration})
    add_never_cache_headers(response)
    return response


@require_http_methods(["GET", "POST"])
def call_referee(request: HttpRequest, slug: str, number: int, table: int) -> HttpResponse:
    """The table's call button (GET: the fragment the table's page loads, never cached: the public
    page itself carries no form token and stays shared), and the call itself (POST)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    game = table_selectors.game_of(tournament, number)
    found = table_selectors.table_of(game, table) if game is not None else None
    if found is None:
        raise Http404
    htmx = getattr(request, "htmx", False)
    if request.method == "POST":
        try:
            calls.call_referee(found, player=linked_player(request, tournament), user=request.user)
        except DomainError as exc:
            if htmx:
                return refusal_from(request, exc)
            refuse(request, exc)
        else:
            if not htmx:
                messages.success(request, _("The referee is called to table %(t)s: stay at the table.") % {"t": table})
        if not htmx:
            return _back(request, reverse("tables:table", args=[slug, number, table]))
    response = render(request, "selfservice/_call_button.html", {
        "tournament": tournament, "table": found, "call": selectors.open_call_of(found.pk),
        "over": found.game.status == "finished"})
    add_never_cache_headers(response)
    return response


@require_GET
@staff_required("referee")
def open_calls(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The calls for the referee, oldest first (the fragment polls itself: ``_calls.html``)."""
    return _calls_answer(request, tournament)


def _calls_answer(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = {"tournament": tournament, "calls": selectors.open_calls(tournament),
               "recent": selectors.recent_calls(tournament)}
    template = "selfservice/_calls.html" if getattr(request, "htmx", False) else "selfservice/calls.html"
    response = render(request, template, context)
    add_never_cache_headers(response)
    return response


@require_POST
@staff_required("referee")
def take_call(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    call = get_object_or_404(RefereeCall.objects.select_related("table__game"), pk=pk, tournament=tournament)
    htmx = getattr(request, "htmx", False)
    try:
        calls.take_call(call, actor=request.user)
    except DomainError as exc:
        if htmx:
            return refusal_from(request, exc)
        refuse(request, exc)
    else:
        if htmx:  # the list, without the call: the page stays where it is
            return _calls_answer(request, tournament)
        messages.success(request, _("Call taken: table %(t)s, game %(n)s.")
                         % {"t": call.table.number, "n": call.table.game.number})
    return _back(request, reverse("selfservice:calls", args=[tournament.slug]))


def _settings_context(tournament: Tournament, request: HttpRequest, form: WindowForm | None = None) -> dict[str, Any]:
    door_path = reverse("selfservice:door", args=[tournament.slug])
    return {"tournament": tournament, "windows": selectors.windows(tournament),
            "form": form or WindowForm(games=tournament.games_count),
            "hidden_from": hidden.hidden_from(tournament), "games": range(2, tournament.games_count + 1),
            "door_url": request.build_absolute_uri(door_path), "door_qr": qr_svg(request, door_path)}


@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def settings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """When players may check themselves in (per game), the door's QR code, hidden standings."""
    form = None
    status = 200
    if request.method == "POST":
        form = WindowForm(request.POST, games=tournament.games_count)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.set_window(tournament, data["game_number"], data["opens_at"], data["closes_at"],
                                    actor=request.user)
            except DomainError as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, _("Self check-in for game %(n)s saved.") % {"n": data["game_number"]})
                return redirect("selfservice:settings", slug=tournament.slug)
        status = 400
    return render(request, "selfservice/settings.html", _settings_context(tournament, request, form), status=status)


@require_POST
@staff_required("organizer")
def window_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    window = get_object_or_404(CheckInWindow, pk=pk, tournament=tournament)
    try:
        services.delete_window(window, actor=request.user)
    except DomainError as exc:
        refuse(request, exc)
    return redirect("selfservice:settings", slug=tournament.slug)


@require_POST
@staff_required("organizer")
def standings_visibility(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    try:
        if request.POST.get("action") == "show":
            hidden.show_standings(tournament, actor=request.user)
            messages.success(request, _("The standings are public again, every game counted."))
        else:
            hidden.hide_standings(tournament, request.POST.get("from_game", ""), actor=request.user)
            messages.success(request, _("Standings hidden: the public sees those before game %(n)s.")
                             % {"n": request.POST.get("from_game", "")})
    except DomainError as exc:
        refuse(request, exc)
    return redirect(reverse("selfservice:settings", args=[tournament.slug]) + "#hidden-standings")


def _sanction_form(tournament: Tournament, data: Any = None) -> SanctionForm:
    players = [(p.pk, p.display_name) for p in selectors.tournament_players(tournament)]
    return SanctionForm(data, players=players, games=tournament.games_count)


@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def sanctions_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The warnings and penalties log: who, when, why, which game; newest first."""
    form = _sanction_form(tournament, request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                sanctions.record_sanction(tournament, actor=request.user, player=data["player"], kind=data["kind"],
                                          reason=data["reason"], game_number=data["game_number"])
            except DomainError as exc:
                add_to_form(form, exc)
            else:
                messages.success(request, _("Recorded in the log."))
                return redirect("selfservice:sanctions", slug=tournament.slug)
        status = 400
    return render(request, "selfservice/sanctions.html", {
        "tournament": tournament, "form": form, "sanctions": selectors.sanctions(tournament),
    }, status=status)


@require_POST
@staff_required("organizer")
def sanction_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    sanction = get_object_or_404(Sanction, pk=pk, tournament=tournament)
    try:
        sanctions.delete_sanction(sanction, actor=request.user)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, _("Removed from the log (the audit log keeps it)."))
    return redirect("selfservice:sanctions", slug=tournament.slug)
