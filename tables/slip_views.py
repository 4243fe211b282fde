"""The organizer's printable objective-card slips of a game (see ``tables.slips``) and the page a
player's personal link leads to: their table and seat first."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.access import linked_player
from tournaments.models import Tournament
from tournaments.permissions import staff_required

from . import selectors, slips
from .models import Seat
from .views import _qr_of


@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def game_slips(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    game = selectors.game_of(tournament, number)
    if game is None:
        raise Http404
    if request.method == "POST":
        made = slips.missing_links(game)
        slips.prepare_slips(game, actor=request.user)
        messages.success(request, _("Slips ready: %(n)s new personal links.") % {"n": made})
        return redirect("tables:slips", slug=tournament.slug, number=number)
    rows = []
    for slip in slips.slips(game):
        path = reverse("tournaments:link", args=[slip.link.token]) + f"?game={game.number}"
        url = request.build_absolute_uri(path)
        rows.append({"seat": slip.seat, "url": url, "qr": _qr_of(url)})
    return render(request, "tables/slips.html", {
        "tournament": tournament, "game": game, "rows": rows,
        "missing": slips.missing_links(game),
    })


def player_home(request: HttpRequest, slug: str) -> HttpResponse:
    """The browser's own player (personal link): where they sit, latest game first, with their
    objective card and their table's page one tap away. Private: never cached."""
    tournament = get_object_or_404(Tournament, slug=slug)
    player = linked_player(request, tournament)
    seats = list(
        Seat.objects.filter(game__tournament=tournament, player=player)
        .select_related("table", "game").order_by("-game__number")
    ) if player else []
    response = render(request, "tables/player_home.html", {
        "tournament": tournament, "me": player, "current": seats[0] if seats else None,
        "earlier": seats[1:],
    })
    add_never_cache_headers(response)
    return response


@require_http_methods(["POST"])
@staff_required("organizer")
def game_clocks(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Every clock of a game at once: later, earlier, or aligned (``tables.game_clocks``)."""
    from config.errors import DomainError

    from . import game_clocks as gc

    game = selectors.game_of(tournament, number)
    if game is None:
        raise Http404
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "")
    try:
        if action == "align":
            moved = gc.align_game_clocks(game, actor=request.user, reason=reason)
        else:
            minutes = request.POST.get("minutes", "")
            if action == "shorten" and minutes.strip().isdigit():
                minutes = "-" + minutes.strip()
            moved = gc.shift_game_clocks(game, actor=request.user, minutes=minutes,
                                         reason=reason)
    except DomainError as exc:
        messages.error(request, f"{exc.message} [{exc.rule}]" if exc.rule else exc.message)
    else:
        messages.success(request, _("Clocks changed: %(n)s tables (%(s)s left as they were: not "
                                    "started, paused or expired).")
                         % {"n": moved.changed, "s": moved.skipped})
    return redirect(reverse("tables:organize", args=[tournament.slug, number]) + "#game-clocks")
