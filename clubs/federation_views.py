"""The federation admins' page: superusers and federation admins appoint and revoke them
(``clubs.federation.appoint_federation_admin``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from common.errors import DomainError
from common.refusals import add_to_form, refuse
from tournaments.forms import ClubAdminForm

from .federation import appoint_federation_admin, federation_admins, revoke_federation_admin
from .views import _federation_only


def _page(request: HttpRequest, form: ClubAdminForm, status: int = 200) -> HttpResponse:
    return render(request, "clubs/federation.html", {
        "form": form, "admins": federation_admins(),
        "superusers": get_user_model().objects.filter(is_superuser=True).order_by("username"),
    }, status=status)


@require_http_methods(["GET", "POST"])
def federation(request: HttpRequest) -> HttpResponse:
    refused = _federation_only(request)
    if refused is not None:
        return refused
    form = ClubAdminForm(request.POST or None)
    if request.method == "GET":
        return _page(request, form)
    if form.is_valid():
        try:
            done = appoint_federation_admin(actor=request.user, username=form.cleaned_data["admin"])
        except DomainError as exc:
            add_to_form(form, exc)
        else:
            messages.success(request, _("%(user)s is a federation admin.") % {"user": done.user.get_username()})
            if done.set_password_path:
                messages.warning(request, _(
                    "%(user)s has no password yet: give them this link to choose one (it works once): %(url)s") % {
                    "user": done.user.get_username(), "url": request.build_absolute_uri(done.set_password_path)})
            return redirect("clubs:federation")
    return _page(request, form, status=400)


@require_POST
def federation_revoke(request: HttpRequest, user: int) -> HttpResponse:
    refused = _federation_only(request)
    if refused is not None:
        return refused
    target = get_object_or_404(federation_admins(), pk=user)
    try:
        revoke_federation_admin(actor=request.user, user=target)
    except DomainError as exc:
        refuse(request, exc)
    else:
        messages.success(request, _("%(user)s is no longer a federation admin.") % {"user": target.get_username()})
    return redirect("clubs:federation")
