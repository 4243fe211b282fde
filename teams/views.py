"""Team event pages: the teams and their rosters (organizers enter teams and players), a team's
page, the live team standings, and the captain's page where the captain names the starters of
the next game from a phone (through the captain's private link). Writes go through
``teams.services``; a refusal comes back as a message on the page (``common.refusals``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common import live
from common.errors import DomainError
from common.refusals import refuse
from tables.models import Game
from tournaments.models import Club, Registration, Tournament
from tournaments.permissions import is_organizer

from . import selectors, services
from .models import Team


def _tournament(slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not selectors.mode(tournament):
        raise Http404(_("This tournament is not a team event."))
    return tournament


def _free_players(tournament: Tournament) -> list[Any]:
    """Registered players on no team yet (whom an organizer may add)."""
    taken = set(selectors.member_team_ids(tournament))
    regs = Registration.objects.active().filter(tournament=tournament).select_related("player__club")
    return sorted((r.player for r in regs if r.player_id not in taken),
                  key=lambda p: (p.last_name.casefold(), p.first_name.casefold()))


@require_GET
def teams_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    organizer = is_organizer(request.user, tournament)
    return render(request, "teams/teams.html", {
        "tournament": tournament, "teams": selectors.teams(tournament), "organizer": organizer,
        "roster": selectors.mode(tournament) == selectors.ROSTER,
        "clubs": Club.objects.order_by("name") if organizer else [],
    })


@require_POST
def team_create(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    club = Club.objects.filter(pk=request.POST.get("club") or 0).first()
    try:
        team = services.create_team(tournament, actor=request.user, name=request.POST.get("name", ""), club=club)
    except DomainError as exc:
        refuse(request, exc)
        return redirect("teams:list", slug=slug)
    messages.success(request, _("Team %(name)s entered: now add its players.") % {"name": team.name})
    return redirect("teams:team", slug=slug, pk=team.pk)


@live.public
@require_GET
def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    ctx = {"tournament": tournament, "s": selectors.standings(tournament)}
    if getattr(request, "htmx", False):
        return render(request, "teams/_standings_table.html", ctx)
    return render(request, "teams/standings.html", ctx)


def _games(tournament: Tournament) -> list[int]:
    return list(range(1, tournament.games_count + 1))


def _next_game(tournament: Tournament) -> int:
    """The first game whose tables are not yet drawn (the one a captain names starters for)."""
    drawn = set(Game.objects.filter(tournament=tournament, tables__isnull=False).values_list("number", flat=True))
    return next((n for n in _games(tournament) if n not in drawn), tournament.games_count)


@require_GET
def team_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(slug)
    view = selectors.team(tournament, pk)
    if view is None:
        raise Http404(_("No such team."))
    organizer = is_organizer(request.user, tournament)
    row = next((r for r in selectors.standings(tournament)["rows"] if r["team"]["id"] == pk), None)
    starters = selectors.starters_by_game(view.row) if view.row else {}
    return render(request, "teams/team.html", {
        "tournament": tournament, "team": view, "row": row, "organizer": organizer,
        "starters": [(n, starters.get(n, [])) for n in _games(tournament)],
        "free": _free_players(tournament) if organizer and view.row else [],
        "captain_url": request.build_absolute_uri(reverse("teams:captain", args=[slug, pk, view.row.captain_token]))
        if organizer and view.row else "",
    })


@require_POST
def team_change(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """The organizer's roster actions: add, remove, captain, a new captain's link."""
    tournament = _tournament(slug)
    team = get_object_or_404(Team, tournament=tournament, pk=pk)
    action, player = request.POST.get("action"), _int(request.POST.get("player"))
    try:
        if action == "add" and player:
            services.add_member(team, player, actor=request.user)
        elif action == "remove" and player:
            services.remove_member(team, player, actor=request.user)
        elif action == "captain" and player:
            services.change_team(team, actor=request.user, captain=player)
        elif action == "link":
            services.new_captain_link(team, actor=request.user)
        else:
            raise DomainError(_("Choose a player."), field="player", rule="K-TEAM")
    except DomainError as exc:
        refuse(request, exc)
    return redirect("teams:team", slug=slug, pk=pk)


def _int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@require_http_methods(["GET", "POST"])
def captain_page(request: HttpRequest, slug: str, pk: int, token: str) -> HttpResponse:
    """The captain's page (their private link): tick 4 players for the next game."""
    tournament = _tournament(slug)
    team = get_object_or_404(Team, tournament=tournament, pk=pk)
    if not services.may_name_starters(None, team, token):
        raise Http404(_("This captain's link is not valid any more: ask the organizer for the new one."))
    return _starters_form(request, tournament, team, token)


@require_POST
def starters_by_organizer(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(slug)
    team = get_object_or_404(Team, tournament=tournament, pk=pk)
    return _starters_form(request, tournament, team, None)


def _starters_form(request: HttpRequest, tournament: Tournament, team: Team, token: str | None) -> HttpResponse:
    game = _int(request.POST.get("game") or request.GET.get("game")) or _next_game(tournament)
    chosen = [p for p in (_int(x) for x in request.POST.getlist("players")) if p]
    error = None
    if request.method == "POST":
        try:
            services.set_starters(team, game, chosen, actor=request.user, token=token)
        except DomainError as exc:
            error = exc
        else:
            messages.success(request, _("Starters of game %(n)s saved.") % {"n": game})
            if token is None:
                return redirect("teams:team", slug=tournament.slug, pk=team.pk)
            return redirect(f"{request.path}?game={game}")
    view = selectors.team(tournament, team.pk)
    assert view is not None
    named = chosen if error is not None else selectors.starters(team, game)
    return render(request, "teams/captain.html", {
        "tournament": tournament, "team": view, "game": game, "games": _games(tournament),
        "named": set(named), "error": error, "token": token,
    }, status=400 if error is not None else 200)
