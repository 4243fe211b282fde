"""Pages of the fees app: an event's entry fee (its organizers), the tap at check-in that marks
a payment (htmx: the fee cell answers itself), the event's cash summary (printable, CSV), and a
club's members of a year with their annual card (its admins). Writes go through
``fees.services``; a refusal is shown by ``common.refusals`` (next to the field, or in the
page's refusal area for a tap)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from common.errors import DomainError
from common.htmx import is_htmx
from common.refusals import add_to_form, back
from tournaments.models import Club, Player, Registration, Tournament
from tournaments.names import by_name
from tournaments.permissions import staff_required
from tournaments.spreadsheets import csv_download

from . import money, selectors, services
from .forms import CardForm, FeeForm, MemberForm, PaymentForm
from .models import Membership, Payment
from .templatetags.fees import cell_context


@never_cache
@require_http_methods(["GET", "POST"])
@staff_required("organizer")
def fee_settings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    fee = selectors.fee_of(tournament)
    initial = {"card_free": True} if fee is None else {
        "fee": money.shown(fee.fee_cents), "card_free": fee.card_free,
        "member_price": "" if fee.member_cents is None else money.shown(fee.member_cents)}
    form = FeeForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.set_fee(tournament, actor=request.user, **form.cleaned_data)
        except DomainError as exc:
            add_to_form(form, exc)
        else:
            messages.success(request, _("Entry fee saved."))
            return redirect("fees:settings", slug=tournament.slug)
    return render(request, "fees/settings.html", {"tournament": tournament, "form": form, "fee": fee},
                  status=400 if request.method == "POST" else 200)


@require_POST
@staff_required("organizer")
def mark(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """A tap on the check-in page's fee cell: answers the cell as it is now."""
    registration = get_object_or_404(Registration.objects.select_related("player", "tournament"), pk=pk,
                                     tournament=tournament)
    form = PaymentForm(request.POST)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise DomainError(str(errors[0]), field=field, rule="FORMAT")
    services.mark_payment(registration, actor=request.user, **form.cleaned_data)
    if not is_htmx(request):
        messages.success(request, _("Payment saved."))
        return back(request)
    line = selectors.due_of(registration)
    return render(request, "fees/_fee_cell.html", cell_context(tournament, registration, line, True))


@never_cache
@require_GET
@staff_required("organizer")
def cash(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    summary = selectors.cash_summary(tournament)
    return render(request, "fees/cash.html", {
        "tournament": tournament, "s": summary, "methods": Payment.Method.choices,
        "by_method": [(label, summary.by_method[value]) for value, label in Payment.Method.choices]
        if summary else []})


def _category(key: str) -> str:
    return {selectors.CARD: _("annual card"), selectors.MEMBER: _("member")}.get(key, _("fee"))


@require_GET
@staff_required("organizer")
def cash_csv(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    summary = selectors.cash_summary(tournament)
    rows: list[list[Any]] = [[_("Player"), _("Club"), _("Category"), _("Price (€)"), _("Payment"), _("Method"),
                              _("Collected (€)")]]
    statuses, methods = dict(Payment.Status.choices), dict(Payment.Method.choices)
    for line in summary.lines if summary else []:
        row = selectors.as_row(line)
        rows.append([row["player_name"], row["club_name"], _category(line.category),
                     money.decimal(line.price_cents), str(statuses[line.status]),
                     str(methods.get(row["method"], "")), money.decimal(line.paid_cents)])
    return csv_download(request, rows + _totals(summary), f"{tournament.slug}-cassa.csv")


def _totals(summary: selectors.CashSummary | None) -> list[list[Any]]:
    """The summary under the players, for the club's books: a label, then the amount in the
    price column (expected, unpaid) or the collected one (collected, each method)."""
    if summary is None:
        return []
    d = money.decimal
    return [[], [_("Expected"), "", "", d(summary.expected)],
            [_("Collected"), "", "", "", "", "", d(summary.collected)],
            *([label, "", "", "", "", "", d(summary.by_method[value])] for value, label in Payment.Method.choices),
            [_("Unpaid"), "", "", d(summary.unpaid), summary.unpaid_players],
            [_("Free (annual card)"), "", "", "", summary.free_players]]


# --- a club's members -------------------------------------------------------------------------

def _club_for_manager(request: HttpRequest, pk: int) -> Club | HttpResponse:
    club = get_object_or_404(Club, pk=pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    services.require_club_manager(request.user, club)  # 403 page (common.refusals)
    return club


def _year(request: HttpRequest) -> int:
    text = request.GET.get("year", "")
    year = int(text) if text.isdigit() and len(text) == 4 else services.this_year()
    return min(max(year, services.FIRST_YEAR), services.LAST_YEAR)


def _candidates(club: Club, year: int) -> list[tuple[int, str]]:
    """Who may be added: the club's players and whoever played its events, not yet members."""
    taken = Membership.objects.filter(club=club, year=year).values("player_id")
    players = Player.objects.filter(club=club) | Player.objects.filter(registrations__tournament__club=club)
    return [(p.pk, p.display_name) for p in by_name(players.exclude(pk__in=taken).distinct())]


@never_cache
@require_http_methods(["GET", "POST"])
def members(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club_for_manager(request, pk)
    if isinstance(club, HttpResponse):
        return club
    year = _year(request)
    form = MemberForm(request.POST or None, players=_candidates(club, year), initial={"year": year})
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            player = get_object_or_404(Player, pk=data["player"])
            card = services.Card(data["card"], data["card_amount"], data["card_paid_on"])
            member = services.add_member(club, player, data["year"], actor=request.user, card=card)
        except DomainError as exc:
            add_to_form(form, exc)
        else:
            messages.success(request, _("%(player)s is a member for %(year)s.") % {
                "player": member.player.display_name, "year": member.year})
            return redirect(f"{request.path}?year={member.year}")
    rows = selectors.club_members(club, year)
    return render(request, "fees/members.html", {
        "club": club, "year": year, "form": form, "rows": [(m, _card_form(m)) for m in rows],
        "cards": sum(1 for m in rows if m.card),
        "years": sorted({year, year - 1, year + 1, *selectors.membership_years(club)}, reverse=True),
    }, status=400 if request.method == "POST" else 200)


def _card_form(member: Membership) -> CardForm:
    return CardForm(prefix=f"m{member.pk}", initial={
        "card": member.card, "card_paid_on": member.card_paid_on,
        "card_amount": "" if member.card_cents is None else money.shown(member.card_cents)})


@require_POST
def member_change(request: HttpRequest, pk: int, member: int) -> HttpResponse:
    club = _club_for_manager(request, pk)
    if isinstance(club, HttpResponse):
        return club
    row = get_object_or_404(Membership.objects.select_related("player", "club"), pk=member, club=club)
    form = CardForm(request.POST, prefix=f"m{row.pk}")
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise DomainError(str(errors[0]), field=field, rule="FORMAT")
    data = form.cleaned_data
    services.change_member(row, actor=request.user,
                           card=services.Card(data["card"], data["card_amount"], data["card_paid_on"]))
    messages.success(request, _("Card of %(player)s saved.") % {"player": row.player.display_name})
    return redirect(f"{_members_url(club)}?year={row.year}")


@require_POST
def member_remove(request: HttpRequest, pk: int, member: int) -> HttpResponse:
    club = _club_for_manager(request, pk)
    if isinstance(club, HttpResponse):
        return club
    row = get_object_or_404(Membership.objects.select_related("player", "club"), pk=member, club=club)
    services.remove_member(row, actor=request.user)
    messages.success(request, _("%(player)s is no longer a member for %(year)s.") % {
        "player": row.player.display_name, "year": row.year})
    return redirect(f"{_members_url(club)}?year={row.year}")


def _members_url(club: Club) -> str:
    return reverse("fees:members", args=[club.pk])
