"""The fees column of the check-in page, which tournaments renders (tournaments never imports
fees; a template may name any installed app's tags, as the player's page does the rating's):

- ``{% fee_heading %}``: the column's heading, or nothing when the event charges no fee;
- ``{% fee_cash_link %}``: the way to the cash summary (organizers of an event with a fee);
- ``{% fee_cell row.registration %}``: the player's price (fee, member price or free with the
  annual card) and payment, with the organizer's buttons (paid, free, undo);
- ``{{ cents|euros }}``: an amount in the page's language ("6,50 €").

The event's fee, memberships and payments are read once per page (for every row on it), not
once per row."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format

from tournaments.models import Registration
from tournaments.permissions import is_organizer

from .. import money, selectors
from ..models import Payment

register = template.Library()


@register.filter
def euros(cents: int | None) -> str:
    return "" if cents is None else f"{number_format(money.decimal(cents), 2)} €"


@register.filter
def signed_euros(cents: int) -> str:
    """``+1,00 €`` or ``−3,00 €`` (a difference)."""
    return f"{'+' if cents >= 0 else '−'}{euros(abs(cents))}"


def _sheet(context: template.Context, registration: Registration | None = None) -> dict[str, Any]:
    """The page's fee, lines and rights, computed at its first fee tag (the render's root store,
    shared by every included row)."""
    store = context.render_context.dicts[0]
    tournament = context["tournament"]
    key = ("fees", tournament.pk)
    if key not in store:
        fee = selectors.fee_of(tournament)
        regs = [row["registration"] for row in context.get("rows") or []]
        if registration is not None and registration not in regs:
            regs.append(registration)
        request = context.get("request")
        store[key] = {"fee": fee, "lines": selectors.dues(tournament, fee, regs) if fee else {},
                      "can_mark": request is not None and is_organizer(request.user, tournament)}
    return store[key]  # type: ignore[no-any-return]


@register.inclusion_tag("fees/_fee_heading.html", takes_context=True)
def fee_heading(context: template.Context) -> dict[str, Any]:
    return {"fee": _sheet(context)["fee"]}


@register.inclusion_tag("fees/_fee_cash_link.html", takes_context=True)
def fee_cash_link(context: template.Context) -> dict[str, Any]:
    """The way to the cash summary, for the organizers of an event with a fee."""
    sheet = _sheet(context)
    return {"show": sheet["fee"] is not None and sheet["can_mark"], "tournament": context["tournament"]}


@register.inclusion_tag("fees/_fee_cell.html", takes_context=True)
def fee_cell(context: template.Context, registration: Registration) -> dict[str, Any]:
    sheet = _sheet(context, registration)
    line = sheet["lines"].get(registration.pk)
    if sheet["fee"] is not None and line is None:  # a row the page's list did not have
        line = selectors.dues(context["tournament"], sheet["fee"], [registration])[registration.pk]
    return cell_context(context["tournament"], registration, line, sheet["can_mark"], context.get("csrf_token"))


def cell_context(tournament: Any, registration: Registration, line: selectors.Due | None, can_mark: bool,
                 csrf_token: Any = None) -> dict[str, Any]:
    """What ``fees/_fee_cell.html`` shows (also the answer to a tap on its buttons)."""
    cell = {"tournament": tournament, "registration": registration, "line": line, "can_mark": can_mark,
            "methods": Payment.Method.choices}
    if csrf_token is not None:  # the tag's own context has none; a view's render adds it itself
        cell["csrf_token"] = csrf_token
    return cell
