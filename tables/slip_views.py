"""The organizer's printable objective-card slips of a game (see ``tables.slips``)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.models import Tournament
from tournaments.permissions import staff_required

from . import selectors, slips
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
