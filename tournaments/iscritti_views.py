"""Organizer pages of a club's switch-over: import the desktop tool's "Iscritti" sheet (.xls or
.xlsx), see the probable duplicates, and merge two records of the same person (the organizer
picks who stays; never automatic). Thin: ``tournaments.iscritti`` and ``tournaments.merge`` do
the work."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from common.errors import DomainError
from common.refusals import add_to_form, refuse

from . import merge
from .iscritti import import_iscritti
from .models import Player, Registration, Tournament
from .services import CsvImportError
from .spreadsheets import LIMITS
from .views import staff_required

MAX_UPLOAD = LIMITS.upload_bytes


class IscrittiForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Registration sheet (.xls or .xlsx)"),
        help_text=gettext_lazy("The desktop tool's workbook: its “Iscritti” sheet (ID, Nome, Cognome, Nick, "
                               "Club, Partecipa, Regione, Data di nascita, e-mail). Rows with Partecipa = NO "
                               "are skipped; a file with bad rows imports nothing and lists every one of them."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if not upload.name.lower().endswith((".xls", ".xlsx")):
            raise forms.ValidationError(_("Choose an .xls or .xlsx file."))
        if upload.size > MAX_UPLOAD:
            raise forms.ValidationError(_("The file is larger than %(mb)s MB.") % {"mb": MAX_UPLOAD // (1024 * 1024)})
        return upload


def report_rows(report: Any, actor: Any = None) -> list[dict[str, Any]]:
    """The import's probable duplicates, with the players they may be (among those ``actor``
    manages: another organizer's records are not compared here)."""
    from .privacy import manages_player

    people = {pk: p for pk, p in Player.objects.select_related("club").in_bulk(
        [d.player_id for _row, _p, found in report.duplicates for d in found]).items()
        if actor is None or manages_player(actor, p)}
    return [{"row": row, "player": player,
             "candidates": [{"player": people[d.player_id], "distance": d.distance, "same": d.same}
                            for d in found if d.player_id in people]}
            for row, player, found in report.duplicates]


@staff_required("organizer")
@require_http_methods(["GET", "POST"])
def iscritti_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = IscrittiForm()
    report, status = None, 200
    if request.method == "POST":
        form = IscrittiForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                report = import_iscritti(tournament, upload.read(), upload.name, actor=request.user)
            except CsvImportError as exc:
                for problem in exc.problems:
                    where = (_("Row %(line)s (%(column)s)") % {"line": problem.line, "column": problem.column}
                             if problem.column else _("Row %(line)s") % {"line": problem.line})
                    form.add_error("file", f"{where}: {problem.message}")
                form.add_error("file", _("Nothing was imported."))
            except DomainError as exc:
                add_to_form(form, exc)
        if report is None:
            status = 400
    return render(request, "tournaments/iscritti.html", {
        "tournament": tournament, "form": form, "report": report,
        "duplicates": report_rows(report, request.user) if report else [],
    }, status=status)


@staff_required("organizer")
@require_http_methods(["GET"])
def duplicates(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(request, "tournaments/duplicates.html", {
        "tournament": tournament, "flagged": merge.flagged(tournament, request.user),
    })


@staff_required("organizer")
@require_http_methods(["GET", "POST"])
def merge_player(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Compare a registered player with their probable duplicates; the organizer picks who stays."""
    reg = get_object_or_404(Registration.objects.select_related("player__club"), tournament=tournament, player_id=pk)
    status, chosen = 200, {"other": request.POST.get("other", ""), "keep": request.POST.get("keep", "")}
    if request.method == "POST":
        try:
            other = int(chosen["other"]) if chosen["other"].isdigit() else 0
            if not other or chosen["keep"] not in ("this", "other"):
                raise DomainError(_("Choose the other record and which player stays."), field="keep",
                                  rule="IDENTITY")
            keep, drop = (pk, other) if chosen["keep"] == "this" else (other, pk)
            kept = merge.merge_players(tournament, keep=keep, drop=drop, actor=request.user)
        except DomainError as exc:
            refuse(request, exc)
            status = exc.status_code
        else:
            messages.success(request, _("Merged: %(name)s stays.") % {"name": kept.full_name})
            return redirect("tournaments:duplicates", slug=tournament.slug)
    return render(request, "tournaments/merge.html", {
        "tournament": tournament, "player": reg.player, "registration": reg,
        "candidates": merge.duplicates_of(reg.player, request.user),
        "chosen": chosen,
    }, status=status)
