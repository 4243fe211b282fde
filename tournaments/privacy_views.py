"""Organizer page of one registered player's personal data (GDPR arts. 15, 17, 20): download
everything stored about them (JSON) or erase it, their results kept under an anonymised name.
Thin: ``tournaments.privacy`` decides who may (staff, or an organizer of EVERY tournament the
player took part in) and audits both."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common.errors import DomainError

from . import privacy
from .models import Registration, Tournament
from .permissions import staff_required


@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def player_data(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    reg = get_object_or_404(Registration.objects.select_related("player__club"), tournament=tournament,
                            player_id=pk)
    player = reg.player
    error: DomainError | None = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            if action == "export":
                doc = privacy.export_player(player, actor=request.user)
                response = HttpResponse(json.dumps(doc, indent=2, ensure_ascii=False),
                                        content_type="application/json; charset=utf-8")
                response["Content-Disposition"] = f'attachment; filename="player-{player.pk}-data.json"'
                return response
            if action == "erase":
                if request.POST.get("confirm") != "yes":
                    raise DomainError(_("Tick the box to confirm the erasure."), field="confirm",
                                      rule="PRIVACY")
                erased = privacy.erase_player(player, actor=request.user)
                messages.success(request, _("Personal data erased; the results stay under “%(name)s”.")
                                 % {"name": erased.full_name})
                return redirect("tournaments:registrations", slug=tournament.slug)
            raise DomainError(_("Unknown action."), field="action")
        except DomainError as exc:  # PermissionDeniedError too: shown here, with the reason
            error = exc
    return render(request, "tournaments/player_data.html", {
        "tournament": tournament, "player": player,
        "anonymised": " ".join(privacy.anonymised_name(player)),
        "blocking": privacy.blocking_tournaments(request.user, player),
        "error": error, "confirm_typed": request.POST.get("confirm") == "yes",
    }, status=error.status_code if error else 200)


__all__ = ["player_data"]
