"""Pages of invitations (organizers invite referees and co-organizers; whoever opens the link
accepts) and of the first organizer of a fresh install. Thin: the work is in ``invitations``."""

from __future__ import annotations

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import DomainError
from common.refusals import add_to_form

from . import invitations
from .forms import InvitationForm
from .models import Invitation, Tournament, TournamentRole
from .permissions import staff_required


class AccountForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150,
                               widget=forms.TextInput(attrs={"autocomplete": "username"}))
    password = forms.CharField(label=gettext_lazy("Password"), strip=False,
                               widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(label=gettext_lazy("Password again"), strip=False,
                                widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("password") and data.get("password") != data.get("password2"):
            self.add_error("password2", _("The two passwords differ."))
        return data


def invitation_url(request: HttpRequest, inv: Invitation) -> str:
    return request.build_absolute_uri(reverse("tournaments:invitation", args=[inv.token]))


def qr_inline(url: str) -> str:
    return mark_safe(segno.make(url, error="m").svg_inline(scale=3, dark="#000"))  # noqa: S308


@require_POST
@staff_required("organizer")
def invitation_create(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = InvitationForm(request.POST)
    if form.is_valid():
        try:
            inv = invitations.create_invitation(tournament, form.cleaned_data["role"],
                                                actor=request.user,
                                                email=form.cleaned_data["email"],
                                                note=form.cleaned_data["note"])
        except DomainError as exc:
            add_to_form(form, exc)
        else:
            if inv.email:
                if invitations.send_invitation(inv, invitation_url(request, inv),
                                               actor=request.user):
                    messages.success(request, _("Invitation sent to %(email)s.")
                                     % {"email": inv.email})
                else:
                    messages.warning(request, _("No e-mail could be sent from this server: "
                                                "copy the link or show its QR code."))
            messages.success(request, _("Invitation created: give the link below to the "
                                        "person you invite."))
            return redirect(reverse("tournaments:invitation_show", args=[tournament.slug, inv.pk]))
    from .views import staff

    request.method = "GET"
    response = staff(request, tournament.slug, invite_form=form)
    response.status_code = 400
    return response


@never_cache  # the invitation's link, to copy
@require_http_methods(["GET"])
@staff_required("organizer")
def invitation_show(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """One invitation, big: its link to copy and its QR code to show on a phone."""
    inv = get_object_or_404(Invitation, pk=pk, tournament=tournament)
    url = invitation_url(request, inv)
    return render(request, "tournaments/invitation_show.html", {
        "tournament": tournament, "inv": inv, "url": url,
        "qr": qr_inline(url) if inv.state() == "open" else "",
    })


@require_POST
@staff_required("organizer")
def invitation_revoke(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    inv = get_object_or_404(Invitation, pk=pk, tournament=tournament)
    invitations.revoke_invitation(inv, actor=request.user)
    messages.success(request, _("Invitation revoked: its link no longer works."))
    return redirect("tournaments:staff", slug=tournament.slug)


@require_http_methods(["GET", "POST"])
def invitation_accept(request: HttpRequest, token: str) -> HttpResponse:
    """Whoever opens an invitation: sets a password (new account) or, signed in, links their
    account. Unknown, used, expired or revoked: a page that says so (no detail of the
    tournament)."""
    try:
        inv = invitations.open_invitation(token)
    except DomainError as exc:
        return render(request, "tournaments/invitation_invalid.html", {"message": exc.message},
                      status=404)
    form = AccountForm(request.POST or None) if not request.user.is_authenticated else None
    status = 200
    try:  # said before anything is typed (accepting refuses it too)
        invitations.refuse_link_session(request.user)
        refused = ""
    except DomainError as exc:
        refused = exc.message
        status = 403 if request.method == "POST" else 200
    if request.method == "POST" and not refused:
        try:
            if request.user.is_authenticated:
                inv, user = invitations.accept_invitation(token, user=request.user)
            elif form is not None and form.is_valid():
                inv, user = invitations.accept_invitation(
                    token, username=form.cleaned_data["username"],
                    password=form.cleaned_data["password"])
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            else:
                user = None
        except DomainError as exc:
            if form is None or exc.field == "token":
                return render(request, "tournaments/invitation_invalid.html",
                              {"message": exc.message}, status=410)
            add_to_form(form, exc)
            user = None
        if user is not None:
            messages.success(request, _("Welcome: you are %(role)s of %(t)s.") % {
                "role": TournamentRole.Role(inv.role).label.lower(), "t": inv.tournament.name})
            return redirect("tournaments:manage", slug=inv.tournament.slug)
        status = 400
    return render(request, "tournaments/invitation_accept.html", {
        "inv": inv, "form": form, "refused": refused,
        "login_url": reverse("login") + "?next=" + request.path,
    }, status=status)


@require_http_methods(["GET", "POST"])
def setup(request: HttpRequest) -> HttpResponse:
    """The first organizer of a fresh install: shown only while no user exists."""
    if not invitations.setup_needed():
        raise Http404
    form = AccountForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                user = invitations.create_first_organizer(form.cleaned_data["username"],
                                                          form.cleaned_data["password"])
            except DomainError as exc:
                add_to_form(form, exc)
            else:
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
                messages.success(request, _("You are the first organizer: create your "
                                            "tournament."))
                return redirect("tournaments:create")
        return render(request, "tournaments/setup.html", {"form": form}, status=400)
    return render(request, "tournaments/setup.html", {"form": form})
