"""The organizer's "Publish" page on a hall laptop: send the tournament to the clubs' shared
instance (the same routine as ``manage.py publish_tournament``; docs/publishing.md). The token
is typed each time and never stored on the laptop; the instance's address is remembered."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from common.errors import DomainError
from tournaments import services
from tournaments.models import Club, Tournament
from tournaments.permissions import staff_required

from . import services as publishing
from .models import PublishState


class PublishForm(forms.Form):
    club = forms.CharField(label=gettext_lazy("Organising club"), max_length=120, required=False,
                           help_text=gettext_lazy("The club whose token publishes the event, as the shared instance "
                                                  "names it. A club not on this computer yet is added. It can be "
                                                  "changed until the event is first published."),
                           widget=forms.TextInput(attrs={"list": "club-names", "autocomplete": "organization"}))
    url = forms.CharField(label=gettext_lazy("Shared instance address"), max_length=300,
                          widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "url"}))
    token = forms.CharField(label=gettext_lazy("Club token"), max_length=200,
                            widget=forms.PasswordInput(render_value=True, attrs={"autocomplete": "off"}))


@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def publish(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    state = PublishState.objects.filter(tournament=tournament).first()
    outcome: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        form = PublishForm(request.POST)
        if form.is_valid() and _club_named(request, tournament, form):
            retries: list[str] = []

            def retrying(attempt: int, attempts: int, reason: object, pause: float) -> None:
                retries.append(_("Attempt %(n)s of %(total)s failed (%(reason)s).")
                               % {"n": attempt, "total": attempts, "reason": reason})

            try:
                data = publishing.publish_to(tournament, form.cleaned_data["url"], form.cleaned_data["token"],
                                             attempts=3, backoff=1.0, timeout=30.0, on_retry=retrying)
            except publishing.Refused as exc:
                outcome = {"kind": "error", "text": str(exc)}
                status = 400
            else:
                text = {"created": _("Published: the tournament is now on the shared instance."),
                        "updated": _("Published: the copy on the shared instance is up to date."),
                        "unchanged": _("Nothing new: the shared instance already has this version.")}
                outcome = {"kind": "success", "text": text.get(str(data.get("status")), _("Published."))}
            outcome["retries"] = " ".join(retries)
            state = PublishState.objects.filter(tournament=tournament).first()
        else:
            status = 400
    else:
        form = PublishForm(initial={"url": state.last_target if state else "",
                                    "club": tournament.club.name if tournament.club else ""})
    context = {"tournament": tournament, "form": form, "outcome": outcome, "state": state,
               "clubs": Club.objects.order_by("name").values_list("name", flat=True)[:500]}
    template = "publishing/_publish_result.html" if request.headers.get("HX-Request") else "publishing/publish.html"
    return render(request, template, context, status=status if not request.headers.get("HX-Request") else 200)


def _club_named(request: HttpRequest, tournament: Tournament, form: PublishForm) -> bool:
    """The organising club typed on the page, named (or created) before publishing; a refusal
    is said next to the field and the form keeps everything typed."""
    typed = form.cleaned_data["club"].strip()
    if not typed and tournament.club is None:
        form.add_error("club", _("Name the organising club: the club whose token publishes the event."))
        return False
    if not typed:
        return True
    try:
        services.name_organising_club(tournament, typed, actor=request.user)
    except DomainError as exc:
        form.add_error("club", f"{exc.message} [{exc.rule}]" if exc.rule else exc.message)
        return False
    return True
