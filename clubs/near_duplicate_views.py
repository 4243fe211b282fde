"""The near-duplicates decision page of club and federation admins (``near_duplicates``)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from common.errors import DomainError, Refusal
from common.refusals import refuse, said_here

from . import near_duplicates

PAGE_SIZE = 25  # pairs a page: each shows both players' events


def _refused(request: HttpRequest) -> HttpResponse | None:
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not near_duplicates.may_decide(request.user):
        raise PermissionDenied(_("Only a club admin or a federation admin may do this."))
    return None


@require_GET
def duplicate_list(request: HttpRequest) -> HttpResponse:
    refused = _refused(request)
    if refused is not None:
        return refused
    return _list(request)


def _list(request: HttpRequest, status: int = 200) -> HttpResponse:
    # every pair is found (a national instance's players at once), only one page's events are read
    page = Paginator(near_duplicates.flagged_pairs(request.user), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "clubs/near_duplicates.html", {
        "pairs": near_duplicates.with_events(page.object_list, request.user), "page": page,
        "everyone": near_duplicates.admin_clubs(request.user) is None,
    }, status=status)


def _ids(request: HttpRequest) -> tuple[int, int]:
    values = [request.POST.get(k, "") for k in ("first", "second")]
    if not all(v.isdigit() and len(v) <= 12 for v in values):
        raise DomainError(_("Choose the two players of a pair."), field="players", rule="IDENTITY")
    return int(values[0]), int(values[1])


@require_POST
def decide(request: HttpRequest) -> HttpResponse:
    """One decision on a pair: ``decision`` "first" or "second" (merge into that one) or
    "distinct" (not the same person)."""
    refused = _refused(request)
    if refused is not None:
        return refused
    decision = request.POST.get("decision", "")
    try:
        first, second = _ids(request)
        if decision == "distinct":
            near_duplicates.not_the_same(first=first, second=second, actor=request.user)
            messages.success(request, _("Remembered: two different people. The pair is no longer proposed."))
        elif decision in ("first", "second"):
            keep, drop = (first, second) if decision == "first" else (second, first)
            kept = near_duplicates.merge_pair(keep=keep, drop=drop, actor=request.user)
            messages.success(request, _("Merged: %(name)s stays, with every result of both.") % {
                "name": kept.full_name})
        else:
            raise DomainError(_("Choose a decision."), field="decision", rule="IDENTITY")
    except DomainError as exc:
        if exc.kind is not Refusal.FORBIDDEN:
            refuse(request, exc)
            return redirect("clubs:duplicates")
        # the list again, with why nothing was decided (a bare 403 page would not say it)
        said_here(request, exc)
        return _list(request, status=403)
    return redirect("clubs:duplicates")
