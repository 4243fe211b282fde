"""The organizer's printable objective-card slips of a game (see ``tables.slips``) and the page a
player's personal link leads to: their table and seat first."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournaments.access import linked_player
from tournaments.models import Tournament
from tournaments.permissions import staff_required

from . import selectors, slips
from .models import Seat
from .views import _qr_of


@never_cache  # every player's private link, as QR codes
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
    from common.errors import DomainError
    from common.refusals import refuse

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
            if action == "shorten" and minutes.strip().isdigit() and len(minutes.strip()) < 6:
                minutes = "-" + minutes.strip()
            moved = gc.shift_game_clocks(game, actor=request.user, minutes=minutes,
                                         reason=reason)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, _("Clocks changed: %(n)s tables (%(s)s left as they were: not "
                                    "started, paused or expired).")
                         % {"n": moved.changed, "s": moved.skipped})
    return redirect(reverse("tables:organize", args=[tournament.slug, number]) + "#game-clocks")


CLOCK_SETTINGS = (  # (rule set parameter, label, rule id, lowest, highest)
    ("time_limit_minutes", gettext_lazy("Game time (minutes)"), "E-TIME", 10, 600),
    ("sdadata_first_threshold", gettext_lazy("Sdadata: first threshold"), "E-SDADATA", 2, 18),
    ("sdadata_threshold_step", gettext_lazy("Sdadata: threshold step per round"), "E-SDADATA", 0, 6),
    ("sdadata_max_threshold", gettext_lazy("Sdadata: highest threshold"), "E-SDADATA", 2, 18),
    ("sdadata_dice", gettext_lazy("Sdadata: dice rolled"), "E-SDADATA", 1, 3),
    ("sdadata_bar_conquests", gettext_lazy("Sdadata: no roll after conquering more than"), "E-BAR",
     0, 42),
)


@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def clock_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The clock and the sdadata closure of this tournament (rule set overrides), for clocks
    started after saving."""
    from common.errors import DomainError
    from common.refusals import refuse
    from engine import get_ruleset
    from tournaments import services as tournament_services

    current = tournament.event_format().rules()
    base = get_ruleset(tournament.event_format().ruleset)
    rows = [{"name": n, "label": label, "rule": rule, "low": low, "high": high,
             "value": request.POST.get(n, getattr(current, n)), "error": ""}
            for n, label, rule, low, high in CLOCK_SETTINGS]
    status = 200
    if request.method == "POST":
        overrides = dict(tournament.event_format().ruleset_overrides)
        for row in rows:
            try:
                value = int(str(row["value"]).strip()[:6])
            except ValueError:
                value = None
            if value is None or not row["low"] <= value <= row["high"]:
                row["error"] = _("Between %(low)s and %(high)s.") % {"low": row["low"],
                                                                    "high": row["high"]}
                continue
            if value == getattr(base, row["name"]):
                overrides.pop(row["name"], None)
            else:
                overrides[row["name"]] = value
        by_name = {r["name"]: r for r in rows}
        first, highest = by_name["sdadata_first_threshold"], by_name["sdadata_max_threshold"]
        if not (first["error"] or highest["error"]) and int(first["value"]) > int(highest["value"]):
            highest["error"] = _("The highest threshold cannot be below the first.")
        if not any(r["error"] for r in rows):
            if "time_limit_minutes" in request.POST:  # minutes typed here win over a test's seconds
                extra = dict(overrides.get("extra") or {})
                extra.pop("time_limit_seconds", None)
                if extra:
                    overrides["extra"] = extra
                else:
                    overrides.pop("extra", None)
            try:
                tournament_services.update_tournament(tournament, actor=request.user,
                                                      ruleset_overrides=overrides)
                tournament.event_format().rules()  # saved: read again, and checked
            except DomainError as exc:
                refuse(request, exc)
            else:
                messages.success(request, _("Clock and sdadata settings saved: they apply to "
                                            "clocks started from now on."))
                return redirect("tables:clock_settings", slug=tournament.slug)
        status = 400
    return render(request, "tables/clock_settings.html", {"tournament": tournament,
                                                          "rows": rows}, status=status)
